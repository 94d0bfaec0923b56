#!/usr/bin/env bash
# The sweep machinery (issue 17): the speed-up of `ibrt sweep SPEC -j 2` over `-j 1` on a
# 32-point sweep (goal >= 1.8x on 2 cores), and the overhead per point (goal < 5 ms): the wall
# time per point of 400 trivial points (2 hosts, 1 ns windows), where spec expansion, option
# parsing, the routing cache, the result file and its atomic rename are all that is left.
# Usage: bench/bench_sweep.sh [IBRT]   (default build/ibrt). Prints the load average too: on a
# shared machine the speed-up is only meaningful when two cores are free.
set -euo pipefail
IBRT=${1:-build/ibrt}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
now() { date +%s.%N; }

cat >"$T/32.json" <<'SPEC'
{
  "fabrics": [{"gen": "fat-tree -m 8 -n 3"}],
  "routings": ["mlid", "slid"],
  "sim": {"warmup-us": 5, "measure-us": 1000, "drain-us": 20},
  "seeds": [1, 2, 3, 4],
  "loads": [0.1, 0.2, 0.3, 0.4]
}
SPEC
seeds=$(seq -s, 1 400)
cat >"$T/trivial.json" <<SPEC
{
  "fabrics": [{"gen": "fat-tree -m 2 -n 1"}],
  "routings": ["mlid"],
  "sim": {"warmup-us": 0, "measure-us": 0.001, "drain-us": 0},
  "seeds": [$seeds],
  "loads": [0.1]
}
SPEC

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A wall
for j in 1 2; do
    t0=$(now)
    "$IBRT" sweep "$T/32.json" --out "$T/out$j" -j "$j" -q
    wall[$j]=$(echo "$(now) - $t0" | bc -l)
    "$IBRT" sweep merge "$T/out$j" 2>/dev/null
done
cmp -s "$T/out1/sweep.csv" "$T/out2/sweep.csv" && same=identical || same=DIFFERENT
printf '32 points: -j 1 %.2f s, -j 2 %.2f s, speed-up %.2fx (merged CSV %s)\n' \
    "${wall[1]}" "${wall[2]}" "$(echo "${wall[1]} / ${wall[2]}" | bc -l)" "$same"

t0=$(now)
"$IBRT" sweep "$T/trivial.json" --out "$T/trivial" -j 1 -q
t=$(echo "$(now) - $t0" | bc -l)
printf '400 trivial points, -j 1: %.2f s, %.2f ms per point\n' "$t" "$(echo "$t * 1000 / 400" | bc -l)"
t0=$(now)
"$IBRT" sweep "$T/trivial.json" --out "$T/trivial" -j 1 -q
t=$(echo "$(now) - $t0" | bc -l)
printf 'the same, every point done (resume check only): %.3f s\n' "$t"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
