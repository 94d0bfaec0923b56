#!/usr/bin/env bash
# The plugin never takes the SM down and declines cleanly (issue 5):
#  - a torus with `routing_engine mlid,updn`: mlid logs why it declines, updn routes;
#  - a fat tree with failed cables: mlid routes around them or declines; either way opensm
#    exits 0 and every pair stays reachable;
#  - an irregular cluster (mixed switch models, uneven and missing uplinks, 2-port HCAs with
#    one port cabled, a server on both spines): mlid routes it or declines; same guarantee.
# Each run's tables are read back from the switches and must pass `ibrt check`.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/harness.sh"
e2e_init plugin_fallback
source "$HERE/plugin_lib.sh"
plugin_conf

# sweep_mlid_or_fallback TAG LMC [opensm args]: one sweep with mlid,updn; prints which engine
# routed.
sweep_mlid_or_fallback() {
    local tag=$1 lmc=$2
    shift 2
    rm -f "$WORK/osm/guid2lid"
    e2e_opensm -F "$WORK/ibrt.conf" -R mlid,updn -l "$lmc" "$@"
    local log="$WORK/osm/osm.log" used
    if grep -q "mlid tables configured on all switches" "$log"; then
        used=mlid
    elif grep -q "updn tables configured on all switches" "$log"; then
        grep -q "ERR IB01: ibrt mlid declines this fabric: " "$log" ||
            e2e_fail "$tag: updn routed but mlid logged no reason"
        used=updn
    else
        e2e_fail "$tag: neither mlid nor updn routed:"$'\n'"$(grep -E 'configured|ERR' "$log" | tail)"
    fi
    e2e_diag ibnetdiscover >"$tag.net"
    e2e_diag dump_fts >"$tag.fts"
    e2e_expect_rc 0 "$IBRT" check --fabric "$tag.net" --lfts "$WORK/osm/opensm-lfts.dump"
    echo "$used"
}

"$IBRT" gen -q -o torus.net torus --k 3,3
e2e_start_ibsim torus.net
# A torus is symmetric, so updn finds no root by itself ("no root nodes were found"); as on a
# real cluster, it is given one: the first switch.
sed -n 's/^switchguid=\(0x[0-9a-f]*\).*/\1/p' torus.net | head -n 1 >roots.txt
used=$(sweep_mlid_or_fallback torus 0 -a "$WORK/roots.txt")
[[ "$used" == updn ]] || e2e_fail "mlid must decline a torus, but $used routed it"
grep -q "ERR IB01: ibrt mlid declines this fabric: .*not a fat tree" "$WORK/osm/osm.log" ||
    e2e_fail "torus: decline reason:"$'\n'"$(grep IB01 "$WORK/osm/osm.log")"
e2e_stop_ibsim

"$IBRT" gen -q --fail-links 4 --keep-connected --seed 3 -o degraded.net fat-tree --ports 8 --levels 3
e2e_start_ibsim degraded.net
used=$(sweep_mlid_or_fallback degraded 2)
echo "degraded FT(8,3): routed by $used"
e2e_stop_ibsim

e2e_start_ibsim "$E2E_FIXTURES/irregular-cluster.net"
# The server cabled to both spines hides the tree from updn's root search too, so a root is
# named, as an operator of such a cluster does. It must be spine-b: leaf-4 lost its cable to
# spine-a, and with both spines as roots updn leaves 17 pairs unroutable (spine-a -> leaf-4
# would need down-up-down), which `ibrt check` reports.
echo 0x98039b0300a20000 >root.txt
used=$(sweep_mlid_or_fallback irregular 1 -a "$WORK/root.txt")
echo "irregular cluster: routed by $used"
e2e_pass
