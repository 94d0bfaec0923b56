#!/bin/sh
# Reproduces the MLID-versus-SLID study of paper 000 §5 (Figs. 12-15) with `ibrt sweep`, under
# the paper's simulator setting, studies/settings/paper-000.json (constant generation rate,
# 32-byte input and output buffers per VL, 20 ns fly, 100 ns routing, 4 ns/byte, 32-byte
# packets, SLs spread over the VLs, unbounded source queues). That file is the one source of
# the model: each sweep spec below takes it whole as its "sim" object and adds only what the
# figures vary or the measurement needs: FT(4,4), FT(8,3), FT(16,3), FT(32,2); mlid and slid;
# 1, 2, 4 VLs; uniform and 10 % centric traffic (hot node = CA 0); the load grids; 20 us
# warm-up; seeds 1..SEEDS (the 95 % intervals over the seeds are in the -mean.csv files).
# Writes to docs/results:
#   ft-<m>-<n>-<pattern>.csv       one row per run (pattern: uniform, centric)
#   ft-<m>-<n>-<pattern>-mean.csv  per load, the seeds' mean and 95 % interval
#   ft-<m>-<n>-<pattern>.svg       the figure: latency against accepted traffic
#   ft-<m>-<n>-capped-mean.csv     mlid at one LMC bit less than its own, both patterns: what
#                                  the LMC is worth (FT(16,3) is the one tree whose LMC is capped)
#   mlid-vs-slid-outbuf-mean.csv   FT(4,4) and FT(8,3) at 4 VLs with and without the output
#                                  buffers, Bernoulli or constant injection: where the 4-VL
#                                  reversal comes from
# then the findings table and the tables of mlid-vs-slid.md (mlid-vs-slid-summary.py --write).
# Usage: studies/mlid-vs-slid.sh [path/to/ibrt]     (SEEDS=5 by default; JOBS: sweep's -j)
set -eu
IBRT=${1:-ibrt}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$HERE/../docs/results
SETTING=$HERE/settings/paper-000.json
SEEDS=${SEEDS:-5}
PY=${IBRT_PYTHON:-/usr/bin/python3}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
UNIFORM=0.05,0.1,0.15,0.2,0.25,0.3,0.35,0.4,0.5,0.6,0.7,0.8,1.0

# spec NAME JSON: writes $T/NAME.json, a sweep spec: JSON (its title, fabrics, routings,
# patterns, vls, loads and "sim": the study's own keys) on the setting file, with the seeds
# (setting_spec.py: a key the setting already sets is refused unless its value is a list).
spec() {
    printf '%s' "$2" | "$PY" "$HERE/setting_spec.py" "$SETTING" "$SEEDS" "$T/$1.json"
}

# run NAME DEST [mean]: runs $T/NAME.json and keeps its merged CSVs and plot as DEST.csv,
# DEST-mean.csv and DEST.svg (with "mean": DEST-mean.csv alone).
run() {
    # Exit 1 = some run failed its verdict (a saturated point may): the CSV says which.
    "$IBRT" sweep -q ${JOBS:+-j "$JOBS"} "$T/$1.json" --out "$T/$1.out" 2>"$T/$1.err" || test $? -eq 1
    cp "$T/$1.out/sweep-mean.csv" "$2-mean.csv"
    test "${3:-}" = mean && return
    cp "$T/$1.out/sweep.csv" "$2.csv"
    cp "$T/$1.out/sweep.svg" "$2.svg"
}

