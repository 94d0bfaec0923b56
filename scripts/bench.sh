#!/usr/bin/env bash
# Runs every benchmark executable built from bench/*.cpp and prints their figures.
# Usage: scripts/bench.sh [BUILD_DIR] [bench-name ...]
set -euo pipefail
BUILD=${1:-build}
shift || true
cd "$(dirname "$0")/.."
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for src in bench/*.cpp; do names+=("$(basename "${src%.cpp}")"); done
fi
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
for n in "${names[@]}"; do
  exe="$BUILD/bench/$n"
  [ -x "$exe" ] || { echo "bench: $exe not built" >&2; exit 2; }
  echo "## $n"
  "$exe"
done
# Script benchmarks of the tool (bench/*.sh), when every benchmark is run.
if [ $# -eq 0 ] && [ ${#names[@]} -gt 0 ] && [ -z "${BENCH_NO_SCRIPTS:-}" ]; then
  for s in bench/*.sh; do
    echo "## $(basename "${s%.sh}")"
    bash "$s" "$BUILD/ibrt"
  done
fi
