#!/usr/bin/env bash
# The direct-topology engines (paper 003 §3.3, §3.5) inside the real opensm 3.3.23 under
# ibsim, each on a degraded fabric, mapped from the cabling opensm discovered: flatfly on a
# HyperX with a failed switch (two dimension orders, so two path SLs), dragonfly on a
# Dragonfly with a failed global link (an intermediate group; SL2VL by input port class),
# torus on a 5x4x2 torus with a failed link (a dateline bit per ring of 4 or more: 4 SLs),
# slimfly on a pristine Slim Fly q = 4 (32 switches; SL2VL by input port class, every SL alike)
# and on a q = 5 (50 switches) with a failed switch and 4 failed links (its long paths in two
# layers of VLs: 2 SLs), and on a Slim Fly x FlatFly (q = 3 times K3, 54 switches: DOR with the
# Slim Fly first, 2 VLs). One CA per switch: the SA is asked pair by pair under ibsim.
# Their SL2VL tables reach the switches through update_sl2vl, which opensm calls only with
# QoS on, and their path SLs reach the SA through path_sl. Read back from the running SM: LFTs
# equal the offline tables on the same LIDs, the SA hands out the engine's SLs, and
# `ibrt check` with the switches' SL2VL tables and those SLs is clean. Without QoS an engine
# that needs SL2VL tables declines instead.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/harness.sh"
e2e_init plugin_direct
source "$HERE/plugin_lib.sh"
PATH="$PATH:/usr/sbin:/sbin"

# run_engine ENGINE NET SLS: a running SM with QoS routes NET with ENGINE; SLS distinct path
# SLs expected from the SA (0: the engine sets none, its tables treat every SL alike, and
# the SA keeps opensm's own).
run_engine() {
    local engine=$1 net=$2 want_sls=$3
    e2e_start_ibsim "$net"
    plugin_conf "qos TRUE"
    osm="$WORK/osm"
    rm -rf "$osm" # opensm appends to its log: each engine's run is judged on its own
    e2e_opensm_up "$osm" "SUBNET UP" -Q -F "$WORK/ibrt.conf" -R $engine,updn
    e2e_expect_engine $engine
    grep -q "ibrt $engine: routed" "$osm/osm.log" || e2e_fail "no ibrt routing line in the log"
    [[ -s "$osm/opensm-sl2vl.dump" ]] || e2e_fail "no opensm-sl2vl.dump"

    e2e_diag ibnetdiscover >$engine.net
    files=(--fabric $engine.net --lfts "$osm/opensm-lfts.dump" --guid2lid "$osm/guid2lid"
        --sl2vl "$osm/opensm-sl2vl.dump")
    if ((want_sls > 1)); then e2e_expect_rc 3 "$IBRT" check -q --no-balance "${files[@]}"; fi
    # The SLs of the host-to-host paths (one saquery per pair under ibsim, ~0.1 s each).
    e2e_expect_rc 0 "$IBRT" sa-path-sls -q -j 4 --to-end-ports --fabric $engine.net \
        --guid2lid "$osm/guid2lid" --out $engine.psl \
        --saquery "env LD_PRELOAD=$E2E_UMAD2SIM timeout 20 saquery"
    nsl=$(awk '/^0x/ {print $3}' $engine.psl | sort -u | wc -l)
    ((want_sls == 0 || nsl == want_sls)) ||
        e2e_fail "$engine: the SA gave $nsl distinct SLs, expected $want_sls"
    e2e_expect_rc 0 "$IBRT" check -q --no-balance --end-ports-only "${files[@]}" --path-sl $engine.psl

    # Offline on the LIDs opensm assigned: the same LFTs and the same SL2VL tables.
    e2e_expect_rc 0 "$IBRT" route --engine $engine --fabric $engine.net --lids-from-fabric --out $engine.offline
    e2e_expect_rc 0 "$IBRT" diff --lfts --fabric $engine.net $engine.offline/opensm-lfts.dump "$osm/opensm-lfts.dump"
    # The SA hands out the offline path SLs (a pair the offline file leaves out is SL 0).
    python3 - $engine.offline/path-sl $engine.psl <<'PY' || e2e_fail "SA path SLs differ from the offline ones"
import sys
def sls(path):
    return {tuple(l.split()[:2]): l.split()[2] for l in open(path) if l.startswith("0x")}
offline, sa = sls(sys.argv[1]), sls(sys.argv[2])
bad = [k for k, v in sa.items() if offline.get(k, "0") != v]
print(f"{len(sa)} SA path SLs, {len(bad)} differ from offline", bad[:5])
sys.exit(1 if bad or not sa else 0)
PY
    # SL2VL: every (switch, in port, out port) row the switches hold equals the offline row
    # (opensm dumps switches in its own order and leaves out ports that are down; the offline
    # dump lists every port pair). CAs keep opensm's default table (SL mod VLs): the engine sets
    # none, and a CA's first hop cannot close a credit loop.
    python3 - $engine.offline/opensm-sl2vl.dump "$osm/opensm-sl2vl.dump" <<'PY' || e2e_fail "SL2VL tables differ from the offline ones"
import re, sys
def rows(path):
    out, node = {}, None
    for line in open(path):
        m = re.match(r"(Switch|Channel Adapter|Router) (0x[0-9a-f]+)", line)
        if m:
            node = int(m.group(2), 16)
            continue
        m = re.match(r"\s*(\d+)\s+(\d+)\s*:\s*([\d ]+)$", line)
        if m and node is not None:
            out[(node, int(m.group(1)), int(m.group(2)))] = m.group(3).split()
    return out
offline, live = rows(sys.argv[1]), rows(sys.argv[2])
switches = {k[0] for k in offline}
live = {k: v for k, v in live.items() if k[0] in switches}
assert len(live) > 100, len(live)
bad = [k for k, v in live.items() if offline.get(k) != v]
for k in bad[:10]:
    print("differs:", k, live[k], offline.get(k))
print(f"{len(live)} live SL2VL rows, {len(bad)} differ")
sys.exit(1 if bad else 0)
PY
    e2e_stop_sm "$E2E_OSM_PID"
    echo "ok: $engine under opensm: $nsl SLs, SL2VL and LFTs as offline"

    e2e_stop_ibsim
}

