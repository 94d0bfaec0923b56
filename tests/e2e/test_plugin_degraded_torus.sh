#!/usr/bin/env bash
# Issue 37: a degraded torus the torus engine used to decline is routed by it inside the real
# opensm 3.3.23 under ibsim. The 5x5x4 torus with 5 % of its cables failed (seed 4): the
# routes around the failures closed a credit loop, so the plugin declined and opensm fell back
# to minhop, whose tables have credit loops. Now the destinations that closed it go on the
# escape VL (engines/common/escape_layer.hpp: Up*/Down*, path SL 8 above the three dateline
# bits). With QoS on, opensm programs the engine's SL2VL tables; the path SLs are the ones the
# SA hands out (the plugin's path_sl= file asks the same callback, and a sample on the escape
# SL is held against saquery's answers). Read back from the switches with dump_fts, the tables
# pass `ibrt check` with those SLs and SL2VL, and fail with every path on SL 0.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/harness.sh"
e2e_init plugin_degraded_torus
source "$HERE/plugin_lib.sh"
PATH="$PATH:/usr/sbin:/sbin"

"$IBRT" gen -q -o d.net --fail-links 0.05 --seed 4 torus --k 5,5,4
e2e_start_ibsim d.net

osm="$WORK/osm-torus"
mkdir -p "$osm"
printf 'event_plugin_name ibrt\nevent_plugin_options path_sl=%s report=%s\n' \
    "$osm/plugin.psl" "$osm/report.json" >"$osm/conf"
e2e_opensm_up "$osm" "SUBNET UP" -Q -R torus -F "$osm/conf"
grep -q "torus tables configured on all switches" "$osm/osm.log" ||
    e2e_fail "torus did not route the degraded torus: $(grep -E 'ibrt|ERR' "$osm/osm.log" | tail -n 5)"
escape_sl=$(python3 - "$osm/report.json" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
# The report holds the engine's stats; the last sweep's come last.
i = text.rfind('"escape_sl"')
assert i >= 0 and '"escaped_credit_loop"' in text, text[:500]
print(int(float(text[i:].split(":", 1)[1].split(",")[0].split("}")[0])))
PY
) || e2e_fail "torus: no escape SL in the report"
[[ $escape_sl == 8 ]] || e2e_fail "torus: escape SL $escape_sl, not 8"
[[ -s "$osm/plugin.psl" ]] || e2e_fail "torus: no path_sl= file"
e2e_diag ibnetdiscover >torus.net
e2e_diag dump_fts >torus.fts
files=(--fabric torus.net --lfts torus.fts --guid2lid "$osm/guid2lid" --sl2vl "$osm/opensm-sl2vl.dump")
# The switches hold what opensm says it programmed.
if top_lid_ok "$osm"; then
    e2e_expect_rc 0 "$IBRT" diff --lfts --fabric torus.net "$osm/opensm-lfts.dump" torus.fts
fi
# The escape pairs are on SL 8 in the SA's answers too: a sample of them asked by saquery.
awk -v sl="$escape_sl" '/^0x/ && $3 == sl && n++ < 12' "$osm/plugin.psl" >torus.escape-pairs
[[ -s torus.escape-pairs ]] || e2e_fail "torus: no pair on SL $escape_sl in the path_sl= file"
e2e_expect_rc 0 "$IBRT" sa-path-sls -q -j 4 --pairs torus.escape-pairs \
    --fabric torus.net --guid2lid "$osm/guid2lid" --out torus.sa.psl \
    --saquery "env LD_PRELOAD=$E2E_UMAD2SIM timeout 20 saquery"
missing=$(grep '^0x' torus.sa.psl | grep -vxFf "$osm/plugin.psl" | head -n 3 || true)
[[ -z "$missing" ]] || e2e_fail "torus: the SA's SLs differ from the path_sl= file: $missing"
(($(grep -c '^0x' torus.sa.psl) > 0)) || e2e_fail "torus: the SA answered none of the pairs"
# Clean with the SLs and SL2VL tables, a credit loop with every path on SL 0.
e2e_expect_rc 0 "$IBRT" check -q --no-balance "${files[@]}" --path-sl "$osm/plugin.psl"
e2e_expect_rc 1 "$IBRT" check -q --no-balance "${files[@]}" --assume-sl 0
grep -q "credit loop" "$WORK/last.out" || e2e_fail "torus on SL 0: $(grep deadlock "$WORK/last.out")"
e2e_stop_sm "$E2E_OSM_PID"
echo "ok: torus routes the degraded 5x5x4 torus ($(grep -o '"escape_dlids": [0-9]*' "$osm/report.json" | tail -n 1))"
e2e_pass
