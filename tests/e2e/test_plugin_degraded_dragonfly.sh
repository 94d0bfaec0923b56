#!/usr/bin/env bash
# Issue 37: a degraded Dragonfly cabled in the relative (palm tree) arrangement, which the
# mapping refused before any damage, routed by the dragonfly engine inside the real opensm
# 3.3.23 under ibsim. K = 6, G = 3 (19 groups), 5 % of the switches and 5 % of the cables out
# (seed 1): routes around the missing cables take detours on VL layers selected by path SL.
# With QoS on, opensm programs the engine's SL2VL tables; a sample of the pairs on a layer's SL
# is held against saquery's answers. Read back from the switches with dump_fts, the tables pass
# `ibrt check` with the SA's SLs and the SL2VL tables, and ibdmchk agrees.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/harness.sh"
e2e_init plugin_degraded_dragonfly
source "$HERE/plugin_lib.sh"
PATH="$PATH:/usr/sbin:/sbin"

"$IBRT" gen -q -o d.net --fail-switches 0.05 --fail-links 0.05 --keep-connected --seed 1 \
    dragonfly --a 6 --h 3 --p 2 --arrangement relative
e2e_start_ibsim d.net

osm="$WORK/osm-dragonfly"
mkdir -p "$osm"
printf 'event_plugin_name ibrt\nevent_plugin_options path_sl=%s report=%s\n' \
    "$osm/plugin.psl" "$osm/report.json" >"$osm/conf"
e2e_opensm_up "$osm" "SUBNET UP" -Q -R dragonfly -F "$osm/conf"
grep -q "dragonfly tables configured on all switches" "$osm/osm.log" ||
    e2e_fail "dragonfly did not route the degraded Dragonfly: $(grep -E 'ibrt|ERR' "$osm/osm.log" | tail -n 5)"
[[ -s "$osm/plugin.psl" ]] || e2e_fail "dragonfly: no path_sl= file"
e2e_diag ibnetdiscover >df.net
e2e_diag dump_fts >df.fts
files=(--fabric df.net --lfts df.fts --guid2lid "$osm/guid2lid" --sl2vl "$osm/opensm-sl2vl.dump")
if top_lid_ok "$osm"; then
    e2e_expect_rc 0 "$IBRT" diff --lfts --fabric df.net "$osm/opensm-lfts.dump" df.fts
fi
# Pairs on a layer's SL (not 0) in the path_sl= file, asked of the SA.
awk '/^0x/ && $3 != 0 && n++ < 12' "$osm/plugin.psl" >df.layer-pairs
[[ -s df.layer-pairs ]] || e2e_fail "dragonfly: no pair on a layer's SL in the path_sl= file"
e2e_expect_rc 0 "$IBRT" sa-path-sls -q -j 4 --pairs df.layer-pairs \
    --fabric df.net --guid2lid "$osm/guid2lid" --out df.sa.psl \
    --saquery "env LD_PRELOAD=$E2E_UMAD2SIM timeout 20 saquery"
missing=$(grep '^0x' df.sa.psl | grep -vxFf "$osm/plugin.psl" | head -n 3 || true)
[[ -z "$missing" ]] || e2e_fail "dragonfly: the SA's SLs differ from the path_sl= file: $missing"
(($(grep -c '^0x' df.sa.psl) > 0)) || e2e_fail "dragonfly: the SA answered none of the pairs"
e2e_expect_rc 0 "$IBRT" check -q --no-balance "${files[@]}" --path-sl "$osm/plugin.psl"
ibdmchk_run "$WORK/df.ibdm" "$osm/opensm-subnet.lst" "$osm/opensm.fdbs" \
    -c "$osm/plugin.psl" -d "$osm/opensm-sl2vl.dump"
[[ $IBDM_FAILS == 0 && $IBDM_LOOP == no && ${IBDM_PATHS:-0} -gt 0 ]] ||
    e2e_fail "ibdmchk on dragonfly's tables: $IBDM_PATHS paths, $IBDM_FAILS failures, loop $IBDM_LOOP"
e2e_stop_sm "$E2E_OSM_PID"
echo "ok: dragonfly routes the degraded relative-wired Dragonfly (ibdmchk: $IBDM_PATHS paths, no loop)"
e2e_pass
