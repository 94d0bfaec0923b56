#!/usr/bin/env bash
# `ibrt sim` never calls a stalled network healthy (issue 12): every run ends with a verdict on
# progress in the summary and the JSON, exit 1 when it is not ok, 3 when a run offered nothing; a watchdog period below what
# the configuration can detect is bad input; stderr says which DLID policy is in force with
# LMC > 0 and when configured VLs carry no traffic; --saturation names both of its figures.
set -euo pipefail
: "${IBRT:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
S=${IBRT_SOURCE_DIR:?}
G=$S/tests/sim/golden/inputs
ft=(--fabric "$S/test-fabrics/generated/ft-4-3.net" --lfts "$G/ft-4-3.opensm-lfts.dump"
    --guid2lid "$G/ft-4-3.guid2lid")
ps=(--path-selection "$G/ft-4-3.path-selection")
ring=(--fabric "$G/ring4.net" --lfts "$G/ring4-loop.opensm-lfts.dump" --guid2lid "$G/ring4.guid2lid")
short=(--warmup-us 5 --measure-us 20 --drain-us 20)

# run NAME EXPECTED_EXIT ARGS...: the summary to NAME.txt, stderr to NAME.err, JSON to NAME.json
run() {
    local name=$1 want=$2 rc=0
    shift 2
    "$IBRT" sim "$@" -q >"$T/$name.txt" 2>"$T/$name.err" || rc=$?
    [[ $rc == "$want" ]] || fail "$name: exit $rc, expected $want: $(cat "$T/$name.err")"
    rc=0
    "$IBRT" sim "$@" -q --json >"$T/$name.json" 2>/dev/null || rc=$?
    [[ $rc == "$want" ]] || fail "$name --json: exit $rc, expected $want"
}
verdict() { python3 -c 'import json,sys; print(",".join(r["verdict"] for r in json.load(open(sys.argv[1]))["runs"]))' "$T/$1.json"; }

run ok 0 "${ft[@]}" "${ps[@]}" "${short[@]}" --load 0.3
[[ $(verdict ok) == ok ]] || fail "healthy run: $(verdict ok)"
grep -q '^verdict: ok$' "$T/ok.txt" || fail "no verdict line: $(cat "$T/ok.txt")"

run vlarb-zero 1 "${ft[@]}" "${ps[@]}" "${short[@]}" --load 0.3 --vls 2 --sl spread --vlarb-low 0:0,1:0
[[ $(verdict vlarb-zero) == delivered-nothing ]] || fail "VLArb zero: $(verdict vlarb-zero)"
grep -q 'DELIVERED NOTHING' "$T/vlarb-zero.txt" || fail "VLArb zero summary"
grep -q '^verdict: FAIL (load 0.300: delivered-nothing)$' "$T/vlarb-zero.txt" || fail "VLArb zero verdict line"
grep -q 'carry traffic but no weight' "$T/vlarb-zero.err" || fail "VLArb zero: no note on stderr"

# Nothing generated, nothing examined: cannot judge, exit 3 (issue 35).
run load-zero 3 "${ft[@]}" "${ps[@]}" "${short[@]}" --load 0
[[ $(verdict load-zero) == nothing-offered ]] || fail "load 0: $(verdict load-zero)"
grep -q 'NOTHING OFFERED' "$T/load-zero.txt" || fail "load 0 summary"
grep -q '^verdict: cannot judge (no packet offered at load 0.000: nothing was examined)$' "$T/load-zero.txt" ||
    fail "load 0 verdict line: $(grep verdict "$T/load-zero.txt")"
# A partial path-SL file (`ibrt sa-path-sls --sample`) leaves SLs unknown: bad input for the
# simulator, which needs every packet's SL.
echo "# ibrt-path-sl: partial: pairs not listed have no known SL (not SL 0)" >"$T/partial.psl"
rc=0
"$IBRT" sim "${ring[@]}" "${short[@]}" --load 0.1 -q --path-sl "$T/partial.psl" >/dev/null 2>"$T/partial.err" || rc=$?
[[ $rc == 2 ]] || fail "partial path-SL file: exit $rc"
grep -q "partial.psl: a partial path-SL file" "$T/partial.err" || fail "partial path-SL message: $(cat "$T/partial.err")"
# A failed run among them still fails.
run load-zero-and-stuck 1 "${ft[@]}" "${ps[@]}" "${short[@]}" --load 0,0.3 --credit-delay-ns 1000000

