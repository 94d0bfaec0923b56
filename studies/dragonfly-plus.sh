#!/usr/bin/env bash
# Dragonfly+ beside the Dragonfly (issue 37): ibrt's dragonfly-plus engine on a Dragonfly+ and
# its dragonfly engine on a balanced Dragonfly of about as many hosts, simulated with the same
# model (`ibrt sim` defaults: 256-byte packets, 1 KB input buffers per VL, 10 us warm-up, 50 us
# window), seeds 1-3 averaged.
#
# Fabrics (`ibrt gen`, random global arrangement for the Dragonfly+):
#   dragonfly        --balanced 3: a = 6, h = 3, p = 3, 19 groups, 342 hosts, radix 11
#   dragonfly-plus   --balanced 4: 4 leaves, 4 spines, 4 hosts per leaf, 4 global links per
#                    spine, 17 groups, 272 hosts, radix 8
# Routings:
#   dragonfly minimal              the dragonfly engine's Static routing (paper 003 §3.5)
#   dragonfly+ minimal             dragonfly-plus, every packet to the base LID
#   dragonfly+ landing LMC 1       packets spread over the 2 LIDs (--dlid random): half through
#                                  an intermediate group whose spine reached is a gateway
#   dragonfly+ any LMC 3           8 LIDs, intermediates=any: 7 through intermediate groups, on
#                                  layers where the path turns in one
#   dragonfly+ any LMC 3 DRB       the same LIDs, each source starting a flow on the base LID and
#                                  spreading it over the others as BECNs arrive (paper 002's DRB
#                                  on IBA CC marking, no injection throttling)
# Traffic: uniform, and group shift (`rotation` by the hosts of one group: every host of group
# g sends to the host at the same place in group g + 1, the Dragonfly's adversarial pattern).
# Figures: accepted traffic at offered load 1.0 (fraction of link bandwidth; past saturation
# this is the saturation throughput) and mean latency at load 0.1, and the VLs the routing
# takes (`ibrt route` data_vls), with the sim's verdict (ok: no deadlock, all progressing).
# Plus the scale of either family per switch radix (hosts at the balanced maximum).
#
# Usage: studies/dragonfly-plus.sh [BUILD_DIR] [OUT_CSV]   (prints the Markdown tables)
#   BUILD_DIR  default build (needs BUILD_DIR/ibrt)
#   OUT_CSV    default docs/results/dragonfly-plus.csv
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
OUT=${2:-$ROOT/docs/results/dragonfly-plus.csv}
IBRT="$BUILD/ibrt"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

"$IBRT" gen -q dragonfly --balanced 3 -o "$WORK/df.net"
"$IBRT" gen -q dragonfly-plus --balanced 4 --arrangement random -o "$WORK/dfp.net"

# name | fabric | hosts per group | engine options | DLID choice
runs=(
    "dragonfly minimal|df.net|18|--engine dragonfly|base"
    "dragonfly+ minimal|dfp.net|16|--engine dragonfly-plus|base"
    "dragonfly+ landing LMC 1|dfp.net|16|--engine dragonfly-plus --lmc 1|random"
    "dragonfly+ any LMC 3|dfp.net|16|--engine dragonfly-plus --lmc 3 --engine-opt intermediates=any|random"
    "dragonfly+ any LMC 3 DRB|dfp.net|16|--engine dragonfly-plus --lmc 3 --engine-opt intermediates=any|drb"
)
# DRB (paper 002) on IBA CC's marking, as studies/congestion-control-drb.sh configures it, no
# throttling (so the file's CCT, computed for paper 002's 1X link, plays no part here).
CC="$ROOT/docs/results/congestion-control-drb/paper002.opensm.conf"
echo "routing,pattern,vls,seed,accepted_at_1,latency_ns_at_0.1,verdicts" >"$OUT"
for run in "${runs[@]}"; do
    IFS='|' read -r name net per opts dlid <<<"$run"
    # The VLs the routing takes, from its own report.
    # shellcheck disable=SC2086
    "$IBRT" route --fabric "$WORK/$net" --out "$WORK/r" $opts >/dev/null 2>&1
    vls=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['data_vls'])" "$WORK/r/report.json")
    for pattern in uniform "rotation --shift $per"; do
        for seed in 1 2 3; do
            # shellcheck disable=SC2086
            if [[ $dlid == drb ]]; then
                choice=(--drb --opensm-conf "$CC" --cc-injection-delay off)
            else
                choice=(--dlid "$dlid")
            fi
            "$IBRT" sim --fabric "$WORK/$net" $opts "${choice[@]}" --vls "$vls" --pattern $pattern --seed "$seed" \
                --load 0.1,1.0 --csv 2>/dev/null |
                awk -F, -v n="$name" -v p="${pattern%% *}" -v v="$vls" -v s="$seed" '
                    NR > 1 { if ($1 == 0.1) lat = $5; else acc = $3; verdict = verdict $16 " " }
                    END { printf "%s,%s,%s,%s,%s,%s,%s\n", n, p, v, s, acc, lat, verdict }' >>"$OUT"
        done
    done
done

# The tables (and the findings table) from the CSV: docs/results/dragonfly-plus.md's, rewritten
# there by studies/dragonfly-plus-summary.py --write.
# (OUT_CSV named otherwise: the CSV alone.)
[[ $(basename "$OUT") != dragonfly-plus.csv ]] || python3 "$ROOT/studies/dragonfly-plus-summary.py" --dir "$(dirname "$OUT")"
