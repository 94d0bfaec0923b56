#!/usr/bin/env bash
# ibrt against BookSim2 on the same work (issues 14 and 38: 30x with static tables and with the
# oblivious selection, 15x in VC-router mode): BookSim's 4-ary 4-tree, 2 VCs, `nca`, uniform at
# 0.5 (12,109 cycles, ~1.55 M packets; studies/booksim-fattree-config.sh, as the comparison)
# against ibrt simulating the same 12.4 us on `ibrt gen kary-ntree --k 4 --n 4` (timing of
# docs/results/booksim-agreement.md): static LFTs (mlid LMC 6, a random DLID per packet), IB
# mode with the oblivious selection on slid's up sets, and VC-router mode with BookSim's router
# on one SL. Whole processes, BookSim and ibrt alternated, PAIRS pairs (default 3); prints each
# side's CPU seconds and the median of the pairs' ratios. BookSim's time swings with what else
# shares the machine's caches (2-4x within minutes on a shared host; ibrt's far less), so the
# ratio means something only on an idle machine: the load average is printed.
# Usage: BOOKSIM=/path/to/booksim bench/bench_booksim.sh [IBRT]   (BookSim2 built under /tmp
# from github.com/booksim/booksim2 with its own Makefile, never part of this project; without
# BOOKSIM the benchmark says so and does nothing)
set -euo pipefail
# shellcheck source=studies/booksim-fattree-config.sh
. "$(dirname "$0")/../studies/booksim-fattree-config.sh"
IBRT=$(realpath "${1:-build/ibrt}")
PAIRS=${PAIRS:-3}
if [ -z "${BOOKSIM:-}" ]; then
    echo "bench_booksim: BOOKSIM not set (path to a BookSim2 binary); nothing measured"
    exit 0
fi
BOOKSIM=$(realpath "$BOOKSIM")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"
booksim_fattree_cfg 4 4 nca 2 uniform 0.5 >bs.cfg
"$IBRT" gen -q -o k44.net kary-ntree --k 4 --n 4
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$IBRT" "$BOOKSIM" "$PAIRS" "$(ibrt_fattree_timing 3.072)" <<'EOF'
import resource, statistics, subprocess, sys
ibrt, booksim, pairs, timing = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4].split()
work = ["sim", "--fabric", "k44.net"] + timing + ("--vls 2 --pattern uniform --load 0.5 --warmup-us 0 "
                                                  "--measure-us 12.4 --drain-us 0 --csv -q").split()
oblivious = "--engine slid --engine-opt adaptive_up=true --selection oblivious".split()
modes = {
    "static LFTs (mlid LMC 6, random DLID)": work + "--engine mlid --lmc 6 --dlid random --sl spread".split(),
    "IB mode, oblivious selection": work + oblivious + ["--sl", "spread"],
    "VC-router mode (BookSim's router, one SL)": work + oblivious + ("--sl path --vc-router --vc-release sent "
                                                                     "--vc-alloc-gap-ns 1.024 --vc-input-first").split(),
}
target = {0: 30, 1: 30, 2: 15}

def cpu(cmd, booksim_run=False):
    """CPU seconds of one whole process. BookSim exits non-zero after a complete run: its
    output is checked instead."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(cmd, capture_output=True, text=True, check=not booksim_run)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if booksim_run and "Total run time" not in r.stdout:
        sys.exit(f"bench_booksim: BookSim did not finish: {r.stdout[-300:]}{r.stderr[-300:]}")
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime

for k, (name, args) in enumerate(modes.items()):
    b, i = [], []
    for p in range(pairs):
        order = [("b", [booksim, "bs.cfg"]), ("i", [ibrt] + args)]
        for side, cmd in (order if p % 2 == 0 else order[::-1]):
            (b if side == "b" else i).append(cpu(cmd, side == "b"))
    ratios = [x / y for x, y in zip(b, i)]
    print(f"{name}: BookSim {statistics.median(b):.2f} s ({min(b):.2f}-{max(b):.2f}), ibrt "
          f"{statistics.median(i):.2f} s ({min(i):.2f}-{max(i):.2f}) CPU: {statistics.median(ratios):.1f}x "
          f"(pairs {min(ratios):.1f}-{max(ratios):.1f}; target {target[k]}x)")
EOF
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
