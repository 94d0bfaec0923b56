#!/usr/bin/env bash
# docs/results/opensm-tables-sim.md, "mlid below ftree": ibrt's mlid and slid on
# opensm-tables-sim.sh's fabric and model (FT(8,3), uniform, 256-byte packets, no source queue,
# 10/40/40 us, 6 bisection steps), seeds 1-5, with 1 KB and 4 KB input buffers per VL; slid's
# tables are opensm ftree's (the study's first finding). No opensm needed; ~20 s.
# Usage: studies/opensm-tables-sim-seeds.sh path/to/ibrt [OUT_CSV]
#   OUT_CSV  default docs/results/opensm-tables-sim-seeds.csv
set -euo pipefail
IBRT=${1:?usage: $0 path/to/ibrt [OUT_CSV]}
OUT=${2:-$(dirname "$0")/../docs/results/opensm-tables-sim-seeds.csv}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
"$IBRT" gen fat-tree --ports 8 --levels 3 -o "$WORK/ft.net" -q
echo "engine,buffer_bytes,seed,onset_load,max_accepted" >"$OUT"
for engine in mlid slid; do
    for buf in 1024 4096; do
        for seed in 1 2 3 4 5; do
            "$IBRT" sim --fabric "$WORK/ft.net" --engine "$engine" --source-queue 0 --pattern uniform \
                --packet-bytes 256 --buffer-bytes "$buf" --warmup-us 10 --measure-us 40 --drain-us 40 \
                --saturation --saturation-steps 6 --seed "$seed" --json -q 2>/dev/null |
                python3 -c "import json, sys; s = json.load(sys.stdin)['saturation']
print(f\"$engine,$buf,$seed,{s['onset_load']},{s['max_accepted_fraction']}\")" >>"$OUT"
        done
    done
done
