#!/usr/bin/env bash
# `ibrt check` accepts what real opensm 3.3.23 programs: FT(4,3) (20 switches, 16 CAs) routed by
# updn, minhop, ftree and dfsssp at LMC 0 and by updn and minhop at LMC 1 is clean (exit 0) on
# both the opensm-lfts.dump and the dump_fts read-back, with LIDs from opensm's guid2lid, even
# with --strict (all these engines route minimally on a fat tree). Then one LFT entry is pointed
# at port 0 and the check must report exactly that dead end (exit 1).
source "$(dirname "$0")/harness.sh"
e2e_init check_opensm

"$IBRT" gen fat-tree --ports 4 --levels 3 -o "$WORK/ft.net" -q
e2e_start_ibsim "$WORK/ft.net"

# route ENGINE LMC: one sweep, then check both dumps.
route() {
    local engine=$1 lmc=$2
    rm -f "$WORK/osm/guid2lid"
    e2e_opensm -R "$engine" -l "$lmc"
    e2e_expect_engine "$engine"
    e2e_diag dump_fts >"$WORK/dump_fts.txt"
    local lfts
    for lfts in "$WORK/osm/opensm-lfts.dump" "$WORK/dump_fts.txt"; do
        e2e_expect_rc 0 "$IBRT" check -q --fabric "$WORK/ft.net" --lfts "$lfts" \
            --guid2lid "$WORK/osm/guid2lid" --strict
        grep -q "^verdict: clean" "$WORK/last.out" || e2e_fail "$engine LMC $lmc: not clean"
    done
}
route updn 0
route minhop 0
route ftree 0
route dfsssp 0
route updn 1
route minhop 1

# Break one entry: leaf SW<01,2> delivers its CA P(010) (on its port 1) to port 0 instead, a dead
# end at a switch that does not own the LID. Every other CA (15) then fails for that one DLID,
# with exactly that outcome.
dump="$WORK/osm/opensm-lfts.dump"
route updn 0
cp "$dump" "$WORK/broken.dump"
header=$(grep -n "('SW<01,2>'):" "$WORK/broken.dump" | cut -d: -f1)
[[ -n "$header" ]] || e2e_fail "no block for SW<01,2> in $dump"
line=$(awk -v h="$header" 'NR > h && / 001 # Channel Adapter .*P\(010\)/ { print NR; exit }' "$WORK/broken.dump")
[[ -n "$line" ]] || e2e_fail "SW<01,2> has no entry for P(010) on port 1"
sed -i "${line}s/^\(0x[0-9a-f]*\) 001/\1 000/" "$WORK/broken.dump"
e2e_expect_rc 1 "$IBRT" check -q --fabric "$WORK/ft.net" --lfts "$WORK/broken.dump" \
    --guid2lid "$WORK/osm/guid2lid" --json --no-balance
python3 - "$WORK/last.out" <<'PY' || e2e_fail "JSON report of the broken entry is wrong: $(head -c 2000 "$WORK/last.out")"
import json, sys
j = json.load(open(sys.argv[1]))
r = j["checks"]["reachability"]
assert j["verdict"] == "violations" and j["exit_code"] == 1
assert r["dlids_with_failures"] == 1, r
assert r["failures"] == r["by_outcome"]["port0_not_owner"] == 15, r
assert r["examples"][0]["outcome"] == "port0_not_owner"
PY
e2e_pass
