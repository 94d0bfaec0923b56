#!/usr/bin/env bash
# Issue 37: a degraded Dragonfly+ (leaf/spine groups, spines joined in the relative
# arrangement) routed by the dragonfly-plus engine inside the real opensm 3.3.23 under ibsim,
# with LMC 1 so that every host has a second LID routed through an intermediate group on SL 1.
# 3 leaves and 3 spines per group, 3 hosts per leaf, 3 global links per spine (10 groups), 5 %
# of the switches and 5 % of the cables out (seed 2). With QoS on, opensm programs the engine's
# SL2VL tables; a sample of the pairs on SL 1 and on layers is held against saquery's answers.
# Read back from the switches with dump_fts, the tables pass `ibrt check` with the SA's SLs and
# the SL2VL tables, and ibdmchk agrees.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/harness.sh"
e2e_init plugin_degraded_dragonfly_plus
source "$HERE/plugin_lib.sh"
PATH="$PATH:/usr/sbin:/sbin"

"$IBRT" gen -q -o d.net --fail-switches 0.05 --fail-links 0.05 --keep-connected --seed 2 \
    dragonfly-plus --balanced 3 --arrangement relative
e2e_start_ibsim d.net

osm="$WORK/osm-dfplus"
mkdir -p "$osm"
printf 'event_plugin_name ibrt\nevent_plugin_options path_sl=%s report=%s\n' \
    "$osm/plugin.psl" "$osm/report.json" >"$osm/conf"
e2e_opensm_up "$osm" "SUBNET UP" -Q -l 1 -R dragonfly-plus -F "$osm/conf"
grep -q "dragonfly-plus tables configured on all switches" "$osm/osm.log" ||
    e2e_fail "dragonfly-plus did not route the degraded Dragonfly+: $(grep -E 'ibrt|ERR' "$osm/osm.log" | tail -n 5)"
[[ -s "$osm/plugin.psl" ]] || e2e_fail "dragonfly-plus: no path_sl= file"
e2e_diag ibnetdiscover >df.net
e2e_diag dump_fts >df.fts
files=(--fabric df.net --lfts df.fts --guid2lid "$osm/guid2lid" --sl2vl "$osm/opensm-sl2vl.dump")
if top_lid_ok "$osm"; then
    e2e_expect_rc 0 "$IBRT" diff --lfts --fabric df.net "$osm/opensm-lfts.dump" df.fts
fi
# Pairs on SL 1 (alternatives) and on a layer's SL (2 and up), asked of the SA.
awk '/^0x/ && $3 == 1 && n++ < 8' "$osm/plugin.psl" >df.pairs
[[ -s df.pairs ]] || e2e_fail "dragonfly-plus: no pair on SL 1 in the path_sl= file"
awk '/^0x/ && $3 >= 2 && n++ < 8' "$osm/plugin.psl" >>df.pairs
(($(wc -l <df.pairs) > 8)) || e2e_fail "dragonfly-plus: no pair on a layer's SL in the path_sl= file"
e2e_expect_rc 0 "$IBRT" sa-path-sls -q -j 4 --pairs df.pairs \
    --fabric df.net --guid2lid "$osm/guid2lid" --out df.sa.psl \
    --saquery "env LD_PRELOAD=$E2E_UMAD2SIM timeout 20 saquery"
missing=$(grep '^0x' df.sa.psl | grep -vxFf "$osm/plugin.psl" | head -n 3 || true)
[[ -z "$missing" ]] || e2e_fail "dragonfly-plus: the SA's SLs differ from the path_sl= file: $missing"
(($(grep -c '^0x' df.sa.psl) > 0)) || e2e_fail "dragonfly-plus: the SA answered none of the pairs"
e2e_expect_rc 0 "$IBRT" check -q --no-balance "${files[@]}" --path-sl "$osm/plugin.psl"
ibdmchk_run "$WORK/df.ibdm" "$osm/opensm-subnet.lst" "$osm/opensm.fdbs" \
    -c "$osm/plugin.psl" -d "$osm/opensm-sl2vl.dump"
[[ $IBDM_FAILS == 0 && $IBDM_LOOP == no && ${IBDM_PATHS:-0} -gt 0 ]] ||
    e2e_fail "ibdmchk on dragonfly-plus's tables: $IBDM_PATHS paths, $IBDM_FAILS failures, loop $IBDM_LOOP"
e2e_stop_sm "$E2E_OSM_PID"
echo "ok: dragonfly-plus routes the degraded Dragonfly+ with LMC 1 (ibdmchk: $IBDM_PATHS paths, no loop)"
e2e_pass
