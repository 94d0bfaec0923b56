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
        # What fitting the paths into opensm's LMC cost is logged, and equals the offline report;
        # paths are re-selected exactly when the paths needed more LIDs than the LMC gives.
        live_stat() { grep -o "ibrt separate: $1 [0-9.e+-]*" "$WORK/osm/osm.log" | tail -1 | awk '{print $4}'; }
        offline_stat() { grep -o "\"$1\": [0-9.e+-]*" "$fabric-lmc$lmc.offline/report.json" | awk '{print $2}'; }
        refit=$(live_stat refit_paths) needed=$(live_stat needed_lmc)
        [[ -n "$refit" && -n "$needed" ]] || e2e_fail "$fabric-lmc$lmc: no refit figures in the log"
        awk -v a="$refit" -v b="$(offline_stat refit_paths)" 'BEGIN{exit !(a == b)}' ||
            e2e_fail "$fabric-lmc$lmc: refit_paths $refit live vs $(offline_stat refit_paths) offline"
        if ((needed > lmc)); then
            awk -v a="$refit" 'BEGIN{exit !(a > 0)}' || e2e_fail "$fabric-lmc$lmc: needs LMC $needed, nothing re-selected"
        else
            awk -v a="$refit" 'BEGIN{exit !(a == 0)}' || e2e_fail "$fabric-lmc$lmc: re-selected $refit paths without need"
        fi
        echo "ok: $fabric LMC $lmc: needed LMC $needed, $refit paths re-selected"
    done
    e2e_stop_ibsim
done
e2e_pass
