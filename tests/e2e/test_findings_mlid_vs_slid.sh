#!/usr/bin/env bash
# docs/results/mlid-vs-slid.md (issue 39): the findings table is what the study's summary script
# makes of the committed CSVs, byte for byte, and the prose outside it states no status of its own
# (statuses live only in the table, so the prose cannot drift from the figures). Also: the study
# takes its model from studies/settings/paper-000.json, not from values copied into the script.
# Needs no ibrt binary: IBRT_SOURCE_DIR (default: this checkout) and Python 3's standard library.
set -euo pipefail
SRC=${IBRT_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
PY=${IBRT_PYTHON:-/usr/bin/python3}
R=$SRC/docs/results
MD=$R/mlid-vs-slid.md
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL [test_findings_mlid_vs_slid]: $*" >&2; exit 1; }

# (a) the table between the markers is the summary script's, from the committed CSVs.
grep -qx '<!-- findings:begin -->' "$MD" || fail "no <!-- findings:begin --> line in $MD"
grep -qx '<!-- findings:end -->' "$MD" || fail "no <!-- findings:end --> line in $MD"
sed -n '/^<!-- findings:begin -->$/,/^<!-- findings:end -->$/p' "$MD" | sed '1d;$d' >"$T/md-table"
"$PY" "$R/mlid-vs-slid-summary.py" --findings >"$T/generated" || fail "the summary script failed"
[[ -s $T/generated ]] || fail "the summary script printed no table"
diff -u "$T/generated" "$T/md-table" >"$T/diff" ||
    fail "the md's findings table is not what mlid-vs-slid-summary.py --findings makes of the CSVs (rerun it with --write):
$(head -40 "$T/diff")"
# The table opens the page: only the title and blank lines above it.
first=$(grep -n -m1 -x '<!-- findings:begin -->' "$MD" | cut -d: -f1)
head -n $((first - 1)) "$MD" | grep -v -e '^# ' -e '^$' >"$T/above" &&
    fail "the page does not open with the findings table; above it: $(head -3 "$T/above")"

# (b) no status word outside the table (the detail tables, between their own markers, are
# generated too but hold figures only).
sed '/^<!-- findings:begin -->$/,/^<!-- findings:end -->$/d' "$MD" >"$T/prose"
if grep -n -i -w -E 'holds|reproduced|reproduces|confirmed|confirms|shape only|explained gap|unexplained' \
    "$T/prose" >"$T/words"; then
    fail "status words outside the findings table (statuses live only in the table):
$(head -10 "$T/words")"
fi

# (c) one source of truth for the model: the script reads the settings file and sets none of
# its keys itself.
S=$R/mlid-vs-slid.sh
grep -q 'studies/settings/paper-000.json' "$S" || fail "mlid-vs-slid.sh does not read studies/settings/paper-000.json"
"$PY" - "$SRC/studies/settings/paper-000.json" "$S" <<'PY' || fail "mlid-vs-slid.sh sets a key of paper-000.json itself"
import json, re, sys
keys = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
# A diagnostic may vary a key of the setting as an axis (a JSON list); a scalar copy is refused.
bad = [k for k in keys if re.search(r'--' + re.escape(k) + r'\b', text)
       or re.search(r'\\"' + re.escape(k) + r'\\":\s*[^\[\s]', text)]
if bad:
    print("copied keys:", bad, file=sys.stderr)
    sys.exit(1)
PY
echo "PASS [test_findings_mlid_vs_slid] in ${SECONDS}s"
