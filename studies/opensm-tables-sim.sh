#!/usr/bin/env bash
# Issue 6, "Real tables": simulate opensm 3.3.23's own ftree, updn and minhop LFTs, captured
# under ibsim (tests/e2e/harness.sh), beside ibrt's mlid and slid on the same fat tree and
# pattern, and report each one's saturation throughput (`ibrt sim --saturation`).
# Usage: IBRT=build/ibrt studies/opensm-tables-sim.sh [M N [PATTERN]]  (default FT(8,3))
# Prints a Markdown table; the model options are `ibrt sim`'s defaults except those below.
# With no arguments it also writes docs/results/opensm-tables-sim.csv (OUT_CSV=FILE: there;
# the page's findings: studies/opensm-tables-sim-summary.py --write).
set -eu
M=${1:-8}
N=${2:-3}
PATTERN=${3:-uniform}
OUT_CSV=${OUT_CSV:-}
[[ $# -gt 0 || -n $OUT_CSV ]] || OUT_CSV="$(cd "$(dirname "$0")/.." && pwd)/docs/results/opensm-tables-sim.csv"
[[ -z $OUT_CSV ]] || echo "routing,saturation_load,accepted_there,max_accepted,latency_mean_ns_0.1,latency_p99_ns_0.1" >"$OUT_CSV"
source "$(dirname "$0")/../tests/e2e/harness.sh"
e2e_init sim_opensm_tables

"$IBRT" gen fat-tree --ports "$M" --levels "$N" -o "$WORK/ft.net" -q
e2e_start_ibsim "$WORK/ft.net"

SIM=(--source-queue 0 --pattern "$PATTERN" --packet-bytes 256 --buffer-bytes 1024 --warmup-us 10 --measure-us 40
    --drain-us 40 --json -q)
# sim NAME ARGS...: a saturation search and one run at load 0.1, then a table row.
sim() {
    local name=$1 rc=0
    shift
    "$IBRT" sim --fabric "$WORK/ft.net" "$@" "${SIM[@]}" --saturation --saturation-steps 6 \
        >"$WORK/$name.json" || rc=$?
    ((rc <= 1)) || e2e_fail "ibrt sim $* exited $rc"
    rc=0
    "$IBRT" sim --fabric "$WORK/ft.net" "$@" "${SIM[@]}" --load 0.1 \
        >"$WORK/$name-low.json" || rc=$?
    ((rc <= 1)) || e2e_fail "ibrt sim $* --load 0.1 exited $rc"
    python3 - "$name" "$WORK/$name.json" "$WORK/$name-low.json" "$OUT_CSV" <<'PY'
import json, sys
s = json.load(open(sys.argv[2]))["saturation"]
low = json.load(open(sys.argv[3]))["runs"][0]
cells = (f"{s['load']:.3f}", f"{s['accepted_fraction']:.3f}", f"{s['max_accepted_fraction']:.3f}",
         f"{low['latency_ns']['mean']:.0f}", f"{low['latency_ns']['p99']:.0f}")
print(f"| {sys.argv[1]} | " + " | ".join(cells) + " |")
if sys.argv[4]:
    open(sys.argv[4], "a").write(",".join((sys.argv[1],) + cells) + "\n")
PY
}
echo "FT($M,$N), $PATTERN traffic, 256-byte packets, 1 KB buffers per VL, 1 VL"
echo
echo "| routing | saturation load | accepted there | max accepted | latency mean at load 0.1, ns | p99, ns |"
echo "|---|---|---|---|---|---|"
for engine in ftree updn minhop; do
    rm -f "$WORK/osm/guid2lid"
    e2e_opensm -R "$engine"
    e2e_expect_engine "$engine"
    sim "opensm $engine" --lfts "$WORK/osm/opensm-lfts.dump" --guid2lid "$WORK/osm/guid2lid"
done
for engine in mlid slid; do
    sim "ibrt $engine" --engine "$engine"
done