run credit-1ms 1 "${ft[@]}" "${ps[@]}" "${short[@]}" --load 0.3 --credit-delay-ns 1000000
[[ $(verdict credit-1ms) == stuck ]] || fail "1 ms credits: $(verdict credit-1ms)"

grep -q "STUCK: .* packets, none moved since" "$T/credit-1ms.txt" || fail "1 ms credits summary"
# The loop closes within the 45 us run, the watchdog needs 51.2 us: found anyway.
run late-loop 1 "${ring[@]}" "${short[@]}" --pattern rotation --shift 3 --load 0.9
[[ $(verdict late-loop) == deadlock ]] || fail "late loop: $(verdict late-loop)"
python3 - "$T/late-loop.json" <<'PY' || fail "late loop: no cycle in the JSON"
import json, sys
d = json.load(open(sys.argv[1]))["runs"][0]["deadlock"]
assert d and len(d["cycle"]) == 4, d
PY
grep -q 'blocked cycle:' "$T/late-loop.txt" || fail "late loop: no cycle in the summary"

run tiny-watchdog 2 "${ft[@]}" "${short[@]}" --deadlock-us 0.001
grep -q 'below the 0.792 us this configuration needs' "$T/tiny-watchdog.err" ||
    fail "tiny watchdog: $(cat "$T/tiny-watchdog.err")"

# LMC 2 without a path selection: spread over the LIDs, and said; with one: followed, and said.
run lmc 0 "${ft[@]}" "${short[@]}" --load 0.6
grep -q 'LMC 2: each packet.s DLID is drawn uniformly among the destination.s 4 LIDs' "$T/lmc.err" ||
    fail "LMC note: $(cat "$T/lmc.err")"
python3 - "$T/lmc.json" <<'PY' || fail "LMC: JSON does not echo the policy that ran"
import json, sys
assert json.load(open(sys.argv[1]))["config"]["dlid"] == "random"
PY
run lmc-ps 0 "${ft[@]}" "${ps[@]}" "${short[@]}" --load 0.6
grep -q 'LMC 2: each source uses the DLID its path selection gives' "$T/lmc-ps.err" || fail "LMC path selection note"

# 4 VLs, every path on SL 0: said.
t=$S/test-fabrics/tables
run vls 0 --fabric "$t/ft-lmc1.net" --lfts "$t/ft-lmc1.opensm-lfts.dump" --guid2lid "$t/ft-lmc1.guid2lid" \
    --sl2vl "$t/ft-lmc1.opensm-sl2vl.dump" "${short[@]}" --vls 4 --load 0.5
grep -q '4 VLs configured but unused: traffic can take only VL 0' "$T/vls.err" || fail "unused VLs: $(cat "$T/vls.err")"

# Saturation: the onset and the maximum accepted rate, each named.
run sat 0 "${ft[@]}" "${ps[@]}" "${short[@]}" --saturation --saturation-steps 3
grep -q '^saturation throughput (maximum accepted rate): ' "$T/sat.txt" || fail "saturation summary"
grep -q '^saturation onset (highest load accepted within 5 % of offered): ' "$T/sat.txt" || fail "saturation onset"
python3 - "$T/sat.json" <<'PY' || fail "saturation JSON"
import json, sys
s = json.load(open(sys.argv[1]))["saturation"]
for k in ("onset_load", "onset_accepted_fraction", "max_accepted_fraction", "max_accepted_load", "tolerance"):
    assert k in s, k
assert s["max_accepted_fraction"] >= s["onset_accepted_fraction"]
PY
echo "PASS test_sim_verdicts"
