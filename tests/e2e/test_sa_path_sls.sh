#!/usr/bin/env bash
# Issue 12, "never fail what it cannot judge": opensm's dfsssp and lash spread paths over SLs
# that no dump holds. `ibrt check` with their SL-dependent opensm-sl2vl.dump must say "cannot
# judge" (exit 3), not report a credit loop; `ibrt sa-path-sls` reads the real SLs from the
# running SM's SA with saquery, and with them `ibrt check` judges the tables clean. The plugin's
# `path_sl=` writes the same SLs in-process after routing (what large fabrics need: a saquery
# per pair takes hours there); lash's are held line by line against the SA's.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/harness.sh"
e2e_init sa_path_sls
source "$HERE/plugin_lib.sh"
PATH="$PATH:/usr/sbin:/sbin"

"$IBRT" gen -q -o torus.net torus --k 5
e2e_start_ibsim torus.net

for engine in dfsssp lash; do
    osm="$WORK/osm-$engine"
    mkdir -p "$osm"
    printf 'event_plugin_name ibrt\nevent_plugin_options path_sl=%s\n' "$osm/dump.psl" >"$osm/conf"
    # -Q: QoS, so SL2VL tables are set up and dumped. The plugin's path_sl= file is written
    # (and logged) when the routing is done.
    e2e_opensm_up "$osm" "ibrt: path SLs of engine|ERR IB08" -Q -R "$engine" -F "$osm/conf"
    grep -q "$engine tables configured on all switches" "$osm/osm.log" ||
        e2e_fail "$engine did not route (silent fallback?)"
    [[ -s "$osm/opensm-sl2vl.dump" ]] || e2e_fail "$engine: no opensm-sl2vl.dump"
    e2e_diag ibnetdiscover >"$engine.net"
    files=(--fabric "$engine.net" --lfts "$osm/opensm-lfts.dump" --guid2lid "$osm/guid2lid"
        --sl2vl "$osm/opensm-sl2vl.dump")

    # Without the path SLs: cannot judge (it used to report a credit loop, exit 1).
    e2e_expect_rc 3 "$IBRT" check -q --no-balance "${files[@]}"

    # The SLs the SA hands out (per pair: ibsim passes one MAD of a multi-packet answer).
    e2e_expect_rc 0 "$IBRT" sa-path-sls -q -j 4 \
        --fabric "$engine.net" --guid2lid "$osm/guid2lid" --out "$engine.psl" \
        --saquery "env LD_PRELOAD=$E2E_UMAD2SIM timeout 20 saquery"
    # dfsssp and lash really use more than one SL on this torus, so the check has work to do.
    nsl=$(awk '/^0x/ {print $3}' "$engine.psl" | sort -u | wc -l)
    ((nsl >= 2)) || e2e_fail "$engine: the SA gave only $nsl distinct SL(s)"
    e2e_expect_rc 0 "$IBRT" check -q --no-balance "${files[@]}" --path-sl "$engine.psl"
    # --sample asks a few pairs: the file says it is partial, and the pairs it leaves out are
    # unknown, not SL 0 (which reported credit loops in these deadlock-free tables, issue 35):
    # no loop among the sampled paths, so cannot judge.
    e2e_expect_rc 0 "$IBRT" sa-path-sls -q -j 4 --sample 8 --seed 3 \
        --fabric "$engine.net" --guid2lid "$osm/guid2lid" --out "$engine.sample.psl" \
        --saquery "env LD_PRELOAD=$E2E_UMAD2SIM timeout 20 saquery"
    head -n 1 "$engine.sample.psl" | grep -q '^# ibrt-path-sl: partial' ||
        e2e_fail "--sample: no partial marker: $(head -n 2 "$engine.sample.psl")"
    e2e_expect_rc 3 "$IBRT" check --no-balance "${files[@]}" --path-sl "$engine.sample.psl"
    grep -q 'pairs have no SL in the partial path-SL file' "$WORK/last.out" ||
        e2e_fail "--sample: $(grep deadlock "$WORK/last.out")"
    # The complete file has no marker.
    ! grep -q '^# ibrt-path-sl: partial' "$engine.psl" || e2e_fail "a complete file marked partial"
    # The plugin's dump: lash's SLs are the SA's, pair by pair (a pair a file leaves out has
    # SL 0, so the SL-0 lines are left out of the comparison; the dump also lists a source's
    # own LIDs, at SL 0). dfsssp draws among a layer's copies per query, so its SLs may differ
    # from one answer to the next and are judged instead.
    grep -q "ibrt: path SLs of engine $engine written" "$osm/osm.log" || e2e_fail "$engine: no dump line"
    if [[ $engine == lash ]]; then
        diff <(awk '/^0x/ && $3 != 0' "$osm/dump.psl" | sort) <(awk '/^0x/ && $3 != 0' "$engine.psl" | sort) ||
            e2e_fail "lash: the dump's SLs differ from the SA's"
    fi
    nsl=$(awk '/^0x/ {print $3}' "$osm/dump.psl" | sort -u | wc -l)
    ((nsl >= 2)) || e2e_fail "$engine: the dump has only $nsl distinct SL(s)"
    e2e_expect_rc 0 "$IBRT" check -q --no-balance "${files[@]}" --path-sl "$osm/dump.psl"
    if [[ $engine == lash ]]; then
        # --to-end-ports: the pairs between the 5 CAs only, each as in the full answer (lash's
        # SL is a function of the pair; dfsssp draws one of its layer's copies at random per
        # query, opensm's osm_ucast_dfsssp.c get_dfsssp_sl).
        e2e_expect_rc 0 "$IBRT" sa-path-sls -q -j 4 --to-end-ports \
            --fabric "$engine.net" --guid2lid "$osm/guid2lid" --out "$engine.ca.psl" \
            --saquery "env LD_PRELOAD=$E2E_UMAD2SIM timeout 20 saquery"
        n=$(grep -c '^0x' "$engine.ca.psl")
        ((n == 5 * 4)) || e2e_fail "--to-end-ports: $n pairs, expected 20"
        missing=$(grep "^0x" "$engine.ca.psl" | grep -vxFf "$engine.psl" | head -n 3 || true)
        [[ -z "$missing" ]] || e2e_fail "--to-end-ports pairs differ from the full answer: $missing"
        # Judged on those pairs alone: the 20 host-to-host paths, clean; the paths to switches
        # the file leaves out (it says it is partial) cannot be judged without the flag.
        e2e_expect_rc 0 "$IBRT" check --json --no-balance --end-ports-only "${files[@]}" \
            --path-sl "$engine.ca.psl"
        python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))["checks"]["reachability"]
