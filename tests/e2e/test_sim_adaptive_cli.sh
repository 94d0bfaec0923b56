#!/usr/bin/env bash
# The extended switch from the command line (issue 14): `ibrt route` with adaptive_up=true
# writes the forwarding sets, `ibrt sim --tables` replays them with the same results as the
# engine in-process for every selection function asked; the JSON says which selection ran; a
# selection function the tables cannot serve (SADP without tree coordinates), an unknown one
# and a malformed tables file are bad input (exit 2, file:line).
set -euo pipefail
: "${IBRT:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$IBRT" gen kary-ntree --k 4 --n 3 -o "$T/k43.net" >/dev/null 2>&1
"$IBRT" route --engine slid --engine-opt adaptive_up=true --fabric "$T/k43.net" --out "$T/r" \
    >/dev/null 2>&1
[[ -s "$T/r/forwarding-sets" ]] || fail "ibrt route wrote no forwarding-sets"
common=(--fabric "$T/k43.net" --load 0.3,0.8 --seed 3 --pattern complement --ns-per-byte 0.25
        --vls 2 --sl spread --json)
for sel in sadp ff mc rp two-choices anca least-loaded; do
    "$IBRT" sim "${common[@]}" --selection $sel --engine slid --engine-opt adaptive_up=true \
        >"$T/engine-$sel.json" 2>/dev/null
    "$IBRT" sim "${common[@]}" --selection $sel --lfts "$T/r/opensm-lfts.dump" \
        --guid2lid "$T/r/guid2lid" --tables "$T/r/forwarding-sets" >"$T/files-$sel.json" \
        2>/dev/null
done
python3 - "$T" <<'PY' || fail "results differ, packets not conserved or selection not echoed"
import json, sys
t = sys.argv[1]
acc = {}
for sel in ["sadp", "ff", "mc", "rp", "two-choices", "anca", "least-loaded"]:
    a = json.load(open(f"{t}/engine-{sel}.json"))
    b = json.load(open(f"{t}/files-{sel}.json"))
    assert a["config"]["selection"] == sel == b["config"]["selection"], sel
    for ra, rb in zip(a["runs"], b["runs"]):
        p = ra["packets"]
        assert p["generated"] == p["delivered"] + p["dropped"] + p["in_flight"], p
        assert p["dropped"] == 0 and p["misdelivered"] == 0, p
        assert ra["packets"] == rb["packets"] and ra["latency_ns"] == rb["latency_ns"], sel
    acc[sel] = a["runs"][1]["accepted_fraction"]
# Paper 004 Fig. 6: on complement traffic SADP keeps up where FF has long saturated.
assert acc["sadp"] > 0.75 and acc["ff"] < 0.5, acc
print("accepted at 0.8 offered:", acc)
PY

set +e
"$IBRT" sim --fabric "$T/k43.net" --engine slid --engine-opt adaptive_up=true --selection nosuch \
    >/dev/null 2>"$T/e1"
rc1=$?
printf 'vl-keys 1\nswitch 0x1\n' >"$T/bad.fs"
"$IBRT" sim --fabric "$T/k43.net" --lfts "$T/r/opensm-lfts.dump" --guid2lid "$T/r/guid2lid" \
    --tables "$T/bad.fs" >/dev/null 2>"$T/e2"
rc2=$?
grep -v '^tree-height\|^ca ' "$T/r/forwarding-sets" | sed 's/ level.*//' >"$T/plain.fs"
"$IBRT" sim --fabric "$T/k43.net" --lfts "$T/r/opensm-lfts.dump" --guid2lid "$T/r/guid2lid" \
    --tables "$T/plain.fs" --selection sadp >/dev/null 2>"$T/e3"
rc3=$?
set -e
[[ $rc1 == 2 && $rc2 == 2 && $rc3 == 2 ]] || fail "bad input exit codes $rc1 $rc2 $rc3"
grep -q "unknown selection function 'nosuch'" "$T/e1" || fail "$(cat "$T/e1")"
grep -q "bad.fs:2: node GUID 0x0000000000000001 is not in the fabric" "$T/e2" || fail "$(cat "$T/e2")"
grep -q "needs fat-tree coordinates" "$T/e3" || fail "$(cat "$T/e3")"
# `ibrt check --tables` judges the forwarding sets under every choice: the adaptive up phase
# and Distance Based +2 with deflection on a HyperX pass; exit 0 and a PASS line.
"$IBRT" check --fabric "$T/k43.net" --lfts "$T/r/opensm-lfts.dump" --guid2lid "$T/r/guid2lid" \
    --tables "$T/r/forwarding-sets" >"$T/check1.txt" 2>&1 || fail "check --tables: $(cat "$T/check1.txt")"
grep -q "PASS forwarding sets: .* 0 stuck, 0 misrouted, 0 livelocks, longest path 4 switch hops" \
    "$T/check1.txt" || fail "$(grep -i "forwarding sets" "$T/check1.txt")"
"$IBRT" gen hyperx --k 4,4 --cas 2 -o "$T/hx.net" >/dev/null 2>&1
"$IBRT" route --engine flatfly --engine-opt distance_based=2 --engine-opt deflection=true \
    --fabric "$T/hx.net" --out "$T/hx" >/dev/null 2>&1
"$IBRT" check --fabric "$T/hx.net" --lfts "$T/hx/opensm-lfts.dump" --guid2lid "$T/hx/guid2lid" \
    --path-sl "$T/hx/path-sl" --tables "$T/hx/forwarding-sets" \
    --json >"$T/check2.json" 2>/dev/null || fail "check --tables on the HyperX"
python3 - "$T/check2.json" <<'PY' || fail "forwarding-sets verdict"
import json, sys
x = json.load(open(sys.argv[1]))["checks"]["forwarding_sets"]
assert x["passed"] and x["credit_loops"] == 0 and x["max_hops"] == 4 and x["vls"] == 5, x
PY
echo "PASS test_sim_adaptive_cli"
