#!/usr/bin/env bash
# A guid2lid we write is honoured by the real opensm: the fixture is a topology whose
# `lid N lmc M` comments hold a LID plan for LMC 1 (descending, aligned, unlike opensm's own
# choice); `ibrt convert --to guid2lid` turns it into opensm's file, opensm -l 1 sweeps with it
# in its cache dir, and ibnetdiscover then shows exactly those LIDs and LMCs (`ibrt diff --lids`
# exit 0). The simulator starts without LIDs (`convert --no-lids`), and a first sweep without
# the file must end with different LIDs (exit 1), so the pinned run really moved every LID.
# shellcheck source=tests/e2e/harness.sh
source "$(dirname "$0")/harness.sh"
e2e_init guid2lid

plan="$E2E_FIXTURES/guid2lid.net"
e2e_expect_rc 0 "$IBRT" convert "$plan" --to guid2lid -o guid2lid
# opensm's own format (osm_db_files.c: "%s %s\n\n"), one record per end port in file order.
expected='0x0010000000000101 0x0028 0x0029

0x0010000000000201 0x0024 0x0025

0x0010000000000202 0x0020 0x0021

0x0010000000000301 0x001c 0x001d

0x0020000000000001 0x0019 0x0019

0x0020000000000002 0x0017 0x0017
'
[[ "$(cat guid2lid; echo x)" == "$expected"$'\n'"x" ]] ||
    e2e_fail "guid2lid written:"$'\n'"$(cat guid2lid)"$'\n'"expected:"$'\n'"$expected"

e2e_expect_rc 0 "$IBRT" convert "$plan" --to ibnetdiscover --no-lids -o sim.net
e2e_start_ibsim sim.net
e2e_diag ibnetdiscover >disc-start.net
e2e_expect_rc 0 "$IBRT" diff "$plan" disc-start.net # same fabric, LIDs aside
e2e_expect_rc 0 "$IBRT" info --json disc-start.net
grep -q '"with_lid": 0,' "$WORK/last.out" || e2e_fail "ibsim started with LIDs set: $(cat "$WORK/last.out")"

# Control: without the file opensm assigns its own LIDs.
e2e_opensm -R minhop -l 1
e2e_expect_engine minhop
e2e_diag ibnetdiscover >disc-default.net
e2e_expect_rc 1 "$IBRT" diff --lids "$plan" disc-default.net
n=$(grep -c '^LID of' "$WORK/last.out")
((n == 6)) || e2e_fail "expected all 6 end ports to differ from the plan without guid2lid, got $n:"$'\n'"$(cat "$WORK/last.out")"

# Pinned: our file replaces the cache's guid2lid before opensm starts.
E2E_GUID2LID="$WORK/guid2lid" e2e_opensm -R minhop -l 1
e2e_expect_engine minhop
e2e_diag ibnetdiscover >disc-pinned.net
e2e_expect_rc 0 "$IBRT" diff --lids "$plan" disc-pinned.net
# opensm writes the file back after the sweep: it must hold the same records.
cmp -s "$WORK/osm/guid2lid" guid2lid || e2e_fail "opensm's guid2lid after the sweep differs:"$'\n'"$(cat "$WORK/osm/guid2lid")"
e2e_pass
