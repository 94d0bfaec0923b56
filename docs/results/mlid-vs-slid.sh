#!/bin/sh
# Reproduces the MLID-versus-SLID study of paper 000 §5 (Figs. 12-15) with `ibrt sweep`:
# FT(4,4), FT(8,3), FT(16,3), FT(32,2); uniform and 10 % centric traffic; 1, 2, 4 VLs;
# 20 ns fly, 100 ns routing, 4 ns/byte, 32-byte packets, 32-byte buffers per VL, SLs spread
# over the VLs, 20 us warm-up (PAPER below; the other options are `ibrt sim`'s defaults);
# unbounded source queues (--source-queue 0), so latency past saturation grows as in the
# paper's open-loop set-up. Writes <fabric>-<pattern>.csv and .svg next to this script.
# Usage: docs/results/mlid-vs-slid.sh [path/to/ibrt]
set -eu
IBRT=${1:-ibrt}
OUT=$(dirname "$0")
PAPER="--vls 1,2,4 --sl spread --packet-bytes 32 --buffer-bytes 32 --credit-unit 32 --ns-per-byte 4
    --fly-ns 20 --routing-ns 100 --warmup-us 20"
UNIFORM=0.05,0.1,0.15,0.2,0.25,0.3,0.35,0.4,0.5,0.6,0.7,0.8,1.0
for ft in 4,4 8,3 16,3 32,2; do
    m=${ft%,*}
    n=${ft#*,}
    name=ft-$m-$n
    # N = 2 (m/2)^n end nodes; the hot node's link saturates near load 1 / (0.1 N):
    # sample around that point.
    hot=$(awk -v m="$m" -v n="$n" 'BEGIN {
        N = 2 * (m / 2) ^ n; s = 1 / (0.1 * (N - 1) + 0.9); out = "";
        split("0.25 0.5 0.75 1 1.25 1.5 2 3 4 6 8", f, " ");
        for (i = 1; i <= 11; i++) { x = s * f[i]; if (x > 1) x = 1;
            out = out (i > 1 ? "," : "") sprintf("%.5f", x); if (x == 1) break }
        print out }')
    # shellcheck disable=SC2086 # PAPER is a list of options
    "$IBRT" sweep -q $PAPER --source-queue 0 --fat-tree "$ft" --pattern uniform --loads "$UNIFORM" \
        --csv "$OUT/$name-uniform.csv" --plot "$OUT/$name-uniform.svg" \
        --title "FT($m,$n), uniform traffic" || test $? -eq 1
    # shellcheck disable=SC2086
    "$IBRT" sweep -q $PAPER --source-queue 0 --fat-tree "$ft" --pattern hotspot --hot-fraction 0.1 --loads "$hot" \
        --csv "$OUT/$name-centric.csv" --plot "$OUT/$name-centric.svg" \
        --title "FT($m,$n), 10 % centric traffic" || test $? -eq 1
done
