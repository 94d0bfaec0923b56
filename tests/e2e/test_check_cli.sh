#!/usr/bin/env bash
# `ibrt check` on opensm's captured dumps (test-fabrics/tables, see its README): exit codes
# 0 clean / 1 violations / 2 bad input, the JSON and JUnit reports, and `file:line: problem`
# errors. No simulator needed.
set -euo pipefail
: "${IBRT:?}" "${IBRT_SOURCE_DIR:?}"
T="$IBRT_SOURCE_DIR/test-fabrics/tables"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ibrt-check-cli.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL [check_cli]: $*" >&2; exit 1; }
# expect RC CMD...: exact exit code; stdout+stderr in $WORK/out.
expect() {
    local want=$1 rc=0
    shift
    "$@" >"$WORK/out" 2>&1 || rc=$?
    ((rc == want)) || fail "expected exit $want, got $rc from: $*"$'\n'"$(head -n 30 "$WORK/out")"
}

# updn, LMC 1, QoS SL2VL (SL i -> VL i mod 8): the path SLs are in no dump, so deadlock
# freedom cannot be judged (exit 3, never a made-up verdict) ...
expect 3 "$IBRT" check -q --fabric "$T/ft-lmc1.net" --lfts "$T/ft-lmc1.opensm-lfts.dump" \
    --guid2lid "$T/ft-lmc1.guid2lid" --sl2vl "$T/ft-lmc1.opensm-sl2vl.dump" --junit "$WORK/j.xml"
grep -qx "verdict: cannot judge (see N/A above)" "$WORK/out" || fail "no cannot-judge verdict"
grep -q 'skipped="1"' "$WORK/j.xml" || fail "JUnit does not skip the deadlock case"
# ... and with the SL updn really uses (0, no QoS policy) it is clean, with every input given;
# JUnit has 4 passing test cases.
expect 0 "$IBRT" check -q --fabric "$T/ft-lmc1.net" --lfts "$T/ft-lmc1.opensm-lfts.dump" \
    --guid2lid "$T/ft-lmc1.guid2lid" --sl2vl "$T/ft-lmc1.opensm-sl2vl.dump" --assume-sl 0 \
    --junit "$WORK/j.xml"
grep -qx "verdict: clean" "$WORK/out" || fail "no clean verdict"
grep -qx "PASS reachability: 40 (source port, DLID) pairs over 12 DLIDs: all reach their destination" \
    "$WORK/out" || fail "reachability line: $(cat "$WORK/out")"
grep -q '<testsuites name="ibrt check" tests="4" failures="0" errors="0">' "$WORK/j.xml" ||
    fail "JUnit header: $(head -n 3 "$WORK/j.xml")"

# The same tables read back by dump_fts, and minhop with a router, shift pattern, JSON.
expect 0 "$IBRT" check -q --fabric "$T/ft-lmc1.net" --lfts "$T/ft-lmc1.dump_fts.txt" \
    --guid2lid "$T/ft-lmc1.guid2lid" --strict
expect 0 "$IBRT" check -q --fabric "$T/ft-rt.net" --lfts "$T/ft-rt.dump_fts.txt" \
    --guid2lid "$T/ft-rt.guid2lid" --sl2vl "$T/ft-rt.opensm-sl2vl.dump" --assume-sl 0 \
    --pattern shift/1 --json
python3 - "$WORK/out" <<'PY' || fail "ft-rt JSON: $(head -c 1500 "$WORK/out")"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["schema"] == "ibrt-check/1" and j["verdict"] == "clean" and j["exit_code"] == 0
assert j["fabric"] == {"switches": 4, "cas": 5, "end_ports": 5, "lids": 9}
assert [b["pattern"] for b in j["checks"]["balance"]] == ["all-to-all", "shift/1"]
assert j["checks"]["balance"][1]["flows"] == 5
assert j["checks"]["deadlock"]["credit_loops"] == 0
PY

# dump_fts hides the top LID 64 (infiniband-diags off-by-one): 3 sources lose host-l1-1.
expect 1 "$IBRT" check -q --fabric "$T/ft-lmc1.net" --lfts "$T/ft-pin64.dump_fts.txt" \
    --guid2lid "$T/ft-pin64.guid2lid" --junit "$WORK/j.xml"
grep -qx "FAIL reachability: 3 of 28 (source port, DLID) pairs fail, on 1 DLID: no_entry 3" \
    "$WORK/out" || fail "pin64 line: $(cat "$WORK/out")"
grep -q 'tests="4" failures="1"' "$WORK/j.xml" || fail "pin64 JUnit: $(head -n 3 "$WORK/j.xml")"
grep -q '<failure type="reachability"' "$WORK/j.xml" || fail "pin64 JUnit has no failure"
# opensm's own dump of the same run has the entry.
expect 0 "$IBRT" check -q --fabric "$T/ft-lmc1.net" --lfts "$T/ft-pin64.opensm-lfts.dump" \
    --guid2lid "$T/ft-pin64.guid2lid"

# Bad input: exit 2 with file:line.
sed 's/guid 0x0020000000020000/guid 0x00200000000200ff/' "$T/ft-lmc1.opensm-lfts.dump" >"$WORK/bad.dump"
expect 2 "$IBRT" check -q --fabric "$T/ft-lmc1.net" --lfts "$WORK/bad.dump" --guid2lid "$T/ft-lmc1.guid2lid"
grep -q "^ibrt: $WORK/bad.dump:15: " "$WORK/out" || fail "unknown GUID message: $(cat "$WORK/out")"
# LIDs of another run: the dump's switch LIDs disagree with guid2lid.
expect 2 "$IBRT" check -q --fabric "$T/ft-lmc1.net" --lfts "$T/ft-rt.opensm-lfts.dump" \
    --guid2lid "$T/ft-lmc1.guid2lid"
