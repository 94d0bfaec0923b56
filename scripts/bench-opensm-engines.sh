#!/usr/bin/env bash
# Time per opensm sweep of each ibrt engine inside opensm (issue 12, docs/deploy.md "Time per
# sweep"), under ibsim on one mid-size fat tree. For every engine the plugin registers it runs RUNS
# sweeps (`opensm -o`, fresh LIDs each) and prints
#   - the engine's own callback time, from the plugin's log line `ibrt ENGINE: routed ... in X ms`
#     (snapshot of opensm's subnet, routing, writing new_lft): what the engine adds to a sweep;
#   - the wall time of the whole `opensm -o` (discovery, LIDs, routing, LFT programming through
#     ibsim's simulated SMPs, which dominates under ibsim).
# Every run must log `<engine> tables configured on all switches`: a silent fallback to another
# engine is never timed as the engine.
#
# Usage: scripts/bench-opensm-engines.sh [BUILD_DIR] [M N] [RUNS] [LMC]
#   defaults: build, FT(12,3) (432 CAs, 180 switches), 3 runs, LMC 2 (slid always runs at LMC 0:
#   it routes one LID per end port).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
M=${2:-12}
N=${3:-3}
RUNS=${4:-3}
LMC=${5:-2}
export IBRT="$BUILD/ibrt" IBRT_BINARY_DIR="$BUILD" IBRT_SOURCE_DIR="$ROOT"
export E2E_OSM_TIMEOUT=${E2E_OSM_TIMEOUT:-1200}

# shellcheck source=tests/e2e/harness.sh
source "$ROOT/tests/e2e/harness.sh"
e2e_init bench_engines
# shellcheck source=tests/e2e/plugin_lib.sh
source "$ROOT/tests/e2e/plugin_lib.sh"
# shellcheck disable=SC2119 # no extra opensm.conf lines
plugin_conf

echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -m), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), opensm $(dpkg-query -W -f '${Version}' opensm 2>/dev/null || echo '?')"
"$IBRT" gen -q -o ft.net fat-tree -m "$M" -n "$N"
e2e_start_ibsim ft.net -N 8192 -S 1024 -P 65536
echo "FT($M,$N): $(grep -c '^Switch' ft.net) switches, $(grep -c '^Ca' ft.net) CAs"

# The engines: every one `ibrt route --help` lists parameters for, the engine table the
# plugin registers too (engines/engine_registry.cpp), so a new engine is timed unedited.
mapfile -t engines < <("$IBRT" route --help | sed -n 's/^  \([a-z0-9_-]*\): .*/\1/p')
((${#engines[@]})) || e2e_fail "no ibrt engine found"

printf '%-9s %-4s %-34s %s\n' engine LMC "engine callback ms (median; runs)" "opensm -o s (median; runs)"
for engine in "${engines[@]}"; do
    lmc=$LMC
    [[ "$engine" == slid ]] && lmc=0
    # The direct-topology engines (torus, flatfly, dragonfly, slimfly) decline a fat tree: not timed here.
    if ! "$IBRT" route --engine "$engine" --fabric ft.net --lmc "$lmc" --no-path-selection \
        --no-fdbs --no-load --out "offline-$engine" >/dev/null 2>&1; then
        printf '%-9s %-4s %s\n' "$engine" - "declines FT($M,$N): not timed"
        continue
    fi
    cbs=() walls=()
    for ((i = 0; i < RUNS; ++i)); do
        rm -f "$WORK/osm/guid2lid"
        t1=$(date +%s.%N)
        e2e_opensm -F "$WORK/ibrt.conf" -R "$engine" -l "$lmc"
        t2=$(date +%s.%N)
        e2e_expect_engine "$engine"
        cbs+=("$(sed -n "s/.*ibrt $engine: routed .* in \([0-9.]*\) ms$/\1/p" "$WORK/osm/osm.log" | tail -n 1)")
        walls+=("$(printf '%.2f' "$(echo "$t2 - $t1" | bc)")")
    done
    med() { printf '%s\n' "$@" | sort -g | sed -n "$((($# + 1) / 2))p"; }
    printf '%-9s %-4s %-34s %s\n' "$engine" "$lmc" "$(med "${cbs[@]}") (${cbs[*]})" "$(med "${walls[@]}") (${walls[*]})"
done
e2e_pass
