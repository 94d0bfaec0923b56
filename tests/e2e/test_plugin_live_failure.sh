#!/usr/bin/env bash
# A cable fails while opensm runs with mlid (issue 5): ibsim's console unlinks a leaf uplink
# of FT(4,3), the trap makes opensm re-sweep, mlid reroutes, and the tables the switches
# then hold pass `ibrt check` on the degraded topology. Relinking the cable makes opensm
# sweep again and the switches hold exactly the tables they held before the failure.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/harness.sh"
e2e_init plugin_live_failure
source "$HERE/plugin_lib.sh"
plugin_conf "force_log_flush TRUE" "sweep_interval 0"

"$IBRT" gen -q -o ft4-3.net fat-tree --ports 4 --levels 3

# ibsim with its console on a FIFO, so the test can type Unlink/ReLink (ibsim-e2e.md §4, §8).
e2e_start_ibsim_console ft4-3.net

mkdir -p osm
OSM_TMP_DIR="$WORK/osm" OSM_CACHE_DIR="$WORK/osm" LD_PRELOAD="$E2E_UMAD2SIM" \
    timeout -k 5 300 opensm -F "$WORK/ibrt.conf" -R mlid -l 2 -e -f "$WORK/osm/osm.log" \
    --dump_files_dir "$WORK/osm" -D 0x43 >osm.out 2>&1 &
E2E_PIDS+=("$!")

# wait_routings N: until mlid has configured the switches N times in total and that sweep has
# ended (opensm logs SUBNET UP at the end of every sweep, after its LFT MADs completed).
wait_routings() {
    local want=$1 deadline=$((SECONDS + 90)) n up
    while :; do
        n=$(grep -c "mlid tables configured on all switches" osm/osm.log 2>/dev/null || true)
        up=$(grep -c "SUBNET UP" osm/osm.log 2>/dev/null || true)
        ((n >= want && up >= want)) && break
        ((SECONDS < deadline)) || e2e_fail "waited for routing #$want, saw $n routings, $up SUBNET UP:"$'\n'"$(grep -E 'ERR|configured|SUBNET' osm/osm.log | tail)"
        sleep 0.2
    done
}

wait_routings 1
e2e_diag dump_fts >before.fts
e2e_diag ibnetdiscover >before.net
e2e_expect_rc 0 "$IBRT" check --fabric before.net --lfts before.fts

echo 'Unlink "SW<00,2>"[3]' >&3
wait_routings 2
e2e_diag ibnetdiscover >failed.net
e2e_diag dump_fts >failed.fts
e2e_expect_rc 1 "$IBRT" diff before.net failed.net # the cable is gone from the fabric
e2e_expect_rc 0 "$IBRT" check --fabric failed.net --lfts failed.fts
e2e_expect_rc 1 "$IBRT" diff --lfts before.fts failed.fts # mlid rerouted

echo 'ReLink "SW<00,2>"[3]' >&3
wait_routings 3
e2e_diag dump_fts >relinked.fts
e2e_expect_rc 0 "$IBRT" diff --lfts before.fts relinked.fts
echo Quit >&3
e2e_pass
