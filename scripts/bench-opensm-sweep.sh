#!/usr/bin/env bash
# opensm sweep time with ibrt's mlid against opensm's own fat-tree engines (issue 5,
# "Benchmark"), under ibsim on the largest fat tree that ibsim loads in reasonable time:
# FT(24,3), 3,456 CAs and 720 switches, where mlid's auto LMC is 3.
#   - `opensm -o` wall time (discovery, LID assignment, routing, LFT programming through ibsim)
#     for mlid (plugin, LMC 3), ftree (LMC 0; it refuses LMC > 0) and minhop (LMC 3);
#   - the engine's own callback time, from the plugin's log line `ibrt mlid: routed ... in X ms`;
#   - the ratios of the sweep times to mlid's.
# Each engine sweeps RUNS times (default 3) from a fresh LID assignment; the median is used.
# Every run must log `<engine> tables configured on all switches`, so a silent fallback can
# never be timed as the engine.
#
# Usage: scripts/bench-opensm-sweep.sh [BUILD_DIR] [M N] [RUNS]
#   BUILD_DIR default build (needs ibrt and engines/opensm/libibrt.so); M N default 24 3.
# ibsim's default limits are too small for FT(24,3): it runs with -N 8192 -S 1024 -P 65536.
# Wall times depend on the machine's other load; the script prints the machine it ran on.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
M=${2:-24}
N=${3:-3}
RUNS=${4:-3}
export IBRT="$BUILD/ibrt" IBRT_BINARY_DIR="$BUILD" IBRT_SOURCE_DIR="$ROOT"
export E2E_IBSIM_TIMEOUT=${E2E_IBSIM_TIMEOUT:-600} E2E_OSM_TIMEOUT=${E2E_OSM_TIMEOUT:-1200}
export E2E_DIAG_TIMEOUT=${E2E_DIAG_TIMEOUT:-600}

# shellcheck source=tests/e2e/harness.sh
source "$ROOT/tests/e2e/harness.sh"
e2e_init bench_sweep
# shellcheck source=tests/e2e/plugin_lib.sh
source "$ROOT/tests/e2e/plugin_lib.sh"
# shellcheck disable=SC2119 # no extra opensm.conf lines
plugin_conf

echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), opensm $(dpkg-query -W -f '${Version}' opensm 2>/dev/null || echo '?')"
"$IBRT" gen -q -o ft.net fat-tree -m "$M" -n "$N"
"$IBRT" route --engine mlid --fabric ft.net --no-path-selection --no-load --out auto >/dev/null
LMC=$(sed -n 's/^  "lmc": \([0-9]*\),$/\1/p' auto/report.json)
[[ "$LMC" =~ ^[0-9]+$ ]] || e2e_fail "no LMC in report.json"
t0=$(date +%s.%N)
e2e_start_ibsim ft.net -N 8192 -S 1024 -P 65536
echo "FT($M,$N): $(grep -c '^Switch' ft.net) switches, $(grep -c '^Ca' ft.net) CAs; mlid auto LMC $LMC; ibsim loaded in $(printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)") s"

# sweep ENGINE LMC [opensm args]: RUNS timed sweeps; prints the times, sets MEDIAN (seconds).
MEDIAN=
sweep() {
    local engine=$1 lmc=$2
    shift 2
    local times=() i t1 t2 cb=()
    for ((i = 0; i < RUNS; ++i)); do
        rm -f "$WORK/osm/guid2lid"
        t1=$(date +%s.%N)
        e2e_opensm -R "$engine" -l "$lmc" "$@"
        t2=$(date +%s.%N)
        e2e_expect_engine "$engine"
        times+=("$(echo "$t2 - $t1" | bc)")
        if [[ "$engine" == mlid ]]; then
            cb+=("$(sed -n 's/.*ibrt mlid: routed .* in \([0-9.]*\) ms$/\1/p' "$WORK/osm/osm.log" | tail -n 1)")
        fi
    done
    MEDIAN=$(printf '%s\n' "${times[@]}" | sort -g | sed -n "$(((RUNS + 1) / 2))p")
    printf '%-7s LMC %s: opensm -o %s s (median of %s: %s)\n' "$engine" "$lmc" \
        "$(printf '%.2f' "$MEDIAN")" "$RUNS" "$(printf '%.2f ' "${times[@]}")"
    if ((${#cb[@]})); then
        printf '%-7s        engine callback (from the log): %s ms\n' "$engine" "${cb[*]}"
        grep 'ibrt mlid: routed' "$WORK/osm/osm.log" | tail -n 1 | sed 's/^.* -> /        log: /'
    fi
}

sweep mlid "$LMC" -F "$WORK/ibrt.conf"
mlid=$MEDIAN
sweep ftree 0
ftree=$MEDIAN
sweep minhop "$LMC"
minhop=$MEDIAN
printf 'ratio ftree(LMC 0) / mlid(LMC %s) sweep: %.2f\n' "$LMC" "$(echo "$ftree / $mlid" | bc -l)"
printf 'ratio minhop(LMC %s) / mlid(LMC %s) sweep: %.2f\n' "$LMC" "$LMC" "$(echo "$minhop / $mlid" | bc -l)"
e2e_pass
