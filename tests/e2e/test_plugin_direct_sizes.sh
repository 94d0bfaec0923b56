#!/usr/bin/env bash
# Issue 13, "Proof on the real stack": the direct-topology engines inside the real opensm
# 3.3.23 (QoS on) under ibsim, at the sizes the issue asks for, each fabric pristine and
# degraded (random failed links with a fixed seed, and one failed switch):
#   torus   3D torus 5x5x5 (125 switches) and 4D torus 5x5x4x2 (200 switches);
#   flatfly 3D HyperX 5x4x4 with two parallel cables in the first dimension (80 switches) and
#           the 8D hypercube (256 switches, ibsim's limit; degraded once by a switch, once by
#           8 random links);
#   dragonfly a=6, h=3 with 10 groups (60 switches), pristine, without 3 global cables and a
#           switch, and with 8 random cables failed (mostly local: detours in a group after a
#           global hop go on a layer, path SL 1, on VL 1 with the class rule's last hops);
#           and the complete a=6, h=3 (19
#           groups, 114 switches) without one switch, whose detours take a local hop in the
#           intermediate group: path SLs and a third VL;
#   slimfly a Slim Fly x FlatFly (q = 4 times K4, 128 switches; §1.5), pristine, and without
#           a switch and 6 random cables (paths that leave DOR's order go on VL layers, path
#           SLs 1.. per source switch; `ibrt map` names the missing switch and 6 links).
# One CA per switch. For each: the LFTs read back from the switches (dump_fts) equal the
# offline `ibrt route --lids-from-fabric` tables; opensm's SL2VL dump equals the offline one
# row for row, and so do the SL2VL tables read from a sample of switches with `smpquery
# sl2vl` (every output port of E2E_SL2VL_SWITCHES switches: one process per port costs ~0.1 s
# under ibsim, all 2,304 ports of the hypercube would take minutes); the path SLs the SA hands
# out (`ibrt sa-path-sls`, E2E_SA_SAMPLE random pairs for the same reason) equal the offline
# path-SL file; `ibrt check` with the read-back LFTs, the SL2VL dump and the path SLs reaches
# every pair with no credit loop, and so does ibdmchk with the same files.
# Then a live failure under the torus engine: the ibsim console unlinks a cable, then a
# switch; the trap (or at the latest the next 5 s light sweep) brings a heavy sweep, torus
# (not the updn fallback) reroutes, and the checks above pass on what the switches then hold.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/harness.sh"
e2e_init plugin_direct_sizes
source "$HERE/plugin_lib.sh"
PATH="$PATH:/usr/sbin:/sbin"
for tool in ibdmchk smpquery saquery; do
    command -v $tool >/dev/null || e2e_fail "$tool is not installed (scripts/install-deps.sh)"
done
SA_SAMPLE=${E2E_SA_SAMPLE:-48}
SL2VL_SWITCHES=${E2E_SL2VL_SWITCHES:-4}
osm="$WORK/osm"
SM_PID=

# start_sm ENGINE [GUID2LID]: a running SM (QoS on; a light sweep every SM_SWEEP_INTERVAL s,
# none by default) routes with ENGINE, then updn; waits for the first routing.
start_sm() {
    local engine=$1 pin=${2:-}
    rm -rf "$osm" # opensm appends to its log: each run is judged on its own
    mkdir -p "$osm"
    [[ -z "$pin" ]] || cp "$pin" "$osm/guid2lid"
    plugin_conf "qos TRUE" "force_log_flush TRUE" "sweep_interval ${SM_SWEEP_INTERVAL:-0}"
    OSM_TMP_DIR="$osm" OSM_CACHE_DIR="$osm" LD_PRELOAD="$E2E_UMAD2SIM" \
        opensm -e -d2 -Q -F "$WORK/ibrt.conf" -R "$engine,updn" -f "$osm/osm.log" \
        --dump_files_dir "$osm" -D 0x43 >"$osm/opensm.out" 2>&1 </dev/null &
    SM_PID=$!
    E2E_PIDS+=("$SM_PID")
    wait_routings "$engine" 1
}

