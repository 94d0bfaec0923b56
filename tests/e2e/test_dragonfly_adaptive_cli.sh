#!/usr/bin/env bash
# Paper 003 §3.5's Dragonfly routings from the command line (engines/dragonfly/
# adaptive_routings.hpp): for each `adaptive=` choice, `ibrt route` writes forwarding sets that
# `ibrt check --tables` passes (every choice delivers, no livelock, no credit loop) with the
# routing's longest path, and a short `ibrt sim` at overload delivers with no deadlock; on a
# damaged Dragonfly GSID still passes the check and Static declines (exit 2) naming
# distance_based.
set -euo pipefail
: "${IBRT:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$IBRT" gen dragonfly --balanced 2 --omit-one-global -o "$T/df.net" >/dev/null 2>&1
# Longest path in switch hops: G ? 5 + I + D : 3 + S + D.
declare -A hops=([static]=3 [s]=4 [d]=4 [sd]=5 [g]=5 [gs]=5 [gi]=6 [gd]=6 [gsi]=6 [gid]=7
                 [gsd]=6 [gsid]=7)
for a in static s d sd g gs gi gd gsi gid gsd gsid; do
    "$IBRT" route --engine dragonfly --engine-opt adaptive=$a --fabric "$T/df.net" \
        --out "$T/r-$a" --no-load >/dev/null 2>&1 || fail "route adaptive=$a"
    "$IBRT" check --fabric "$T/df.net" --lfts "$T/r-$a/opensm-lfts.dump" \
        --guid2lid "$T/r-$a/guid2lid" --sl2vl "$T/r-$a/opensm-sl2vl.dump" \
        --path-sl "$T/r-$a/path-sl" --tables "$T/r-$a/forwarding-sets" >"$T/c-$a.txt" 2>&1 ||
        fail "check --tables adaptive=$a: $(grep -v 'DLID .* from' "$T/c-$a.txt")"
    grep -q "PASS forwarding sets: .* 0 stuck, 0 misrouted, 0 livelocks, longest path ${hops[$a]} switch hops;.* on [56] VLs: no credit loop" \
        "$T/c-$a.txt" || fail "adaptive=$a: $(grep -i 'forwarding sets' "$T/c-$a.txt")"
    "$IBRT" sim --fabric "$T/df.net" --engine dragonfly --engine-opt adaptive=$a --vls 6 \
        --load 1.0 --warmup-us 2 --measure-us 5 --drain-us 5 -q --json >"$T/s-$a.json" ||
        fail "sim adaptive=$a"
    python3 - "$T/s-$a.json" <<'PY' || fail "sim adaptive=$a: no delivery or a deadlock"
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
p = r["packets"]
assert r["verdict"] == "ok" and not r["deadlock"], r["verdict"]
assert p["delivered"] > 0 and p["dropped"] == 0 and p["misdelivered"] == 0, p
PY
done

# A damaged Dragonfly (two global cables and two local ones lost): GSID gets round it (check
# --tables passes), Static cannot (a pair of groups lost its global cable) and declines with
# exit 2 naming distance_based (docs/engines/direct.md, "Damaged fabrics").
"$IBRT" gen dragonfly --balanced 2 --omit-one-global --fail-links 0.05 --seed 3 \
    -o "$T/bad.net" >/dev/null 2>&1
"$IBRT" route --engine dragonfly --engine-opt adaptive=gsid --fabric "$T/bad.net" --out "$T/bad-gsid" \
    --no-load >/dev/null 2>"$T/e" || fail "a damaged Dragonfly, gsid: $(cat "$T/e")"
"$IBRT" check --fabric "$T/bad.net" --lfts "$T/bad-gsid/opensm-lfts.dump" \
    --guid2lid "$T/bad-gsid/guid2lid" --sl2vl "$T/bad-gsid/opensm-sl2vl.dump" \
    --path-sl "$T/bad-gsid/path-sl" --tables "$T/bad-gsid/forwarding-sets" >"$T/c-bad.txt" 2>&1 ||
    fail "check --tables, a damaged Dragonfly, gsid: $(grep FAIL "$T/c-bad.txt")"
grep -q "PASS forwarding sets: .* 0 stuck, 0 misrouted, 0 livelocks, .*no credit loop" "$T/c-bad.txt" ||
    fail "a damaged Dragonfly, gsid: $(grep -i 'forwarding sets' "$T/c-bad.txt")"
set +e
"$IBRT" route --engine dragonfly --engine-opt adaptive=static --fabric "$T/bad.net" --out "$T/bad" \
    >/dev/null 2>"$T/e"
rc=$?
set -e
[[ $rc == 2 ]] || fail "a damaged Dragonfly, static: exit $rc"
grep -q "use distance_based" "$T/e" || fail "$(cat "$T/e")"
echo "PASS test_dragonfly_adaptive_cli"
