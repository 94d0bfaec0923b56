#!/usr/bin/env bash
# Issue 18: with opensm-patches/0001 the SA hands applications the engine's path selection.
# The patched opensm (the .debs of `make opensm-patched`, unpacked into a private prefix with
# dpkg -x, so the stock opensm stays installed) runs under ibsim with libibrt.so on FT(8,3) at
# full LMC (mlid: 16 LIDs per CA). For every ordered pair of CAs the PathRecord an application
# gets (a SubnAdmGet by SGID and DGID, so the SA chooses the LIDs; sa_first_path.c) must carry
# the DLID of `ibrt route`'s path-selection file, the destination's choice towards the source
# as SLID, and the SL of path_sl; on a sample of pairs, a multipath query (saquery -p, a
# GetTable) must list the same record first and then the next pair in the engine's order. The
# stock opensm with the same plugin hands out its base LIDs instead, and the plugin says once
# that the SA does not serve the path selection. Then the separate engine on a small random
# fabric, and torus (LMC 0, four SLs) for path_sl's SLs on the records, through the same SA.
# About 45 s.
#
# Under ibsim only the first MAD of a multi-packet answer arrives (three records,
# tools/cmd_sa_path_sls.cpp), which is why the order is checked on the first two records.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/harness.sh"
e2e_init sa_path_selection
source "$HERE/plugin_lib.sh"
plugin_conf

DEBS=${IBRT_OPENSM_PATCHED_DEBS:-$IBRT_BINARY_DIR/opensm-patched}
compgen -G "$DEBS/opensm_*.deb" >/dev/null ||
    e2e_fail "no patched opensm packages in $DEBS: run 'make opensm-patched' (scripts/build-opensm-patched.sh $DEBS)"
