#!/bin/sh
# ibrt's simulator against BookSim2 (issue 14, "Agreement with BookSim2"): BookSim's `fattree`
# k=4 n=4 with `nca` (a uniformly random up port per hop) against ibrt's extended switch on
# `ibrt gen kary-ntree --k 4 --n 4` with slid's up phase as forwarding sets under the oblivious
# selection (a uniformly random up port per hop, waited for: `nca` itself) in ibrt's IB mode and in its VC-router mode with
# BookSim's router (--vc-router --vc-release sent: wait_for_tail_credit = 0;
# --vc-alloc-gap-ns 1.024: the non-speculative VC-then-switch allocation turnaround of one
# cycle; --vc-input-first: the separable input-first switch allocator). Zero-load latency
# (offered 0.01) and the highest accepted rate over the offered RATES, uniform and
# bit-complement, 1, 2 and 4 VCs. K and N choose the tree (default 4 and 4); ROUTING=anca
# compares BookSim's `anca` (two random up ports, the one with fewer credits in use) with ibrt's
# `anca` selection instead of `nca` with `oblivious`. Prints a Markdown
# table; BookSim's configuration is written next to its output in $WORK, and a BookSim output
# already there is reused (a BookSim run takes about a minute here).
#
# The staleness experiment (issue 14): BOOKSIM_EXTRA is appended to BookSim's configuration
# (e.g. "routing_delay = 1;": route at the head of the input VC instead of BookSim's lookahead
# routing, which binds the next hop's port when the upstream router sends the flit), TAG names
# such outputs in $WORK, IBRT_EXTRA is added to ibrt's options (e.g. "--select-at entry": bind
# when the packet enters its input buffer instead of at the head), and SIDES=booksim or
# SIDES=ibrt runs one side only; IB=0 skips ibrt's IB mode. ROUTING_NS and GAP_NS set ibrt's
# routing delay and allocation turnaround (4.096 and 2.048 for BookSim's routing_delay = 1).
#
# Timing, one cycle = 1024 ps: 64-byte packets of one flit and one credit (16 ps per byte), fly 1
# cycle, BookSim's pipeline of VC allocation + switch allocation + switch traversal (3 cycles)
# as ibrt's routing delay, credit delay 2 cycles, 16-packet buffers per VC.
#
# Usage: studies/booksim-agreement.sh path/to/ibrt path/to/booksim   (BookSim2 built
# from github.com/booksim/booksim2 under /tmp; never part of this project). PATTERNS, VCS and
# RATES narrow the grid. CSV=FILE also appends each cell to FILE as a row of
# docs/results/booksim-agreement.csv (the header first when FILE is new; select_at from
# IBRT_EXTRA's --select-at, else head; latencies to 0.01 cycle, saturations to 0.001).
set -eu
. "$(dirname "$0")/booksim-fattree-config.sh"
IBRT=${1:?path to ibrt}
BOOKSIM=${2:?path to booksim}
WORK=${WORK:-$(mktemp -d)}
K=${K:-4}
N=${N:-4}
ROUTING=${ROUTING:-nca}
BOOKSIM_EXTRA=${BOOKSIM_EXTRA:-}
IBRT_EXTRA=${IBRT_EXTRA:-}
CSV=${CSV:-}
SELECT_AT=$(echo " $IBRT_EXTRA " | sed -n 's/.* --select-at \([a-z]*\) .*/\1/p')
SELECT_AT=${SELECT_AT:-head}
TAG=${TAG:-}
SIDES=${SIDES:-both}
IB=${IB:-1}
ROUTING_NS=${ROUTING_NS:-3.072}
GAP_NS=${GAP_NS:-1.024}
case $ROUTING in
nca) SELECTION=${SELECTION:-oblivious} ;;
anca) SELECTION=${SELECTION:-anca} ;;
*) echo "ROUTING must be nca or anca" >&2 && exit 2 ;;
esac
NET="$WORK/k$K-n$N.net"
"$IBRT" gen kary-ntree --k "$K" --n "$N" -o "$NET" >/dev/null 2>&1
RATES=${RATES:-"0.5 0.7 0.9"}
PATTERNS=${PATTERNS:-"uniform bitcomp"}
VCS=${VCS:-"1 2 4"}
booksim_run() { # vcs traffic rate -> "accepted latency"
    [ "$SIDES" = ibrt ] && echo "- -" && return
    out="$WORK/bs-$ROUTING$TAG-$K-$N-$1-$2-$3"
    if [ ! -s "$out.out" ]; then
        booksim_fattree_cfg "$K" "$N" "$ROUTING" "$1" "$2" "$3" >"$out.cfg"
        "$BOOKSIM" "$out.cfg" >"$out.tmp" 2>&1 || true
        mv "$out.tmp" "$out.out"
    fi
    awk '/Accepted packet rate average/ {a = $6} /Packet latency average/ {l = $5}
         END {print (a == "" ? "nan" : a), (l == "" ? "nan" : l)}' "$out.out"
}
ibrt_run() { # vcs pattern rate mode... -> "accepted latency_cycles"
    [ "$SIDES" = booksim ] && echo "- -" && return
    vcs=$1 pat=$2 rate=$3
    shift 3
    # shellcheck disable=SC2086 # IBRT_EXTRA is a list of options
    # shellcheck disable=SC2046 # the timing is a list of options
    "$IBRT" sim --fabric "$NET" --engine slid --engine-opt adaptive_up=true --selection "$SELECTION" \
        $(ibrt_fattree_timing "$ROUTING_NS") --vls "$vcs" --pattern "$pat" --load "$rate" \
        --warmup-us 5 --measure-us 20 --drain-us 5 --csv -q $IBRT_EXTRA "$@" 2>/dev/null |
        awk -F, 'NR == 2 {printf "%s %.2f\n", $3, $5 / 1.024}'
}
best() { grep -v -e - -e nan | sort -g | tail -1; }
csv_row() { # pattern vcs, then latencies BookSim ibrt-VC ibrt-IB and saturations in that order
    [ -s "$CSV" ] || echo "routing,select_at,tree,pattern,vcs,booksim_latency,ibrt_vc_latency,ibrt_ib_latency,booksim_saturation,ibrt_vc_saturation,ibrt_ib_saturation" >"$CSV"
    echo "$@" | awk -v r="$ROUTING" -v s="$SELECT_AT" -v t="$K-ary $N-tree" '
        function f(x, d) { return x == "-" || x == "" || x == "nan" ? "" : sprintf(d, x) }
        { printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", r, s, t, $1 == "bitcomp" ? "bit-complement" : $1, $2,
          f($3, "%.2f"), f($4, "%.2f"), f($5, "%.2f"), f($6, "%.3f"), f($7, "%.3f"), f($8, "%.3f") }' >>"$CSV"
}
# IB mode: the SLs spread over the VLs (BookSim's VCs). VC-router mode: one SL, so one class whose
# range is every VC (BookSim's nca and anca return the whole range each hop); SLs spread would
# make each SL a class of its own VC (docs/sim-model.md, "VC-router mode").
IBM="--sl spread"
VC="--sl path --vc-router --vc-release sent --vc-alloc-gap-ns $GAP_NS --vc-input-first"
echo "| tree | pattern | VCs | zero-load latency (cycles): BookSim / ibrt IB / ibrt VC-router | saturation: BookSim / ibrt IB / ibrt VC-router |"
echo "|---|---|---|---|---|"
for pat in $PATTERNS; do
    ipat=$pat
    [ "$pat" = bitcomp ] && ipat=complement
    for vcs in $VCS; do
        zb=$(booksim_run "$vcs" "$pat" 0.01 | cut -d' ' -f2)
        zi=-
        # shellcheck disable=SC2086 # IBM and VC are lists of options
        [ "$IB" = 1 ] && zi=$(ibrt_run "$vcs" "$ipat" 0.01 $IBM | cut -d' ' -f2)
        # shellcheck disable=SC2086 # VC is a list of options
        zv=$(ibrt_run "$vcs" "$ipat" 0.01 $VC | cut -d' ' -f2)
        sb=$(for r in $RATES; do booksim_run "$vcs" "$pat" "$r" | cut -d' ' -f1; done | best)
        si=-
        # shellcheck disable=SC2086
        [ "$IB" = 1 ] && si=$(for r in $RATES; do ibrt_run "$vcs" "$ipat" "$r" $IBM | cut -d' ' -f1; done | best)
        # shellcheck disable=SC2086
        sv=$(for r in $RATES; do ibrt_run "$vcs" "$ipat" "$r" $VC | cut -d' ' -f1; done | best)
        echo "| $K-ary $N-tree ($ROUTING) | $pat | $vcs | $zb / $zi / $zv | $sb / $si / $sv |"
        [ -z "$CSV" ] || csv_row "$pat" "$vcs" "${zb:--}" "${zv:--}" "${zi:--}" "${sb:--}" "${sv:--}" "${si:--}"
    done
done
