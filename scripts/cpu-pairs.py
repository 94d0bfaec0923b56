#!/usr/bin/env python3
"""Whole processes alternated A B A B ..., for timing one build or setting against another on
a shared, loaded machine (docs/history/performance-log.md: the congestion-control rounds). Each pair runs
A then B back to back, so load that comes and goes hits both alike; the figure is the median
of the pairs' CPU-time ratios (user + system of the child), with their range.

  scripts/cpu-pairs.py N "CMD_A ARGS" "CMD_B ARGS"
  e.g. scripts/cpu-pairs.py 15 "build/bench/bench_sim --only cc-aggressive --repeat 4" \\
                               "build/bench/bench_sim --only mlid --repeat 4"

A command that fails stops the series (exit 1); its output is discarded otherwise.
"""
import resource
import shlex
import statistics
import subprocess
import sys


def cpu_seconds(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def main():
    if len(sys.argv) != 4 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    n = int(sys.argv[1])
    a_cmd, b_cmd = shlex.split(sys.argv[2]), shlex.split(sys.argv[3])
    ratios, a_times, b_times = [], [], []
    try:
        for _ in range(n):
            a, b = cpu_seconds(a_cmd), cpu_seconds(b_cmd)
            a_times.append(a)
            b_times.append(b)
            ratios.append(a / max(b, 1e-9))
    except (subprocess.CalledProcessError, OSError) as e:
        print(f"cpu-pairs: {e}", file=sys.stderr)
        return 1
    print(f"{n} pairs: A/B CPU median {statistics.median(ratios):.3f} "
          f"range {min(ratios):.3f}-{max(ratios):.3f}; "
          f"A median {statistics.median(a_times):.3f} s, B median {statistics.median(b_times):.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
