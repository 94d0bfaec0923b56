#!/usr/bin/env bash
# libibrt.so inside the real opensm under ibsim on FT(8,3) (128 CAs, 80 switches; mlid at
# LMC 4 = log2((m/2)^(n-1))) and a 36-port 2-level tree (648 CAs, 54 switches; 18 paths per
# pair, routed at LMC 4 so mlid must spread 18 paths over 16 LIDs), plus slid at LMC 0 on
# each. Same acceptance checks as the small trees.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/harness.sh"
e2e_init plugin_large_trees
source "$HERE/plugin_lib.sh"
plugin_conf

"$IBRT" gen -q -o ft8-3.net fat-tree --ports 8 --levels 3
e2e_start_ibsim ft8-3.net
plugin_route_and_verify ft83-mlid mlid 4
plugin_route_and_verify ft83-slid slid 0
e2e_stop_ibsim

"$IBRT" gen -q -o clos36.net clos --radix 36 --levels 2
e2e_start_ibsim clos36.net
plugin_route_and_verify clos36-mlid mlid 4
plugin_route_and_verify clos36-slid slid 0
e2e_pass
