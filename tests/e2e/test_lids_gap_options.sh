#!/usr/bin/env bash
# Issue 39's measurement options of `ibrt lids` (docs/results/lid-assignment.md, "What was
# measured for the gaps"): --ps-candidates, --repair-order, --repair-weights and
# --regular-topologies refuse bad values; --ps-candidates 16 and the paper's three topologies are
# the defaults; lids-seeds.csv holds one row per topology whose mean is the table's figure; other
# topologies write their own CSV and per-seed rows. Needs IBRT.
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
"$IBRT" lids --study-regular --seeds 1 --out "$T/reg" >"$T/reg.out" || fail "ibrt lids --study-regular failed"
"$IBRT" lids --study-regular --seeds 1 --out "$T/reg-d" --dests-csv "$T/dests.csv" >/dev/null ||
    fail "ibrt lids --study-regular --dests-csv failed"
for f in lids-fig10a.csv lids-fig10b.csv lids-fig11.csv lids-regular-seeds.csv; do
    cmp -s "$T/reg/$f" "$T/reg-d/$f" || fail "--dests-csv changed $f"
done
head -1 "$T/dests.csv" | grep -qx 'figure,broken_links,seed,destination,repaired_paths,greedy_k,color_l_k,ilp_k,clique_bound' ||
    fail "--dests-csv header: $(head -1 "$T/dests.csv")"
[[ $(awk -F, 'NR > 1 && $5 > 0 && $8 >= $9' "$T/dests.csv" | wc -l) -gt 10 ]] ||
    fail "--dests-csv has too few rows (or an optimum below its clique bound)"
# --regular-topologies: bad lists exit 2 naming the item, before anything is written.
for bad in "" "mesh:4x4" "torus:1x8" "torus:4x" "fat-tree:7,3" "fat-tree:8" "fat-tree:8,1" \
    "torus:8x8,torus:8x8" "torus:8x8," "fat-tree:64,3"; do
    rc=0
    "$IBRT" lids --study-regular --seeds 1 --out "$T/bad-reg" --regular-topologies "$bad" >/dev/null 2>"$T/err" || rc=$?
    [[ $rc == 2 ]] || fail "--regular-topologies '$bad': exit $rc, want 2"
    grep -q -- "--regular-topologies: " "$T/err" || fail "--regular-topologies '$bad': no message: $(cat "$T/err")"
    [[ ! -e "$T/bad-reg" ]] || fail "--regular-topologies '$bad' wrote $T/bad-reg"
done
grep -q "'mesh:4x4'" <("$IBRT" lids --study-regular --out "$T/bad-reg" --regular-topologies torus:8x8,mesh:4x4 2>&1 || true) ||
    fail "--regular-topologies does not name the bad item"
# The paper's three, listed, are the default: the same files, byte for byte, and the same report.
"$IBRT" lids --study-regular --seeds 1 --out "$T/reg-l" --regular-topologies torus:16x8,torus:8x4x4,fat-tree:8,3 >"$T/reg-l.out" ||
    fail "ibrt lids --study-regular --regular-topologies (the default) failed"
for f in lids-fig10a.csv lids-fig10b.csv lids-fig11.csv lids-regular.md lids-regular-seeds.csv; do
    cmp -s "$T/reg/$f" "$T/reg-l/$f" || fail "--regular-topologies with the paper's three changed $f"
done
[[ $(find "$T/reg-l" -type f | wc -l) == 5 ]] || fail "the default wrote other files: $(find "$T/reg-l")"
[[ $(sed "s|$T/reg|DIR|" "$T/reg.out") == "wrote DIR/lids-fig10a.csv, lids-fig10b.csv, lids-fig11.csv, lids-regular.md, lids-regular-seeds.csv" ]] ||
    fail "the default's report changed: $(cat "$T/reg.out")"
[[ $(sed "s|$T/reg-l|DIR|" "$T/reg-l.out") == $(sed "s|$T/reg|DIR|" "$T/reg.out") ]] || fail "the listed default reports otherwise: $(cat "$T/reg-l.out")"
# Others: their own CSV and figure name; one of the paper's keeps its file and rows.
"$IBRT" lids --study-regular --seeds 2 --out "$T/reg-o" --regular-topologies torus:4x4,fat-tree:4,3,torus:8x4x4 >/dev/null ||
    fail "ibrt lids --study-regular --regular-topologies torus:4x4,fat-tree:4,3,torus:8x4x4 failed"
[[ $(export LC_ALL=C && cd "$T/reg-o" && printf '%s ' *) == "lids-fig10b.csv lids-regular-ft-4-3.csv lids-regular-seeds.csv lids-regular-torus-4x4.csv lids-regular.md " ]] ||
    fail "other topologies wrote: $(find "$T/reg-o")"
for fig in regular-torus-4x4 regular-ft-4-3 fig10b; do
    [[ $(grep -c "^$fig,0,1," "$T/reg-o/lids-regular-seeds.csv") == 1 && $(grep -c "^$fig,4," "$T/reg-o/lids-regular-seeds.csv") == 2 ]] ||
        fail "lids-regular-seeds.csv: no rows for $fig: $(cat "$T/reg-o/lids-regular-seeds.csv")"
done
cmp -s <(grep '^fig10b,[0-4],1,' "$T/reg/lids-regular-seeds.csv") <(grep '^fig10b,[0-4],1,' "$T/reg-o/lids-regular-seeds.csv") ||
    fail "8x4x4 torus's rows differ beside other topologies"
grep -q '^### FT(4,3)$' "$T/reg-o/lids-regular.md" || fail "lids-regular.md has no FT(4,3)"
head -2 "$T/reg-o/lids-regular-torus-4x4.csv" | tail -1 | grep -q '^0,1,0.00,16.00,16.00,16.00,16,16$' ||
    fail "4x4 torus, no broken link: $(head -2 "$T/reg-o/lids-regular-torus-4x4.csv")"
echo "PASS [test_lids_gap_options]"
