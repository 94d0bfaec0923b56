#!/usr/bin/env bash
# Offline `ibrt route` tables accepted by the real stack (issue 4, "End-to-end (real stack)"):
# each fabric is routed offline, our guid2lid goes into opensm's cache dir, and
# `opensm -o -R file -U <our opensm-lfts.dump> -l <our LMC>` programs the simulated switches.
# Then, on what ibsim's switches hold:
#   - the `file` engine ran (not a silent fallback, ibsim-e2e.md §9.5);
#   - the guid2lid opensm writes back is ours byte for byte (it kept every LID we chose);
#   - the base LID of every end port that ibnetdiscover reports is ours;
#   - opensm's own opensm-lfts.dump and the dump_fts read-back equal our tables entry for entry
#     (`ibrt diff --lfts`), with the expected number of entries;
#   - `ibrt check` on the read-back is clean (reachability, minimality, credit loops).
# Fabrics: FT(8,3) (mlid LMC 4), the 4-ary 3-tree (LMC 4), the 36-port 2-level tree (LMC 5),
# each with mlid at its auto LMC and slid at LMC 0. infiniband-diags hide the top LID when it is
# a multiple of 64 (ibsim-e2e.md §9.7): the top LIDs here are 2128, 1072, 20790, 208, 112 and
# 702, and the test asserts that precondition rather than trusting it.
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/e2e/harness.sh
source "$HERE/harness.sh"
e2e_init route_file_engine

# accept TAG ENGINE NETFILE EXPECTED_LMC: route offline, load through the file engine, verify.
accept() {
    local tag=$1 engine=$2 net=$3 want_lmc=$4
    local out="$WORK/$tag.offline"
    e2e_expect_rc 0 "$IBRT" route --engine "$engine" --fabric "$net" --out "$out" --no-path-selection
    local lmc
    lmc=$(sed -n 's/^  "lmc": \([0-9]*\),$/\1/p' "$out/report.json")
    [[ "$lmc" == "$want_lmc" ]] || e2e_fail "$tag: report.json gives LMC '$lmc', expected $want_lmc"
    local top
    top=$(sed -n 's/^Unicast lids \[0-\([0-9]*\)\].*/\1/p' "$out/opensm-lfts.dump" | sort -u)
    [[ "$top" =~ ^[0-9]+$ ]] || e2e_fail "$tag: switches disagree on the top LID: $top"
    ((top % 64 != 0)) || e2e_fail "$tag: top LID $top is a multiple of 64 (dump_fts bug, §9.7)"

    E2E_GUID2LID="$out/guid2lid" e2e_opensm -R file -U "$out/opensm-lfts.dump" -l "$lmc"
    e2e_expect_engine file
    cmp -s "$out/guid2lid" "$WORK/osm/guid2lid" ||
        e2e_fail "$tag: opensm's guid2lid differs from ours:"$'\n'"$(diff "$out/guid2lid" "$WORK/osm/guid2lid" | head -n 10)"

    e2e_diag ibnetdiscover >"$tag.net"
    e2e_diag dump_fts >"$tag.fts"
    local n want
    want=$(grep -c '^0x' "$out/opensm-lfts.dump")
    n=$(grep -c '^0x' "$tag.fts")
    ((n == want)) || e2e_fail "$tag: dump_fts shows $n entries, our dump has $want"
    e2e_expect_rc 0 "$IBRT" diff --lfts --fabric "$tag.net" "$out/opensm-lfts.dump" "$WORK/osm/opensm-lfts.dump"
    e2e_expect_rc 0 "$IBRT" diff --lfts --fabric "$tag.net" "$out/opensm-lfts.dump" "$tag.fts"
    # The discovered topology carries the base LIDs the switches and CAs really answer on
    # (ibnetdiscover prints no CA LMC, so base LIDs are compared); they must be ours.
    "$IBRT" convert "$tag.net" --to guid2lid -o "$tag.disc.guid2lid"
    awk 'NF { print $1, $2 }' "$tag.disc.guid2lid" | sort >"$tag.disc.lids"
    awk 'NF { print $1, $2 }' "$out/guid2lid" | sort >"$tag.our.lids"
    [[ -s "$tag.our.lids" ]] || e2e_fail "$tag: our guid2lid is empty"
    cmp -s "$tag.our.lids" "$tag.disc.lids" ||
        e2e_fail "$tag: discovered base LIDs differ from ours:"$'\n'"$(diff "$tag.our.lids" "$tag.disc.lids" | head -n 10)"
    e2e_expect_rc 0 "$IBRT" check -q --no-balance --fabric "$tag.net" --lfts "$tag.fts"
    grep -q '^verdict: clean$' "$WORK/last.out" || e2e_fail "$tag: check verdict:"$'\n'"$(cat "$WORK/last.out")"
    echo "ok: $tag ($engine, LMC $lmc, top LID $top, $n entries) at ${SECONDS}s"
}

# fabric NAME GEN-ARGS...: a fresh simulator per fabric.
fabric() {
    local name=$1
    shift
    e2e_stop_ibsim
    "$IBRT" gen -q -o "$WORK/$name.net" "$@"
    e2e_start_ibsim "$WORK/$name.net"
}

fabric ft83 fat-tree -m 8 -n 3
accept ft83-mlid mlid "$WORK/ft83.net" 4
accept ft83-slid slid "$WORK/ft83.net" 0

fabric kary43 kary-ntree --k 4 --n 3
accept kary43-mlid mlid "$WORK/kary43.net" 4
accept kary43-slid slid "$WORK/kary43.net" 0

fabric clos36 clos --radix 36 --levels 2
accept clos36-mlid mlid "$WORK/clos36.net" 5
accept clos36-slid slid "$WORK/clos36.net" 0

# Negative control: one entry of the read-back changed must be reported, so the equality above
# is not vacuous.
awk 'NR > 1 && /^0x/ && !done { $2 = ($2 + 0 == 1 ? 2 : 1); done = 1 } { print }' \
    clos36-slid.fts >edited.fts
cmp -s clos36-slid.fts edited.fts && e2e_fail "negative control: the edit changed nothing"
e2e_expect_rc 1 "$IBRT" diff --lfts --fabric clos36-slid.net "$WORK/clos36-slid.offline/opensm-lfts.dump" edited.fts
grep -q '^1 difference$' "$WORK/last.out" || e2e_fail "negative control:"$'\n'"$(cat "$WORK/last.out")"
e2e_pass
