#!/usr/bin/env bash
# Paper 003 §4's saturation table with ibrt (issue 15): runs every topology's spec of SCALE
# through `ibrt sweep` into OUT/<topology>, merges each, and writes the side-by-side table.
#   run.sh full    [OUT] [-- SWEEP OPTIONS]   the paper's scale (16,384 hosts; see
#                                             docs/performance.md for its cost)
#   run.sh reduced [OUT] [-- SWEEP OPTIONS]   <= 256 switches
#   run.sh check   [OUT] [-- SWEEP OPTIONS]   the part of reduced that make check runs
#   run.sh degraded [OUT] [-- SWEEP OPTIONS]  reduced fabrics intact and with 5 % and 10 % of
#                                             the cables failed (degraded.py's tables)
# Rerunning resumes (done points are skipped). IBRT (default: build/ibrt of this tree) is the
# binary; sweep options such as `-j 2`, `--shard i/N` or `--slurm ...` pass through, e.g.
#   studies/direct-topologies/run.sh full /shared/study -- --slurm --points-per-task 8
# (then merge with `run.sh full /shared/study -- --merge-only` once the arrays are done).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
SCALE=${1:?usage: run.sh full|reduced|check|degraded [OUT] [-- SWEEP OPTIONS]}
shift
# OUT defaults to docs/results/direct-topologies/SCALE.out: what a run writes goes under
# docs/results/, the scripts and specs stay here (studies/README.md).
OUT=$HERE/../../docs/results/direct-topologies/$SCALE.out
if [[ $# -gt 0 && $1 != -- ]]; then OUT=$1; shift; fi
[[ ${1:-} == -- ]] && shift
IBRT=${IBRT:-$HERE/../../build/ibrt}
merge_only=0
[[ ${1:-} == --merge-only ]] && merge_only=1 && shift
for spec in "$HERE/$SCALE"/*.json; do
    topo=$(basename "$spec" .json)
    ((merge_only)) || "$IBRT" sweep "$spec" --out "$OUT/$topo" -q "$@"
    "$IBRT" sweep merge "$OUT/$topo" >/dev/null || echo "run.sh: $topo has missing or failed points" >&2
done
if [[ $SCALE == degraded ]]; then
    python3 "$HERE/degraded.py" "$OUT" >"$OUT/comparison.md"
else
    python3 "$HERE/compare.py" "$OUT" --scale "${SCALE/check/reduced}" >"$OUT/comparison.md"
fi
echo "run.sh: $OUT/comparison.md" >&2
