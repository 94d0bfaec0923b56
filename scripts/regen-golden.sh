#!/usr/bin/env bash
# Golden results of the simulator (issue 11, "Golden results first"): a fixed set of small
# `ibrt sim` runs (and one `ibrt sweep`) whose output is kept in tests/sim/golden/ and compared
# byte for byte by ctest ("sim: golden results"). A change to sim/ either leaves them identical
# or its commit regenerates them and says why they changed.
#
#   scripts/regen-golden.sh [IBRT]           rewrite tests/sim/golden/*.json, *.csv, exit-codes.txt
#   scripts/regen-golden.sh --check [IBRT]   run the set and compare; exit 1 on any difference
#
# IBRT defaults to build/ibrt. Every command runs from the source root with relative paths, so
# what the JSON echoes (the fabric's path) is the same on every machine; the output holds no
# wall-clock time. Inputs: test-fabrics/ and tests/sim/golden/inputs/ (committed tables, so an
# engine change does not change these results; see inputs/README.md). The whole set takes a
# few seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
if [[ "${1:-}" == "--check" ]]; then
    check=1
    shift
fi
ibrt=${1:-build/ibrt}
[[ "$ibrt" == /* ]] || ibrt="$PWD/$ibrt"
golden=tests/sim/golden
in=$golden/inputs

ft43=(--fabric test-fabrics/generated/ft-4-3.net --lfts "$in/ft-4-3.opensm-lfts.dump"
    --guid2lid "$in/ft-4-3.guid2lid")
ft43ps=("${ft43[@]}" --path-selection "$in/ft-4-3.path-selection")
t=test-fabrics/tables
lmc1=(--fabric "$t/ft-lmc1.net" --lfts "$t/ft-lmc1.opensm-lfts.dump" --guid2lid "$t/ft-lmc1.guid2lid"
    --sl2vl "$t/ft-lmc1.opensm-sl2vl.dump")
ring=(--fabric "$in/ring4.net" --lfts "$in/ring4-loop.opensm-lfts.dump" --guid2lid "$in/ring4.guid2lid")
short=(--warmup-us 5 --measure-us 20 --drain-us 20 --seed 3)

out=$golden
if ((check)); then
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
fi
: >"$out/exit-codes.txt"

# name, then the arguments of `ibrt sim` (the JSON goes to NAME.json, the exit status to
# exit-codes.txt; stderr is not compared). sim_long: without the short windows.
sim_long() {
    local name=$1
    shift
    local rc=0
    "$ibrt" sim "$@" -q --json >"$out/$name.json" 2>/dev/null || rc=$?
    echo "$name $rc" >>"$out/exit-codes.txt"
}
sim() {
    local name=$1
    shift
    sim_long "$name" "$@" "${short[@]}"
}

sim vl1-loads "${ft43ps[@]}" --load 0.2,0.6,0.95
sim vl4-spread "${ft43ps[@]}" --vls 4 --sl spread --load 0.6
sim lmc-no-path-selection "${ft43[@]}" --load 0.6
sim dlid-random "${ft43[@]}" --dlid random --load 0.6
sim sl2vl-spread "${lmc1[@]}" --vls 4 --sl spread --load 0.5
sim sl2vl-path-sl0 "${lmc1[@]}" --vls 4 --load 0.5
sim output-buffers "${ft43ps[@]}" --output-buffer-bytes 2048 --load 0.9
sim vlarb-high-low "${ft43ps[@]}" --vls 2 --sl spread --vlarb-high 1:4 --vlarb-low 0:1,1:1 \
    --vlarb-high-limit 1 --load 0.9
sim hotspot "${ft43ps[@]}" --pattern hotspot --hot-fraction 0.3 --hot-node 5 --load 0.4
sim messages "${ft43ps[@]}" --message-bytes 1000 --packet-bytes 256 --injection constant --load 0.5
sim saturation "${ft43ps[@]}" --pattern randperm --saturation --saturation-steps 4
# The loop closes after the 25 us run: packets stuck at the end, no deadlock seen in time.
sim credit-loop "${ring[@]}" --pattern rotation --shift 3 --load 0.9
# The same with a longer drain: the watchdog sees the loop.
sim_long credit-loop-detected "${ring[@]}" --pattern rotation --shift 3 --load 0.9 \
    --warmup-us 5 --measure-us 20 --drain-us 100 --seed 3
# Stalled networks (issue 12): no VL is ever served; credits that take 1 ms to return; a
# watchdog period far below what the configuration can detect.
sim vlarb-zero "${ft43ps[@]}" --vls 2 --sl spread --vlarb-low 0:0,1:0 --load 0.3
sim credit-delay-1ms "${ft43ps[@]}" --credit-delay-ns 1000000 --load 0.3
sim deadlock-us-tiny "${ft43ps[@]}" --deadlock-us 0.001 --load 0.3
# The extended switch (issue 14): mlid's adaptive up phase as forwarding sets under selection
# functions that read coordinates, random draws and credits, with output buffers; and the
# VC-router mode on the static tables.
fs=(--tables "$in/ft-4-3.forwarding-sets")
sim adaptive-sadp "${ft43[@]}" "${fs[@]}" --selection sadp --pattern complement --load 0.5,0.9
sim adaptive-rp-2vl "${ft43[@]}" "${fs[@]}" --selection rp --vls 2 --sl spread --load 0.7
sim adaptive-mc-obuf "${ft43[@]}" "${fs[@]}" --selection mc --output-buffer-bytes 512 --load 0.8
sim vc-router "${ft43ps[@]}" --vc-router --vls 2 --load 0.7
sim vc-router-sent "${ft43ps[@]}" --vc-router --vc-release sent --vls 2 --load 0.9
# IBA congestion control (issue 16) from an opensm.conf: a hot spot with BECN packets on the
# reverse path, per-flow results in the JSON; the same with idealised notifications and SL
# (port) control given on the command line.
cc=(--opensm-conf "$in/cc-hotspot.opensm.conf")
sim cc-hotspot "${ft43ps[@]}" "${cc[@]}" --flow-stats --pattern hotspot --hot-fraction 0.5 \
    --load 0.8
sim cc-ideal-per-sl "${ft43ps[@]}" "${cc[@]}" --cc-becn-delay-ns 300 \
    --cc-option 'cc_ca_cong_setting_port_control 1' --pattern hotspot --hot-fraction 0.5 --load 0.8

# Issue 38, "widen the golden set first": the options added since, and every direct-topology
# engine's tables with its adaptive routing, before the simulator's core is rebuilt.
sim speedup-2 "${ft43ps[@]}" --speedup 2 --load 0.9
sim timing "${ft43ps[@]}" --fly-ns 5 --routing-ns 30 --source-queue 8 --load 0.8
sim host-order-random "${ft43ps[@]}" --pattern complement --host-order random --load 0.6
sim pairs-file "${ft43ps[@]}" --pattern pairs --pairs-file "$in/ft-4-3.pairs" --load 0.7
sim hotspot-window "${ft43ps[@]}" --pattern hotspot --hot-fraction 0.5 --hot-node 3 \
    --hot-start-us 8 --hot-end-us 18 --load 0.5
sim path-sl-file "${lmc1[@]}" --path-sl "$t/ft-lmc1.path-sl" --vls 4 --load 0.5
sim saturation-bounds "${ft43ps[@]}" --saturation --saturation-max 0.8 \
    --saturation-tolerance 0.1 --saturation-steps 3
sim cc-no-throttle "${ft43ps[@]}" "${cc[@]}" --cc-injection-delay off --cc-becn-bytes 64 \
    --pattern hotspot --hot-fraction 0.5 --load 0.8
sim drb-lmc "${ft43[@]}" "${cc[@]}" --drb --cc-injection-delay off --pattern hotspot \
    --hot-fraction 0.4 --load 0.7
sim drb-dfs "${ft43[@]}" "${cc[@]}" --drb --drb-paths dfs --drb-max-paths 3 --drb-timer-us 10 \
    --drb-notifications-per-path 5 --vls 4 --pattern complement --load 0.8
sim select-oblivious-sent "${ft43[@]}" "${fs[@]}" --selection oblivious --select-at sent \
    --load 0.8
sim select-anca-entry "${ft43[@]}" "${fs[@]}" --selection anca --select-at entry --load 0.8
sim select-one-class "${ft43[@]}" "${fs[@]}" --selection mc --one-priority-class \
    --room-ignores-bound --load 0.8
sim vc-router-booksim "${ft43ps[@]}" --vc-router --vc-alloc-gap-ns 10 --vc-input-first --vls 2 \
    --load 0.8
# Paper 004's switch: the VC router with output buffers (the link takes the first VC with room).
sim paper004-switch "${ft43[@]}" "${fs[@]}" --vc-router --vc-release sent --vls 3 \
    --output-buffer-bytes 512 --selection sadp --load 0.5,0.9
# The stop rule (issue 38): the window doubled from 5 us until the intervals are within 5 %
# (load 0.3), or not by the 40 us cap (load 0.9: says it did not converge).
sim_long ci-target "${ft43ps[@]}" --load 0.3,0.9 --warmup-us 5 --measure-us 5 --drain-us 20 \
    --seed 3 --ci-target 0.05 --max-measure-us 40
# Direct topologies: committed tables of each engine with its adaptive routing (inputs/README.md).
torus=(--fabric test-fabrics/generated/torus-3x3.net --lfts "$in/torus-3x3.opensm-lfts.dump"
    --guid2lid "$in/torus-3x3.guid2lid" --sl2vl "$in/torus-3x3.opensm-sl2vl.dump")
sim torus-dor "${torus[@]}" --vls 2 --pattern tornado --load 0.6
sim torus-db1 "${torus[@]}" --tables "$in/torus-3x3-db1.forwarding-sets" --vls 4 \
    --selection least-loaded --pattern tornado --load 0.6
hx=(--fabric test-fabrics/generated/hyperx-3x3.net --lfts "$in/hyperx-3x3.opensm-lfts.dump"
    --guid2lid "$in/hyperx-3x3.guid2lid")
sim hyperx-dor "${hx[@]}" --pattern rotation --shift 1 --load 0.7
sim hyperx-ador "${hx[@]}" --tables "$in/hyperx-3x3-ador.forwarding-sets" --vls 2 \
    --selection mc --pattern rotation --shift 1 --load 0.7
df=(--fabric "$in/dragonfly-4-1.net" --lfts "$in/dragonfly-4-1.opensm-lfts.dump"
    --guid2lid "$in/dragonfly-4-1.guid2lid" --sl2vl "$in/dragonfly-4-1.opensm-sl2vl.dump")
sim dragonfly-static "${df[@]}" --vls 2 --pattern rotation --shift 4 --load 0.5
sim dragonfly-gsid "${df[@]}" --tables "$in/dragonfly-4-1-gsid.forwarding-sets" --vls 6 \
    --selection two-choices --pattern rotation --shift 4 --load 0.5
# Valiant and UGAL-L (--via): the IB switch on 4 VLs, BookSim's VC router on its 3.
sim dragonfly-ugal "${df[@]}" --vls 4 --via ugal --load 0.6
sim dragonfly-valiant-vc "${df[@]}" --vc-router --vc-release sent --vls 3 --via valiant \
    --pattern bad-dragon --group-hosts 4 --load 0.3
sf=(--fabric test-fabrics/generated/slimfly-3.net --lfts "$in/slimfly-3.opensm-lfts.dump"
    --guid2lid "$in/slimfly-3.guid2lid" --sl2vl "$in/slimfly-3.opensm-sl2vl.dump")
sim slimfly-min "${sf[@]}" --vls 2 --load 0.7
sim slimfly-db1 "${sf[@]}" --tables "$in/slimfly-3-db1.forwarding-sets" --vls 4 --selection mc \
    --load 0.7
dfp=(--fabric "$in/dfplus-2.net" --lfts "$in/dfplus-2.opensm-lfts.dump"
    --guid2lid "$in/dfplus-2.guid2lid" --sl2vl "$in/dfplus-2.opensm-sl2vl.dump"
    --path-sl "$in/dfplus-2.path-sl")
sim dfplus-random "${dfp[@]}" --vls 2 --dlid random --pattern rotation --shift 4 --load 0.6
# In-process routing (`--engine`): the one golden that follows an engine's changes.
sim engine-torus --fabric test-fabrics/generated/torus-3x3.net --engine torus --vls 2 --load 0.5

# `ibrt sweep` (CSV): two engines, 1 and 2 VLs, on the bundled 8-host tree, with paper 000's
# set-up (32-byte packets and buffers, 4 ns/byte, SLs spread over the VLs).
rc=0
"$ibrt" sweep --fabric test-fabrics/generated/ft-4-2-lmc2.net --engines mlid,slid --vls 1,2 \
    --sl spread --packet-bytes 32 --buffer-bytes 32 --credit-unit 32 --ns-per-byte 4 \
    --loads 0.3,0.9 --measure-us 20 --warmup-us 5 --drain-us 20 --seed 3 -q \
    >"$out/sweep.csv" 2>/dev/null || rc=$?
echo "sweep $rc" >>"$out/exit-codes.txt"

if ((check)); then
    bad=0
    for f in "$out"/*; do
        g=$golden/$(basename "$f")
        if [[ ! -f "$g" ]]; then
            echo "golden: $g missing (new case? run scripts/regen-golden.sh)" >&2
            bad=1
        elif ! cmp -s "$f" "$g"; then
            echo "golden: $(basename "$f") differs from $g:" >&2
            diff -u "$g" "$f" | head -40 >&2 || true
            bad=1
        fi
    done
    for g in "$golden"/*.json "$golden"/*.csv; do
        [[ -f "$out/$(basename "$g")" ]] || {
            echo "golden: $g is no longer produced" >&2
            bad=1
        }
    done
    ((bad == 0)) || exit 1
    echo "golden: $(ls "$out" | wc -l) files identical"
else
    echo "golden: wrote $(ls "$out" | wc -l) files to $out"
fi
