#!/usr/bin/env bash
# The `separate` engine (paper 001: path selection, then LID assignment) inside the real
# opensm 3.3.23 under ibsim, on an irregular random fabric and a degraded torus, at opensm's
# LMC 0, 1 and 2 (LMC 0 forces paths to be re-selected so each destination fits one LID).
# Every run: routed by our engine (no fallback), read back, `ibrt check` clean, and equal to
# `ibrt route --engine separate` offline on the LIDs opensm assigned.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/harness.sh"
e2e_init plugin_separate
source "$HERE/plugin_lib.sh"
plugin_conf
for fabric in random-8 torus-4x4-fail; do
    e2e_start_ibsim "$IBRT_SOURCE_DIR/test-fabrics/generated/$fabric.net"
    for lmc in 0 1 2; do
        plugin_route_and_verify "$fabric-lmc$lmc" separate "$lmc"
    done
    e2e_stop_ibsim
done
e2e_pass
