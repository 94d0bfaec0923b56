#!/usr/bin/env bash
# ibdmchk (Debian ibutils) checks the tables ibrt writes, independently of `ibrt check`, and the
# two agree on reachability and credit loops (issue 11, "Files in the formats the ecosystem
# already checks"):
#  1. the real opensm 3.3.23 under ibsim: ibrt writes its opensm.fdbs and opensm-subnet.lst byte
#     for byte from the same tables, and `ibrt check` reads opensm's pair (no guid2lid at LMC 0;
#     at LMC 1 it refuses without one, since a subnet.lst has no LMC);
#  2. `ibrt route --engine mlid` on FT(4,3): ibdmchk finds every CA pair reachable and no credit
#     loop, as `ibrt check` does on the same files;
#  3. a clockwise 4-switch ring (tables written by the script below): both find the one credit
#     loop; with a path-SL file (ibdmchk -c, normalized by `ibrt convert`) and opensm-sl2vl.dump
#     (which ibdmchk -d reads as it is) that put the wrapping paths on VL 1, both find none;
#     `ibrt sim` replays the same files;
#  4. the ring with one LFT entry removed: both count the same 3 unreachable CA pairs.
# ibdmchk 1.5.7 segfaults on exit even on opensm's own files, so its exit status is not used:
# its summary lines are. It steps LIDs from 1 by 2^LMC, so it cannot check opensm's aligned
# LMC > 0 LIDs; every ibdmchk run here is at LMC 0.
source "$(dirname "$0")/harness.sh"
e2e_init ibdmchk
command -v ibdmchk >/dev/null || e2e_fail "ibdmchk is not installed (Debian ibutils; scripts/install-deps.sh)"
: >"$WORK/empty.mcfdbs"

# check_json OUT ARGS...: `ibrt check --json` into OUT (exit 0 or 1), prints "<failures> <loops>".
check_json() {
    local out=$1 rc=0
    shift
    "$IBRT" check -q --json --no-balance "$@" >"$out" 2>"$out.err" || rc=$?
    ((rc <= 1)) || e2e_fail "ibrt check $* exited $rc: $(cat "$out.err")"
    python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); c=j["checks"]; print(c["reachability"]["failures"], (c.get("deadlock") or {}).get("credit_loops", 0))' "$out"
}

