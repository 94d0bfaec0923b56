#!/usr/bin/env bash
# `ibrt route` end to end (no opensm needed): outputs, exit codes, and that the written tables
# read back through the project's own readers to the worked example of paper 000 §4.
set -euo pipefail
: "${IBRT:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$IBRT" gen -q -o "$T/ft43.net" fat-tree -m 4 -n 3
"$IBRT" route --engine mlid --fabric "$T/ft43.net" --paper-lids --out "$T/out" >/dev/null
for f in opensm-lfts.dump guid2lid path-selection report.json; do
    [[ -s "$T/out/$f" ]] || fail "missing $f"
done
grep -q '"lmc": 2' "$T/out/report.json" || fail "LMC"
grep -q '"unrouted": 0' "$T/out/report.json" || fail "unrouted flows"
# P(300) owns LIDs 49..52 (guid2lid: port GUID, min, max).
grep -qx '0x0010000000000d01 0x0031 0x0034' "$T/out/guid2lid" || fail "guid2lid of P(300)"
# P(000) .. P(011) choose 49 .. 52 for P(300).
for pair in "101 49" "201 50" "301 51" "401 52"; do
    set -- $pair
    grep -qx "0x0010000000000$1 0x0010000000000d01 $2" "$T/out/path-selection" ||
        fail "path selection from $1"
done
# SW<00,2> sends DLID 49 up on port 3 (path Q).
awk '/SW<00,2>/{s=1;next} /^Unicast/{s=0} s && $1=="0x0031"{print $2}' \
    "$T/out/opensm-lfts.dump" | grep -qx 003 || fail "SW<00,2> DLID 49"

# Default LIDs are aligned; --lids-from-fabric honours preassigned ones.
"$IBRT" gen -q --lmc 2 -o "$T/ft43l.net" fat-tree -m 4 -n 3
"$IBRT" route --engine mlid --fabric "$T/ft43l.net" --lids-from-fabric --out "$T/l" >/dev/null
grep -q '"source": "fabric"' "$T/l/report.json" || fail "lids source"
grep -q '"aligned": true' "$T/l/report.json" || fail "aligned"

# Declines and bad input exit 2 with a reason.
"$IBRT" gen -q -o "$T/torus.net" torus --k 3,3
set +e
"$IBRT" route --engine mlid --fabric "$T/torus.net" --out "$T/t" 2>"$T/err"
rc=$?
set -e
[[ $rc == 2 ]] || fail "torus exit $rc"
grep -q "not a fat tree: switch 'sw-0.0'" "$T/err" || fail "torus reason: $(cat "$T/err")"
set +e
"$IBRT" route --engine mlid --fabric "$T/ft43.net" --lmc 8 --out "$T/t" 2>/dev/null
rc1=$?
"$IBRT" route --engine nosuch --fabric "$T/ft43.net" --out "$T/t" 2>/dev/null
rc2=$?
"$IBRT" route --engine slid --fabric "$T/missing.net" --out "$T/t" 2>/dev/null
rc3=$?
set -e
[[ "$rc1 $rc2 $rc3" == "2 2 2" ]] || fail "exit codes $rc1 $rc2 $rc3"

# A write that fails (a full disk: /dev/full) is an error naming the file, exit 2; and the
# 13 GB that FT(36,3) at LMC 2 would write are announced before any of it is written.
"$IBRT" gen -q -o "$T/ft36.net" fat-tree -m 36 -n 3
mkdir "$T/full"
ln -s /dev/full "$T/full/opensm-lfts.dump"
set +e
"$IBRT" route --engine mlid --fabric "$T/ft36.net" --lmc 2 --no-load --out "$T/full" 2>"$T/err"
rc=$?
set -e
[[ $rc == 2 ]] || fail "disk full: exit $rc"
grep -q "opensm-lfts.dump: cannot write: No space left on device" "$T/err" ||
    fail "disk full message: $(cat "$T/err")"
grep -q "^ibrt route: writing about 13.[0-9] GB to .*opensm-lfts.dump 5.[0-9] GB, path-selection 6.0 GB" \
    "$T/err" || fail "no size warning: $(cat "$T/err")"
echo "ok"
