#!/usr/bin/env bash
# `ibrt route --engine torus` end to end (no opensm needed): on a 3D torus with parallel cables
# and on a degraded 4D torus it writes SL2VL tables and path SLs, and `ibrt check` reads them
# back and finds every pair reachable and no credit loop; the path SLs are what makes it so.
# A fat tree is declined with the reason, exit 2.
set -euo pipefail
: "${IBRT:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

check() { # fabric dir [extra check options...]
    local net=$1 dir=$2
    shift 2
    "$IBRT" check -q --no-balance --fabric "$net" --lfts "$dir/opensm-lfts.dump" \
        --guid2lid "$dir/guid2lid" --sl2vl "$dir/opensm-sl2vl.dump" "$@"
}

# 3D, pristine, parallel cables: clean and minimal (--strict) with the written tables.
"$IBRT" gen -q -o "$T/t3.net" torus --k 4,5,6 --width 1,2,1 --cas 2
"$IBRT" route --engine torus --fabric "$T/t3.net" --out "$T/r3" >/dev/null
for f in opensm-lfts.dump guid2lid opensm-sl2vl.dump path-sl report.json; do
    [[ -s "$T/r3/$f" ]] || fail "missing $f"
done
check "$T/t3.net" "$T/r3" --path-sl "$T/r3/path-sl" --strict >"$T/out" ||
    fail "3D torus check: $(cat "$T/out")"
grep -q "PASS deadlock: .* on 2 VLs: no credit loop" "$T/out" || fail "3D VLs: $(cat "$T/out")"
# Every path on SL 0 (the SLs dropped): the rings close into credit loops.
set +e
check "$T/t3.net" "$T/r3" --assume-sl 0 >"$T/out"
rc=$?
set -e
[[ $rc == 1 ]] || fail "SL 0 everywhere should loop, exit $rc"
grep -q "FAIL deadlock" "$T/out" || fail "no credit loop on SL 0: $(cat "$T/out")"

# 4D, one failed switch and a failed cable: routed around, still clean.
"$IBRT" gen -q -o "$T/t4.net" --fail-switch sw-1.1.1.1 --fail-link 'sw-2.3.4.3[8]' \
    torus --k 3,4,5,4 --cas 1
"$IBRT" route --engine torus --fabric "$T/t4.net" --out "$T/r4" >"$T/log"
grep -q "missing_switches 1" "$T/log" || fail "4D stats: $(cat "$T/log")"
check "$T/t4.net" "$T/r4" --path-sl "$T/r4/path-sl" >"$T/out" ||
    fail "degraded 4D torus check: $(cat "$T/out")"

# Not a torus: exit 2 and the reason.
"$IBRT" gen -q -o "$T/ft.net" fat-tree -m 4 -n 3
set +e
"$IBRT" route --engine torus --fabric "$T/ft.net" --out "$T/f" 2>"$T/err"
rc=$?
set -e
[[ $rc == 2 ]] || fail "fat tree exit $rc"
grep -q "does not map as a torus" "$T/err" || fail "fat tree reason: $(cat "$T/err")"
echo "ok"