grep -q "^ibrt: $T/ft-rt.opensm-lfts.dump:" "$WORK/out" || fail "mismatch message: $(cat "$WORK/out")"
# A dump cut off inside its last switch block, and one missing a switch: bad input (exit 2),
# not a reachability failure of the fabric.
head -n 40 "$T/ft-lmc1.opensm-lfts.dump" >"$WORK/cut.dump"
expect 2 "$IBRT" check -q --fabric "$T/ft-lmc1.net" --lfts "$WORK/cut.dump" --guid2lid "$T/ft-lmc1.guid2lid"
grep -q "the dump is truncated or was edited" "$WORK/out" || fail "truncation message: $(cat "$WORK/out")"
awk '/^Unicast lids/{n++} n<4' "$T/ft-lmc1.opensm-lfts.dump" >"$WORK/part.dump"
expect 2 "$IBRT" check -q --fabric "$T/ft-lmc1.net" --lfts "$WORK/part.dump" --guid2lid "$T/ft-lmc1.guid2lid"
grep -q "the dump has no table for 1 of the fabric's 4 switches" "$WORK/out" || fail "partial dump message: $(cat "$WORK/out")"
# No LIDs at all.
grep -v "lid" "$T/ft-lmc1.net" >"$WORK/nolid.net" || true
expect 2 "$IBRT" check -q --fabric "$WORK/nolid.net" --lfts "$T/ft-lmc1.opensm-lfts.dump"
grep -q "has no \`lid N\` comments" "$WORK/out" || fail "no-LID message: $(cat "$WORK/out")"
expect 2 "$IBRT" check -q --fabric "$T/ft-lmc1.net" --lfts "$T/ft-lmc1.opensm-lfts.dump" \
    --guid2lid "$T/ft-lmc1.guid2lid" --pattern shift/0
grep -q "unknown traffic pattern" "$WORK/out" || fail "pattern message: $(cat "$WORK/out")"
# Bad input still writes the reports CI reads, with the problem as their text (issue 35): the
# JUnit file gets an <error>, --json prints verdict "bad input"; so does an input the command
# line's own checks refuse (a missing file).
expect 2 "$IBRT" check -q --fabric "$T/ft-lmc1.net" --lfts "$WORK/bad.dump" --guid2lid "$T/ft-lmc1.guid2lid" \
    --junit "$WORK/bad.xml" --json
grep -q "<error type=\"bad input\" message=\"$WORK/bad.dump:15: " "$WORK/bad.xml" ||
    fail "bad input JUnit: $(cat "$WORK/bad.xml" 2>/dev/null)"
python3 - "$WORK/out" "$WORK/bad.dump" <<'PY' || fail "bad input JSON: $(cat "$WORK/out")"
import json, sys
text = open(sys.argv[1]).read()
j = json.loads(text[text.index("{"):])
assert j["verdict"] == "bad input" and j["exit_code"] == 2, j
assert j["error"].startswith(sys.argv[2] + ":15: "), j
PY
rm -f "$WORK/bad.xml"
expect 2 "$IBRT" check -q --junit "$WORK/bad.xml" --fabric "$WORK/nonexistent.net" --lfts "$WORK/bad.dump"
grep -q '<error type="bad input" message="--fabric: File does not exist' "$WORK/bad.xml" ||
    fail "missing file JUnit: $(cat "$WORK/bad.xml" 2>/dev/null)"

# opensm writes `0x0000 0x0000` for a port it ran out of LIDs for (lmc 7 on a large fabric):
# the subnet's fault, exit 1 naming the port, not bad input (issue 35).
sed '0,/^0x0010000000000401 .*/s//0x0010000000000401 0x0000 0x0000/' "$T/ft-lmc1.guid2lid" >"$WORK/g0"
expect 1 "$IBRT" check -q --fabric "$T/ft-lmc1.net" --lfts "$T/ft-lmc1.opensm-lfts.dump" --guid2lid "$WORK/g0"
grep -q "1 CA port without a LID, unreachable" "$WORK/out" || fail "zero-LID record: $(cat "$WORK/out")"
grep -q "no LID: CA 'host-l1-1' (GUID 0x0010000000000400) port 1" "$WORK/out" ||
    fail "zero-LID record names no port: $(cat "$WORK/out")"
# "-" reads standard input (issue 40): a topology piped in, the LFT dump piped in; an input
# that is not the expected format is named "-" in the error.
cat "$T/ft-lmc1.net" | expect 0 "$IBRT" check -q --fabric - --lfts "$T/ft-lmc1.opensm-lfts.dump" \
    --guid2lid "$T/ft-lmc1.guid2lid" --sl2vl "$T/ft-lmc1.opensm-sl2vl.dump" --path-sl "$T/ft-lmc1.path-sl"
cat "$T/ft-lmc1.opensm-lfts.dump" | expect 0 "$IBRT" check -q --fabric "$T/ft-lmc1.net" --lfts - \
    --guid2lid "$T/ft-lmc1.guid2lid" --sl2vl "$T/ft-lmc1.opensm-sl2vl.dump" --path-sl "$T/ft-lmc1.path-sl"
echo garbage | expect 2 "$IBRT" check -q --fabric - --lfts "$T/ft-lmc1.opensm-lfts.dump" \
    --guid2lid "$T/ft-lmc1.guid2lid"
grep -q '^ibrt: -:1: unrecognised line "garbage"' "$WORK/out" || fail "stdin error: $(cat "$WORK/out")"
echo "PASS [check_cli]"
