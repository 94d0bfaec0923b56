#!/usr/bin/env bash
# Issue 35 item 6: the plugin's `path_sl=PATH` under `opensm -o` (one sweep, then exit). opensm
# 3.3.23 never reports SUBNET UP to a plugin in that mode: its main thread wakes at subnet up,
# sets osm_exit_flag, and osm_opensm_report_event() skips every plugin once the flag is set.
# So the plugin writes the file at the end of every routing run instead (UCAST_ROUTING_DONE),
# where it used to wait for SUBNET UP and, under -o, leave it unwritten without a word.
# Checked here, all under `opensm -o`:
#  - ibrt's torus engine on a degraded 5x4x2 torus (4 SLs): the file is written, logged, and
#    holds exactly the path SLs `ibrt route` computes offline on the LIDs opensm assigned;
#    `ibrt check` with it and the switches' SL2VL tables is clean, and all on SL 0 it is not;
#  - opensm's own lash on the same fabric: its SLs (several), judged clean the same way;
#  - an unwritable path: ERR IB08 in the log, opensm exits 0 with the engine's tables;
#  - an opensm that stops before routing: ERR IB08 at exit says no file was written.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/harness.sh"
e2e_init plugin_once_path_sl
source "$HERE/plugin_lib.sh"

"$IBRT" gen -q -o t.net --fail-link 'sw-0.0.0[2]' torus --k 5,4,2
e2e_start_ibsim t.net

# once_conf PATH: loads the plugin with path_sl=PATH (QoS on: the direct engines need their
# SL2VL tables, and lash's SLs mean nothing without them).
once_conf() {
    printf 'event_plugin_name ibrt\nevent_plugin_options path_sl=%s\nqos TRUE\n' "$1" >"$WORK/ibrt.conf"
}

for engine in torus lash; do
    psl="$WORK/$engine.once.psl"
    once_conf "$psl"
    rm -f "$WORK/osm/osm.log" "$WORK/osm/guid2lid" # -e erases it too; fresh LIDs per engine
    e2e_opensm -Q -F "$WORK/ibrt.conf" -R "$engine"
    e2e_expect_engine "$engine"
    [[ -s "$psl" ]] || e2e_fail "$engine: opensm -o wrote no path_sl= file:"$'\n'"$(grep -E 'ibrt|ERR' "$WORK/osm/osm.log" | tail -n 20)"
    grep -q "ibrt: path SLs of engine $engine written to $psl" "$WORK/osm/osm.log" ||
        e2e_fail "$engine: the path_sl= file is not logged"
    [[ "$(head -n 1 "$psl")" == "# opensm routing engine $engine" ]] ||
        e2e_fail "$engine: header '$(head -n 1 "$psl")'"
    [[ ! -e "$psl.tmp" ]] || e2e_fail "$engine: $psl.tmp left behind"

    e2e_diag ibnetdiscover >"$engine.net"
    files=(--fabric "$engine.net" --lfts "$WORK/osm/opensm-lfts.dump" --guid2lid "$WORK/osm/guid2lid"
        --sl2vl "$WORK/osm/opensm-sl2vl.dump")
    nsl=$(awk '/^0x/ {print $3}' "$psl" | sort -u | wc -l)
    ((nsl >= 2)) || e2e_fail "$engine: the file has only $nsl distinct SL(s)"
    # Judged with the file: clean; all on SL 0: the credit loop the SLs break.
    e2e_expect_rc 0 "$IBRT" check -q --no-balance "${files[@]}" --path-sl "$psl"
    e2e_expect_rc 1 "$IBRT" check -q --no-balance "${files[@]}" --assume-sl 0

    if [[ $engine == torus ]]; then
        # ibrt's engine routes the same offline on opensm's LIDs: the file holds its path SLs,
        # line for line, for every CA (the SA answers for end ports; the offline file also
        # lists the switches' own paths).
        e2e_expect_rc 0 "$IBRT" route --engine torus --fabric "$engine.net" --lids-from-fabric \
            --out "$engine.offline"
        python3 - "$engine.net" "$engine.offline/path-sl" "$psl" <<'PY' || e2e_fail "torus: the path_sl= file differs from the offline path SLs"
import re, sys
cas = {int(m, 16) for m in re.findall(r"^caguid=(0x[0-9a-f]+)", open(sys.argv[1]).read(), re.M)}
def lines(path):
    return sorted(l.split() for l in open(path) if l.startswith("0x"))
offline = [l for l in lines(sys.argv[2]) if int(l[0], 16) in cas]
once = lines(sys.argv[3])
sources = {l[0] for l in once}
print(f"{len(once)} path SLs from {len(sources)} of {len(cas)} CAs; offline: {len(offline)}")
assert len(cas) == 40 and len(sources) == len(cas), (len(cas), len(sources))
bad = [(a, b) for a, b in zip(offline, once) if a != b]
assert len(offline) == len(once) and not bad, bad[:5]
PY
    fi
    echo "ok: $engine under opensm -o: path_sl= written, $(grep -c '^0x' "$psl") lines, $nsl SLs"
done

# An unwritable path costs the file, nothing else, and says so.
once_conf /nonexistent/dir/psl
e2e_opensm -Q -F "$WORK/ibrt.conf" -R lash
e2e_expect_engine lash
grep -q "ERR IB08: ibrt path_sl=/nonexistent/dir/psl: cannot write /nonexistent/dir/psl.tmp" \
    "$WORK/osm/osm.log" || e2e_fail "unwritable path_sl= under -o: no ERR IB08"
echo "ok: unwritable path_sl= under opensm -o is logged"

# An opensm that stops before it routes (here one started inactive, -I, so it never sweeps)
# writes no file, and the plugin says so on the way out.
once_conf "$WORK/never.psl"
e2e_opensm_up "$WORK/osm-inactive" "ibrt plugin loaded" -I -F "$WORK/ibrt.conf" -R lash
e2e_stop_sm "$E2E_OSM_PID"
[[ ! -e "$WORK/never.psl" ]] || e2e_fail "inactive opensm: a path_sl= file was written"
grep -q "ERR IB08: ibrt path_sl=$WORK/never.psl: no file written: opensm stopped before a routing run finished" \
    "$WORK/osm-inactive/osm.log" || e2e_fail "inactive opensm: no ERR IB08 for the missing file"
echo "ok: a path_sl= file never written is logged at exit"
e2e_pass
