#!/usr/bin/env bash
# The result pages' findings tables (issue 39). For each study with a generated table: the table
# is what the study's summary script makes of the committed CSVs, byte for byte, it opens the
# page, and the prose outside it states no status of its own (statuses live only in the table,
# so the prose cannot drift from the figures). Also: the study takes its model from its paper's
# studies/settings file, not from values copied into the script.
# Needs no ibrt binary: IBRT_SOURCE_DIR (default: this checkout) and Python 3's standard library.
set -euo pipefail
SRC=${IBRT_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
PY=${IBRT_PYTHON:-/usr/bin/python3}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL [test_findings_tables] $study: $*" >&2; exit 1; }

# check PAGE [SETTING]: docs/results/PAGE.md, summarised by studies/PAGE-summary.py; with
# SETTING, a simulator study run by studies/PAGE.sh on the model of studies/settings/SETTING.json.
check() {
    study=$1
    local md=$SRC/docs/results/$1.md script=$SRC/studies/$1.sh summary=$SRC/studies/$1-summary.py
    local setting=studies/settings/${2:-}.json
    # (a) the table between the markers is the summary script's, from the committed CSVs.
    grep -qx '<!-- findings:begin -->' "$md" || fail "no <!-- findings:begin --> line in $md"
    grep -qx '<!-- findings:end -->' "$md" || fail "no <!-- findings:end --> line in $md"
    sed -n '/^<!-- findings:begin -->$/,/^<!-- findings:end -->$/p' "$md" | sed '1d;$d' >"$T/md-table"
    "$PY" "$summary" --findings >"$T/generated" || fail "the summary script failed"
    [[ -s $T/generated ]] || fail "the summary script printed no table"
    grep -q '^| finding |' "$T/generated" || fail "the summary script printed no findings table"
    diff -u "$T/generated" "$T/md-table" >"$T/diff" ||
        fail "the md's findings table is not what $(basename "$summary") --findings makes of the CSVs (rerun it with --write):
$(head -40 "$T/diff")"
    # Every block the summary writes (the findings table, and the detail tables of a summary that
    # makes them) is current: rewriting a copy of the page changes nothing.
    cp "$md" "$T/page.md"
    "$PY" "$summary" --write --md "$T/page.md" || fail "the summary script failed to write"
    diff -u "$md" "$T/page.md" >"$T/diff" ||
        fail "the md's generated blocks are not what $(basename "$summary") --write makes of the CSVs:
$(head -40 "$T/diff")"
    # The table opens the page: only the title and blank lines above it.
    local first
    first=$(grep -n -m1 -x '<!-- findings:begin -->' "$md" | cut -d: -f1)
    head -n $((first - 1)) "$md" | grep -v -e '^# ' -e '^$' >"$T/above" &&
        fail "the page does not open with the findings table; above it: $(head -3 "$T/above")"

    # (b) no status word outside the table (the detail tables, between their own markers, are
    # generated too but hold figures only).
    sed '/^<!-- findings:begin -->$/,/^<!-- findings:end -->$/d' "$md" >"$T/prose"
    if grep -n -i -w -E 'holds|reproduced|reproduces|confirmed|confirms|shape only|explained gap|unexplained' \
        "$T/prose" >"$T/words"; then
        fail "status words outside the findings table (statuses live only in the table):
$(head -10 "$T/words")"
    fi

    # (c) one source of truth for the model: the script reads the settings file and sets none of
    # its keys itself.
    [[ -n ${2:-} ]] || return 0
    grep -q "$setting" "$script" || grep -q "settings/$2.json" "$script" ||
        fail "$(basename "$script") does not read $setting"
    "$PY" - "$SRC/$setting" "$script" <<'PY' || fail "$(basename "$script") sets a key of $setting itself"
import json, re, sys
keys = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
# A diagnostic may vary a key of the setting as an axis (a JSON list); a scalar copy is refused.
bad = [k for k in keys if re.search(r'--' + re.escape(k) + r'\b', text)
       or re.search(r'\\?"' + re.escape(k) + r'\\?":\s*[^\[\s]', text)]
if bad:
    print("copied keys:", bad, file=sys.stderr)
    sys.exit(1)
PY
}
# gaps_measured PAGE: a gap is never left without what was tried: every explained gap and
# unexplained row of the page's table links to a section of the page (studies/findings.py
# anchor()) that gives a command.
gaps_measured() {
    study=$1
    local md=$SRC/docs/results/$1.md
    "$PY" - "$md" "$SRC/studies" <<'PY' || fail "a gap without its measurements (above)"
import re, sys
sys.path.insert(0, sys.argv[2])
from findings import anchor
text = open(sys.argv[1], encoding="utf-8").read()
table = text[text.index("<!-- findings:begin -->"):text.index("<!-- findings:end -->")]
lines = text.split("\n")
heads = {}  # anchor -> the section's text, to the next heading of its level or above
for i, line in enumerate(lines):
    m = re.match(r"(#+) (.*)", line)
    if m:
        j = i + 1
        while j < len(lines) and not (re.match(r"#+ ", lines[j]) and len(lines[j].split()[0]) <= len(m.group(1))):
            j += 1
        heads[anchor(m.group(2))] = "\n".join(lines[i + 1:j])
bad = []
for row in table.split("\n"):
    cells = row.split(" | ")
    if not row.startswith("| ") or len(cells) < 4 or not re.search(r"\*\*(explained gap|unexplained)\*\*", cells[-1]):
        continue
    m = re.search(r"\[measured\]\(#([^)]+)\)", cells[-1])
    if not m:
        bad.append(f"no [measured](#...) link: {cells[0][2:80]}")
    elif m.group(1) not in heads:
        bad.append(f"no heading with the anchor #{m.group(1)}")
    elif not re.search(r"```|`(ibrt|studies/|/usr/bin/python3|python3) [^`]+`", heads[m.group(1)]):
        bad.append(f"section #{m.group(1)} gives no command")
for b in bad:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

for page in mlid-vs-slid:paper-000 selection-functions:paper-004 lid-assignment: \
    congestion-control-drb:paper-002 direct-topologies: booksim-dragonfly: booksim-agreement: \
    direct-engines: opensm-engines-balance: congestion-control: opensm-tables-sim: mapping: \
    degraded-trees: dragonfly-plus:; do
    check "${page%%:*}" ${page#*:}
    gaps_measured "${page%%:*}"
done
echo "PASS [test_findings_tables] in ${SECONDS}s"
