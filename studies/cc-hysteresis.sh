#!/bin/sh
# The congestion tree forming and dissolving within one run, by switch threshold (issue 16:
# the threshold's effect that Gran et al. report for IBA CC hardware, IPDPS 2010 / CCGrid 2011).
# The hot spot with victims of the classic scenarios (cc-classic/hotspot-victims.pairs on the
# 648-port fat tree, slid, 4 KB buffers per VL, load 1.0), but the 16 contributors send to the
# hot spot only from 1 ms to 3 ms (--hot-node 0 --hot-start-us 1000 --hot-end-us 3000: their
# slots are idle before and after), while the 8 victims send half a link each throughout.
# 5 ms from time 0 (no warm-up), every link's busy fraction per 25 us (--link-timeseries).
# CC as cc-classic/cc-base.opensm.conf with the threshold varied; CC off as the baseline.
# cc-hysteresis.py reduces each run to the victims', the hot link's and the contributors'
# throughput per interval (cc-hysteresis/THRESHOLD.csv), draws cc-hysteresis/victims.svg and
# contributors.svg with `ibrt plot` (this IBRT) and prints the table of congestion-control.md.
# cc-classic/, cc-hysteresis/ and congestion-control.md are in docs/results/; cc-hysteresis.py
# is beside this script.
# Usage: studies/cc-hysteresis.sh [path/to/ibrt]   (OUT=dir writes elsewhere)
set -eu
IBRT=${1:-ibrt}
HERE=$(cd "$(dirname "$0")" && pwd)
RESULTS=$HERE/../docs/results
OUT=${OUT:-$RESULTS/cc-hysteresis}
mkdir -p "$OUT"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

"$IBRT" gen -q clos --radix 36 --levels 2 -o "$WORK/ft648.net"
for thr in off 1 2 3 4 5 8 12 15; do
    if [ "$thr" = off ]; then
        cc=""
    else
        cc="--opensm-conf $RESULTS/cc-classic/cc-base.opensm.conf"
    fi
    # shellcheck disable=SC2086
    "$IBRT" sim -q --fabric "$WORK/ft648.net" --engine slid --pattern pairs \
        --pairs-file "$RESULTS/cc-classic/hotspot-victims.pairs" --hot-node 0 \
        --hot-start-us 1000 --hot-end-us 3000 --load 1.0 --buffer-bytes 4096 \
        --warmup-us 0 --measure-us 5000 --drain-us 20 $cc \
        ${cc:+--cc-option "cc_sw_cong_setting_threshold $thr"} \
        --link-timeseries "$WORK/series.csv" --timeseries-us 25 --json >"$WORK/run.json"
    python3 "$HERE/cc-hysteresis.py" --reduce "$WORK/series.csv" "$WORK/run.json" "$OUT/$thr.csv"
done
IBRT="$IBRT" python3 "$HERE/cc-hysteresis.py" --figures "$OUT"
