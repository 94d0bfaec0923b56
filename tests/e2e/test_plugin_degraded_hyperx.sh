#!/usr/bin/env bash
# Issue 37: a degraded HyperX the flatfly engine used to decline is routed by it inside the real
# opensm 3.3.23 under ibsim. The 4x4x4 HyperX (2 CAs per switch) with 5 % of its switches and
# 10 % of its cables failed (seed 1): some destination switches were reached by no dimension
# order with one detour per dimension, so the plugin declined and opensm fell back to minhop.
# Now those destinations go on the escape VL (engines/common/escape_layer.hpp: Up*/Down*, on
# the lowest SL and the VL after the orders' and detour layers'). With QoS on, opensm programs
# the engine's SL2VL tables; the path SLs are the ones the SA hands out (a sample on the escape
# SL is held against saquery's answers). Read back from the switches with dump_fts, the tables
# pass `ibrt check` with those SLs and SL2VL, and ibdmchk agrees.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/harness.sh"
e2e_init plugin_degraded_hyperx
source "$HERE/plugin_lib.sh"
PATH="$PATH:/usr/sbin:/sbin"

"$IBRT" gen -q -o d.net --fail-switches 0.05 --fail-links 0.1 --seed 1 hyperx --k 4,4,4 --cas 2
# Offline, as the ports' VLs allow: 8 (orders, then the escape VL), 4 (one order and the
# escape VL), 2 (declined, saying how many that plan needs).
e2e_expect_rc 0 "$IBRT" route --engine flatfly --fabric d.net --data-vls 4 --out offline
grep -q "one_order_for_the_vls 1" "$WORK/last.out" ||
    e2e_fail "flatfly with 4 data VLs: $(head -n 5 "$WORK/last.out")"
e2e_expect_rc 2 "$IBRT" route --engine flatfly --fabric d.net --data-vls 2 --out offline
grep -q "needs 4 data VLs but" "$WORK/last.out" ||
    e2e_fail "flatfly with 2 data VLs: $(head -n 3 "$WORK/last.out")"
e2e_start_ibsim d.net

osm="$WORK/osm-flatfly"
mkdir -p "$osm"
printf 'event_plugin_name ibrt\nevent_plugin_options path_sl=%s report=%s\n' \
    "$osm/plugin.psl" "$osm/report.json" >"$osm/conf"
e2e_opensm_up "$osm" "SUBNET UP" -Q -R flatfly -F "$osm/conf"
grep -q "flatfly tables configured on all switches" "$osm/osm.log" ||
    e2e_fail "flatfly did not route the degraded HyperX: $(grep -E 'ibrt|ERR' "$osm/osm.log" | tail -n 5)"
escape_sl=$(python3 - "$osm/report.json" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
# The report holds the engine's stats; the last sweep's come last.
i = text.rfind('"escape_sl"')
assert i >= 0 and '"escaped_switches"' in text, text[:500]
print(int(float(text[i:].split(":", 1)[1].split(",")[0].split("}")[0])))
PY
) || e2e_fail "flatfly: no escape SL in the report"
[[ -s "$osm/plugin.psl" ]] || e2e_fail "flatfly: no path_sl= file"
e2e_diag ibnetdiscover >hx.net
e2e_diag dump_fts >hx.fts
files=(--fabric hx.net --lfts hx.fts --guid2lid "$osm/guid2lid" --sl2vl "$osm/opensm-sl2vl.dump")
if top_lid_ok "$osm"; then
    e2e_expect_rc 0 "$IBRT" diff --lfts --fabric hx.net "$osm/opensm-lfts.dump" hx.fts
fi
awk -v sl="$escape_sl" '/^0x/ && $3 == sl && n++ < 12' "$osm/plugin.psl" >hx.escape-pairs
[[ -s hx.escape-pairs ]] || e2e_fail "flatfly: no pair on SL $escape_sl in the path_sl= file"
e2e_expect_rc 0 "$IBRT" sa-path-sls -q -j 4 --pairs hx.escape-pairs \
    --fabric hx.net --guid2lid "$osm/guid2lid" --out hx.sa.psl \
    --saquery "env LD_PRELOAD=$E2E_UMAD2SIM timeout 20 saquery"
missing=$(grep '^0x' hx.sa.psl | grep -vxFf "$osm/plugin.psl" | head -n 3 || true)
[[ -z "$missing" ]] || e2e_fail "flatfly: the SA's SLs differ from the path_sl= file: $missing"
(($(grep -c '^0x' hx.sa.psl) > 0)) || e2e_fail "flatfly: the SA answered none of the pairs"
e2e_expect_rc 0 "$IBRT" check -q --no-balance "${files[@]}" --path-sl "$osm/plugin.psl"
ibdmchk_run "$WORK/hx.ibdm" "$osm/opensm-subnet.lst" "$osm/opensm.fdbs" \
    -c "$osm/plugin.psl" -d "$osm/opensm-sl2vl.dump"
[[ $IBDM_FAILS == 0 && $IBDM_LOOP == no && ${IBDM_PATHS:-0} -gt 0 ]] ||
    e2e_fail "ibdmchk on flatfly's tables: $IBDM_PATHS paths, $IBDM_FAILS failures, loop $IBDM_LOOP"
e2e_stop_sm "$E2E_OSM_PID"
echo "ok: flatfly routes the degraded HyperX ($(grep -o '"escape_dlids": [0-9]*' "$osm/report.json" | tail -n 1), ibdmchk: $IBDM_PATHS paths, no loop)"
e2e_pass
