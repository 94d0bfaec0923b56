#!/bin/sh
# ibrt's simulator against BookSim2 on a Dragonfly (issue 38, docs/results/booksim-dragonfly.md):
# BookSim's `dragonflynew` with k = K (default 2: p = 2 hosts and h = 2 global ports per router,
# a = 4 routers per group, 9 groups: 36 routers, 72 hosts; K=4: 264 routers, 1,056 hosts),
# routings `min` and `ugal`, traffic `uniform` and `bad_dragon`, against ibrt on `ibrt gen
# dragonfly --a 2K --h K --p K` (the absolute global arrangement: BookSim's cabling, port for
# port) with the dragonfly engine
# in VC-router mode with BookSim's router (--vc-router --vc-release sent --vc-alloc-gap-ns
# 1.024 --vc-input-first, as studies/booksim-agreement.sh).
#   min:  the engine's minimal LFTs on 2 VLs (VL 0 until the global hop, VL 1 after it, as
#         BookSim's min ties VC 0 and VC 1 to the phase), hosts on VL 0 or 1 (--sl spread) as
#         BookSim's source picks VC 0 or 1 at random;
#   ugal: ROUTINGS_UGAL lists ibrt configurations, each run against BookSim's `ugal` (3 VCs):
#         "via:ugal" (the page's headline: --via ugal on the engine's LFTs, 3 VLs, BookSim's
#         UGAL-L with its path fixed at the source) and "adaptive:selection[:option:value...]"
#         (paper 003's routings on 6 VLs under a selection function; the colons after the
#         selection become spaces), the variants the page discusses.
# Timing, one cycle = 1024 ps: 64-byte packets of one flit and one credit (16 ps per byte), fly
# 1 cycle (BookSim's dragonflynew sets its local channels to 10 cycles and its global ones to
# 100 under the compile-time define DRAGON_LATENCY; the BOOKSIM given here must be built
# without it, since ibrt has one fly time for every link), BookSim's pipeline of VC allocation
# + switch allocation + switch traversal (3 cycles) as ibrt's routing delay, credit delay 2
# cycles, 256-packet buffers per VC (BookSim's examples/dragonflyconfig; UGAL's threshold of
# 30 flits needs buffers well above it).
#
# Saturation: the accepted rate at each offered load of the grid (BookSim in its throughput
# mode: 3 warm-up periods of 2000 cycles, then up to 7 measured ones, its drain of the source
# queues cut off; ibrt 10 us of warm-up, 20 us measured); zero-load latency at offered 0.01
# (BookSim in its latency mode). Writes $CSV (default docs/results/booksim-dragonfly.csv,
# written anew): cell,side,load,accepted,latency_cycles; prints a Markdown table of zero-load
# latency and of the highest accepted rate over the grid, per cell and side.
#
# Usage: studies/booksim-dragonfly.sh path/to/ibrt path/to/booksim   (BookSim2 built under
# /tmp from github.com/booksim/booksim2, DRAGON_LATENCY undefined; never part of this project;
# BOOKSIM may be given as an environment variable instead). WORK keeps BookSim's configurations
# and outputs (a BookSim output already there is reused); CELLS narrows the grid
# ("min-uniform min-bad_dragon ugal-uniform ugal-bad_dragon"); SIDES=booksim or SIDES=ibrt runs
# one side; LOADS_UNIFORM and LOADS_BAD set the offered loads; BUF sets the buffer (packets
# per VC); IBRT_EXTRA is added to every ibrt run; SAMPLE_PERIOD and MAX_SAMPLES set BookSim's
# measurement (default 2000 and 10).
set -eu
IBRT=${1:?path to ibrt}
BOOKSIM=${2:-${BOOKSIM:?path to booksim (argument or BOOKSIM)}}
HERE=$(cd "$(dirname "$0")" && pwd)
CSV=${CSV:-$HERE/../docs/results/booksim-dragonfly.csv}
WORK=${WORK:-$(mktemp -d)}
mkdir -p "$WORK"
CELLS=${CELLS:-"min-uniform min-bad_dragon ugal-uniform ugal-bad_dragon"}
SIDES=${SIDES:-both}
BUF=${BUF:-256}
K=${K:-2}
SAMPLE_PERIOD=${SAMPLE_PERIOD:-2000}
MAX_SAMPLES=${MAX_SAMPLES:-10}
GROUP_HOSTS=$((2 * K * K)) # a * p
LOADS_UNIFORM=${LOADS_UNIFORM:-"0.3 0.4 0.5 0.6 0.7 0.8 0.9"}
LOADS_BAD=${LOADS_BAD:-"0.05 0.1 0.15 0.2 0.25 0.3 0.4 0.5"}
ROUTINGS_UGAL=${ROUTINGS_UGAL:-"via:ugal g:ugal g:ugal:--select-at:sent gsi:ugal g:least-loaded g:mc g:two-choices g:least-loaded:--one-priority-class"}
IBRT_EXTRA=${IBRT_EXTRA:-}
NET="$WORK/df-a$((2 * K))-h$K-p$K.net"
"$IBRT" gen dragonfly --a $((2 * K)) --h $K --p $K --arrangement absolute -o "$NET" >/dev/null 2>&1