# stop_sm: before ibsim goes (e2e_stop_sm).
stop_sm() {
    e2e_stop_sm "$SM_PID"
    SM_PID=
}

# wait_routings ENGINE N: until ENGINE has configured the switches N times and a SUBNET UP
# (the end of a sweep, after its LFT MADs) follows the N-th; fails as soon as another engine
# configured them instead (ENGINE declined and opensm fell back).
wait_routings() {
    local engine=$1 want=$2 deadline=$((SECONDS + 120)) state n all up
    while :; do
        # one read of the log for all counts (it grows while we read)
        state=$(awk -v e=" $engine tables configured" '
            /tables configured on all switches/ { all++; if (index($0, e)) { n++; up = 0 } }
            /SUBNET UP/ { up = 1 }
            END { printf "%d %d %d", n, all, (n > 0 ? up : 0) }' "$osm/osm.log" 2>/dev/null || echo "0 0 0")
        read -r n all up <<<"$state"
        ((n >= want && up == 1)) && break
        ((all > n)) && e2e_fail "$engine did not route sweep $want:"$'\n'"$(grep -E 'ERR|declines|tables configured' "$osm/osm.log" | tail -n 5)"
        kill -0 "$SM_PID" 2>/dev/null || e2e_fail "opensm died: $(tail -n 5 "$osm/opensm.out")"
        ((SECONDS < deadline)) || e2e_fail "waited for routing #$want: $n routings by $engine"
        sleep 0.2
    done
}

# verify TAG ENGINE: every check of the header on what the running SM's switches hold, on the
# fabric ibnetdiscover finds (TAG.disc.net; TAG.net stays the generated file). LIDs
# come from the discovered fabric's `lid` comments, not opensm's guid2lid, which keeps the
# GUIDs of nodes that left the subnet (the live failure below).
verify() {
    local tag=$1 engine=$2 t0=$SECONDS
    grep -q "ibrt $engine: routed" "$osm/osm.log" || e2e_fail "$tag: no ibrt routing line in the log"
    [[ -s "$osm/opensm-sl2vl.dump" ]] || e2e_fail "$tag: no opensm-sl2vl.dump"
    e2e_diag ibnetdiscover >"$tag.disc.net"
    e2e_diag dump_fts >"$tag.fts"
    top_lid_ok || e2e_fail "$tag: the top LID is a multiple of 64, which dump_fts hides (pin the LIDs)"

    # LFTs: the switches hold the offline tables.
    e2e_expect_rc 0 "$IBRT" route --engine "$engine" --fabric "$tag.disc.net" --lids-from-fabric \
        --no-path-selection --no-load --out "$tag.off"
    cp "$WORK/last.out" "$tag.route.out"
    e2e_expect_rc 0 "$IBRT" diff --lfts --fabric "$tag.disc.net" "$tag.off/opensm-lfts.dump" "$tag.fts"

    # SL2VL: opensm's dump (what it set) against the offline rows, all of them; then the tables
    # the switches hold, for every output port of a sample of switches (those with the most
    # varied rows first, then seeded random ones). An engine that sets no SL2VL (one VL) writes
    # no offline dump: the switches then keep opensm's QoS default, which is what is compared.
    local want="$tag.off/opensm-sl2vl.dump"
    [[ -s "$want" ]] || want="$osm/opensm-sl2vl.dump"
    python3 "$WORK/sl2vl.py" pick "$want" "$SL2VL_SWITCHES" >"$tag.ports"
    mkdir -p "$tag.sl2vl"
    # Four at a time (a process per port; `wait` alone would wait for opensm too).
    local q=() lid port
    while read -r lid port; do
        LD_PRELOAD="$E2E_UMAD2SIM" timeout 20 smpquery sl2vl "$lid" "$port" \
            >"$tag.sl2vl/$lid.$port" 2>>"$tag.sl2vl.err" &
        q+=("$!")
        if ((${#q[@]} == 4)); then
            wait "${q[@]}" || true
            q=()
        fi
    done <"$tag.ports"
    ((${#q[@]} == 0)) || wait "${q[@]}" || true
    python3 "$WORK/sl2vl.py" compare "$want" "$osm/opensm-sl2vl.dump" "$tag.sl2vl" >"$tag.sl2vl.out" ||
        e2e_fail "$tag: SL2VL tables differ from the offline ones: $(cat "$tag.sl2vl.out" "$tag.sl2vl.err")"

    # Path SLs: a sample of what the SA hands out against the offline path-SL file.
    e2e_expect_rc 0 "$IBRT" sa-path-sls -q -j 4 --sample "$SA_SAMPLE" --seed 13 --fabric "$tag.disc.net" \
        --out "$tag.sa.psl" \
        --saquery "env LD_PRELOAD=$E2E_UMAD2SIM timeout 20 saquery"
    python3 "$WORK/sl2vl.py" path-sls "$tag.sa.psl" "$tag.off/path-sl" "$SA_SAMPLE" >"$tag.psl.out" ||
        e2e_fail "$tag: the SA's path SLs differ from the offline ones: $(cat "$tag.psl.out")"
    # ...and the first pairs the engine puts on an SL other than 0, which a random sample can
    # miss (the Dragonfly detours' few pairs).
    { grep '^0x0010' "$tag.off/path-sl" | grep -v ' 0$' || true; } | head -n 8 >"$tag.nz.psl" # CA sources (ibrt gen's GUIDs)
    if [[ -s "$tag.nz.psl" ]]; then
        e2e_expect_rc 0 "$IBRT" sa-path-sls -q -j 4 --pairs "$tag.nz.psl" --fabric "$tag.disc.net" \
            --out "$tag.sa-nz.psl" --saquery "env LD_PRELOAD=$E2E_UMAD2SIM timeout 20 saquery"
        python3 "$WORK/sl2vl.py" path-sls "$tag.sa-nz.psl" "$tag.off/path-sl" \
            "$(wc -l <"$tag.nz.psl")" >>"$tag.psl.out" ||
            e2e_fail "$tag: the SA's path SLs differ from the offline ones: $(cat "$tag.psl.out")"
    fi

    # ibrt check: every pair reachable, no credit loop, with the read-back LFTs.
    local files=(--fabric "$tag.disc.net" --lfts "$tag.fts"
        --sl2vl "$osm/opensm-sl2vl.dump" --path-sl "$tag.off/path-sl")
    local rc=0
    "$IBRT" check -q --json --no-balance "${files[@]}" >"$tag.check.json" 2>"$tag.check.err" || rc=$?
    local verdict
    verdict=$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["checks"]; print(c["reachability"]["failures"], (c.get("deadlock") or {}).get("credit_loops", 0))' "$tag.check.json" 2>/dev/null || echo "?")
    ((rc == 0)) && [[ "$verdict" == "0 0" ]] ||
        e2e_fail "$tag: ibrt check exit $rc, failures/credit loops $verdict: $(head -c 800 "$tag.check.json") $(cat "$tag.check.err")"

    # ibdmchk on the same tables (opensm.fdbs written from the read-back LFTs).
    e2e_expect_rc 0 "$IBRT" convert "$tag.disc.net" --to opensm.fdbs --lfts "$tag.fts" \
        -o "$tag.fdbs"
    ibdmchk_run "$tag.ibdm" "$osm/opensm-subnet.lst" "$tag.fdbs" -c "$tag.off/path-sl" \
        -d "$osm/opensm-sl2vl.dump"
    local cas
    cas=$(grep -c '^Ca' "$tag.disc.net")
    [[ "$IBDM_PATHS $IBDM_FAILS $IBDM_LOOP" == "$((cas * (cas - 1))) 0 no" ]] ||
        e2e_fail "$tag: ibdmchk: $IBDM_PATHS paths (want $((cas * (cas - 1)))), $IBDM_FAILS failures, credit loop $IBDM_LOOP"
    # The control: on a torus the dateline SLs are what breaks the rings' credit loops; with
    # every path on SL 0 both checkers find one, so the clean verdicts above are not vacuous.
    if [[ "$engine" == torus ]]; then
        e2e_expect_rc 1 "$IBRT" check -q --no-balance "${files[@]::6}" --assume-sl 0
        ibdmchk_run "$tag.sl0.ibdm" "$osm/opensm-subnet.lst" "$tag.fdbs" -d "$osm/opensm-sl2vl.dump"
        [[ "$IBDM_LOOP" == yes ]] || e2e_fail "$tag: ibdmchk finds no credit loop with every path on SL 0"
    fi
    echo "ok: $tag ($engine): $(grep -c '^Switch' "$tag.disc.net") switches, $cas CAs;" \
        "LFTs as offline; $(cat "$tag.sl2vl.out"); $(tr '\n' ' ' <"$tag.psl.out"); check and ibdmchk clean" \
        "($(grep -o 'dimension_orders [0-9]*\|data_vls [0-9]*\|group_pairs_[a-z_]* [0-9]*\|vl_layers [0-9]*' "$tag.route.out" | tr '\n' ' ')) in $((SECONDS - t0)) s"
}

# run_case TAG ENGINE NETFILE: ibsim, one SM run, verify.
run_case() {
    local tag=$1 engine=$2 net=$3 t0=$SECONDS pin=
    e2e_start_ibsim "$net"
    # dump_fts hides the top LID when it is a multiple of 64 (ibsim-e2e.md §9.7): the
    # pristine hypercube's 512 LIDs are pinned with the top one moved to 513.
    local lids=$(($(grep -c '^Switch' "$net") + $(grep -c '^Ca' "$net")))
    if ((lids % 64 == 0)); then
        e2e_expect_rc 0 "$IBRT" route --engine "$engine" --fabric "$net" --no-path-selection \
            --no-load --out "$tag.pin"
        sed -i "s/ 0x$(printf %04x $lids) 0x$(printf %04x $lids)\$/ 0x$(printf %04x $((lids + 1))) 0x$(printf %04x $((lids + 1)))/" \
            "$tag.pin/guid2lid"
        pin="$tag.pin/guid2lid"
    fi
    start_sm "$engine" "$pin"
    verify "$tag" "$engine"
    stop_sm
    e2e_stop_ibsim
    echo "time: $tag $((SECONDS - t0)) s"
}

cat >"$WORK/sl2vl.py" <<'PY'
import os, random, re, sys
from collections import Counter

def rows(path):  # opensm-sl2vl.dump -> {switch base LID: {(in, out): [16 VLs]}}
    out, lid = {}, None
    for line in open(path):
        m = re.match(r"Switch 0x[0-9a-f]+, base LID (\d+)", line)
        if m:
            lid = int(m.group(1)); out[lid] = {}; continue
        if re.match(r"(Channel Adapter|Router) ", line):
            lid = None; continue
        m = re.match(r"\s*(\d+)\s+(\d+)\s*:\s*([\d ]+)$", line)
        if m and lid is not None:
            out[lid][(int(m.group(1)), int(m.group(2)))] = [int(v) for v in m.group(3).split()]
    return out

cmd = sys.argv[1]
if cmd == "pick":  # pick WANT K: "lid port" for every output port of K switches
    want, k = rows(sys.argv[2]), int(sys.argv[3])
    common = Counter(tuple(v) for t in want.values() for v in t.values()).most_common(1)[0][0]
    varied = sorted(want, key=lambda l: (-sum(tuple(v) != common for v in want[l].values()), l))
    pick = varied[: (k + 1) // 2]
    rest = sorted(set(want) - set(pick))
    pick += random.Random(13).sample(rest, min(len(rest), k - len(pick)))
    for lid in pick:
        for port in sorted({o for (_, o) in want[lid]}):
            print(lid, port)
elif cmd == "compare":  # compare WANT OPENSM DIR: opensm's rows and the read-back ones
    want, osm, live = rows(sys.argv[2]), rows(sys.argv[3]), {}
    for name in os.listdir(sys.argv[4]):
        lid = int(name.split(".")[0])
        for line in open(os.path.join(sys.argv[4], name)):
            m = re.match(r"ports: in\s+(\d+), out\s+(\d+):\s*\|(.*)\|\s*$", line)
            if m:
                live.setdefault(lid, {})[(int(m.group(1)), int(m.group(2)))] = [
                    int(v) for v in m.group(3).split("|")]
    bad, n_osm, n_live = [], 0, 0
    for lid, t in osm.items():
        if lid not in want: continue
        for key, v in t.items():
            n_osm += 1
            if want[lid].get(key) != v: bad.append(("opensm", lid, key, v, want[lid].get(key)))
    for lid, t in live.items():
        for key, v in t.items():
            if key not in want.get(lid, {}): continue  # a port pair the dump leaves out (port down)
            n_live += 1
            if want[lid][key] != v: bad.append(("switch", lid, key, v, want[lid][key]))
    expected_ports = sum(1 for _ in os.listdir(sys.argv[4]))
    for b in bad[:10]: print("differs:", b)
    ok = not bad and n_osm > 100 and n_live > 0 and len(live) == len({n.split(".")[0] for n in os.listdir(sys.argv[4])})
    print(f"SL2VL: {n_osm} rows of opensm's dump and {n_live} rows read from {expected_ports} ports of {len(live)} switches as offline"
          + ("" if ok else f"; {len(bad)} differ"))
    sys.exit(0 if ok else 1)
elif cmd == "path-sls":  # path-sls SA OFFLINE SAMPLE: every SA row has the offline SL
    def psl(path):
        d = {}
        for line in open(path):
            f = line.split()
            if len(f) == 3 and f[0].startswith("0x"): d[(int(f[0], 16), int(f[1]))] = int(f[2])
        return d
    sa, off = psl(sys.argv[2]), psl(sys.argv[3])
    bad = [(k, v, off.get(k, 0)) for k, v in sa.items() if off.get(k, 0) != v]
    for b in bad[:10]: print("differs (src guid, dlid), SA SL, offline SL:", b)
    sls = sorted(set(sa.values()))
    print(f"path SLs: {len(sa)} pairs from the SA as offline (SLs {sls})" + ("" if not bad else f"; {len(bad)} differ"))
    sys.exit(0 if not bad and len(sa) >= int(sys.argv[4]) else 1)
PY

# --- the fabrics: pristine and degraded (cases the engines decline are in docs/engines/direct.md)
gen() { "$IBRT" gen -q -o "$@" || e2e_fail "ibrt gen $*"; }
gen t3.net torus --k 5,5,5
gen t3d.net --seed 1 --fail-links 6 --keep-connected --fail-switch sw-2.2.2 torus --k 5,5,5
gen t4.net torus --k 5,5,4,2
gen t4d.net --seed 1 --fail-links 8 --keep-connected --fail-switch sw-2.2.2.1 torus --k 5,5,4,2
gen hx.net hyperx --k 5,4,4 --width 2,1,1
gen hxd.net --seed 1 --fail-links 8 --keep-connected --fail-switch sw-1.1.1 hyperx --k 5,4,4 --width 2,1,1
gen hc.net hypercube --dims 8
gen hcd.net --fail-switch sw-0.0.0.0.0.1.0.1 hypercube --dims 8
# Failed links and a failed switch: the ends of each link reach each other by a step into a
# later dimension, on VL layers (path SLs per source switch); the switch calls for an order led
# by each dimension, and those paths share the layers too (8 orders + layers > 8 VLs).
gen hcl.net --seed 1 --fail-links 8 --keep-connected --fail-switch sw-0.0.0.0.0.1.0.1 hypercube --dims 8
df=(dragonfly --a 6 --h 3 --groups 10 --p 1)
gen df.net "${df[@]}"
# Three global cables and one switch (six group pairs through an intermediate group).
gen dfd.net --fail-switch sw-g4-3 --fail-link 'sw-g0-0[8]' --fail-link 'sw-g5-1[8]' \
    --fail-link 'sw-g7-2[9]' "${df[@]}"
# Random cables, mostly local (seed 2: 5 local and 3 global): paths with two local hops in a
# row after a global hop, and the detours of the missing global links, go on a layer (path
# SL 1) that shares VL 1 with the class rule: 2 VLs, as on the pristine fabric.
gen dfl.net --seed 2 --fail-links 8 --keep-connected "${df[@]}"

# One global cable per group pair: a missing switch leaves six pairs of groups whose detours
# need a local hop in the intermediate group (path SLs 1.., VL 2).
gen dfs.net --fail-switch sw-g4-3 dragonfly --a 6 --h 3 --p 1

# Slim Fly x FlatFly (paper 003 §1.5): q = 4 times K4, 128 switches, DOR on 2 VLs.
gen sfff.net slimfly --q 4 --ff 4 --cas 1
# Degraded: a switch and 6 random cables missing; the detours (paths that leave DOR's order)
# go on VL layers beside DOR's two VLs, selected by path SL per source switch.
gen sfffd.net --seed 1 --fail-links 6 --keep-connected --fail-switch sw-1.2.3-1 slimfly --q 4 --ff 4 --cas 1
"$IBRT" map sfffd.net >sfffd.map || e2e_fail "ibrt map sfffd.net: exit $?"
grep -q '^times a FlatFly: K = 4' sfffd.map && grep -qx 'missing switches: 1' sfffd.map &&
    grep -qx '  at (1,2,3,1)' sfffd.map && grep -qx 'missing links: 6' sfffd.map ||
    e2e_fail "ibrt map does not report sfffd.net as the product without its switch and 6 links: $(head -c 600 sfffd.map)"

for c in t3:torus t3d:torus t4:torus t4d:torus hx:flatfly hxd:flatfly hc:flatfly hcd:flatfly hcl:flatfly \
    df:dragonfly dfd:dragonfly dfl:dragonfly dfs:dragonfly sfff:slimfly sfffd:slimfly; do
    # E2E_CASES="hc live" runs only those (for debugging); the default is all of them.
    [[ " ${E2E_CASES:-${c%%:*}} " == *" ${c%%:*} "* ]] || continue
    run_case "${c%%:*}" "${c#*:}" "${c%%:*}.net"
done

# --- live failure under the torus engine --------------------------------------------------
[[ " ${E2E_CASES:-live} " == *" live "* ]] || e2e_pass
# ibsim with its console on a FIFO (ibsim-e2e.md §4, §8).
t0=$SECONDS
e2e_start_ibsim_console t3.net
# Traps bring the sweeps; a light sweep every 5 s is the safety net for a trap lost on a
# loaded machine (it reroutes only when it finds a change).
SM_SWEEP_INTERVAL=5 start_sm torus
verify live0 torus
echo 'Unlink "sw-1.1.1"[2]' >&3 # the cable sw-1.1.1 - sw-2.1.1
wait_routings torus 2
verify live1 torus
e2e_expect_rc 1 "$IBRT" diff live0.disc.net live1.disc.net
echo 'Unlink "sw-3.3.3"' >&3 # every port of the switch: it and its CA leave the subnet
wait_routings torus 3
verify live2 torus
grep -q 'sw-3.3.3' live2.disc.net && e2e_fail "sw-3.3.3 is still in the discovered fabric"
stop_sm
echo Quit >&3
echo "time: live $((SECONDS - t0)) s"
e2e_pass
