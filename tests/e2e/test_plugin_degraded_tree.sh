#!/usr/bin/env bash
# Issue 36: a degraded tree that mlid and slid used to decline is routed by them inside the real
# opensm 3.3.23 under ibsim. The 3-level Clos of radix 8 with 15.9 % of its cables failed (seed
# 579307, issue 19's reproducer): leaves have lost their uplink into every aggregation plane
# somewhere, so some switch LIDs have no deadlock-free route on one VL; they go on the escape
# VL (engines/common/escape_layer.hpp, path SL 1). With QoS on, opensm programs the engine's
# SL2VL tables; the path SLs are the ones the SA hands out (the plugin's path_sl= file asks the
# same callback, and a sample is held against saquery's answers). Read back from the switches
# with dump_fts, the tables pass `ibrt check` with those SLs and SL2VL, and fail with every
# path on SL 0; ibdmchk agrees on slid's (LMC 0, which ibdmchk needs).
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/harness.sh"
e2e_init plugin_degraded_tree
source "$HERE/plugin_lib.sh"
PATH="$PATH:/usr/sbin:/sbin"

"$IBRT" gen -q -o d.net clos --radix 8 --levels 3 --fail-links 0.159 --seed 579307
e2e_start_ibsim d.net

for engine in mlid slid; do
    osm="$WORK/osm-$engine"
    mkdir -p "$osm"
    printf 'event_plugin_name ibrt\nevent_plugin_options path_sl=%s report=%s\n' \
        "$osm/plugin.psl" "$osm/report.json" >"$osm/conf"
    e2e_opensm_up "$osm" "SUBNET UP" -Q -R "$engine" -F "$osm/conf"
    grep -q "$engine tables configured on all switches" "$osm/osm.log" ||
        e2e_fail "$engine did not route the degraded tree: $(grep -E 'ibrt|ERR' "$osm/osm.log" | tail -n 5)"
    python3 - "$osm/report.json" <<'PY' || e2e_fail "$engine: no escape LIDs in the report"
import json, sys
text = open(sys.argv[1]).read()
assert '"escape_dlids"' in text, text[:500]
PY
    [[ -s "$osm/plugin.psl" ]] || e2e_fail "$engine: no path_sl= file"
    e2e_diag ibnetdiscover >"$engine.net"
    e2e_diag dump_fts >"$engine.fts"
    files=(--fabric "$engine.net" --lfts "$engine.fts" --guid2lid "$osm/guid2lid"
        --sl2vl "$osm/opensm-sl2vl.dump")
    # The switches hold what opensm says it programmed.
    if top_lid_ok "$osm"; then
        e2e_expect_rc 0 "$IBRT" diff --lfts --fabric "$engine.net" "$osm/opensm-lfts.dump" "$engine.fts"
    fi
    # The escape pairs are on SL 1 in the SA's answers too: a sample of them asked by saquery.
    awk '/^0x/ && $3 == 1 && n++ < 12' "$osm/plugin.psl" >"$engine.escape-pairs"
    [[ -s "$engine.escape-pairs" ]] || e2e_fail "$engine: no pair on SL 1 in the path_sl= file"
    e2e_expect_rc 0 "$IBRT" sa-path-sls -q -j 4 --pairs "$engine.escape-pairs" \
        --fabric "$engine.net" --guid2lid "$osm/guid2lid" --out "$engine.sa.psl" \
        --saquery "env LD_PRELOAD=$E2E_UMAD2SIM timeout 20 saquery"
    missing=$(grep '^0x' "$engine.sa.psl" | grep -vxFf "$osm/plugin.psl" | head -n 3 || true)
    [[ -z "$missing" ]] || e2e_fail "$engine: the SA's SLs differ from the path_sl= file: $missing"
    (($(grep -c '^0x' "$engine.sa.psl") > 0)) || e2e_fail "$engine: the SA answered none of the pairs"
    # Clean with the SLs and SL2VL tables, a credit loop with every path on SL 0.
    e2e_expect_rc 0 "$IBRT" check -q --no-balance "${files[@]}" --path-sl "$osm/plugin.psl"
    e2e_expect_rc 1 "$IBRT" check -q --no-balance "${files[@]}" --assume-sl 0
    grep -q "credit loop" "$WORK/last.out" || e2e_fail "$engine on SL 0: $(grep deadlock "$WORK/last.out")"
    if [[ $engine == slid ]]; then
        ibdmchk_run "$WORK/slid.ibdm" "$osm/opensm-subnet.lst" "$osm/opensm.fdbs" \
            -c "$osm/plugin.psl" -d "$osm/opensm-sl2vl.dump"
        [[ $IBDM_FAILS == 0 && $IBDM_LOOP == no ]] ||
            e2e_fail "ibdmchk on slid's tables: $IBDM_PATHS paths, $IBDM_FAILS failures, loop $IBDM_LOOP"
    fi
    e2e_stop_sm "$E2E_OSM_PID"
    echo "ok: $engine routes the degraded Clos ($(grep -o '"escape_dlids": [0-9]*' "$osm/report.json" | tail -n 1))"
done
e2e_pass