assert r["pairs"] == 20, r' "$WORK/last.out" || e2e_fail "--end-ports-only did not judge the 20 pairs"
        e2e_expect_rc 3 "$IBRT" check -q --no-balance "${files[@]}" --path-sl "$engine.ca.psl"
    fi

    # All on SL 0 instead, the credit loop the engine's SLs break is there: the SLs matter.
    e2e_expect_rc 1 "$IBRT" check -q --no-balance "${files[@]}" --assume-sl 0
    e2e_stop_sm "$E2E_OSM_PID"
    echo "ok: $engine ($nsl SLs)"
done

# dfsssp without QoS (issue 35): opensm programs no SL2VL table and dumps none, the switches
# keep SL s -> VL s, and the SA still hands out dfsssp's SLs. `ibrt check` with those SLs and
# no --sl2vl takes the identity map, as ibdmchk -c without -d does: both find no credit loop
# (taking every SL to VL 0 reported one). Every path on SL 0 closes the loop, in both.
osm="$WORK/osm-noqos"
e2e_opensm_up "$osm" "SUBNET UP" -R dfsssp
grep -q "dfsssp tables configured on all switches" "$osm/osm.log" || e2e_fail "no-QoS dfsssp did not route"
[[ ! -s "$osm/opensm-sl2vl.dump" ]] || e2e_fail "no-QoS dfsssp: an opensm-sl2vl.dump after all"
e2e_diag ibnetdiscover >noqos.net
e2e_expect_rc 0 "$IBRT" sa-path-sls -q -j 4 --fabric noqos.net --guid2lid "$osm/guid2lid" \
    --out noqos.psl --saquery "env LD_PRELOAD=$E2E_UMAD2SIM timeout 20 saquery"
nsl=$(awk '/^0x/ {print $3}' noqos.psl | sort -u | wc -l)
((nsl >= 2)) || e2e_fail "no-QoS dfsssp: the SA gave only $nsl distinct SL(s)"
e2e_expect_rc 0 "$IBRT" check --no-balance --fabric noqos.net --lfts "$osm/opensm-lfts.dump" \
    --guid2lid "$osm/guid2lid" --path-sl noqos.psl
grep -q 'assumes no SL2VL tables: SL s is taken to VL s (identity)' "$WORK/last.out" ||
    e2e_fail "no-QoS dfsssp: the verdict does not name its assumption"
e2e_expect_rc 1 "$IBRT" check -q --no-balance --fabric noqos.net --lfts "$osm/opensm-lfts.dump" \
    --guid2lid "$osm/guid2lid" --assume-sl 0
ibdmchk_run "$WORK/noqos.ibdm" "$osm/opensm-subnet.lst" "$osm/opensm.fdbs" -c noqos.psl
[[ $IBDM_FAILS == 0 && $IBDM_LOOP == no ]] ||
    e2e_fail "ibdmchk on no-QoS dfsssp with its SLs: $IBDM_FAILS failures, loop $IBDM_LOOP"
ibdmchk_run "$WORK/noqos0.ibdm" "$osm/opensm-subnet.lst" "$osm/opensm.fdbs"
[[ $IBDM_LOOP == yes ]] || e2e_fail "ibdmchk on no-QoS dfsssp, every path on SL 0: loop $IBDM_LOOP"
e2e_stop_sm "$E2E_OSM_PID"
echo "ok: dfsssp without QoS ($nsl SLs; identity SL2VL, ibdmchk agrees)"

# A path_sl= file that cannot be written costs the file, nothing else: ERR IB08, and the
# subnet is up with the engine's tables.
osm="$WORK/osm-unwritable"
mkdir -p "$osm"
printf 'event_plugin_name ibrt\nevent_plugin_options path_sl=/nonexistent/dir/psl\n' >"$osm/conf"
e2e_opensm_up "$osm" "SUBNET UP" -Q -R lash -F "$osm/conf"
grep -q "ERR IB08" "$osm/osm.log" || e2e_fail "unwritable path_sl=: no ERR IB08 before SUBNET UP"
grep -q "lash tables configured on all switches" "$osm/osm.log" || e2e_fail "unwritable path_sl=: lash did not route"
kill -0 "$E2E_OSM_PID" 2>/dev/null || e2e_fail "unwritable path_sl=: opensm exited"
echo "ok: unwritable path_sl= ($(grep -o 'ERR IB08.*' "$osm/osm.log" | head -n 1))"
e2e_pass
