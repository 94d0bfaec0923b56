#!/usr/bin/env bash
# Runs a fuzzing campaign: each libFuzzer target built by `make fuzz`, one after the other,
# for SECONDS each (and at most FUZZ_RUNS executions if set), starting from its seed corpus
# (<build>/fuzz/<target>.seeds, written by fuzz/CMakeLists.txt). New inputs go to the scratch
# corpus <build>/corpus/<target>/ (kept, so a second campaign resumes from it), crashing
# inputs to <build>/artifacts/<target>/, libFuzzer's log to <build>/logs/<target>.log.
# Prints per target: executions, exec/s, coverage (cov = edges, ft = features), crashes.
# Exits 1 if any target crashed.
# Usage: scripts/fuzz-run.sh [BUILD_FUZZ_DIR] [SECONDS] [target ...]
#   FUZZ_RUNS=N   stop a target after N executions (default: only the time limit)
#   FUZZ_NICE=N   niceness of the fuzzers (default 10: the machine is shared)
#   FUZZ_ARGS=... more libFuzzer flags, e.g. FUZZ_ARGS=-max_len=4096
set -euo pipefail
BUILD=${1:-build-fuzz}
SECONDS_PER_TARGET=${2:-60}
shift 2 || shift $#
cd "$(dirname "$0")/.."
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for seeds in "$BUILD"/fuzz/fuzz_*.seeds; do names+=("$(basename "${seeds%.seeds}")"); done
fi
runs=${FUZZ_RUNS:--1}

echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -m), $(nproc) cores, ${SECONDS_PER_TARGET} s per target, runs ${runs} ${FUZZ_ARGS:-}"
printf '%-22s %12s %8s %7s %7s %8s %8s\n' target executions exec/s cov ft corpus crashes
crashed=0
for n in "${names[@]}"; do
  exe="$BUILD/fuzz/$n"
  [ -x "$exe" ] || { echo "fuzz-run: $exe not built (make fuzz)" >&2; exit 2; }
  mapfile -t seeds < "$BUILD/fuzz/$n.seeds"
  corpus="$BUILD/corpus/$n" artifacts="$BUILD/artifacts/$n" log="$BUILD/logs/$n.log"
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  before=$(find "$artifacts" -type f | wc -l)
  status=0
  nice -n "${FUZZ_NICE:-10}" "$exe" -max_total_time="$SECONDS_PER_TARGET" -runs="$runs" \
    -print_final_stats=1 -artifact_prefix="$artifacts/" ${FUZZ_ARGS:-} "$corpus" "${seeds[@]}" \
    > "$log" 2>&1 || status=$?
  crashes=$(( $(find "$artifacts" -type f | wc -l) - before ))
  if [ "$status" -ne 0 ] && [ "$crashes" -eq 0 ]; then crashes="exit $status"; fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$last")
  corp=$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' <<< "$last")
  printf '%-22s %12s %8s %7s %7s %8s %8s\n' "$n" "${execs:-?}" "${rate:-?}" "${cov:-?}" \
    "${ft:-?}" "${corp:-?}" "$crashes"
  if [ "$crashes" != 0 ]; then
    crashed=1
    echo "  see $log; inputs in $artifacts/" >&2
  fi
done
exit "$crashed"
