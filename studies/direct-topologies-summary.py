#!/usr/bin/env python3
"""Summarises paper 003's study (studies/direct-topologies/) into docs/results/direct-topologies.md:
the findings table (one row per finding §4 states, with its status) and the full-scale tables
beside the paper's.

  direct-topologies-summary.py              print the findings block and the full-scale tables
  direct-topologies-summary.py --findings   print the findings block alone (what the md holds
                                            between <!-- findings:begin --> and <!-- findings:end -->)
  direct-topologies-summary.py --write      rewrite both marked blocks of the md
  --dir DIR                                 read DIR/<topology>/saturation.csv (default: the
                                            committed docs/results/direct-topologies/full-results)

The findings and their cases are compare.py's (findings(): the comparisons each finding makes),
read here with findings.py's rules; the explanations are the gaps ledger's (gaps.tsv, matched to
the cells by compare.py). Standard library only."""
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "direct-topologies"))
import compare  # noqa: E402  (paper 003's table, the findings, the ledger: one copy)
from findings import Est, cmp, listed, main, status, table  # noqa: E402

RESULTS = os.path.join(HERE, "..", "docs", "results", "direct-topologies")
MD = os.path.join(HERE, "..", "docs", "results", "direct-topologies.md")
STUDY = os.path.join(HERE, "direct-topologies")
# One run per cell (seed 1); the onset is a 7-step bisection, known to one step of 1/128. Two
# figures differ when they are more than one step apart: each gets half-width STEP/√2, so that
# findings.cmp's √(ci₁² + ci₂²) is the step.
STEP = 100 / 128
# The ledger's statuses whose change of one assumption brings a cell within 5 points: a case
# against the paper that goes away with those cells at the paper's figures is explained.
EXPLAINING = ("explained", "traded")
# Where the measurements behind each finding's cases against the paper are (a heading of the md).
LEDGER = "Every cell more than 5 points from the paper's"
MEASURED = {
    "best": LEDGER,
    "extra": LEDGER,
    "gid": "Full scale: the Dragonfly (K=16 G=8, 16,384 hosts), every routing",
    "winners": "Transpose and reversal on the Dragonfly: host order and global wiring, measured",
    "table": LEDGER,
}
PAPER_SAYS = {  # §4's wording of each finding
    "best": "FlatFly's best routing is Distance Based +dimension (+4)",
    "extra": "The optimal number of extra hops on the FlatFly equals its dimension (4)",
    "uniform": "Tori and hypercube are the worst topologies on uniform traffic",
    "gid": "GID and GSD are the Dragonfly's best routings on the bit patterns",
    "winners": "FlatFly and SF×FF-1 are the winners (uniform, best routing per bit pattern, Distance Based)",
}


def load(d):
    paper, order = compare.read_paper(os.path.join(STUDY, "paper-table.tsv"))
    ours, errors = compare.read_ours(d, "onset")
    if not ours:
        raise SystemExit(f"direct-topologies-summary.py: no saturation.csv under {d}")
    rules = compare.read_gaps(os.path.join(STUDY, "gaps.tsv"))
    cells = compare.gap_cells(paper, ours)
    headings = {line.lstrip("#").strip() for line in open(MD, encoding="utf-8") if line.startswith("#")}
    compare.match_gaps(cells, rules, headings, paper)  # fills each rule's cells
    # Ours with the cells the ledger explains put at the paper's figures: what the finding would
    # say were those measured assumptions the paper's. A column (topology × pattern) is put back
    # only where the ledger explains every one of its cells that is off the same way: putting
    # back part of a column would favour the rows left out (on the Dragonfly's reversal the
    # ledger explains GSID's +43.7, not GSD's +35.2, so GSID alone would come down).
    explains = {c: r["status"] in EXPLAINING for r in rules for c in r["cells"]}
    fixed = {k: dict(v) for k, v in ours.items()}
    for (topo, routing, pat, p, o), ok in explains.items():
        side = [e for c, e in explains.items() if c[0] == topo and c[2] == pat and (c[4] > c[3]) == (o > p)]
        if ok and all(side):
            fixed[(topo, routing)][pat] = p
    return dict(paper=paper, order=order, ours=ours, errors=errors, rules=rules, cells=cells, fixed=fixed)


