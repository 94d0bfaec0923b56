#!/usr/bin/env bash
# Issue 39's measurement options of `ibrt lids` (docs/results/lid-assignment.md, "What was
# measured for the gaps"): --ps-candidates, --repair-order and --repair-weights refuse bad
# values; --ps-candidates 16 is the default; lids-seeds.csv holds one row per topology whose
# mean is the table's figure. Needs IBRT.
set -euo pipefail
: "${IBRT:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL [test_lids_gap_options]: $*" >&2; exit 1; }
for bad in "--ps-candidates 0" "--ps-candidates 17" "--ps-candidates x" "--repair-order backwards" \
    "--repair-weights heavy" "--ps-routes longest" "--path-order backwards"; do
    rc=0
    # shellcheck disable=SC2086
    "$IBRT" lids --study --seeds 1 --out "$T/bad" $bad >/dev/null 2>&1 || rc=$?
    [[ $rc == 2 ]] || fail "ibrt lids $bad: exit $rc, want 2"
done
for o in default 16 4; do
    args=()
    [[ $o == default ]] || args=(--ps-candidates "$o")
    "$IBRT" lids --study --study-part heuristics --seeds 2 --study-switches 12 --study-machines 24 \
        --out "$T/$o" "${args[@]}" >/dev/null || fail "ibrt lids --study ${args[*]} failed"
done
cmp -s "$T/default/lids-table2.csv" "$T/16/lids-table2.csv" || fail "--ps-candidates 16 is not the default"
cmp -s "$T/16/lids-table1.csv" "$T/4/lids-table1.csv" || fail "--ps-candidates changed Table I"
# lids-seeds.csv: 2 seeds x Tables I and II; their mean is the table's color/L.
[[ $(grep -c '^1,24/12,' "$T/16/lids-seeds.csv") == 2 && $(grep -c '^2,24/12,' "$T/16/lids-seeds.csv") == 2 ]] ||
    fail "lids-seeds.csv has not one row per seed and table: $(cat "$T/16/lids-seeds.csv")"
for t in 1 2; do
    mean=$(awk -F, -v t="$t" '$1 == t { s += $8; n++ } END { printf "%.2f", s / n }' "$T/16/lids-seeds.csv")
    table=$(tail -1 "$T/16/lids-table$t.csv" | cut -d, -f9)
    [[ $mean == "$table" ]] || fail "Table $t: seeds' mean $mean, table $table"
done
# --dests-csv: one row per destination the repair changed, and the figures unchanged.
"$IBRT" lids --study-regular --seeds 1 --out "$T/reg" >/dev/null || fail "ibrt lids --study-regular failed"
"$IBRT" lids --study-regular --seeds 1 --out "$T/reg-d" --dests-csv "$T/dests.csv" >/dev/null ||
    fail "ibrt lids --study-regular --dests-csv failed"
for f in lids-fig10a.csv lids-fig10b.csv lids-fig11.csv lids-regular-seeds.csv; do
    cmp -s "$T/reg/$f" "$T/reg-d/$f" || fail "--dests-csv changed $f"
done
head -1 "$T/dests.csv" | grep -qx 'figure,broken_links,seed,destination,repaired_paths,greedy_k,color_l_k,ilp_k,clique_bound' ||
    fail "--dests-csv header: $(head -1 "$T/dests.csv")"
[[ $(awk -F, 'NR > 1 && $5 > 0 && $8 >= $9' "$T/dests.csv" | wc -l) -gt 10 ]] ||
    fail "--dests-csv has too few rows (or an optimum below its clique bound)"
echo "PASS [test_lids_gap_options]"
