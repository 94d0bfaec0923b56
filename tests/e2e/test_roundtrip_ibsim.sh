#!/usr/bin/env bash
# A fabric we wrote loads into ibsim, and ibnetdiscover's view of the simulated fabric is the
# same fabric: same node GUIDs, CA port GUIDs, descriptions, cables and link width/speed
# (`ibrt diff` exit 0). Checked for the hand-written fixture (1x/4x/12x, SDR..EDR, parallel
# cables, a 2-port CA on two leaves), for our own normalized rewrite of it (`ibrt convert`),
# and for a fat tree from `ibrt gen`. Finally `ibrt diff` must report a
# changed cable and description exactly, so the equalities above cannot pass vacuously.
# shellcheck source=tests/e2e/harness.sh
source "$(dirname "$0")/harness.sh"
e2e_init roundtrip_ibsim

net="$E2E_FIXTURES/roundtrip.net"
e2e_start_ibsim "$net"
e2e_diag ibnetdiscover >disc.net
e2e_expect_rc 0 "$IBRT" diff --lids "$net" disc.net
[[ "$(cat "$WORK/last.out")" == "equal" ]] || e2e_fail "unexpected diff output: $(cat "$WORK/last.out")"
e2e_expect_rc 0 "$IBRT" info disc.net
expected='fabric       disc.net
nodes        3 switches, 4 CAs, 0 routers
links        10 (5 switch-switch, 5 switch-end, 0 end-end)
radix        8 ports: 3 switches
used ports   4: 1 switch, 5: 1 switch, 6: 1 switch
link types   1xSDR: 1, 1xDDR: 1, 4xDDR: 1, 4xFDR: 2, 4xEDR: 4, 12xQDR: 1
LIDs         0 of 8 end ports, max LID 0
components   1 (sizes 7)
levels       1: 2 switches, 2: 1 switch'
[[ "$(cat "$WORK/last.out")" == "$expected" ]] ||
    e2e_fail "ibrt info of the discovered fabric:"$'\n'"$(cat "$WORK/last.out")"
e2e_stop_ibsim

# Our writer's output is a valid ibsim net file describing the same fabric.
e2e_expect_rc 0 "$IBRT" convert "$net" --to ibnetdiscover -o normalized.net
e2e_start_ibsim normalized.net
e2e_diag ibnetdiscover >disc2.net
e2e_expect_rc 0 "$IBRT" diff "$net" disc2.net
e2e_stop_ibsim

# A generated 3-level fat tree FT(8,3) (80 switches, 128 CAs, 384 cables), all 4xHDR.
e2e_expect_rc 0 "$IBRT" gen fat-tree -m 8 -n 3 --link-speed HDR -q -o ft.net
e2e_start_ibsim ft.net
e2e_diag ibnetdiscover >disc-ft.net
e2e_expect_rc 0 "$IBRT" diff ft.net disc-ft.net
e2e_expect_rc 0 "$IBRT" info disc-ft.net
for line in 'nodes        80 switches, 128 CAs, 0 routers' \
    'links        384 (256 switch-switch, 128 switch-end, 0 end-end)' \
    'link types   4xHDR: 384' 'components   1 (sizes 208)' \
    'levels       1: 32 switches, 2: 32 switches, 3: 16 switches'; do
    grep -qxF "$line" "$WORK/last.out" || e2e_fail "ibrt info of the fat tree lacks '$line':"$'\n'"$(cat "$WORK/last.out")"
done
e2e_stop_ibsim

# Negative control: one cable's width and one description changed.
sed -e 's/"leaf-1" lid 0 1xDDR/"leaf-1" lid 0 4xDDR/' -e 's/"leaf-0" lid 0 1xDDR/"leaf-0" lid 0 4xDDR/' \
    -e 's/# "host-d"$/# "host-x"/' "$net" >changed.net
e2e_expect_rc 1 "$IBRT" diff disc.net changed.net
expected="CA 'host-d' (GUID 0x0010000000000400): description A \"host-d\", B \"host-x\"
link switch 'leaf-0' (GUID 0x0020000000000001) port 7 <-> switch 'leaf-1' (GUID 0x0020000000000002) port 7: A 1xDDR, B 4xDDR
2 differences"
[[ "$(cat "$WORK/last.out")" == "$expected" ]] ||
    e2e_fail "diff of the changed fabric:"$'\n'"$(cat "$WORK/last.out")"$'\n'"expected:"$'\n'"$expected"
e2e_pass