for ft in 4,4 8,3 16,3 32,2; do
    m=${ft%,*}
    n=${ft#*,}
    name=ft-$m-$n
    fabric="[{\"gen\": \"fat-tree -m $m -n $n\"}]"
    # N = 2 (m/2)^n end nodes; the hot node's link saturates near load 1 / (0.1 N):
    # sample around that point.
    hot=$(awk -v m="$m" -v n="$n" 'BEGIN {
        N = 2 * (m / 2) ^ n; s = 1 / (0.1 * (N - 1) + 0.9); out = "";
        split("0.25 0.5 0.75 1 1.25 1.5 2 3 4 6 8", f, " ");
        for (i = 1; i <= 11; i++) { x = s * f[i]; if (x > 1) x = 1;
            out = out (i > 1 ? "," : "") sprintf("%.5f", x); if (x == 1) break }
        print out }')
    # mlid's own LMC (as `--lmc auto` takes it): enough LIDs for the (m/2)^(n-1) up paths,
    # lowered while 2^LMC N + max(switches, 2^LMC - 1) > 49151 (FT(16,3): 5, 32 LIDs for 64
    # paths); the capped runs take one bit less.
    lmc=$(awk -v m="$m" -v n="$n" 'BEGIN {
        N = 2 * (m / 2) ^ n; P = (m / 2) ^ (n - 1); S = (2 * n - 1) * P;
        for (l = 0; 2 ^ l < P; l++) ;
        while (2 ^ l * N + (S > 2 ^ l - 1 ? S : 2 ^ l - 1) > 49151) l--;
        print l - 1 }')
    capped="[{\"engine\": \"mlid\", \"lmc\": $lmc, \"label\": \"mlid-capped\"}]"
    spec "$name-uniform" "{\"title\": \"FT($m,$n), uniform traffic\", \"fabrics\": $fabric,
        \"routings\": [\"mlid\", \"slid\"], \"patterns\": [\"uniform\"], \"vls\": [1, 2, 4],
        \"sim\": {\"warmup-us\": 20}, \"loads\": [$UNIFORM]}"
    run "$name-uniform" "$OUT/$name-uniform"
    spec "$name-centric" "{\"title\": \"FT($m,$n), 10 % centric traffic\", \"fabrics\": $fabric,
        \"routings\": [\"mlid\", \"slid\"], \"patterns\": [\"hotspot\"], \"vls\": [1, 2, 4],
        \"sim\": {\"warmup-us\": 20, \"hot-fraction\": 0.1}, \"loads\": [$hot]}"
    run "$name-centric" "$OUT/$name-centric"
    spec "$name-capped-u" "{\"title\": \"FT($m,$n), uniform, mlid at LMC $lmc\", \"fabrics\": $fabric,
        \"routings\": $capped, \"patterns\": [\"uniform\"], \"vls\": [1, 2, 4],
        \"sim\": {\"warmup-us\": 20}, \"loads\": [$UNIFORM]}"
    spec "$name-capped-c" "{\"title\": \"FT($m,$n), centric, mlid at LMC $lmc\", \"fabrics\": $fabric,
        \"routings\": $capped, \"patterns\": [\"hotspot\"], \"vls\": [1, 2, 4],
        \"sim\": {\"warmup-us\": 20, \"hot-fraction\": 0.1}, \"loads\": [$hot]}"
    run "$name-capped-u" "$T/$name-capped-u" mean
    run "$name-capped-c" "$T/$name-capped-c" mean
    { cat "$T/$name-capped-u-mean.csv"; tail -n +2 "$T/$name-capped-c-mean.csv"; } >"$OUT/$name-capped-mean.csv"
done
spec outbuf "{\"title\": \"4 VLs: output buffers and injection\",
    \"fabrics\": [{\"gen\": \"fat-tree -m 4 -n 4\"}, {\"gen\": \"fat-tree -m 8 -n 3\"}],
    \"routings\": [\"mlid\", \"slid\"], \"patterns\": [\"uniform\"], \"vls\": [4],
    \"sim\": {\"warmup-us\": 20, \"output-buffer-bytes\": [0, 32], \"injection\": [\"bernoulli\", \"constant\"]},
    \"loads\": [0.6, 0.7, 0.8, 1.0]}"
run outbuf "$OUT/mlid-vs-slid-outbuf" mean
"$PY" "$HERE/mlid-vs-slid-summary.py" --write
