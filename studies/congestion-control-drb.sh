#!/bin/sh
# Paper 002 (Lugones, Franco, Luque: DRB against IBA congestion control) with ibrt's simulator,
# under the paper's model setting, studies/settings/paper-002.json (a 1X SDR link of 2.5 Gb/s,
# footnote 4, and IBA's smallest MTU as the packet). That file is the one source of the link
# and packet model: each sweep spec below takes it whole as its "sim" object, the hot-spot runs
# read it with `ibrt sim --config`, and the CCT below is computed from its packet time; the
# script sets none of its keys itself.
#
# Figs. 8 and 9: throughput and latency against offered load for five regimes on a 64-node 8x8
# torus and a 32-node 8x4 mesh under perfect-shuffle traffic, one `ibrt sweep` spec per regime
# (both fabrics, loads 0.05 .. 1.0, 1 ms warm-up, 2 ms window, seeds 1..SEEDS). Fig. 10: a hot
# spot that appears and goes, as per-link utilization over time, over uniform traffic at 0.3 of
# the link, from 1 to 2 ms, seeds 1..SEEDS: on links as the paper has it (--pattern hot-flows:
# the flows of docs/results/congestion-control-drb/link-hotspot.pairs, which share five links
# of the torus, bring them to about 0.7 of the link), and, for contrast, on a node (5 % of the
# messages to CA 27).
#
# Set-up (paper 002 §5): switch threshold 80 % of the port buffer (IBA level 3 = 81 %,
# docs/sim-model.md), every eligible packet marked, timer 100 us (CCTI timer 98 x 1.024 us),
# IRD +5 us per 10 notifications (+1 CCTI per BECN, CCT entry i = i x 0.5 us after each
# packet), DRB at most 4 paths, one new per 10 notifications, constriction timer 100 us.
# Routing: ibrt's torus engine (DOR, dateline VLs; it routes the mesh too), LMC 0; DRB's
# alternative paths are extra LIDs found by DFS (--drb-paths dfs, engines/multipath/), kept
# free of credit loops on extra VL layers, so every regime runs with 15 VLs (the original
# paths use VLs 0-1 only). No CC and IBA CC send on the original path (base LID); DRB alone
# is --drb --cc-injection-delay off (marking and BECNs on, no throttling), as the paper runs
# it. Two references beyond the paper: DRB on top of IBA CC's throttling, and oblivious
# multipath (no CC, each packet on a random one of the DFS LIDs). 1 KB input buffers per VL
# and source queues of 256 packets (`ibrt sim`'s defaults; beyond that messages are refused
# and counted as throttled).
#
# Writes docs/results/congestion-control-drb/ (OUT=dir writes elsewhere):
#   paper002.opensm.conf                 IBA CC as paper 002 configures it, opensm.conf options
#   <fabric>-shuffle-<regime>.csv        one row per run (fabric: torus-8x8, mesh-8x4; regime:
#                                        none, iba, drb, drb-iba, random)
#   <fabric>-shuffle-mean.csv            every regime, per load the seeds' mean and 95 % interval
#   <fabric>-throughput.svg, -latency.svg  Figs. 8 and 9 with the intervals
#   linkhot.csv                          the link hot-spot runs' figures, one row per regime
#                                        (none, iba, drb; iba-t15, drb-t15: the diagnostic
#                                        threshold below; drb-eager: a path per BECN) and seed
#   linkhot-busiest.csv                  per regime, seed and 25 us: the hot area's busiest link
#   linkhot-<regime>-series.csv          seed 1: the hot area's five links per 25 us
#   linkhot-<regime>.svg                 seed 1: the busiest switch links over time
#   linkhot-links.svg                    Fig. 10: the hot area's busiest link over time, mean
#                                        over the seeds with its 95 % interval
#   hotspot.csv                          the node hot-spot runs' figures, one row per regime and
#                                        seed
#   hotspot-<regime>-series.csv          seed 1: the links around the hot node per 25 us
#   hotspot-<regime>.svg, hotspot-links.svg  seed 1: the busiest links over time
#   drb-variants.csv                     the gaps' runs: shuffle at load 1, both fabrics, IBA CC
#                                        and three DRBs, five source-queue bounds, one row a run
# then the findings table and the tables of docs/results/congestion-control-drb.md
# (congestion-control-drb-summary.py --write).
# Usage: studies/congestion-control-drb.sh [path/to/ibrt]   (SEEDS=5 by default; JOBS: sweep's
# -j; WORK=dir keeps the sweep directories and resumes them; PARTS="shuffle linkhot hotspot
# gaps" by default, a subset reruns those parts alone, the others' committed CSVs stay)
set -eu
IBRT=${1:-ibrt}
# The hot-spot runs start in $WORK: a path to the binary is made absolute.
case $IBRT in */*) IBRT=$(cd "$(dirname "$IBRT")" && pwd)/$(basename "$IBRT") ;; esac
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$HERE/../docs/results/congestion-control-drb}
SETTING=$HERE/settings/paper-002.json
SEEDS=${SEEDS:-5}
PY=${IBRT_PYTHON:-/usr/bin/python3}
PARTS=${PARTS:-shuffle linkhot hotspot gaps}
want() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
if [ -z "${WORK:-}" ]; then
    WORK=$(mktemp -d)
    trap 'rm -rf "$WORK"' EXIT
fi
mkdir -p "$WORK"

"$IBRT" gen torus --k 8,8 -o "$WORK/torus-8x8.net" 2>/dev/null

# IBA CC as paper 002 configures it, in opensm.conf's own options. The CCT's delays are in
# packet times (docs/sim-model.md, "Source: CCTI and the injection delay"): the packet time
# comes from the setting file.
PACKET_NS=$("$PY" -c 'import json, sys; s = json.load(open(sys.argv[1])); print(s["ns-per-byte"] * s["packet-bytes"])' "$SETTING")
CONF=$WORK/paper002.opensm.conf
{
    echo "congestion_control TRUE"
    echo "cc_sw_cong_setting_control_map 0x1f"
    echo "cc_sw_cong_setting_threshold 3"
    echo "cc_sw_cong_setting_marking_rate 0"
    echo "cc_sw_cong_setting_packet_size 0"
    echo "cc_ca_cong_setting_port_control 0"
    echo "cc_ca_cong_setting_control_map 0xffff"
    sl=0
    while [ $sl -lt 16 ]; do
        echo "cc_ca_cong_setting_ccti_timer $sl 98"
        echo "cc_ca_cong_setting_ccti_increase $sl 1"
        sl=$((sl + 1))
    done
    # Entry i: IRD = i x 500 ns after each packet = (i x 500 / PACKET_NS) packet times, in
    # eighths (shift 3).
    awk -v p="$PACKET_NS" 'BEGIN {
        printf "cc_cct ";
        for (i = 0; i < 128; i++) printf "%s3:%d", (i > 0 ? "," : ""), int(i * 500 * 8 / p + 0.5);
        print "" }'
} >"$CONF"
cp "$CONF" "$OUT/paper002.opensm.conf"
# A diagnostic beside the paper's set-up, for the link hot spot only: the same CC with the
# switch threshold at level 15, the most aggressive (a port VL is congested as soon as a packet
# waits behind the one leaving, docs/sim-model.md), to see what DRB does once notified.
sed 's/^cc_sw_cong_setting_threshold 3$/cc_sw_cong_setting_threshold 15/' "$CONF" \
    >"$WORK/paper002-t15.opensm.conf"
grep -q '^cc_sw_cong_setting_threshold 15$' "$WORK/paper002-t15.opensm.conf"

# regime NAME: the regime's own `ibrt sim` options, as JSON members of "sim".
regime() {
    case $1 in
    none) echo '"dlid": "base"' ;;
    iba) echo '"dlid": "base", "opensm-conf": "paper002.opensm.conf"' ;;
    drb) echo '"opensm-conf": "paper002.opensm.conf", "cc-injection-delay": "off", "drb": true, "drb-paths": "dfs"' ;;
    drb-iba) echo '"opensm-conf": "paper002.opensm.conf", "drb": true, "drb-paths": "dfs"' ;;
    random) echo '"drb-paths": "dfs", "dlid": "random"' ;;
    iba-t15) echo '"dlid": "base", "opensm-conf": "paper002-t15.opensm.conf"' ;;
    drb-t15) echo '"opensm-conf": "paper002-t15.opensm.conf", "cc-injection-delay": "off", "drb": true, "drb-paths": "dfs"' ;;
    drb-keep) echo "$(regime drb), \"drb-timer-us\": 0" ;;
    drb-eager) echo "$(regime drb), \"drb-notifications-per-path\": 1" ;;
    esac
}
# A regime's options for `ibrt sim` (its sweep spec's, as command-line options).
options() {
    "$PY" -c 'import json, sys
for k, v in json.loads("{" + sys.argv[1] + "}").items():
    print("--" + k if v is True else "--%s %s" % (k, v))' "$(regime "$1")"
}
REGIMES="none iba drb drb-iba random"
LOADS='[0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0]'
MEASURE='"warmup-us": 1000, "measure-us": 2000, "drain-us": 200'

# spec NAME JSON: writes $WORK/NAME.json, a sweep spec: JSON (its title, fabrics, routings,
# patterns, vls, loads and "sim": the study's own keys) on the setting file, with the seeds
# (setting_spec.py: a key the setting already sets is refused).
spec() {
    printf '%s' "$2" | "$PY" "$HERE/setting_spec.py" "$SETTING" "$SEEDS" "$WORK/$1.json"
}

# Figs. 8 and 9: one spec per regime, both fabrics.
if want shuffle; then
MEANS=""
for s in $REGIMES; do
    spec "shuffle-$s" "{\"title\": \"paper 002, perfect shuffle: $s\",
        \"fabrics\": [{\"gen\": \"torus --k 8,8\"}, {\"gen\": \"mesh --k 8,4\"}],
        \"routings\": [{\"engine\": \"torus\", \"label\": \"$s\"}], \"patterns\": [\"shuffle\"],
        \"vls\": [15], \"loads\": $LOADS, \"sim\": {$MEASURE, $(regime "$s")}}"
    # Exit 1 = some run failed its verdict (a saturated point may): the CSV says which.
    "$IBRT" sweep -q ${JOBS:+-j "$JOBS"} "$WORK/shuffle-$s.json" --out "$WORK/shuffle-$s" \
        2>"$WORK/shuffle-$s.err" || test $? -eq 1
    grep -h 'DRB: DFS' "$WORK/shuffle-$s.err" | sed "s|^|$s: |" >&2 || true
    "$PY" "$HERE/congestion-control-drb.py" --split "$WORK/shuffle-$s/sweep.csv" "$s" "$OUT"
    MEANS="$MEANS $WORK/shuffle-$s/sweep-mean.csv"
done
# shellcheck disable=SC2086
"$PY" "$HERE/congestion-control-drb.py" --split-mean "$OUT" $MEANS
fi

# hotspot_run KIND REGIME SEED ARGS...: one Fig. 10 run on the 8x8 torus (uniform background at
# 0.3 of the link, the hot spot from 1 ms to 2 ms, every link's utilization per 25 us over
# 3 ms) with the regime's options and ARGS, the hot spot's own; writes $WORK/KIND.json and
# $WORK/KIND-series.csv, and for seed 1 the plot $OUT/KIND-REGIME.svg. Exit 1 = the run failed
# its verdict, which a congested run may.
hotspot_run() {
    kind=$1 s=$2 seed=$3
    shift 3
    plot=""
    case $seed-$s in
    1-*-t15 | 1-drb-eager) ;;
    1-*) plot="--timeseries-plot $OUT/$kind-$s.svg --timeseries-links 6" ;;
    esac
    args=$(options "$s")
    # shellcheck disable=SC2086
    (cd "$WORK" && "$IBRT" sim --config "$SETTING" --fabric torus-8x8.net --engine torus \
        --vls 15 -q $args "$@" --hot-start-us 1000 --hot-end-us 2000 --load 0.3 --warmup-us 0 \
        --measure-us 3000 --drain-us 100 --seed "$seed" --json \
        --link-timeseries "$kind-series.csv" --timeseries-us 25 $plot >"$kind.json" \
        2>"$kind-$s-$seed.err") || {
        # Exit 1 = a run failed its verdict (its JSON says which); anything else is an error.
        rc=$?
        [ $rc -eq 1 ] || { cat "$WORK/$kind-$s-$seed.err" >&2; exit $rc; }
    }
}

# Fig. 10 as the paper has it, a hot spot on links: from 1 ms to 2 ms the sources of
# link-hotspot.pairs send 45 % of their messages to their pairs, the rest uniform (every other
# source uniform throughout). Their DOR routes share five consecutive links of the torus's
# column sw-*.3, which the background loads to about 0.30 of the link and the flows to about
# 0.70 (the file says how they were chosen). --flow-stats gives each flow's BECNs (what DRB
# counts to open a path). Seed 1's series of those links and plots are kept. Then IBA CC and
# DRB again with the diagnostic threshold (iba-t15, drb-t15; no series or plots kept).
PAIRS=$HERE/../docs/results/congestion-control-drb/link-hotspot.pairs
if want linkhot; then
rm -f "$OUT/linkhot.csv" "$OUT/linkhot-busiest.csv"
for s in none iba drb iba-t15 drb-t15 drb-eager; do
    seed=1
    while [ $seed -le "$SEEDS" ]; do
        keep=""
        case $seed-$s in
        1-*-t15 | 1-drb-eager) ;;
        1-*) keep="$OUT/linkhot-$s-series.csv" ;;
        esac
        hotspot_run linkhot "$s" $seed --pattern hot-flows --pairs-file "$PAIRS" --hot-fraction 0.45 \
            --flow-stats
        # shellcheck disable=SC2086
        "$PY" "$HERE/congestion-control-drb.py" --link-series "$WORK/linkhot-series.csv" \
            "$WORK/linkhot.json" "$s" "$seed" "$PAIRS" "$OUT/linkhot.csv" \
            "$OUT/linkhot-busiest.csv" $keep
        seed=$((seed + 1))
    done
done
fi

# For contrast, a hot spot on a node: from 1 ms to 2 ms 5 % of every source's messages to
# CA 27. Seed 1's series (around the hot node) and plots are kept.
if want hotspot; then
rm -f "$OUT/hotspot.csv"
for s in none iba drb; do
    seed=1
    while [ $seed -le "$SEEDS" ]; do
        keep=""
        [ $seed -eq 1 ] && keep="$OUT/hotspot-$s-series.csv"
        hotspot_run hotspot "$s" $seed --pattern hotspot --hot-node 27 --hot-fraction 0.05
        # Keep the switch-to-switch links into the hot spot's switch and its own link only (the
        # CSV of every link is several MB). $keep is empty but for seed 1.
        # shellcheck disable=SC2086
        "$PY" "$HERE/congestion-control-drb.py" --series "$WORK/hotspot-series.csv" \
            "$WORK/hotspot.json" "$s" "$seed" "$OUT/hotspot.csv" $keep
        seed=$((seed + 1))
    done
done
fi

# What was measured for the gaps (the page's "What was measured for the gaps"): perfect shuffle at
# the maximum load, 1 of the link, on both fabrics, with IBA CC and DRB as the paper has it
# under source queues of 4, 16, 64, 256 (the default) packets and unbounded ones (0), and, with
# 256 and unbounded, DRB whose paths never close (drb-keep: constriction timer off) and DRB that
# opens a path per BECN (drb-eager); seeds 1..SEEDS, one row per run in drb-variants.csv.
if want gaps; then
    "$IBRT" gen mesh --k 8,4 -o "$WORK/mesh-8x4.net" 2>/dev/null
    rm -f "$OUT/drb-variants.csv"
    for fab in torus-8x8 mesh-8x4; do
        for queue in 4 16 64 256 0; do
            regimes="iba drb"
            case $queue in 256 | 0) regimes="iba drb drb-keep drb-eager" ;; esac
            for s in $regimes; do
                seed=1
                while [ $seed -le "$SEEDS" ]; do
                    args=$(options "$s")
                    # shellcheck disable=SC2086
                    (cd "$WORK" && "$IBRT" sim --config "$SETTING" --fabric "$fab.net" --engine torus \
                        --vls 15 -q $args --pattern shuffle --load 1.0 --warmup-us 1000 \
                        --measure-us 2000 --drain-us 200 --source-queue $queue --seed $seed --json \
                        --flow-stats >gap.json 2>gap.err) || {
                        rc=$?
                        [ $rc -eq 1 ] || { cat "$WORK/gap.err" >&2; exit $rc; }
                    }
                    "$PY" "$HERE/congestion-control-drb.py" --run-row "$WORK/gap.json" "$fab" "$s" \
                        "$queue" "$seed" "$OUT/drb-variants.csv"
                    seed=$((seed + 1))
                done
            done
        done
    done
fi

IBRT="$IBRT" "$PY" "$HERE/congestion-control-drb.py" --figures "$OUT"
"$PY" "$HERE/congestion-control-drb-summary.py" --dir "$OUT" --write
