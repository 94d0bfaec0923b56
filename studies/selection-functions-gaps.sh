#!/bin/sh
# shellcheck disable=SC2086 # the loops split their word lists on purpose
# The measurements behind the gap sections of docs/results/selection-functions.md ("What was
# measured for the gaps"): single runs (seed 1 unless the line says otherwise) of paper 004's
# model, studies/settings/paper-004.json taken whole by --config, with the study's measurement
# (50 us warm-up, 200 us window, 100 us drain). A few runs vary one key of the setting on
# purpose, as a diagnostic, never to fit: ob1 (--output-buffer-bytes 1024: a one-packet output
# buffer, so a link with a packet waiting or in flight offers no room) and bern (--injection
# bernoulli instead of the constant rate).
# Writes docs/results/selection-functions/gaps-runs.csv (ID, selection, load, accepted, mean
# latency in ns, digest of the per-link utilization) and gaps-links.csv (per run, stage and
# direction: the switch-to-switch links' utilization, studies/selection-functions-paths.py
# spread). Takes a few minutes on one core.
# Usage: studies/selection-functions-gaps.sh [path/to/ibrt]   (WORK=dir keeps the JSON runs)
set -eu
IBRT=${1:-ibrt}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$HERE/../docs/results/selection-functions
SETTING=$HERE/settings/paper-004.json
PY=${IBRT_PYTHON:-/usr/bin/python3}
PATHS=$HERE/selection-functions-paths.py
WORK=${WORK:-$(mktemp -d)}
echo "id,selection,load,accepted,latency_ns,links_digest" >"$OUT/gaps-runs.csv"
LIST=""
# run ID K N VLS PATTERN SELECTION LOAD SEED [VARIANT]
run() {
    id=$1 k=$2 n=$3 vls=$4 pattern=$5 sel=$6 load=$7 seed=$8 variant=${9:-}
    [ -s "$WORK/k${k}n$n.net" ] || "$IBRT" gen kary-ntree --k "$k" --n "$n" -o "$WORK/k${k}n$n.net" >/dev/null 2>&1
    case $variant in
        ob1) extra="--output-buffer-bytes 1024" ;;
        bern) extra="--injection bernoulli" ;;
        *) extra="" ;;
    esac
    "$IBRT" sim --config "$SETTING" --fabric "$WORK/k${k}n$n.net" --engine slid --engine-opt adaptive_up=true \
        --selection "$sel" --pattern "$pattern" --vls "$vls" --load "$load" --seed "$seed" \
        --warmup-us 50 --measure-us 200 --drain-us 100 $extra --json -q >"$WORK/$id.json" || test $? -eq 1
    "$PY" "$PATHS" row "$id" "$WORK/$id.json" >>"$OUT/gaps-runs.csv"
    LIST="$LIST $WORK/$id.json"
}
# 1. CP, SSP and MC on the 4-ary 4-tree, uniform: SSP's latency, and the room test.
for s in ssp cp mc; do
    for l in 0.1 0.2 0.25 0.3; do run "u44-$s-$l" 4 4 1 uniform $s $l 1; done
    for seed in 1 2 3; do run "u44-$s-0.3-ob1-s$seed" 4 4 1 uniform $s 0.3 $seed ob1; done
    run "u44-$s-0.1-ob1" 4 4 1 uniform $s 0.1 1 ob1
done
# 2. Complement against uniform, SOP and SDP: the 4-ary 4-tree's curve near load 1, and the
# 4-ary 6-tree below its saturation.
for l in 0.1 0.6 0.7 0.8 0.9 0.95 0.99 1.0; do run "c44-sop-$l" 4 4 1 complement sop $l 1; done
for l in 0.99 1.0; do run "c44-sdp-$l" 4 4 1 complement sdp $l 1; done
run c44-sop-1.0-bern 4 4 1 complement sop 1.0 1 bern
run u44-sop-0.6 4 4 1 uniform sop 0.6 1
run c46-sop-0.2 4 6 1 complement sop 0.2 1
# SOP's curves on both patterns over the 4-ary 3- to 5-trees (the 4-ary 6-tree's are the
# study's), and on the 4-ary 4-tree with the one-packet output buffer.
for n in 3 4 5; do
    for p in complement uniform; do
        for l in 0.3 0.4 0.5 0.6 0.7 0.8 1.0; do
            [ "$n" = 4 ] || run "$p-4$n-sop-$l" 4 "$n" 1 $p sop $l 1
            [ "$n" != 4 ] || run "$p-4$n-sop-$l-ob1" 4 "$n" 1 $p sop $l 1 ob1
        done
    done
done
# 3. RP against CP: the room test on every uniform figure at its medium load, on complement,
# and constant against Bernoulli injection on the permutations.
for t in "2 8 0.3" "4 2 0.3" "4 3 0.3" "4 4 0.3" "4 5 0.2" "4 6 0.2" "8 2 0.3" "8 3 0.2" "16 2 0.3" "32 2 0.3"; do
    set -- $t
    for s in rp cp; do
        for v in std ob1; do run "u$1$2-$s-$3-$v" "$1" "$2" 1 uniform $s "$3" 1 $v; done
    done
done
for t in "4 4" "4 6"; do
    set -- $t
    for s in rp cp; do
        for v in std ob1; do run "u$1$2v3-$s-0.4-$v" "$1" "$2" 3 uniform $s 0.4 1 $v; done
    done
done
for t in "4 4" "4 6"; do
    set -- $t
    for s in rp cp; do
        for v in std ob1; do run "c$1$2-$s-0.7-$v" "$1" "$2" 1 complement $s 0.7 1 $v; done
    done
done
for p in "bitrev 0.5" "shuffle 0.6"; do
    set -- $p
    for s in rp cp sadp; do
        for v in std bern; do run "$1-44-$s-$2-$v" 4 4 1 "$1" $s "$2" 1 $v; done
    done
done
# 4. Shuffle and bit reversal at their medium loads: FF against SSP and SOP.
for s in ff ssp; do run "shuffle-44-$s-0.2" 4 4 1 shuffle $s 0.2 1; done
for s in ff sop; do run "bitrev-44-$s-0.1" 4 4 1 bitrev $s 0.1 1; done
# 5. MC against CP on complement: the same run?
for s in mc cp; do
    for l in 0.5 0.9; do run "c44-$s-$l" 4 4 1 complement $s $l 1; done
done
"$PY" "$PATHS" spread $LIST | sed "s|$WORK/||; s|\.json,|,|" >"$OUT/gaps-links.csv"