booksim_run() { # routing traffic rate -> "accepted latency_cycles"
    [ "$SIDES" = ibrt ] && echo "- -" && return
    case $1 in min) vcs=2 ;; *) vcs=3 ;; esac
    case $3 in 0.01) mode=latency ;; *) mode=throughput ;; esac
    tag=
    [ "$K" != 2 ] && tag="$tag-k$K"
    [ "$SAMPLE_PERIOD/$MAX_SAMPLES" != 2000/10 ] && tag="$tag-s$SAMPLE_PERIOD-$MAX_SAMPLES"
    out="$WORK/bs-$1-$2-$BUF-$3$tag"
    if [ ! -s "$out.out" ]; then
        cat >"$out.cfg" <<CFG
topology = dragonflynew; k = $K; n = 1; routing_function = $1;
num_vcs = $vcs; vc_buf_size = $BUF; packet_size = 1; injection_rate_uses_flits = 1;
wait_for_tail_credit = 0; hold_switch_for_packet = 1;
vc_allocator = separable_input_first; sw_allocator = separable_input_first; alloc_iters = 1;
credit_delay = 2; routing_delay = 0; vc_alloc_delay = 1; sw_alloc_delay = 1; st_final_delay = 1;
input_speedup = 1; output_speedup = 1; internal_speedup = 1.0;
traffic = $2; injection_rate = $3; sim_type = $mode;
warmup_periods = 3; sample_period = $SAMPLE_PERIOD; sim_count = 1; max_samples = $MAX_SAMPLES; priority = none;
CFG
        # Past saturation BookSim's throughput mode then drains its unbounded source queues
        # for ever: stop reading there (the figures are printed before it).
        { "$BOOKSIM" "$out.cfg" 2>&1 || true; } | awk '/Draining remaining packets/ {exit} {print}' >"$out.tmp"
        mv "$out.tmp" "$out.out"
    fi
    awk '/Accepted packet rate average/ {a = $6} /Packet latency average/ {l = $5}
         END {print (a == "" ? "nan" : a), (l == "" ? "nan" : l)}' "$out.out"
}
ibrt_run() { # routing(min|adaptive:selection[:extra]) pattern rate -> "accepted latency_cycles"
    [ "$SIDES" = booksim ] && echo "- -" && return
    r=$1 pat=$2 rate=$3
    if [ "$r" = min ]; then
        set -- --engine dragonfly --vls 2 --sl spread
    elif [ "${r%%:*}" = via ]; then # via:ugal, via:valiant: the path fixed at the source
        set -- --engine dragonfly --vls 3 --via "${r#via:}"
    else
        adaptive=${r%%:*} rest=${r#*:}
        sel=${rest%%:*} extra=
        [ "$rest" != "$sel" ] && extra=$(echo "${rest#*:}" | tr : ' ')
        # shellcheck disable=SC2086 # extra is a list of options
        set -- --engine dragonfly --engine-opt "adaptive=$adaptive" --vls 6 --selection "$sel" $extra
    fi
    [ "$pat" = bad-dragon ] && set -- "$@" --group-hosts $GROUP_HOSTS
    # shellcheck disable=SC2086 # IBRT_EXTRA is a list of options
    "$IBRT" sim --fabric "$NET" "$@" --vc-router --vc-release sent --vc-alloc-gap-ns 1.024 \
        --vc-input-first --packet-bytes 64 --credit-unit 64 --ns-per-byte 0.016 --fly-ns 1.024 \
        --routing-ns 3.072 --credit-delay-ns 2.048 --buffer-bytes $((BUF * 64)) \
        --pattern "$pat" --load "$rate" --warmup-us 10 --measure-us 20 --drain-us 5 --csv -q \
        $IBRT_EXTRA 2>/dev/null |
        awk -F, 'NR == 2 {printf "%s %.2f\n", $3, $5 / 1.024}'
}
best() { grep -v -e '^-' -e nan | sort -g | tail -1; }

echo "cell,side,load,accepted,latency_cycles" >"$CSV"
echo "| cell | ibrt | zero-load latency (cycles): BookSim / ibrt | saturation (highest accepted): BookSim / ibrt | ibrt − BookSim |"
echo "|---|---|---|---|---|"
for cell in $CELLS; do
    routing=${cell%%-*} pat=${cell#*-}
    loads=$LOADS_UNIFORM
    ipat=uniform
    [ "$pat" = bad_dragon ] && loads=$LOADS_BAD && ipat=bad-dragon
    ibrt_routings=min
    [ "$routing" = ugal ] && ibrt_routings=$ROUTINGS_UGAL
    bsz=$(booksim_run "$routing" "$pat" 0.01)
    echo "$cell,booksim,0.01,$(echo "$bsz" | tr ' ' ,)" >>"$CSV"
    bs=$(for r in $loads; do
        a=$(booksim_run "$routing" "$pat" "$r")
        echo "$cell,booksim,$r,$(echo "$a" | tr ' ' ,)" >>"$CSV"
        echo "$a" | cut -d' ' -f1
    done | best)
    for ir in $ibrt_routings; do
        iz=$(ibrt_run "$ir" "$ipat" 0.01)
        echo "$cell,ibrt $ir,0.01,$(echo "$iz" | tr ' ' ,)" >>"$CSV"
        is=$(for r in $loads; do
            a=$(ibrt_run "$ir" "$ipat" "$r")
            echo "$cell,ibrt $ir,$r,$(echo "$a" | tr ' ' ,)" >>"$CSV"
            echo "$a" | cut -d' ' -f1
        done | best)
        d=-
        [ -n "$bs" ] && [ -n "$is" ] && d=$(awk -v a="$is" -v b="$bs" 'BEGIN {printf "%+.3f", a - b}')
        echo "| $cell | $ir | ${bsz#* } / ${iz#* } | ${bs:-–} / ${is:-–} | $d |"
    done
done
