#!/usr/bin/env bash
# The congestion-control runs whose `ibrt sim --json` output an exact change to sim/ must leave
# byte-identical (issue 16; docs/history/performance-log.md, "Congestion control" rounds): shortened
# versions of the documented set-ups, a few seconds each.
#
#   scripts/cc-identical.sh IBRT OUTDIR     run the set with IBRT, one OUTDIR/NAME.json per run
#   then: diff -r OUTDIR_OLD OUTDIR_NEW     (the .err files hold the runs' notes)
#
# The set: the classic hot spot on the 648-port tree (docs/results/cc-classic/cc-base.opensm.conf)
# at thresholds 1, 4 and 15, the parking lot, the hysteresis hot spot with its link time series,
# port control, idealised BECNs; paper 002's 8x8 torus (docs/results/congestion-control-drb/
# paper002.opensm.conf, written by studies/congestion-control-drb.sh) with IBA CC, DRB and
# DRB+IBA under shuffle at loads 0.3 and 0.8 and a hot spot with IBA CC and DRB+IBA; FT(16,3)
# mlid uniform with bench_sim's aggressive setting
# (threshold 8, every eligible packet marked, +1 per BECN, timer 5, a 64-entry CCT) at loads
# 0.5 and 0.7 with per-QP control, per-SL control and --source-queue 4.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -eq 2 ]] || { echo "usage: $0 IBRT OUTDIR" >&2; exit 2; }
I=$1
[[ "$I" == /* ]] || I="$PWD/$I"
mkdir -p "$2"
O=$(cd "$2" && pwd)
R=$PWD/docs/results
# The runs read their fabrics by relative names from a scratch directory, so that what the JSON
# echoes is the same in every call.
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W"
"$I" gen -q clos --radix 36 --levels 2 -o ft648.net
"$I" gen torus --k 8,8 -o torus.net 2>/dev/null
"$I" gen fat-tree -m 16 -n 3 -o ft163.net 2>/dev/null
{
    echo "congestion_control TRUE"
    echo "cc_sw_cong_setting_control_map 0x1f"
    echo "cc_sw_cong_setting_threshold 8"
    echo "cc_sw_cong_setting_marking_rate 0"
    echo "cc_ca_cong_setting_port_control 0"
    echo "cc_ca_cong_setting_control_map 0xffff"
    for sl in $(seq 0 15); do
        echo "cc_ca_cong_setting_ccti_timer $sl 5"
        echo "cc_ca_cong_setting_ccti_increase $sl 1"
    done
    printf 'cc_cct '
    for i in $(seq 0 63); do printf '%s2:%d' "$([[ $i -gt 0 ]] && echo ,)" $((4 * i)); done
    echo
} >bench-aggressive.conf

run() { # NAME ARGS...: one run; its exit code, if not 0, goes to NAME.err
    local n=$1
    shift
    "$I" sim "$@" >"$O/$n.json" 2>"$O/$n.err" || echo "exit $?" >>"$O/$n.err"
}
CONF="$R/cc-classic/cc-base.opensm.conf"
P2="$R/congestion-control-drb/paper002.opensm.conf"
FT=(--fabric ft648.net --engine slid --pattern pairs --buffer-bytes 4096 --load 1.0
    --warmup-us 20 --measure-us 60 --drain-us 20 --flow-stats -q --json)
HV=(--pairs-file "$R/cc-classic/hotspot-victims.pairs")
for t in 1 4 15; do
    run hot-t$t "${FT[@]}" "${HV[@]}" --opensm-conf "$CONF" --cc-option "cc_sw_cong_setting_threshold $t"
done
run parking "${FT[@]}" --pairs-file "$R/cc-classic/parking-lot.pairs" --opensm-conf "$CONF"
run hyst --fabric ft648.net --engine slid --pattern pairs "${HV[@]}" --hot-node 0 \
    --hot-start-us 20 --hot-end-us 60 --load 1.0 --buffer-bytes 4096 --warmup-us 0 \
    --measure-us 100 --drain-us 20 --opensm-conf "$CONF" \
    --cc-option "cc_sw_cong_setting_threshold 4" --link-timeseries "$O/hyst-series.csv" \
    --timeseries-us 5 -q --json
run portctl "${FT[@]}" "${HV[@]}" --opensm-conf "$CONF" --cc-option "cc_ca_cong_setting_port_control 1"
run ideal "${FT[@]}" "${HV[@]}" --opensm-conf "$CONF" --cc-becn-delay-ns 500
TC=(--fabric torus.net --engine torus --vls 15 --packet-bytes 256 -q --json --warmup-us 50
    --measure-us 150 --drain-us 50)
for l in 0.3 0.8; do
    run torus-iba-$l "${TC[@]}" --dlid base --opensm-conf "$P2" --pattern shuffle --load $l
    run torus-drb-$l "${TC[@]}" --opensm-conf "$P2" --cc-injection-delay off --drb --drb-paths dfs \
        --pattern shuffle --load $l
    run torus-drbiba-$l "${TC[@]}" --opensm-conf "$P2" --drb --drb-paths dfs --pattern shuffle --load $l
done
run torus-hot-iba "${TC[@]}" --dlid base --opensm-conf "$P2" --pattern hotspot --load 0.6
run torus-hot-drb "${TC[@]}" --opensm-conf "$P2" --drb --drb-paths dfs --pattern hotspot --load 0.6
B=(--fabric ft163.net --engine mlid --pattern uniform --warmup-us 5 --measure-us 30
    --drain-us 10 -q --json --opensm-conf bench-aggressive.conf)
for l in 0.5 0.7; do
    run ft-qp-$l "${B[@]}" --load $l
    run ft-sl-$l "${B[@]}" --load $l --cc-option "cc_ca_cong_setting_port_control 1"
    run ft-sq4-$l "${B[@]}" --load $l --source-queue 4
done
