#!/usr/bin/env python3
"""Summarises paper 003 §2's mapping claims into docs/results/mapping.md: the findings table
and the arrangements table at the paper's scale.

  mapping-summary.py              print the findings block and the tables block
  mapping-summary.py --findings   print the findings block alone
  mapping-summary.py --write      rewrite both marked blocks of the md
  --dir DIR                       read the CSVs from DIR (default: docs/results)

The claim points and the arrangements come from mapping-robustness.csv (`bench_map
--robustness`, the page's commands); the rows on §2.2's small Dragonflies and §3.5's routing
from mapping-arrangements.csv, extracted from the page's table of those results
(tests/mapping/test_dragonfly_arrangements.cpp and tests/engines' "every global arrangement"
cases print them; `against` counts the cases against the paper, `measured` names the page's
section on them). The paper's figures are §2's text. Standard library only."""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from findings import main, status, table  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "..", "docs", "results")
MD = os.path.join(RESULTS, "mapping.md")
DF = "dragonfly-k16-g8"
ARR = (("absolute", DF), ("relative", DF + "-relative"), ("circulant", DF + "-circulant"),
       ("random", DF + "-random"))
# Paper 003 §2: configuration, missing switches, missing links, what the paper says.
CLAIMS = [("FlatFly 4×8×8×8", "flatfly-4x8x8x8", "0.20", "0.15", "mapped correctly with 20 % switches and 15 % links missing"),
          ("hypercube (11-D)", "hypercube-11d", "0.15", "0.10", "mapped correctly with 15 % switches and 10 % links missing"),
          ("Dragonfly K = 16, G = 8", DF, "0.40", "0.10", "mapped correctly with 40 % switches and 10 % links missing")]
POINTS = [("0.40", "0.10"), ("0.50", "0.10"), ("0.60", "0.10"), ("0.40", "0.20"), ("0.40", "0.30")]


def load(d):
    rob = {}
    for r in csv.DictReader(open(os.path.join(d, "mapping-robustness.csv"))):
        rob[(r["config"], r["missing_switches"], r["missing_links"])] = r
    return rob, list(csv.DictReader(open(os.path.join(d, "mapping-arrangements.csv"))))


def findings(data):
    rob, arr = data
    rows = []
    for name, conf, s, l, paper in CLAIMS:
        r = rob[(conf, s, l)]
        ok = float(r["correct_fraction"])
        fig = f"{ok:.2f} of {r['seeds']} seeds correct"
        if r["unplaced_switches"]:
            fig += (f"; {float(r['unknown_switches']):.2f} switches a seed the cabling does not tell, "
                    f"{float(r['unplaced_switches']):.2f} left unplaced")
        rows.append((f"{name}, {int(float(s) * 100)} % switches and {int(float(l) * 100)} % links missing at random",
                     paper, fig, status([] if ok == 1.0 else [conf])))
    for a in arr:
        rows.append((a["finding"], a["section"], a["figure"], status(["miss"] * int(a["against"]), explained=lambda c: bool(a["measured"])))
                    + ((a["measured"],) if a["measured"] else ()))
    pts = [rob[(c, "0.40", "0.10")] for _, c in ARR]
    rows.insert(3, ("the Dragonfly claim point at the paper's scale (40 % / 10 %) in every global arrangement",
                    "§2.2 (any cabling)", ", ".join(f"{n} {int(round(float(r['correct_fraction']) * int(r['seeds'])))} of {r['seeds']}"
                                                   for (n, _), r in zip(ARR, pts)) + " seeds",
                    status([r for r in pts if float(r["correct_fraction"]) < 1.0])))
    legend = ("Seeds correct: the recovered coordinates equal the generator's up to the topology's "
              "symmetries; for a Dragonfly, every switch whose group the cabling tells in its group "
              "(below). From [mapping-robustness.csv](mapping-robustness.csv) and "
              "[mapping-arrangements.csv](mapping-arrangements.csv).")
    return table(rows, "ibrt's figure", legend)


def tables(data):
    rob, _ = data
    out = ["| arrangement | " + " | ".join(f"{int(float(s) * 100)} % / {int(float(l) * 100)} %" for s, l in POINTS) + " |",
           "|---|" + "---|" * len(POINTS)]
    for n, c in ARR:
        out.append(f"| {n} | " + " | ".join(
            f"{float(r['correct_fraction']):.2f} ({float(r['unplaced_switches']):.2f})"
            for r in (rob[(c, s, l)] for s, l in POINTS)) + " |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], MD, RESULTS, load, findings, tables))
