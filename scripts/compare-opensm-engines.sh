#!/usr/bin/env bash
# Balance of opensm's own engines next to ours, on what the switches really hold (issue 4, last
# bullet of "End-to-end"): under ibsim, opensm 3.3.23 routes each fabric with ftree (LMC 0, and
# at mlid's LMC to show its fallback), updn and minhop (LMC 0 and mlid's LMC), and libibrt.so's
# mlid (mlid's LMC) and slid (LMC 0). Each table is read back with dump_fts and judged by
# `ibrt check --json` (reachability, minimality, credit loops, link load for all-to-all and a
# random permutation). opensm's engines come with no path selection, so each flow is spread
# evenly over the destination's 2^LMC LIDs (docs/check.md); mlid and slid are judged that way
# and a second time with their own path selection (`ibrt route --lids-from-fabric` on the
# discovered topology, i.e. the same LIDs).
#
# Usage: scripts/compare-opensm-engines.sh [BUILD_DIR] [OUTPUT_MD]
#   BUILD_DIR  default build; needs BUILD_DIR/ibrt and BUILD_DIR/engines/opensm/libibrt.so
#   OUTPUT_MD  default docs/results/opensm-engines-balance.md ('-' = stdout)
#   CSV=FILE   the table's rows as CSV (default: opensm-engines-balance.csv beside OUTPUT_MD;
#              none with '-'), what studies/opensm-engines-balance-summary.py reads. An existing
#              OUTPUT_MD keeps what lies between its title and the table (the findings table,
#              which that script then rewrites from the CSV) and its `## Reading` on.
# Fabrics: FT(8,3), the 4-ary 3-tree, the 36-port 2-level tree. Takes about a minute.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
OUT_MD=${2:-$ROOT/docs/results/opensm-engines-balance.md}
[[ "$OUT_MD" == - || "$OUT_MD" == /* ]] || OUT_MD="$PWD/$OUT_MD"
CSV=${CSV:-$([[ "$OUT_MD" == - ]] || echo "$(dirname "$OUT_MD")/opensm-engines-balance.csv")}
[[ -z "$CSV" || "$CSV" == /* ]] || CSV="$PWD/$CSV"
export IBRT="$BUILD/ibrt" IBRT_BINARY_DIR="$BUILD" IBRT_SOURCE_DIR="$ROOT"
command -v python3 >/dev/null || { echo "python3 is needed to read the JSON reports" >&2; exit 2; }
CMDLINE="scripts/compare-opensm-engines.sh $*"

# shellcheck source=tests/e2e/harness.sh
source "$ROOT/tests/e2e/harness.sh"
e2e_init compare_engines
# shellcheck source=tests/e2e/plugin_lib.sh
source "$ROOT/tests/e2e/plugin_lib.sh"
# shellcheck disable=SC2119 # no extra opensm.conf lines
plugin_conf
ROWS="$WORK/rows.tsv"
NOTES="$WORK/notes.txt"
: >"$ROWS"
: >"$NOTES"

# One row of the table from `ibrt check --json`: verdict and overall switch-link load figures.
summarize() {
    python3 - "$@" <<'PY'
import json, sys
fabric, engine, ran, lmc, path = sys.argv[1:6]
r = json.load(open(path))
c = r["checks"]
reach = "ok" if c["reachability"]["passed"] else f'{c["reachability"]["failures"]} unreachable'
loops = c["deadlock"]["credit_loops"]
nonmin = c["minimality"]["non_minimal"]
cells = []
for b in c["balance"]:
    s = b["links"]
    cells.append(f'{s["max"]:.4g} / {s["mean"]:.4g} / {s["spread"]:.3f}')
print("\t".join([fabric, engine, ran, lmc, r["verdict"], reach, str(nonmin), str(loops)] + cells))
PY
}

# check_row FABRIC LABEL RAN LMC TAG LFTS [check args...]: `ibrt check --json` of the tables
# of the latest sweep (topology $TAG.net, minus a `.sel` suffix), one row into $ROWS.
check_row() {
    local fabric=$1 label=$2 ran=$3 lmc=$4 tag=$5 lfts=$6
    shift 6
    local rc=0
    "$IBRT" check -q --json --pattern random --seed 1 --fabric "${tag%.sel}.net" --lfts "$lfts" "$@" >"$tag.json" || rc=$?
    ((rc <= 1)) || e2e_fail "$tag: ibrt check exited $rc"
    summarize "$fabric" "$label" "$ran" "$lmc" "$tag.json" >>"$ROWS"
}

# run FABRIC LABEL ENGINE LMC [opensm args...]: one sweep, read back, check, one row.
run() {
    local fabric=$1 label=$2 engine=$3 lmc=$4
    shift 4
    local tag="$fabric-$label-lmc$lmc"
    rm -f "$WORK/osm/guid2lid" # fresh LIDs for this LMC
    e2e_opensm -R "$engine" -l "$lmc" "$@"
    local ran
    ran=$(sed -n 's/.*: \([a-z0-9_]*\) tables configured on all switches.*/\1/p' "$WORK/osm/osm.log" | tail -n 1)
    [[ -n "$ran" ]] || e2e_fail "$tag: no engine configured the switches"
    if [[ "$ran" != "$engine" ]]; then
        # shellcheck disable=SC2016 # the backquotes are markdown
        {
            echo "- $fabric, \`-R $engine -l $lmc\`: opensm's log shows \`$ran tables configured on all switches\`; $engine refused:"
            grep -iE "fat-?tree|$engine:|LMC" "$WORK/osm/osm.log" | grep -v 'tables configured' |
                sed 's/^.* -> /    `/; s/$/`/' | head -n 3
        } >>"$NOTES"
    fi
    e2e_diag ibnetdiscover >"$tag.net"
    e2e_diag dump_fts >"$tag.fts"
    local lfts="$tag.fts"
    # dump_fts hides the top LID when it is a multiple of 64 (ibsim-e2e.md §9.7); then judge
    # opensm's own dump of the same run, which the tests show equals the read-back otherwise.
    if ! top_lid_ok; then
        lfts="$WORK/osm/opensm-lfts.dump"
        echo "- $tag: top LID is a multiple of 64, checked opensm-lfts.dump instead of dump_fts" >>"$NOTES"
    else
        e2e_expect_rc 0 "$IBRT" diff --lfts --fabric "$tag.net" "$WORK/osm/opensm-lfts.dump" "$tag.fts"
    fi
    check_row "$fabric" "$label" "$ran" "$lmc" "$tag" "$lfts"
    if [[ "$label" == mlid || "$label" == slid ]]; then
        e2e_expect_rc 0 "$IBRT" route --engine "$label" --fabric "$tag.net" --lids-from-fabric --no-load --out "$tag.offline"
        check_row "$fabric" "$label, own path selection" "$ran" "$lmc" "$tag.sel" "$lfts" \
            --path-selection "$tag.offline/path-selection"
    fi
    echo "done: $tag ($ran) at ${SECONDS}s" >&2
}

# fabric NAME LMC GEN-ARGS...: routes NAME with every engine; LMC is mlid's auto LMC.
fabric() {
    local name=$1 lmc=$2
    shift 2
    e2e_stop_ibsim
    "$IBRT" gen -q -o "$WORK/$name.net" "$@"
    "$IBRT" route --engine mlid --fabric "$WORK/$name.net" --no-path-selection --no-load --out "$WORK/$name.auto" >/dev/null
    grep -q "^  \"lmc\": $lmc,\$" "$WORK/$name.auto/report.json" || e2e_fail "$name: mlid's auto LMC is not $lmc"
    e2e_start_ibsim "$WORK/$name.net"
    run "$name" ftree ftree 0
    run "$name" ftree ftree "$lmc"
    run "$name" updn updn 0
    run "$name" updn updn "$lmc"
    run "$name" minhop minhop 0
    run "$name" minhop minhop "$lmc"
    run "$name" mlid mlid "$lmc" -F "$WORK/ibrt.conf"
    run "$name" slid slid 0 -F "$WORK/ibrt.conf"
}

fabric "FT(8,3)" 4 fat-tree -m 8 -n 3
fabric "4-ary 3-tree" 4 kary-ntree --k 4 --n 3
fabric "36-port 2-level" 5 clos --radix 36 --levels 2

{
    echo "# Balance of opensm's engines and ibrt's on the real stack"
    # The findings table under the title and its commands survive a re-run (the summary script
    # rewrites the table from the CSV).
    if [[ "$OUT_MD" != - && -f "$OUT_MD" ]] && grep -qx '<!-- findings:begin -->' "$OUT_MD"; then
        sed -n '2,/^Generated by/p' "$OUT_MD" | sed '$d'
    else
        echo
    fi
    echo "Generated by \`$CMDLINE\` on $(date -u +%Y-%m-%d) with opensm $(dpkg-query -W -f '${Version}' opensm 2>/dev/null || echo '(version unknown)')."
    echo "Every table was programmed by \`opensm -o\` into ibsim's switches and read back with \`dump_fts\`;"
    echo "the figures are \`ibrt check --json --pattern random --seed 1\` on the read-back."
    echo "Loads count flows per directed switch-to-switch link: max / mean / max-over-mean."
    echo "Without a path selection a flow is spread evenly over the destination's 2^LMC LIDs (fractional"
    echo "loads), which is all opensm's engines offer; mlid and slid are shown that way too, and a second"
    echo "time with their own path selection (one DLID per source and destination, as \`ibrt route\` writes it)."
    echo
    echo "| fabric | engine asked | engine that ran | LMC | verdict | reachability | non-minimal pairs | credit loops | all-to-all max / mean / ratio | random permutation max / mean / ratio |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    awk -F'\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 }' "$ROWS"
    echo
    echo "## Fallbacks seen in opensm's log"
    echo
    if [[ -s "$NOTES" ]]; then cat "$NOTES"; else echo "none"; fi
} >"$WORK/result.md"
# The hand-written reading of the numbers (from `## Reading` on) survives a re-run.
if [[ "$OUT_MD" != - && -f "$OUT_MD" ]] && grep -q '^## Reading' "$OUT_MD"; then
    echo >>"$WORK/result.md"
    sed -n '/^## Reading/,$p' "$OUT_MD" >>"$WORK/result.md"
fi
if [[ -n "$CSV" ]]; then
    python3 - "$ROWS" "$CSV" <<'PY'
import csv, sys
cols = ["fabric", "engine_asked", "engine_ran", "lmc", "verdict", "reachability", "non_minimal", "credit_loops"]
cols += [f"{p}_{s}" for p in ("all_to_all", "random") for s in ("max", "mean", "ratio")]
with open(sys.argv[2], "w", newline="") as out:
    w = csv.writer(out, lineterminator="\n")
    w.writerow(cols)
    for line in open(sys.argv[1]):
        f = line.rstrip("\n").split("\t")
        w.writerow(f[:8] + [x.strip() for cell in f[8:10] for x in cell.split("/")])
PY
    echo "wrote $CSV" >&2
fi
if [[ "$OUT_MD" == - ]]; then cat "$WORK/result.md"; else
    mkdir -p "$(dirname "$OUT_MD")"
    cp "$WORK/result.md" "$OUT_MD"
    echo "wrote $OUT_MD" >&2
fi
e2e_pass
