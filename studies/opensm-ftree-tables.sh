#!/usr/bin/env bash
# Captures the tables opensm 3.3.23's own ftree engine computes for a fat tree: the topology
# runs under ibsim (tests/e2e/harness.sh), opensm sweeps it once with `-R ftree`, and its
# opensm-lfts.dump and guid2lid are copied to OUTDIR, for `ibrt sim --lfts` / `ibrt sweep`
# routings {"lfts": ..., "guid2lid": ...}. ibsim takes up to 256 switches.
# Usage: IBRT=path/to/ibrt studies/opensm-ftree-tables.sh FABRIC OUTDIR
set -eu
FABRIC=$(realpath "${1:?FABRIC}")
mkdir -p "${2:?OUTDIR}"
OUTDIR=$(cd "$2" && pwd)
source "$(dirname "$0")/../tests/e2e/harness.sh"
e2e_init opensm_ftree_tables
e2e_start_ibsim "$FABRIC"
e2e_opensm -R ftree
e2e_expect_engine ftree
cp "$WORK/osm/opensm-lfts.dump" "$WORK/osm/guid2lid" "$OUTDIR/"
e2e_pass
