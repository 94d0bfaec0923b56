#!/usr/bin/env bash
# Offline round trips and exact outputs of `ibrt convert`, `ibrt diff` and `ibrt info` (no
# simulator): our writer's output reads back to the same fabric with the same LIDs; leaving the
# LIDs out is seen by `diff --lids`; an opensm-format and an ibroute-format LFT dump are compared
# entry by entry; bad input exits 2 naming file:line.
# shellcheck source=tests/e2e/harness.sh
source "$(dirname "$0")/harness.sh"
e2e_init roundtrip_cli

expect_out() { # expect_out TEXT: the last command's output is exactly TEXT
    [[ "$(cat "$WORK/last.out")" == "$1" ]] ||
        e2e_fail "output:"$'\n'"$(cat "$WORK/last.out")"$'\n'"expected:"$'\n'"$1"
}

rt="$E2E_FIXTURES/roundtrip.net"
plan="$E2E_FIXTURES/guid2lid.net"
e2e_expect_rc 0 "$IBRT" convert "$rt" --to ibnetdiscover -o rt.net
e2e_expect_rc 0 "$IBRT" diff --lids "$rt" rt.net
expect_out equal
e2e_expect_rc 0 "$IBRT" convert "$plan" --to ibnetdiscover -o plan.net
e2e_expect_rc 0 "$IBRT" diff --lids "$plan" plan.net
e2e_expect_rc 0 "$IBRT" convert "$plan" --to ibnetdiscover --no-lids -o nolids.net
e2e_expect_rc 0 "$IBRT" diff "$plan" nolids.net
e2e_expect_rc 1 "$IBRT" diff --lids --max 2 "$plan" nolids.net
expect_out "LID of CA 'host-a' (GUID 0x0010000000000100) port 1: A 40 lmc 1, B 0 lmc 0
LID of CA 'host-b' (GUID 0x0010000000000200) port 1: A 36 lmc 1, B 0 lmc 0
... 4 more not shown (--max)
6 differences"
e2e_expect_rc 1 "$IBRT" diff --lids --json --max 0 "$plan" nolids.net
grep -qxF '  "count": 6,' "$WORK/last.out" && grep -qxF '  "truncated": true' "$WORK/last.out" ||
    e2e_fail "diff --json: $(cat "$WORK/last.out")"

e2e_expect_rc 0 "$IBRT" info "$plan"
expect_out "fabric       $plan
nodes        2 switches, 3 CAs, 0 routers
links        6 (2 switch-switch, 4 switch-end, 0 end-end)
radix        8 ports: 2 switches
used ports   4: 2 switches
link types   4xSDR: 6
LIDs         6 of 6 end ports, max LID 41; LMC 0: 2 ports, LMC 1: 4 ports
components   1 (sizes 5)
levels       1: 2 switches"
e2e_expect_rc 0 "$IBRT" info --json "$plan"
grep -qxF '  "schema": "ibrt-info/1",' "$WORK/last.out" &&
    grep -qxF '    "max_lid": 41,' "$WORK/last.out" ||
    e2e_fail "info --json: $(cat "$WORK/last.out")"

# The same switch in opensm's format and in ibroute's, and a second switch only in B.
cat >a.dump <<'DUMP'
Unicast lids [0-3] of switch Lid 1 guid 0x0000000000000020 ('sw'):
0x0001 000 # Switch portguid 0x0000000000000020: 'sw'
0x0002 001 # Channel Adapter portguid 0x0000000000000011: 'h'
0x0003 002 # Channel Adapter portguid 0x0000000000000012: 'h2'
3 lids dumped
DUMP
cat >b.dump <<'DUMP'
Unicast lids [0x0-0x2] of switch Lid 1 guid 0x0000000000000020 (sw):
  Lid  Out   Destination
       Port     Info 
0x0001 000 : (Switch portguid 0x0000000000000020: 'sw')
0x0002 002 : (Channel Adapter portguid 0x0000000000000011: 'h')
2 valid lids dumped 
Unicast lids [0x0-0x1] of switch Lid 5 guid 0x0000000000000021 (sw2):
  Lid  Out   Destination
       Port     Info 
0x0001 003 : (Switch portguid 0x0000000000000020: 'sw')
1 valid lids dumped 
DUMP
e2e_expect_rc 1 "$IBRT" diff --lfts a.dump b.dump
expect_out "switch 'sw' (GUID 0x0000000000000020) LID 2: A port 1, B port 2
switch 'sw' (GUID 0x0000000000000020) LID 3: A port 2, B port none
only in B: switch 'sw2' (GUID 0x0000000000000021)
3 differences"
e2e_expect_rc 0 "$IBRT" diff --lfts a.dump a.dump
expect_out equal

# Bad input: exit 2 and the message names the file and line.
printf 'Switch\t2 "a"\n[1]\t"b"[1]\n' >bad.net
e2e_expect_rc 2 "$IBRT" diff "$rt" bad.net
grep -q '^ibrt: bad.net:2: ' "$WORK/last.out" || e2e_fail "no file:line: $(cat "$WORK/last.out")"
printf 'Unicast lids [0-3] of switch Lid 1 guid 0x0000000000000020 (x):\n0x0001 zz\n' >bad.dump
e2e_expect_rc 2 "$IBRT" diff --lfts a.dump bad.dump
grep -q '^ibrt: bad.dump:2: ' "$WORK/last.out" || e2e_fail "no file:line: $(cat "$WORK/last.out")"
e2e_expect_rc 2 "$IBRT" convert bad.net --to guid2lid
grep -q '^ibrt: bad.net:2: ' "$WORK/last.out" || e2e_fail "no file:line: $(cat "$WORK/last.out")"
e2e_expect_rc 2 "$IBRT" diff --lids --lfts a.dump b.dump
e2e_pass