# --- 1. opensm's own files, byte for byte ------------------------------------------------------
"$IBRT" gen fat-tree --ports 4 --levels 3 -o "$WORK/ft.net" -q
e2e_start_ibsim "$WORK/ft.net"
for lmc in 0 1; do
    e2e_opensm -R updn -l "$lmc"
    e2e_expect_engine updn
    osm="$WORK/osm"
    e2e_expect_rc 0 "$IBRT" convert "$WORK/ft.net" --to opensm.fdbs --lfts "$osm/opensm-lfts.dump" \
        --guid2lid "$osm/guid2lid" -o "$WORK/ours.fdbs"
    cmp "$WORK/ours.fdbs" "$osm/opensm.fdbs" ||
        e2e_fail "LMC $lmc: opensm.fdbs differs from opensm's: $(diff "$WORK/ours.fdbs" "$osm/opensm.fdbs" | head)"
    sm=$(grep -o -- '-SM Ports:[^{]*{[^}]*} LID:[0-9A-F]*' "$osm/opensm-subnet.lst" | head -n 1 | sed 's/.*LID://')
    [[ -n "$sm" ]] || e2e_fail "no -SM node in opensm-subnet.lst"
    e2e_expect_rc 0 "$IBRT" convert "$osm/opensm-subnet.lst" --to opensm-subnet.lst \
        --sm-lid $((16#$sm)) --guid2lid "$osm/guid2lid" -o "$WORK/ours.lst"
    cmp "$WORK/ours.lst" "$osm/opensm-subnet.lst" ||
        e2e_fail "LMC $lmc: opensm-subnet.lst differs from opensm's: $(diff "$WORK/ours.lst" "$osm/opensm-subnet.lst" | head)"
    e2e_expect_rc 0 "$IBRT" info "$osm/opensm-subnet.lst"
    grep -q "20 switches, 16 CAs" "$WORK/last.out" || e2e_fail "ibrt info on subnet.lst: $(cat "$WORK/last.out")"
    if ((lmc == 0)); then
        e2e_expect_rc 0 "$IBRT" check -q --fabric "$osm/opensm-subnet.lst" --lfts "$osm/opensm.fdbs" --strict
        ibdmchk_run "$WORK/osm.ibdm" "$osm/opensm-subnet.lst" "$osm/opensm.fdbs"
        [[ "$IBDM_PATHS $IBDM_FAILS $IBDM_LOOP" == "240 0 no" ]] ||
            e2e_fail "ibdmchk on opensm's files: $IBDM_PATHS paths, $IBDM_FAILS failures, loop $IBDM_LOOP"
    else
        e2e_expect_rc 2 "$IBRT" check -q --fabric "$osm/opensm-subnet.lst" --lfts "$osm/opensm.fdbs"
        grep -q "the subnet ran with LMC > 0, which opensm-subnet.lst does not record; give the LIDs with --guid2lid" \
            "$WORK/last.out" || e2e_fail "LMC 1 without guid2lid: $(cat "$WORK/last.out")"
        e2e_expect_rc 0 "$IBRT" check -q --fabric "$osm/opensm-subnet.lst" --lfts "$osm/opensm.fdbs" \
            --guid2lid "$osm/guid2lid" --strict
    fi
done
e2e_stop_ibsim

# --- 2. ibrt route on a fat tree: loop-free ----------------------------------------------------
e2e_expect_rc 0 "$IBRT" route --engine mlid --lmc 0 --fabric "$WORK/ft.net" --out "$WORK/r"
for f in opensm-subnet.lst opensm.fdbs path-sl; do [[ -s "$WORK/r/$f" ]] || e2e_fail "route wrote no $f"; done
ibdmchk_run "$WORK/r.ibdm" "$WORK/r/opensm-subnet.lst" "$WORK/r/opensm.fdbs" -c "$WORK/r/path-sl"
[[ "$IBDM_PATHS $IBDM_FAILS $IBDM_LOOP" == "240 0 no" ]] ||
    e2e_fail "ibdmchk on mlid: $IBDM_PATHS paths, $IBDM_FAILS failures, loop $IBDM_LOOP"
[[ "$(check_json "$WORK/r.json" --fabric "$WORK/r/opensm-subnet.lst" --lfts "$WORK/r/opensm.fdbs" \
    --path-sl "$WORK/r/path-sl")" == "0 0" ]] || e2e_fail "ibrt check on mlid's files: $(head -c 600 "$WORK/r.json")"
e2e_expect_rc 0 "$IBRT" check -q --fabric "$WORK/ft.net" --lfts "$WORK/r/opensm-lfts.dump" \
    --guid2lid "$WORK/r/guid2lid"
e2e_expect_rc 0 "$IBRT" route --engine mlid --lmc 0 --fabric "$WORK/ft.net" --no-fdbs --out "$WORK/r2"
[[ -s "$WORK/r2/opensm-subnet.lst" && ! -e "$WORK/r2/opensm.fdbs" ]] || e2e_fail "--no-fdbs"

# --- 3. a clockwise ring: one credit loop, broken by path SLs --------------------------------
python3 - "$WORK/ring" <<'PY'
import sys
N, out = 4, sys.argv[1]
sw = lambda k: 0x0020000000000100 + k
ca = lambda k: 0x0010000000000100 + (k << 8)
home = lambda lid: lid - 1 if lid <= N else lid - N - 1  # switch k: LID k+1, its CA: N+1+k
net = []
for k in range(N):  # port 1: the CA, port 2: clockwise, port 3: counter-clockwise
    net += ["", "vendid=0x0", "devid=0x0", f"sysimgguid=0x{sw(k):x}", f"switchguid=0x{sw(k):x}",
            f'Switch\t3 "S-{sw(k):016x}"\t\t# "ring-{k}" base port 0 lid {k + 1} lmc 0',
            f'[1]\t"H-{ca(k):016x}"[1]({ca(k) + 1:x}) \t\t# "host-{k}" lid {N + 1 + k} 4xSDR',
            f'[2]\t"S-{sw((k + 1) % N):016x}"[3]\t\t# "ring-{(k + 1) % N}" lid {(k + 1) % N + 1} 4xSDR',
            f'[3]\t"S-{sw((k - 1) % N):016x}"[2]\t\t# "ring-{(k - 1) % N}" lid {(k - 1) % N + 1} 4xSDR']
for k in range(N):
    net += ["", "vendid=0x0", "devid=0x0", f"sysimgguid=0x{ca(k):x}", f"caguid=0x{ca(k):x}",
            f'Ca\t1 "H-{ca(k):016x}"\t\t# "host-{k}"',
            f'[1]({ca(k) + 1:x}) \t"S-{sw(k):016x}"[1]\t\t# lid {N + 1 + k} lmc 0 "ring-{k}" lid {k + 1} 4xSDR']
open(f"{out}.net", "w").write("\n".join(net) + "\n")
lfts = []
for k in range(N):  # every LID not at this switch goes clockwise
    lfts.append(f"Unicast lids [0-{2 * N}] of switch Lid {k + 1} guid 0x{sw(k):016x} ('ring-{k}'):")
    for lid in range(1, 2 * N + 1):
        port = (0 if lid <= N else 1) if home(lid) == k else 2
        lfts.append(f"0x{lid:04x} {port:03d}")
    lfts.append(f"{2 * N} lids dumped")
open(f"{out}.lfts", "w").write("\n".join(lfts) + "\n")
# Two layers: SL 1 for the paths that wrap from ring-3 to ring-0 and end at ring-0 or ring-1
# (neither layer then closes the ring), SL 0 for the rest. Listed in an order and spacing of
# our own, for `ibrt convert --to path-sl` to normalize.
psl = ["# hand-written"]
for lid in range(2 * N, 0, -1):
    for i in range(N):
        psl.append(f"0x{ca(i):016x}\t{lid}  {1 if home(lid) < i and home(lid) <= 1 else 0}")
open(f"{out}.hand-psl", "w").write("\n".join(psl) + "\n")
# SL2VL: VL = SL & 1 on every (in, out) pair with a cable, in opensm-sl2vl.dump's layout.
vls = "".join(f" {sl & 1:<2d}" for sl in range(16))
s = []
for k in range(N):
    s += [f'Switch 0x{sw(k):016x}, base LID {k + 1}, "ring-{k}"',
          "#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15",
          "#--------------------------------------------------------"]
    s += [f"{i:<3d} {o:<3d} :{vls}" for o in range(1, 4) for i in range(4)]
    s += ["#--------------------------------------------------------", ""]
open(f"{out}.sl2vl", "w").write("\n".join(s) + "\n")
PY
R="$WORK/ring"
e2e_expect_rc 0 "$IBRT" convert "$R.net" --to opensm-subnet.lst -o "$R.lst"
e2e_expect_rc 0 "$IBRT" convert "$R.net" --to opensm.fdbs --lfts "$R.lfts" -o "$R.fdbs"
e2e_expect_rc 0 "$IBRT" convert "$R.net" --to path-sl --path-sl "$R.hand-psl" -o "$R.psl"
# host-1..3 list all 8 DLIDs each (the file gives SLs per source node; the switches are not
# listed, so they keep SL 0); no path from host-0 wraps, so host-0 is not listed either.
[[ $(grep -c "^0x" "$R.psl") == 24 && $(grep -c '^0x001000000000010[0-9a-f] ' "$R.psl") == 0 ]] ||
    e2e_fail "normalized path-SL file: $(cat "$R.psl")"

ibdmchk_run "$WORK/ring.ibdm" "$R.lst" "$R.fdbs"
[[ "$IBDM_PATHS $IBDM_FAILS $IBDM_LOOP" == "12 0 yes" ]] ||
    e2e_fail "ibdmchk on the ring: $IBDM_PATHS paths, $IBDM_FAILS failures, loop $IBDM_LOOP"
[[ "$(check_json "$WORK/ring.json" --fabric "$R.lst" --lfts "$R.fdbs")" == "0 1" ]] ||
    e2e_fail "ibrt check on the ring: $(head -c 600 "$WORK/ring.json")"
# The same verdict from the files they were written from.
[[ "$(check_json "$WORK/ring0.json" --fabric "$R.net" --lfts "$R.lfts")" == "0 1" ]] ||
    e2e_fail "ibrt check on ring.net: $(head -c 600 "$WORK/ring0.json")"

# SL2VL alone (every path on SL 0) leaves the loop; path SLs + SL2VL break it, and so do path
# SLs alone for ibdmchk, which maps SL to VL by identity without -d.
ibdmchk_run "$WORK/ring-d.ibdm" "$R.lst" "$R.fdbs" -d "$R.sl2vl"
[[ "$IBDM_LOOP" == yes ]] || e2e_fail "ibdmchk -d alone: loop $IBDM_LOOP"
grep -q '^-I- Defined 2 VLs in use' "$WORK/ring-d.ibdm" || e2e_fail "ibdmchk did not read opensm-sl2vl.dump"
# ibrt check will not guess the SLs (exit 3, "cannot judge"); told they are all 0, it agrees.
e2e_expect_rc 3 "$IBRT" check -q --fabric "$R.lst" --lfts "$R.fdbs" --sl2vl "$R.sl2vl"
[[ "$(check_json "$WORK/ring-d.json" --fabric "$R.lst" --lfts "$R.fdbs" --sl2vl "$R.sl2vl" --assume-sl 0)" == "0 1" ]] ||
    e2e_fail "ibrt check --sl2vl --assume-sl 0: $(head -c 600 "$WORK/ring-d.json")"
ibdmchk_run "$WORK/ring-cd.ibdm" "$R.lst" "$R.fdbs" -c "$R.psl" -d "$R.sl2vl"
[[ "$IBDM_PATHS $IBDM_FAILS $IBDM_LOOP" == "12 0 no" ]] ||
    e2e_fail "ibdmchk -c -d: $IBDM_PATHS paths, $IBDM_FAILS failures, loop $IBDM_LOOP"
grep -q '^-I- Defined 2 SLs in use' "$WORK/ring-cd.ibdm" || e2e_fail "ibdmchk did not read the path-SL file"
[[ "$(check_json "$WORK/ring-cd.json" --fabric "$R.lst" --lfts "$R.fdbs" --sl2vl "$R.sl2vl" \
    --path-sl "$R.psl")" == "0 0" ]] || e2e_fail "ibrt check --path-sl --sl2vl: $(head -c 600 "$WORK/ring-cd.json")"
ibdmchk_run "$WORK/ring-c.ibdm" "$R.lst" "$R.fdbs" -c "$R.psl"
[[ "$IBDM_LOOP" == no ]] || e2e_fail "ibdmchk -c alone: loop $IBDM_LOOP"
# ibrt sim replays the same files: the ring deadlocks on VL 0 without the path SLs, not with.
sim=(sim -q --fabric "$R.lst" --lfts "$R.fdbs" --sl2vl "$R.sl2vl" --vls 2 --load 0.9
    --warmup-us 2 --measure-us 10 --drain-us 50 --deadlock-us 5)
e2e_expect_rc 1 "$IBRT" "${sim[@]}"
grep -q "DEADLOCK" "$WORK/last.out" || e2e_fail "sim without path SLs: $(cat "$WORK/last.out")"
e2e_expect_rc 0 "$IBRT" "${sim[@]}" --path-sl "$R.psl"

# --- 4. a missing entry: the same unreachable pairs --------------------------------------------
# ring-1 loses host-2's LID 7: host-0, host-1 and host-3 all pass ring-1 on the way.
sed '/ring-1/,/lids dumped/{/^0x0007 /d}' "$R.lfts" >"$R.broken.lfts"
e2e_expect_rc 0 "$IBRT" convert "$R.net" --to opensm.fdbs --lfts "$R.broken.lfts" -o "$R.broken.fdbs"
ibdmchk_run "$WORK/broken.ibdm" "$R.lst" "$R.broken.fdbs"
[[ "$IBDM_FAILS" == 3 ]] || e2e_fail "ibdmchk on the broken ring: $IBDM_FAILS failures"
[[ "$(check_json "$WORK/broken.json" --fabric "$R.lst" --lfts "$R.broken.fdbs" --no-deadlock)" == "3 0" ]] ||
    e2e_fail "ibrt check on the broken ring: $(head -c 600 "$WORK/broken.json")"
e2e_pass
