#!/bin/sh
# Paper 002 (DRB against IBA congestion control) with ibrt's simulator: throughput and latency
# against offered load for no CC, IBA CC and DRB on a 64-node 8x8 torus and a 32-node 8x4 mesh
# under perfect-shuffle traffic (Figs. 8, 9), and the hot spot that appears and goes (Fig. 10)
# as per-link utilization over time. Writes congestion-control-drb/*.csv and *.svg next to this
# script; congestion-control-drb.py prints the tables of congestion-control.md and draws the
# combined figures with `ibrt plot` (this IBRT).
#
# Set-up (paper 002 §5): switch threshold 80 % of the port buffer (IBA level 3 = 81 %,
# docs/sim-model.md), every eligible packet marked, timer 100 us (CCTI timer 98 x 1.024 us),
# IRD +5 us per 10 notifications (+1 CCTI per BECN, CCT entry i = i x 0.5 us after each
# packet), DRB at most 4 paths, one new per 10 notifications, constriction timer 100 us.
# Routing: ibrt's torus engine (DOR, dateline VLs; it routes the mesh too), LMC 0; DRB's
# alternative paths are extra LIDs found by DFS (--drb-paths dfs, engines/multipath/), kept
# free of credit loops on extra VL layers, so every scheme runs with 15 VLs (the original
# paths use VLs 0-1 only). No CC and IBA CC send on the original path (base LID); DRB alone
# is --drb --cc-injection-delay off (marking and BECNs on, no throttling), as the paper runs
# it. Two references beyond the paper: DRB on top of IBA CC's throttling, and oblivious
# multipath (no CC, each packet on a random one of the DFS LIDs).
# Links 4x SDR (1 ns per byte), 256-byte packets, 1 KB input buffers per VL, source queues of
# 256 packets (beyond that messages are refused and counted as throttled).
# Usage: docs/results/congestion-control-drb.sh [path/to/ibrt]   (OUT=dir writes elsewhere)
set -eu
IBRT=${1:-ibrt}
HERE=$(dirname "$0")
OUT=${OUT:-$HERE/congestion-control-drb}
mkdir -p "$OUT"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

"$IBRT" gen torus --k 8,8 -o "$WORK/torus-8x8.net" 2>/dev/null
"$IBRT" gen mesh --k 8,4 -o "$WORK/mesh-8x4.net" 2>/dev/null

# IBA CC as paper 002 configures it, in opensm.conf's own options.
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
    # Entry i: IRD = i x 500 ns after each 256 ns packet = (i x 500 / 256) packet times,
    # in eighths (shift 3).
    printf 'cc_cct '
    i=0
    while [ $i -lt 128 ]; do
        printf '%s3:%d' "$([ $i -gt 0 ] && echo ,)" $(((i * 500 * 8 + 128) / 256))
        i=$((i + 1))
    done
    echo
} >"$CONF"
cp "$CONF" "$OUT/paper002.opensm.conf"

COMMON="--engine torus --vls 15 --packet-bytes 256 -q"
scheme_args() { # scheme -> options
    case $1 in
    none) echo "--dlid base" ;;
    iba) echo "--dlid base --opensm-conf $CONF" ;;
    drb) echo "--opensm-conf $CONF --cc-injection-delay off --drb --drb-paths dfs" ;;
    drb-iba) echo "--opensm-conf $CONF --drb --drb-paths dfs" ;;
    random) echo "--drb-paths dfs --dlid random" ;;
    esac
}
SCHEMES="none iba drb drb-iba random"

# Figs. 8 and 9: shuffle traffic, load 0.05 .. 1.0; 1 ms warm-up, 2 ms window.
LOADS=0.05,0.1,0.15,0.2,0.25,0.3,0.4,0.5,0.6,0.8,1.0
for topo in torus-8x8 mesh-8x4; do
    for s in $SCHEMES; do
        # shellcheck disable=SC2046
        "$IBRT" sim --fabric "$WORK/$topo.net" $COMMON $(scheme_args $s) --pattern shuffle \
            --load $LOADS --warmup-us 1000 --measure-us 2000 --drain-us 200 --csv \
            >"$OUT/$topo-shuffle-$s.csv" 2>"$WORK/$topo-$s.log" || true
        grep -h 'DRB: DFS' "$WORK/$topo-$s.log" | sed "s|^|$topo $s: |" >&2 || true
    done
done

# Fig. 10: uniform background at 0.3 of the link, and from 1 ms to 2 ms a hot spot: 5 % of
# every source's messages to CA 27; per-link utilization every 25 us over 3 ms.
for s in none iba drb; do
    # shellcheck disable=SC2046
    "$IBRT" sim --fabric "$WORK/torus-8x8.net" $COMMON $(scheme_args $s) --pattern hotspot \
        --hot-node 27 --hot-fraction 0.05 --hot-start-us 1000 --hot-end-us 2000 --load 0.3 \
        --warmup-us 0 --measure-us 3000 --drain-us 100 --json \
        --link-timeseries "$WORK/hotspot-$s-series.csv" --timeseries-us 25 \
        --timeseries-plot "$OUT/hotspot-$s.svg" --timeseries-links 6 \
        >"$WORK/hotspot-$s.json" 2>/dev/null || true
    # Keep the switch-to-switch links only, and only those into or out of the hot spot's
    # switch and its neighbours (the CSV of every link is 30 MB).
    python3 "$HERE/congestion-control-drb.py" --series "$WORK/hotspot-$s-series.csv" \
        "$WORK/hotspot-$s.json" "$OUT/hotspot-$s-series.csv"
done
IBRT="$IBRT" python3 "$HERE/congestion-control-drb.py" --figures "$OUT"
