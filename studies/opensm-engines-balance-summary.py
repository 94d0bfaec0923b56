#!/usr/bin/env python3
"""Summarises the balance of opensm's engines and ibrt's on fat trees, as programmed into ibsim's
switches and read back (scripts/compare-opensm-engines.sh), into
docs/results/opensm-engines-balance.md's findings table, opensm's engines as the reference.

  opensm-engines-balance-summary.py              print the findings block
  opensm-engines-balance-summary.py --findings   the same (what the md holds between
                                                 <!-- findings:begin --> and <!-- findings:end -->)
  opensm-engines-balance-summary.py --write      rewrite the md's findings block
  --dir DIR                                      read the CSVs from DIR (default: docs/results)

opensm-engines-balance.csv: the page's table, one row per (fabric, engine asked, LMC), as
compare-opensm-engines.sh writes it (the committed one taken from the page's table of
2026-11-23). opensm-engines-balance-seeds.csv: the hottest link under 32 random permutations on
the 36-port 2-level tree, mlid with its own path selection against slid, offline (the md's
section on that tree gives the commands). Standard library only."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from findings import REF_LEGEND, listed, main, over_seeds, read_csv, status, table  # noqa: E402

RESULTS = os.path.join(HERE, "..", "docs", "results")
MD = os.path.join(RESULTS, "opensm-engines-balance.md")
OPENSM = ("ftree", "updn", "minhop")
OURS = ("mlid", "mlid, own path selection", "slid", "slid, own path selection")
SEEDS = "The 36-port tree's permutation: one seed against 32"


def load(d):
    rows = read_csv(os.path.join(d, "opensm-engines-balance.csv"))
    return rows, read_csv(os.path.join(d, "opensm-engines-balance-seeds.csv"))


def pick(rows, fabric, asked, lmc=None):
    return next(r for r in rows if r["fabric"] == fabric and r["engine_asked"] == asked and (lmc is None or r["lmc"] == lmc))


def clean(r):
    return r["verdict"] == "clean" and r["reachability"] == "ok" and r["non_minimal"] == "0" and r["credit_loops"] == "0"


def findings(data):
    rows, seeds = data
    fabrics = list(dict.fromkeys(r["fabric"] for r in rows))
    trees3 = [f for f in fabrics if "2-level" not in f]
    out = []
    theirs, ours = [r for r in rows if r["engine_asked"] in OPENSM], [r for r in rows if r["engine_asked"] in OURS]
    bad = [f"{r['fabric']} {r['engine_asked']} LMC {r['lmc']}" for r in rows if not clean(r)]
    out.append(("Every table clean on the read-back: every pair reached, minimal, no credit loop",
                f"opensm's: {sum(map(clean, theirs))} of {len(theirs)} clean", f"ibrt's: {sum(map(clean, ours))} of "
                f"{len(ours)} clean; not: {listed(bad)}", status(bad)))
    lmc = {f: pick(rows, f, "mlid")["lmc"] for f in fabrics}
    fell = [f for f in fabrics if pick(rows, f, "ftree", lmc[f])["engine_ran"] == "ftree"]
    out.append(("opensm's ftree does not route at LMC > 0 (opensm falls back to minhop)",
                "ftree at mlid's LMC: " + ", ".join(f"{f} LMC {lmc[f]} ran {pick(rows, f, 'ftree', lmc[f])['engine_ran']}"
                                                    for f in fabrics),
                "mlid at that LMC ran mlid on " + f"{sum(pick(rows, f, 'mlid')['engine_ran'] == 'mlid' for f in fabrics)} of "
                f"{len(fabrics)}; ftree at LMC > 0 nonetheless: {listed(fell)}", status(fell)))
    ratio = lambda f, e, k="all_to_all", l=None: float(pick(rows, f, e, l)[f"{k}_ratio"])  # noqa: E731
    bad = [f"{f} {e}" for f in trees3 for e in ("mlid", "slid") if ratio(f, e) > ratio(f, "ftree", l="0")]
    out.append(("All-to-all on the 3-level trees: mlid and slid as even as ftree; updn and minhop far hotter",
                ", ".join(f"{f}: ftree {ratio(f, 'ftree', l='0'):.3f}, updn {ratio(f, 'updn', l='0'):.3f}, minhop "
                          f"{ratio(f, 'minhop', l='0'):.3f}" for f in trees3) + " (max / mean)",
                ", ".join(f"{f}: mlid {ratio(f, 'mlid'):.3f}, slid {ratio(f, 'slid'):.3f}" for f in trees3)
                + f"; above ftree: {listed(bad)}", status(bad)))
    # One DLID per pair: the random permutation's hottest link, against ftree (opensm's best).
    hot = lambda f, e, l=None: float(pick(rows, f, e, l)["random_max"])  # noqa: E731
    cases = [(f"{f} {e.split(',')[0]}", hot(f, "ftree", "0"), hot(f, e)) for f in fabrics
             for e in ("mlid, own path selection", "slid")]
    against = [c for c in cases if c[2] > c[1]]
    d = over_seeds([float(r["mlid_own_max"]) - float(r["slid_max"]) for r in seeds])
    out.append(("Random permutation (seed 1), one DLID per pair: ibrt's hottest link no hotter than ftree's",
                ", ".join(f"{f} ftree {hot(f, 'ftree', '0'):g} (updn {hot(f, 'updn', '0'):g}, minhop "
                          f"{hot(f, 'minhop', '0'):g})" for f in fabrics),
                ", ".join(f"{c[0]} {c[2]:g}" for c in cases) + f"; hotter: {listed(c[0] for c in against)}. Over "
                f"{len(seeds)} permutations (36-port tree, offline): mlid's own − slid's hottest link "
                f"{d.v:+.2f} ± {d.ci:.2f} flows", status(against, explained=lambda c: "2-level" in c[0] and d.v - d.ci <= 0),
                SEEDS))
    # Flows spread over 2^LMC LIDs: mlid's tables against minhop and updn at the same LMC.
    cases = [(f, ratio(f, e, "random", lmc[f]), ratio(f, "mlid", "random")) for f in fabrics for e in ("minhop", "updn")]
    bad = [c[0] for c in cases if c[2] > c[1]]
    out.append(("Flows spread over the 2^LMC LIDs: mlid's tables at least as even under the permutation as minhop's "
                "and updn's at the same LMC", ", ".join(f"{f} {cases[2 * i][1]:.3f} / {cases[2 * i + 1][1]:.3f}"
                                                        for i, f in enumerate(fabrics)) + " (max / mean, minhop / updn)",
                ", ".join(f"{c[0]} {c[2]:.3f}" for c in cases[::2]) + f"; above: {listed(sorted(set(bad)))}",
                status(bad)))
    legend = (REF_LEGEND + " Tables programmed by `opensm -o` into ibsim's switches and read back with `dump_fts`, "
              "judged by `ibrt check --json --pattern random --seed 1`; loads count flows per directed switch-to-switch "
              "link. ± is the 95 % interval over the 32 permutations (Student's t); a case against the finding is "
              "explained when the difference is within it.")
    return table(out, "ibrt's engines (mlid, slid)", legend, ref_header="reference (opensm's engines)")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], MD, RESULTS, load, findings))
