#!/usr/bin/env python3
"""Paper 003's routings on degraded fabrics (issue 15, past the paper): reads the `ibrt sweep
merge` output of the degraded specs (ROOT/<topology>/saturation.csv and sweep.csv, as
`run.sh degraded` lays them out) and prints, per topology, the relative saturation bandwidth of
each routing and pattern on the intact fabric and with 5 % and 10 % of its cables failed
(compare.py's metric: the saturation onset, or --metric max-accepted), and, per fabric, every
simulation run's verdict: a routing that deadlocks anywhere in its saturation search is named.

    degraded.py ROOT [--metric onset|max-accepted]

Python 3 standard library only.
"""
import argparse
import collections
import csv
import os
import re
import statistics
import sys

TOPOLOGIES = [("flatfly", "FlatFly"), ("hypercube", "Hypercube"), ("dragonfly", "Dragonfly"),
              ("sfxff-1", "SF×FF-1"), ("sfxff-2", "SF×FF-2")]
SHORT = {"uniform": "Uniform", "complement": "Cmpl", "bitrev": "Rvrs", "bitrot": "Rotn",
         "shuffle": "Shuf", "transpose": "Trns"}


def failed_fraction(fabric):
    """The --fail-links value of a spec's fabric name (a fraction if < 1, else a count of
    cables), 0 for the intact one."""
    m = re.search(r"--fail-links ([0-9.]+)", fabric)
    return float(m.group(1)) if m else 0.0


def failed_name(f):
    return f"{100 * f:g} %" if f < 1 else f"{f:g} cables"


def read(root, topo, metric):
    col = {"onset": "onset_load", "max-accepted": "max_accepted_fraction"}[metric]
    cells = collections.defaultdict(list)  # (routing, pattern, fail) -> [percent per seed]
    order, patterns = [], []
    with open(os.path.join(root, topo, "saturation.csv")) as f:
        for r in csv.DictReader(f):
            if r["routing"] not in order:
                order.append(r["routing"])
            if r["pattern"] not in patterns:
                patterns.append(r["pattern"])
            if r[col] != "":
                cells[(r["routing"], r["pattern"], failed_fraction(r["fabric"]))].append(100 * float(r[col]))
    runs = collections.Counter()  # (fail, what) -> count
    with open(os.path.join(root, topo, "sweep.csv")) as f:
        for r in csv.DictReader(f):
            fail = failed_fraction(r["fabric"])
            runs[(fail, "runs")] += 1
            if r["error"]:
                runs[(fail, "errors")] += 1
            elif r["deadlock"] == "1" or r["verdict"] == "deadlock":
                runs[(fail, "deadlocks")] += 1
                runs[(fail, "deadlocked " + r["routing"])] += 1
            elif r["verdict"] != "ok":
                runs[(fail, r["verdict"])] += 1
    return order, patterns, cells, runs


def fmt(xs):
    if not xs:
        return "—"
    return f"{statistics.mean(xs):.1f}" if len(xs) == 1 else \
        f"{statistics.mean(xs):.1f} ({min(xs):.1f}–{max(xs):.1f})"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root")
    ap.add_argument("--metric", choices=["onset", "max-accepted"], default="onset")
    a = ap.parse_args()
    out = []
    for topo, name in TOPOLOGIES:
        if not os.path.exists(os.path.join(a.root, topo, "saturation.csv")):
            continue
        order, patterns, cells, runs = read(a.root, topo, a.metric)
        fails = sorted({k[2] for k in cells} | {k[0] for k in runs})
        out.append(f"**{name}** — {a.metric}, percent: intact / " +
                   " / ".join(f"{failed_name(f)} failed" for f in fails if f) + "\n")
        out.append("| Routing | " + " | ".join(SHORT.get(p, p) for p in patterns) + " |")
        out.append("|---|" + "---|" * len(patterns))
        for routing in order:
            row = []
            for p in patterns:
                row.append(" / ".join(fmt(cells.get((routing, p, f), [])) for f in fails))
            out.append(f"| {routing} | " + " | ".join(row) + " |")
        verdicts = []
        for f in fails:
            rest = {k[1]: n for k, n in runs.items() if k[0] == f and k[1] != "runs"}
            verdicts.append(f"{failed_name(f) if f else 'intact'}: {runs[(f, 'runs')]} runs, " +
                            (", ".join(f"{n} {w}" for w, n in sorted(rest.items())) or "all ok"))
        out.append("\nSimulation verdicts (every run of every saturation search): " +
                   "; ".join(verdicts) + ".\n")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
