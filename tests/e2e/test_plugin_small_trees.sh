#!/usr/bin/env bash
# libibrt.so inside the real opensm 3.3.23 under ibsim (issue 5): mlid at its full LMC and
# slid at LMC 0 on FT(4,3) (paper 000's example tree) and a 4-ary 3-tree. Every run must be
# routed by our engine (no silent fallback), read back with dump_fts, pass `ibrt check`, and
# equal `ibrt route` offline on the LIDs opensm assigned. The FT(4,3) mlid run also enables
# QoS so opensm calls the plugin's SL2VL callbacks. Malformed plugin options are logged.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/harness.sh"
e2e_init plugin_small_trees
source "$HERE/plugin_lib.sh"
plugin_conf

"$IBRT" gen -q -o ft4-3.net fat-tree --ports 4 --levels 3
e2e_start_ibsim ft4-3.net
plugin_route_and_verify ft43-mlid mlid 2 -Q
plugin_route_and_verify ft43-slid slid 0
e2e_stop_ibsim

"$IBRT" gen -q -o k4n3.net kary-ntree --k 4 --n 3
e2e_start_ibsim k4n3.net
plugin_route_and_verify k4n3-mlid mlid 4
plugin_route_and_verify k4n3-slid slid 0

# A malformed event_plugin_options token is logged and ignored; the engine still routes.
# Another plugin's token (PLUGIN.key=value) is left alone, and said to be.
sed -i 's|^event_plugin_options .*|& colour=red seed=x .=. a.b.c=d other.key=value|' "$WORK/ibrt.conf"
e2e_opensm -F "$WORK/ibrt.conf" -R slid
e2e_expect_engine slid
grep -q "ERR IB04: ibrt event_plugin_options: unknown option 'colour' ignored (known: report, path_sl, seed, ENGINE.param)" \
    "$WORK/osm/osm.log" || e2e_fail "no logged error for the unknown option"
grep -q "ERR IB04: ibrt event_plugin_options: option 'seed=x': not an unsigned integer" \
    "$WORK/osm/osm.log" || e2e_fail "no logged error for the bad seed"
for tok in .=. a.b.c=d; do
    grep -qF "ERR IB04: ibrt event_plugin_options: option '$tok' ignored: neither ibrt's" \
        "$WORK/osm/osm.log" || e2e_fail "no logged error for the malformed token $tok"
done
grep -q "ibrt event_plugin_options: 'other.key=value' left to another plugin" "$WORK/osm/osm.log" ||
    e2e_fail "another plugin's token is not logged as left to it"
[[ $(grep -c "ERR IB04" "$WORK/osm/osm.log") == 4 ]] || e2e_fail "expected 4 ERR IB04 lines"

# An unwritable report is logged and the user's engine still routes (it used to fall back).
plugin_conf
sed -i 's|^event_plugin_options .*|event_plugin_options report=/no/such/dir/r.json|' "$WORK/ibrt.conf"
e2e_opensm -F "$WORK/ibrt.conf" -R mlid
e2e_expect_engine mlid
grep -q "ERR IB07: ibrt mlid: cannot write report /no/such/dir/r.json.tmp; the routes are installed all the same" \
    "$WORK/osm/osm.log" || e2e_fail "no logged error for the unwritable report"

# Engine parameters: one that takes effect only offline (paper_lids numbers the LIDs, which
# opensm assigns inside opensm) is logged as ignored, and mlid routes on opensm's LIDs; a
# misspelt one makes that engine decline, logged at load, and opensm falls back to the next
# engine instead of silently ignoring the setting.
plugin_conf
sed -i 's|^event_plugin_options .*|& mlid.paper_lids=true|' "$WORK/ibrt.conf"
e2e_opensm -F "$WORK/ibrt.conf" -R mlid
e2e_expect_engine mlid
grep -q "ERR IB04: ibrt event_plugin_options: option 'mlid.paper_lids=true' ignored: it takes effect only offline (ibrt route); opensm assigns the LIDs inside opensm" \
    "$WORK/osm/osm.log" || e2e_fail "mlid.paper_lids=true is not logged as ignored"
plugin_conf
sed -i 's|^event_plugin_options .*|& mlid.paper_lid=true|' "$WORK/ibrt.conf"
e2e_opensm -F "$WORK/ibrt.conf" -R mlid,minhop
e2e_expect_engine minhop
grep -q "ERR IB04: ibrt event_plugin_options: engine mlid has no option 'paper_lid' (options: paper_lids, adaptive_up); engine mlid will decline" \
    "$WORK/osm/osm.log" || e2e_fail "no load-time error for the bad engine option"
grep -q "ERR IB01: ibrt mlid declines this fabric: bad option in event_plugin_options" \
    "$WORK/osm/osm.log" || e2e_fail "mlid did not decline with its reason"
e2e_pass
