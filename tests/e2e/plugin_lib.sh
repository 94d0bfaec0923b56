# shellcheck shell=bash
# Helpers for the opensm plugin tests (issue 5): run the real opensm with libibrt.so loaded
# under ibsim, read the tables back from the simulated switches, and hold them against
# `ibrt check` and against `ibrt route` computed offline on the same LIDs.
# Sourced after harness.sh.

PLUGIN_DIR="${IBRT_BINARY_DIR:?}/engines/opensm"
[[ -r "$PLUGIN_DIR/libibrt.so" ]] || e2e_fail "plugin not built: $PLUGIN_DIR/libibrt.so"
export LD_LIBRARY_PATH="$PLUGIN_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# plugin_conf [extra opensm.conf lines...]: writes $WORK/ibrt.conf loading the plugin.
plugin_conf() {
    {
        echo "event_plugin_name ibrt"
        echo "event_plugin_options report=$WORK/osm/ibrt-report.json"
        local line
        for line in "$@"; do echo "$line"; done
    } >"$WORK/ibrt.conf"
}

# top_lid_ok [OSM_DIR]: the top LID of a run (default $WORK/osm); infiniband-diags hide it when
# it is a multiple of 64 (ibsim-e2e.md §9.7), which would make the read-back differ for a reason
# that is not ours.
top_lid_ok() {
    local top
    top=$(sed -n 's/^Unicast lids \[0-\([0-9]*\)\].*/\1/p' "${1:-$WORK/osm}/opensm-lfts.dump" | sort -u | head -n 1)
    [[ "$top" =~ ^[0-9]+$ ]] || e2e_fail "no LFT top in opensm-lfts.dump"
    ((top % 64 != 0))
}

# plugin_route_and_verify TAG ENGINE LMC [extra opensm args]: one sweep with ENGINE from the
# plugin, then every acceptance check of issue 5 on what the switches really hold.
plugin_route_and_verify() {
    local tag=$1 engine=$2 lmc=$3
    shift 3
    rm -f "$WORK/osm/guid2lid" # fresh LIDs for this LMC
    e2e_opensm -F "$WORK/ibrt.conf" -R "$engine" -l "$lmc" "$@"
    e2e_expect_engine "$engine"
    grep -q "ibrt $engine: routed" "$WORK/osm/osm.log" || e2e_fail "$tag: no ibrt routing line in the log"
    grep -q "\"engine\": \"$engine\"" "$WORK/osm/ibrt-report.json" || e2e_fail "$tag: report.json"
    e2e_diag ibnetdiscover >"$tag.net"
    e2e_diag dump_fts >"$tag.fts"
    # The tables the switches hold are the tables opensm says it programmed...
    if top_lid_ok; then
        e2e_expect_rc 0 "$IBRT" diff --lfts --fabric "$tag.net" "$WORK/osm/opensm-lfts.dump" "$tag.fts"
    fi
    # ...they pass the checker (reachability, loops, credit loops)...
    e2e_expect_rc 0 "$IBRT" check --fabric "$tag.net" --lfts "$WORK/osm/opensm-lfts.dump"
    # ...and they are exactly what ibrt computes offline on the same LIDs.
    e2e_expect_rc 0 "$IBRT" route --engine "$engine" --fabric "$tag.net" --lids-from-fabric --out "$tag.offline"
    e2e_expect_rc 0 "$IBRT" diff --lfts --fabric "$tag.net" "$tag.offline/opensm-lfts.dump" "$WORK/osm/opensm-lfts.dump"
    echo "ok: $tag ($engine, LMC $lmc)"
}
