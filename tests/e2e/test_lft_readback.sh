#!/usr/bin/env bash
# What opensm says it programmed (opensm-lfts.dump, written from its new_lft) is what the
# simulated switches hold (dump_fts reads every LFT back through SMPs): `ibrt diff --lfts` of the
# two from one run is exit 0, for LMC 0 and LMC 1, and both contain exactly the expected number
# of entries. A one-entry edit must be reported exactly.
#
# infiniband-diags hide the top LID when it is a multiple of 64 (ibsim-e2e.md §9.7). The
# fixture has 8 end ports (3 switches, 5 CA ports): LIDs 1..8 at LMC 0 and 2..17 at LMC 1
# (opensm spaces every end port 2 LIDs apart), far from 64; the test checks that precondition.
# shellcheck source=tests/e2e/harness.sh
source "$(dirname "$0")/harness.sh"
e2e_init lft_readback

net="$E2E_FIXTURES/roundtrip.net"
e2e_start_ibsim "$net"

# readback LMC EXPECTED_ENTRIES: one sweep, then dump vs read-back. Entries per switch = the
# LIDs that reach an end port: 3 switch LIDs + 5 CA ports x 2^LMC.
readback() {
    local lmc=$1 entries=$2
    rm -f "$WORK/osm/guid2lid" # the previous run's LID ranges would be too narrow for LMC 1
    e2e_opensm -R minhop -l "$lmc"
    e2e_expect_engine minhop
    local dump="$WORK/osm/opensm-lfts.dump"
    local top
    top=$(sed -n 's/^Unicast lids \[0-\([0-9]*\)\].*/\1/p' "$dump" | sort -u)
    [[ "$top" =~ ^[0-9]+$ ]] || e2e_fail "LMC $lmc: switches disagree on the top LID: $top"
    ((top % 64 != 0)) || e2e_fail "LMC $lmc: top LID $top is a multiple of 64 (dump_fts bug)"
    local n
    n=$(grep -c '^0x' "$dump")
    ((n == 3 * entries)) || e2e_fail "LMC $lmc: opensm-lfts.dump has $n entries, expected $((3 * entries))"
    e2e_diag dump_fts >"fts-lmc$lmc.txt"
    n=$(grep -c '^0x' "fts-lmc$lmc.txt")
    ((n == 3 * entries)) || e2e_fail "LMC $lmc: dump_fts shows $n entries, expected $((3 * entries))"
    e2e_diag ibnetdiscover >"disc-lmc$lmc.net"
    e2e_expect_rc 0 "$IBRT" diff --lfts "$dump" "fts-lmc$lmc.txt"
    e2e_expect_rc 0 "$IBRT" diff --lfts --fabric "disc-lmc$lmc.net" "fts-lmc$lmc.txt" "$dump"
}

readback 0 8
readback 1 13

# Negative control on the LMC 1 tables: host-a's first LID now leaves spine-0 by port 4.
dump="$WORK/osm/opensm-lfts.dump"
awk '/^Unicast lids/ { sw = ($0 ~ /guid 0x0020000000000003 /) }
     sw && /portguid 0x0010000000000101: .host-a./ && !done { $2 = "004"; done = 1 } { print }' \
    "$dump" >edited.dump
lid=$(awk '/^Unicast lids/ { sw = ($0 ~ /guid 0x0020000000000003 /) }
     sw && /portguid 0x0010000000000101: .host-a./ { print $1; exit }' "$dump")
was=$(awk '/^Unicast lids/ { sw = ($0 ~ /guid 0x0020000000000003 /) }
     sw && /portguid 0x0010000000000101: .host-a./ { print $2 + 0; exit }' "$dump")
[[ -n "$lid" && "$was" != 4 ]] || e2e_fail "spine-0 has no entry for host-a or it already uses port 4"
lid=$((lid)) # hex -> decimal, as ibrt diff prints it
e2e_expect_rc 1 "$IBRT" diff --lfts --fabric disc-lmc1.net "$dump" edited.dump
expected="switch 'spine-0' (GUID 0x0020000000000003) LID $lid (CA 'host-a' (GUID 0x0010000000000100) port 1): A port $was, B port 4
1 difference"
[[ "$(cat "$WORK/last.out")" == "$expected" ]] ||
    e2e_fail "diff of the edited dump:"$'\n'"$(cat "$WORK/last.out")"$'\n'"expected:"$'\n'"$expected"
e2e_pass