for deb in "$DEBS"/*.deb; do dpkg -x "$deb" "$WORK/patched"; done
PATCHED_OSM="$WORK/patched/usr/sbin/opensm"
PATCHED_LIBS="$WORK/patched/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)"
STOCK_OSM=$(command -v opensm)
[[ -x "$PATCHED_OSM" && "$PATCHED_OSM" != "$STOCK_OSM" ]] || e2e_fail "no opensm in $DEBS/opensm_*.deb"
# (grep reads a process substitution: with pipefail, `nm | grep -q` fails when grep exits early)
grep -qw osm_routing_engine_path_lid_pairs_supported < <(nm -D "$PATCHED_OSM") ||
    e2e_fail "$PATCHED_OSM does not export osm_routing_engine_path_lid_pairs_supported (not patched?)"
if grep -qw osm_routing_engine_path_lid_pairs_supported < <(nm -D "$STOCK_OSM"); then
    e2e_fail "the installed $STOCK_OSM is the patched one: this test needs the stock opensm to compare"
fi
cc -O2 -o "$WORK/sa_first_path" "$HERE/sa_first_path.c" -libmad >"$WORK/cc.out" 2>&1 ||
    e2e_fail "cannot build sa_first_path (libibmad-dev missing? scripts/install-deps.sh): $(head -n 5 "$WORK/cc.out")"

# start_sm TAG OPENSM LIBDIR ENGINE LMC [opensm args]: a running SM (no -o: the SA answers only
# while opensm runs), LIBDIR first on the library path (the patched libopensm and friends, or
# nothing).
SM_PID=
start_sm() {
    local tag=$1 bin=$2 libs=$3 engine=$4 lmc=$5
    shift 5
    SM_DIR="$WORK/osm-$tag"
    mkdir -p "$SM_DIR"
    OSM_TMP_DIR="$SM_DIR" OSM_CACHE_DIR="$SM_DIR" LD_PRELOAD="$E2E_UMAD2SIM" \
        LD_LIBRARY_PATH="${libs:+$libs:}$LD_LIBRARY_PATH" \
        "$bin" -F "$WORK/ibrt.conf" -e -d2 -s 0 -R "$engine" -l "$lmc" -f "$SM_DIR/osm.log" \
        --dump_files_dir "$SM_DIR" -D 0x43 "$@" >"$SM_DIR/opensm.out" 2>&1 </dev/null &
    SM_PID=$!
    E2E_PIDS+=("$SM_PID")
    local deadline=$((SECONDS + 120))
    until grep -q "SUBNET UP" "$SM_DIR/osm.log" 2>/dev/null; do
        kill -0 "$SM_PID" 2>/dev/null || e2e_fail "$tag: opensm died: $(tail -n 5 "$SM_DIR/opensm.out")"
        ((SECONDS < deadline)) || e2e_fail "$tag: no SUBNET UP in 120 s"
        sleep 0.1
    done
    grep -q "$engine tables configured on all switches" "$SM_DIR/osm.log" ||
        e2e_fail "$tag: $engine did not route (silent fallback?)"
}
stop_sm() {
    kill "$SM_PID" 2>/dev/null || true
    wait "$SM_PID" 2>/dev/null || true
    _e2e_forget "$SM_PID"
    SM_PID=
}

# offline TAG ENGINE: the fabric as the SM left it (with its LIDs), routed offline by ibrt on
# the same LIDs: $TAG.offline/{path-selection,path-sl}; the live LFTs must be the offline ones.
offline() {
    local tag=$1 engine=$2
    e2e_diag ibnetdiscover >"$tag.net"
    e2e_expect_rc 0 "$IBRT" route --engine "$engine" --fabric "$tag.net" --lids-from-fabric --out "$tag.offline"
    e2e_expect_rc 0 "$IBRT" diff --lfts --fabric "$tag.net" "$tag.offline/opensm-lfts.dump" "$SM_DIR/opensm-lfts.dump"
    # The CAs' port GUIDs, each with its node GUID (path-sl files name sources by node GUID;
    # `ibrt gen` numbers port p of a CA node GUID + p, and these CAs have one port).
    awk '$1 ~ /^0x001/ {print $1}' "$tag.offline/guid2lid" | sort -u >"$tag.cas"
    # The DLID of every pair: the path selection's, else (not listed) the base LID.
    awk 'function hex(s,  v, i) { v = 0; s = tolower(substr(s, 3))
            for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
            return v }
        FILENAME == ARGV[1] { if ($1 ~ /^0x001/) base[$1] = hex($2); next }
        !/^#/ { d[$1 " " $2] = $3 }
        END { for (a in base) for (b in base) if (a != b) print a, b, ((a " " b) in d ? d[a " " b] : base[b]) }' \
        "$tag.offline/guid2lid" "$tag.offline/path-selection" >"$tag.dlids"
    while read -r g; do printf '%s 0x%016x\n' "$g" $((g - 1)); done <"$tag.cas" >"$tag.nodes"
}

# gid GUID: the port's link-local GID as saquery takes it (fe80::10:0:0:101).
gid() {
    local g=${1#0x}
    printf 'fe80::%x:%x:%x:%x' $((16#${g:0:4})) $((16#${g:4:4})) $((16#${g:8:4})) $((16#${g:12:4}))
}

# first_paths TAG OUT: for every ordered pair of CAs, the PathRecord of a SubnAdmGet, as
# `src dst slid dlid sl`.
first_paths() {
    local tag=$1 out=$2
    awk 'NR == FNR { c[n++] = $1; next }
        END { for (i = 0; i < n; i++) for (j = 0; j < n; j++) if (i != j) print c[i], c[j] }' \
        "$tag.cas" "$tag.cas" >"$tag.pairs"
    E2E_DIAG_TIMEOUT=300 e2e_diag "$WORK/sa_first_path" "$tag.pairs" >"$out"
}

# multipath TAG OUT EVERY: for the pairs (i, j) of CAs with i + j a multiple of EVERY (a
# sample spread over sources and destinations alike), the first two records of `saquery -p`
# by GIDs (a GetTable: every path), as `src dst slid dlid sl pref slid2 dlid2 sl2 pref2`
# (saquery prints SL and preference in hex, e.g. 0xA).
multipath() {
    local tag=$1 out=$2 every=$3
    local -a cas
    mapfile -t cas <"$tag.cas"
    local i j
    for ((i = 0; i < ${#cas[@]}; i++)); do
        for ((j = 0; j < ${#cas[@]}; j++)); do
            ((i != j && (i + j) % every == 0)) || continue
            echo "pair ${cas[i]} ${cas[j]}"
            LD_PRELOAD="$E2E_UMAD2SIM" timeout 20 saquery -p --sgid-to-dgid "$(gid "${cas[i]}")-$(gid "${cas[j]}")" 2>&1 ||
                echo "saquery failed"
        done
    done >"$out.raw"
    # Records with LID 0 are what a truncated multi-packet answer leaves (see above).
    awk '
        function flush() { if (pair != "") print pair, (n ? rec : "none") }
        /^pair / { flush(); pair = $2 " " $3; n = 0; rec = ""; next }
        /saquery failed/ { rec = rec " failed" }
        /^[ \t]*slid\.\.\./ { sub(/.*\./, ""); slid = $0 }
        /^[ \t]*dlid\.\.\./ { sub(/.*\./, ""); dlid = $0 }
        /^[ \t]*sl\.\.\./ { sub(/.*\./, ""); sl = $0 }
        /^[ \t]*preference\.\.\./ { sub(/.*\./, "");
            if (slid != 0 && dlid != 0 && n < 2) { rec = rec " " slid " " dlid " " sl " " $0; n++ } }
        END { flush() }' "$out.raw" >"$out"
}

# judge TAG ANSWERS: compares the first PathRecords (first_paths) with the offline path
# selection and path SLs; prints `pairs mismatched-dlid mismatched-slid mismatched-sl`.
judge() {
    local tag=$1 answers=$2
    awk '
        FILENAME == ARGV[1] { if (!/^#/) dlid[$1 " " $2] = $3; next }
        FILENAME == ARGV[2] { node[$1] = $2; next }
        FILENAME == ARGV[3] { if (!/^#/) psl[$1 " " $2] = $3; next }
        {
            pairs++
            if ($3 == "none") { bad_d++; bad_s++; bad_sl++; next }
            want_sl = (node[$1] " " $4) in psl ? psl[node[$1] " " $4] : 0
            if ($4 != dlid[$1 " " $2]) bad_d++
            if ($3 != dlid[$2 " " $1]) bad_s++
            if ($5 != want_sl) bad_sl++
        }
        END { print pairs + 0, bad_d + 0, bad_s + 0, bad_sl + 0 }' \
        "$tag.dlids" "$tag.nodes" "$tag.offline/path-sl" "$answers"
}

# judge_order FIRST MULTI LMC: the multipath answers (multipath) list first the record of the
# SubnAdmGet (first_paths), then the next pair in the engine's order (both LIDs one up,
# cyclically within the port's 2^LMC LIDs), with preference 0 then 1; prints `pairs bad`.
judge_order() {
    awk -v k=$((1 << $3)) '
        function next_lid(l) { return l - l % k + (l % k + 1) % k }
        function hex(s, v, i) {
            v = 0
            for (i = 3; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
            return v
        }
        FILENAME == ARGV[1] { first[$1 " " $2] = $3 " " $4 " " $5; next }
        {
            pairs++
            if ($3 == "none" || $3 == "failed" || NF < 10) { bad++; next }
            if (first[$1 " " $2] != $3 " " $4 " " hex($5)) bad++
            else if ($7 != next_lid($3) || $8 != next_lid($4) || hex($6) != 0 || hex($10) != 1) bad++
        }
        END { print pairs + 0, bad + 0 }' "$1" "$2"
}

"$IBRT" gen -q -o ft8-3.net fat-tree --ports 8 --levels 3
e2e_start_ibsim ft8-3.net

# The patched opensm: every pair gets the path selection.
start_sm patched "$PATCHED_OSM" "$PATCHED_LIBS" mlid 4
grep -q "ibrt: the SA asks the engines for the LID pairs" "$SM_DIR/osm.log" ||
    e2e_fail "patched: the plugin did not find the path_lid_pairs callback"
offline ft83 mlid
first_paths ft83 patched.first
read -r pairs bad_d bad_s bad_sl < <(judge ft83 patched.first)
((pairs == 128 * 127)) || e2e_fail "patched: $pairs pairs answered, expected 16256"
((bad_d == 0 && bad_s == 0 && bad_sl == 0)) ||
    e2e_fail "patched: of $pairs pairs, $bad_d with another DLID, $bad_s another SLID, $bad_sl another SL: $(head -n 3 patched.first)"
multipath ft83 patched.multi 32
read -r mpairs bad_o < <(judge_order patched.first patched.multi 4)
((mpairs == 128 * 4 - 8 && bad_o == 0)) ||
    e2e_fail "patched: $bad_o of $mpairs multipath answers not in the engine's order: $(head -n 3 patched.multi)"
echo "ok: patched opensm: $pairs pairs, every PathRecord has the path selection's DLID and SL; $mpairs multipath answers in the engine's order"
stop_sm

# The stock opensm with the same plugin and LIDs: opensm's base LIDs.
start_sm stock "$STOCK_OSM" "" mlid 4
grep -q "ibrt: this opensm has no path_lid_pairs" "$SM_DIR/osm.log" ||
    e2e_fail "stock: the plugin did not say that the SA does not serve the path selection"
(($(grep -c "path_lid_pairs" "$SM_DIR/osm.log") == 1)) || e2e_fail "stock: the notice is not logged once"
e2e_diag ibnetdiscover >stock.net
e2e_expect_rc 0 "$IBRT" diff --lfts --fabric stock.net "$SM_DIR/opensm-lfts.dump" "$WORK/osm-patched/opensm-lfts.dump"
first_paths ft83 stock.first
read -r pairs bad_d _ < <(judge ft83 stock.first)
((pairs == 128 * 127)) || e2e_fail "stock: $pairs pairs answered, expected 16256"
# The stock SA hands out the base LID (LIDs are 16-aligned at LMC 4) to every pair, so exactly
# the pairs whose path selection is another LID differ: 14,592 (mlid's choice is the base LID
# for 1,664 of the 16,256 pairs).
awk '$4 % 16 != 0 { exit 1 }' stock.first || e2e_fail "stock: a PathRecord without the base DLID"
want=$(awk '!/^#/ && $3 % 16 != 0 { n++ } END { print n + 0 }' ft83.offline/path-selection)
((bad_d == want && bad_d * 10 > pairs * 8)) ||
    e2e_fail "stock: $bad_d of $pairs pairs differ from the path selection, expected $want"
echo "ok: stock opensm: $bad_d of $pairs pairs get another DLID than the path selection (the base LID)"
stop_sm
e2e_stop_ibsim

# separate (paper 001's LIDs and path selection) through the same SA, at LMC 2. Its paths, like
# mlid's, are all on SL 0.
e2e_start_ibsim "$IBRT_SOURCE_DIR/test-fabrics/generated/random-8.net"
start_sm separate "$PATCHED_OSM" "$PATCHED_LIBS" separate 2
offline random8 separate
first_paths random8 separate.first
read -r pairs bad_d bad_s bad_sl < <(judge random8 separate.first)
ncas=$(wc -l <random8.cas)
((pairs == ncas * (ncas - 1) && pairs > 0)) || e2e_fail "separate: $pairs pairs answered for $ncas CAs"
((bad_d == 0 && bad_s == 0 && bad_sl == 0)) ||
    e2e_fail "separate: of $pairs pairs, $bad_d with another DLID, $bad_s another SLID, $bad_sl another SL"
multipath random8 separate.multi 1
read -r mpairs bad_o < <(judge_order separate.first separate.multi 2)
((mpairs == pairs && bad_o == 0)) || e2e_fail "separate: $bad_o of $mpairs multipath answers not in the engine's order"
echo "ok: separate: $pairs pairs with the path selection's DLID"
stop_sm
e2e_stop_ibsim

# torus at LMC 0 (one LID pair per port pair: opensm's own), whose path SLs carry a dateline bit
# per ring: the records the engine chose still get path_sl's SL.
"$IBRT" gen -q -o torus.net --fail-link 'sw-0.0.0[2]' torus --k 5,4,2
e2e_start_ibsim torus.net
plugin_conf "qos TRUE"
start_sm torus "$PATCHED_OSM" "$PATCHED_LIBS" torus 0 -Q
offline torus torus
first_paths torus torus.first
read -r pairs bad_d bad_s bad_sl < <(judge torus torus.first)
nsl=$(awk '$3 != "none" { print $5 }' torus.first | sort -u | wc -l)
((pairs > 0 && bad_d == 0 && bad_s == 0 && bad_sl == 0 && nsl > 1)) ||
    e2e_fail "torus: of $pairs pairs, $bad_d with another DLID, $bad_s another SLID, $bad_sl another SL ($nsl SLs)"
echo "ok: torus: $pairs pairs with path_sl's SL ($nsl SLs)"
stop_sm
e2e_pass