def est(x):
    return Est(x, STEP / math.sqrt(2))


def judge(cases):
    """The cases against the paper (significantly below) and the ties, by findings.cmp."""
    against = [c for c in cases if cmp(est(c[1]), est(c[2])) < 0]
    ties = [c for c in cases if cmp(est(c[1]), est(c[2])) == 0]
    return against, ties


def findings_block(data):
    ours = {f[0]: f for f in compare.findings(data["ours"], "full", "ours")}
    paper = {f[0]: f for f in compare.findings(data["paper"], "full", "the paper")}
    fixed = {f[0]: f for f in compare.findings(data["fixed"], "full", "ours")}
    rows = []
    for key, said in PAPER_SAYS.items():
        _, _, _, nums, cases = ours[key]
        against, ties = judge(cases)
        still, _ = judge(fixed[key][4])
        still = {c[0] for c in still}
        st = status(against, ties, explained=lambda c: c[0] not in still, n=len(cases))
        fig = (f"{nums}; against the paper: {listed(against, lambda c: f'{c[0]} ({c[1]:.1f} < {c[2]:.1f})')}"
               f"; within a step: {listed(ties, lambda c: f'{c[0]} ({c[1]:.1f}, {c[2]:.1f})')}")
        if against:
            fig += ("; with the ledger's explained cells at the paper's figures, still against: "
                    + listed(sorted(still & {c[0] for c in against})))
        row = (said, paper[key][3], fig, st)
        rows.append(row + ((MEASURED[key],) if st in ("explained gap", "unexplained") else ()))
    # The table itself, cell by cell: within 5 points, or each gap with its measured reason.
    n = sum(p in data["ours"].get(k, {}) for k, v in data["paper"].items() for p in v)
    by = {s: sum(len(r["cells"]) for r in data["rules"] if r["status"] == s) for s in compare.STATUSES}
    gaps = [c for r in data["rules"] for c in r["cells"]]
    st = status(gaps, explained=lambda c: any(c in r["cells"] for r in data["rules"] if r["status"] in EXPLAINING))
    rows.append(("The saturation table, cell by cell (§4: 59 routings × 6 patterns on 7 topologies)",
                 f"{n} cells", f"{n - len(data['cells'])} within {compare.GAP:g} points of the paper's; "
                 f"{len(data['cells'])} beyond: " + ", ".join(f"{by[s]} {s}" for s in compare.STATUSES)
                 + " (gaps.tsv's statuses)", st, MEASURED["table"]))
    legend = ("Status: **holds** (every comparison the finding makes as the paper says), **shape only** (none "
              "against it, some within one bisection step), **explained gap** (comparisons against it, and each "
              "goes away when the cells the gaps ledger explains by a measured change, `explained` or `traded` in "
              "gaps.tsv, take the paper's figures; a topology's column of one pattern only where the ledger explains "
              "every cell of it that is off the same way), **unexplained** (comparisons against it that the ledger's "
              "explained cells do not account for). ibrt's figures: the saturation onset at full scale (16,384 "
              "hosts), one run per cell (seed 1), from `full-results/`; two figures differ when more than one "
              f"bisection step ({STEP:.2f} points) apart. The cases and their figures are compare.py's findings.")
    return table(rows, "ibrt's figure (full scale, onset, %)", legend)


def tables_block(data):
    out = ["Ours: full scale (16,384 hosts), the saturation onset (compare.py). Cells: paper / **ours** "
           "(ours − paper), percent."]
    out.append(compare.tables(data["paper"], data["order"], data["ours"]))
    if data["errors"]:
        out.append("\nPoints with no figure (the engine declined): "
                   + ", ".join(f"{t} {r} {p}" for t, r, p in data["errors"]))
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.exit(main(sys.argv, MD, os.path.join(RESULTS, "full-results"), load, findings_block, tables_block))
