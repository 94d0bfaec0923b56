#!/usr/bin/env python3
"""Summarises studies/dragonfly-plus.sh (issue 37) into docs/results/dragonfly-plus.md: the
findings table against Shpiner et al., "Dragonfly+" (HiPINEB 2017), and the page's two tables.

  dragonfly-plus-summary.py              print the findings block and the tables block (what
                                         studies/dragonfly-plus.sh prints after its runs)
  dragonfly-plus-summary.py --findings   print the findings block alone
  dragonfly-plus-summary.py --write      rewrite both marked blocks of the md
  --dir DIR                              read the CSVs from DIR (default: docs/results)

The simulated figures come from dragonfly-plus.csv (seeds 1-3, written by the study), the sizes
from the generators' formulas (table 2); the rows on the VL rules from dragonfly-plus-rules.csv,
extracted from the page's table (the dragonfly-plus engine's tests, tests/engines/dragonfly_plus,
check them; `against` counts the rules ibrt does not follow, `measured` names the page's section
on them). The paper's figures are named by its sections. Standard library only."""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from findings import cmp, main, over_seeds, status, table  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "..", "docs", "results")
MD = os.path.join(RESULTS, "dragonfly-plus.md")
RADIX = (8, 16, 24, 36, 40)
MIN, LAND, ANY, DRB = "dragonfly+ minimal", "dragonfly+ landing LMC 1", "dragonfly+ any LMC 3", "dragonfly+ any LMC 3 DRB"


def sizes(k):
    """Hosts at each family's balanced maximum: Dragonfly a = 2p = 2h (p + 2p - 1 + p <= k),
    Dragonfly+ k/2 leaves, spines, hosts per leaf and global links per spine."""
    p, r = (k + 1) // 4, k // 2
    return p, p * 2 * p * (2 * p * p + 1), r * r * (r * r + 1)


def load(d):
    runs = {}
    for r in csv.DictReader(open(os.path.join(d, "dragonfly-plus.csv"))):
        runs.setdefault(r["routing"], {"vls": r["vls"], "ok": True, "n": 0})
        cell = runs[r["routing"]].setdefault(r["pattern"], ([], []))
        cell[0].append(float(r["accepted_at_1"]))
        cell[1].append(float(r["latency_ns_at_0.1"]))
        runs[r["routing"]]["ok"] &= all(v == "ok" for v in r["verdicts"].split())
        runs[r["routing"]]["n"] += len(r["verdicts"].split())
    rules = os.path.join(d, "dragonfly-plus-rules.csv")
    rules = rules if os.path.exists(rules) else os.path.join(RESULTS, "dragonfly-plus-rules.csv")
    return runs, list(csv.DictReader(open(rules)))


def acc(runs, k, pattern):
    return over_seeds(runs[k][pattern][0])


def findings(data):
    runs, rules = data
    four = [k for k in RADIX if not 3.5 <= sizes(k)[2] / sizes(k)[1] <= 4.5]
    rows = [("a Dragonfly+ of radix-k switches reaches (k/2)^2 ((k/2)^2 + 1) hosts, about 4 times a balanced "
             "Dragonfly of the same radix", "Fig. A (size against radix)",
             "; ".join(f"{sizes(k)[2]:,} against {sizes(k)[1]:,} hosts at radix {k}" for k in (8, 36))
             + " (table 2, from the generators' formulas)", status(four))]
    for a in rules:
        rows.append((a["finding"], a["paper"], a["figure"],
                     status(["rule"] * int(a["against"]), explained=lambda c: bool(a["measured"])))
                    + ((a["measured"],) if a["measured"] else ()))
    sm, sa, sd = (acc(runs, k, "rotation") for k in (MIN, ANY, DRB))
    um, ua, ud = (acc(runs, k, "uniform") for k in (MIN, ANY, DRB))
    rows.append(("minimal routing is not optimal: adversarial traffic needs non-minimal paths",
                 '"Is min-routing optimal?"',
                 f"group shift (every host of group g to group g + 1): {sm.fmt(3)} accepted on minimal routes "
                 f"(1/16: one global link per pair of groups for 16 hosts), {sa.fmt(3)} spreading each packet "
                 "over 8 LIDs through intermediate groups", status([] if cmp(sa, sm) > 0 else ["shift"])))
    # The paper's adaptive routing takes the non-minimal paths only when they pay: with LFTs the
    # choice is oblivious (costs uniform traffic) or DRB's, per source (gains little on the shift).
    against = ([] if cmp(ua, um) >= 0 else ["oblivious"]) + ([] if cmp(sd, sa) >= 0 else ["drb"])
    rows.append(("... without costing uniform traffic, the routing being adaptive",
                 "the paper's routing is adaptive (FPAR/ARN)",
                 f"uniform: {um.fmt(3)} minimal, {ua.fmt(3)} spread over 8 LIDs; DRB (source-adaptive over "
                 f"the same LIDs, paper 002) keeps {ud.fmt(3)} but gains little on the shift ({sd.fmt(3)}): "
                 "a switch-adaptive routing like the paper's cannot be written as LFTs",
                 status(against, explained=lambda c: True), "Adaptive routing has no LFT form"))
    n = sum(r["n"] for r in runs.values())
    bad = sum(not runs[k]["ok"] for k in runs)
    legend = ("Accepted: fraction of link bandwidth at offered load 1, mean ± 95 % interval over seeds 1-3 "
              "([dragonfly-plus.csv](dragonfly-plus.csv)); the VL rows from "
              "[dragonfly-plus-rules.csv](dragonfly-plus-rules.csv). "
              + (f"All {n} runs (loads 0.1 and 1) ended with the verdict ok." if not bad else
                 f"{bad} routings had a run with a verdict other than ok."))
    return table(rows, "ibrt's figure", legend)


def tables(data):
    runs, _ = data
    out = ["| routing | VLs | uniform: accepted at load 1 | uniform: latency at 0.1 (ns) | group shift: accepted at load 1 "
           "| group shift: latency at 0.1 (ns) | verdicts |", "|---|---|---|---|---|---|---|"]
    for k, r in runs.items():
        (ua, ul), (sa, sl) = r["uniform"], r["rotation"]
        out.append(f"| {k} | {r['vls']} | {sum(ua) / len(ua):.3f} | {sum(ul) / len(ul):.0f} | {sum(sa) / len(sa):.3f} | "
                   f"{sum(sl) / len(sl):.0f} | {'all ok' if r['ok'] else 'not all ok'} |")
    out += ["", "Table 2: hosts at each family's balanced maximum per switch radix.", "",
            "| switch radix | Dragonfly (balanced, a = 2p = 2h) | Dragonfly+ (balanced, k/2 each) |", "|---|---|---|"]
    out += [f"| {k} | {sizes(k)[1]} (p = {sizes(k)[0]}) | {sizes(k)[2]} |" for k in RADIX]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], MD, RESULTS, load, findings, tables))
