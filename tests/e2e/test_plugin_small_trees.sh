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
sed -i 's|^event_plugin_options .*|& colour=red seed=x|' "$WORK/ibrt.conf"
e2e_opensm -F "$WORK/ibrt.conf" -R slid
e2e_expect_engine slid
grep -q "ERR IB04: ibrt event_plugin_options: unknown option 'colour' (known: report, seed)" \
    "$WORK/osm/osm.log" || e2e_fail "no logged error for the unknown option"
grep -q "ERR IB04: ibrt event_plugin_options: option 'seed=x': not an unsigned integer" \
    "$WORK/osm/osm.log" || e2e_fail "no logged error for the bad seed"
e2e_pass