"$IBRT" gen -q -o hx.net --fail-switch sw-1.1 hyperx --k 4,4 --cas 2
"$IBRT" gen -q -o df.net --fail-link 'sw-g0-0[6]' dragonfly --a 4 --h 2 --p 2
"$IBRT" gen -q -o t.net --fail-link 'sw-0.0.0[2]' torus --k 5,4,2
run_engine flatfly hx.net 2
run_engine dragonfly df.net 0
run_engine torus t.net 4
"$IBRT" gen -q -o sf.net slimfly --q 4 --cas 1
"$IBRT" gen -q -o sfd.net --fail-links 4 --fail-switches 1 --keep-connected --seed 5 slimfly --q 5 --cas 1
run_engine slimfly sf.net 0
run_engine slimfly sfd.net 2
# Slim Fly x FlatFly (§1.5): q = 3 times a FlatFly of 3, 54 switches; DOR on 2 VLs.
"$IBRT" gen -q -o sfff.net slimfly --q 3 --ff 3 --cas 1
run_engine slimfly sfff.net 0

e2e_start_ibsim hx.net
rm -rf "$osm"
# Without QoS opensm would leave the switches' SL2VL at SL mod VLs: the engine declines
# saying so, and opensm routes with the next engine.
plugin_conf
e2e_opensm -F "$WORK/ibrt.conf" -R flatfly,updn
grep -q "ERR IB01: ibrt flatfly declines this fabric: .*qos TRUE" "$osm/osm.log" ||
    e2e_fail "no decline naming qos: $(grep -E 'ERR|flatfly' "$osm/osm.log" | tail -n 5)"
# (updn, then opensm's default minhop: whichever takes it, it is not flatfly)
grep -qE "(updn|minhop) tables configured on all switches" "$osm/osm.log" ||
    e2e_fail "no fallback engine configured the switches"
echo "ok: without qos flatfly declines and opensm falls back"
e2e_pass
