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

# The large optional outputs: opensm.fdbs and opensm-lfts.dump's per-entry comments are written
# by default on a small fabric, left out with --no-fdbs / --no-lft-comments (a dump of bare
# `0x<LID> <port>` lines that reads back to the same tables), forced with --fdbs /
# --lft-comments; report.json lists what was written. An engine without a path choice (LMC 0,
# one LID per port) writes a path-selection of comments alone.
[[ -s "$T/out/opensm.fdbs" ]] || fail "opensm.fdbs not written on a small fabric"
grep -q "^0x0031 003 # Channel Adapter portguid" "$T/out/opensm-lfts.dump" || fail "comments"
"$IBRT" route --engine mlid --fabric "$T/ft43.net" --paper-lids --no-fdbs --no-lft-comments \
    --out "$T/bare" >/dev/null
[[ ! -e "$T/bare/opensm.fdbs" ]] || fail "--no-fdbs wrote opensm.fdbs"
! grep -q "#" <(grep "^0x" "$T/bare/opensm-lfts.dump") || fail "--no-lft-comments kept a comment"
"$IBRT" diff --lfts --fabric "$T/ft43.net" "$T/out/opensm-lfts.dump" "$T/bare/opensm-lfts.dump" ||
    fail "the bare dump reads back to other tables"
python3 - "$T/bare/report.json" <<'PY' || fail "report.json files"
import json, os, sys
files = json.load(open(sys.argv[1]))["files"]
d = os.path.dirname(sys.argv[1])
assert "opensm.fdbs" not in files and files["opensm-lfts.dump"] > 0, files
assert all(os.path.getsize(os.path.join(d, n)) == b for n, b in files.items()), files
PY
set +e
"$IBRT" route --engine mlid --fabric "$T/ft43.net" --fdbs --no-fdbs --out "$T/t" 2>/dev/null
rc=$?
set -e
[[ $rc == 2 ]] || fail "--fdbs with --no-fdbs: exit $rc"
"$IBRT" gen -q -o "$T/hx.net" hyperx --k 3,3
"$IBRT" route --engine flatfly --fabric "$T/hx.net" --out "$T/hx" >/dev/null
[[ -z "$(grep -v '^#' "$T/hx/path-selection")" ]] || fail "flatfly listed pairs on base LIDs"

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
# Without --lft-comments a dump this large (5.5 GB with them) goes without them, and is said.
grep -q "^ibrt route: writing about 6.[0-9] GB to .*opensm-lfts.dump 0.[0-9] GB, path-selection 6.0 GB" \
    "$T/err" || fail "no size warning: $(cat "$T/err")"
grep -q "^ibrt route: opensm-lfts.dump without its per-entry comments (they would add 4.[0-9] GB" \
    "$T/err" || fail "no comment notice: $(cat "$T/err")"
grep -q "^ibrt route: opensm.fdbs not written (2.[0-9] GB, for ibdmchk; --fdbs writes it" \
    "$T/err" || fail "no fdbs notice: $(cat "$T/err")"
echo "ok"
