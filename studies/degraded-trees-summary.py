#!/usr/bin/env python3
"""Summarises studies/degraded-trees.sh (issue 36) into docs/results/degraded-trees.md: the
findings table (ibrt's engines against opensm 3.3.23's updn and minhop on degraded fat trees)
and the detail tables (trees and verdicts, link loads, saturation, declines, fallbacks).

  degraded-trees-summary.py              print the findings block and the tables block
  degraded-trees-summary.py --findings   print the findings block alone
  degraded-trees-summary.py --write      rewrite both marked blocks of the md (--md FILE: another)
  --dir DIR                              read degraded-trees.csv from DIR (default: docs/results)
  --csv FILE                             read FILE instead

degraded-trees.sh writes degraded-trees.csv (one row per tree and routing) and then runs this
script, which holds what the study's own generator did before: every figure below is read from
the CSV. A comparison's case goes against the finding when ibrt's routing is worse than the
reference's on that tree; a saturation case within the seeds' spread (the larger of the two
routings' largest-minus-smallest over the 3 seeds) is a tie. Standard library only."""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from findings import main, status, table  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "..", "docs", "results")
MD = os.path.join(RESULTS, "degraded-trees.md")
ROUTINGS = ["mlid", "slid", "separate", "opensm updn", "opensm updn -a top", "opensm minhop"]
SHORT = {"mlid": "mlid", "slid": "slid", "separate": "separate", "opensm updn": "updn",
         "opensm updn -a top": "updn -a", "opensm minhop": "minhop"}
INTS = ("unreachable", "unreachable_ca", "credit_loops", "vls_used", "non_minimal")
FLOATS = ("max_load", "mean_load", "uniform_onset", "uniform_onset_spread", "uniform_max", "uniform_max_spread",
          "complement_onset", "complement_onset_spread", "complement_max", "complement_max_spread")
# Cases against a finding that the page's sections measure: (routing, reference, figure, tree) -> section.
LOAD_ABOVE_UPDN = "Where mlid's link load is above updn's"
EXPLAINED = {("mlid", ref, "max_load", t): LOAD_ABOVE_UPDN
             for ref in ("opensm updn -a top", "opensm updn", "opensm minhop") for t in ("t36", "t7")}
EXPLAINED[("slid", "opensm updn -a top", "max_load", "t36")] = LOAD_ABOVE_UPDN
# Findings with cases against them that no section explains yet, and where they were measured.
CSV = "degraded-trees.csv"
MEASURED = {"separate": "separate and its root", ("mlid", "separate"): "mlid above separate"}


def load(d):
    rows = []
    for r in csv.DictReader(open(os.path.join(d, CSV))):
        for k in INTS:
            r[k] = int(r[k]) if r[k] != "" else None
        for k in FLOATS:
            r[k] = float(r[k]) if r[k] != "" else None
        rows.append(r)
    trees = []
    for r in rows:
        if r["tree"] not in [t["tree"] for t in trees]:
            trees.append({"tree": r["tree"], "gen": r["gen"], "cas": r["cas"], "components": r["components"]})
    return rows, trees, {(r["tree"], r["routing"]): r for r in rows}


def ok(r):  # routed by the engine asked, every CA pair reachable, no credit loop
    return r and r["status"] == "routed" and r["unreachable_ca"] == 0 and r["credit_loops"] == 0


def split(trees):
    conn = [t for t in trees if str(t["components"]) == "1"]
    return conn, [t for t in conn if "--fail" in t["gen"]]


def findings(data):
    rows, trees, by = data
    conn, degr = split(trees)
    esc = lambda t, e: int(by[(t["tree"], e)].get("escape") or 0)  # noqa: E731
    find = []
    for e in ("mlid", "slid", "separate"):
        routed = [t for t in degr if by[(t["tree"], e)]["status"] == "routed"]
        n_esc = sum(1 for t in routed if esc(t, e) > 0)
        find.append((f"{e} routes every connected degraded tree", "issue 36: every connected tree",
                     f"{len(routed)} of {len(degr)}" + (f", {n_esc} with the escape VL" if e != "separate" else ", 1 VL"),
                     status([t for t in degr if t not in routed])))
    clean = {e: [t for t in conn if ok(by[(t["tree"], e)]) and by[(t["tree"], e)]["unreachable"] == 0]
             for e in ("mlid", "slid", "separate")}
    routed_all = {e: [t for t in conn if by[(t["tree"], e)]["status"] == "routed"] for e in clean}
    find.append(("`ibrt check` clean (every (CA, LID) pair reachable, no credit loop) with the SLs and SL2VL the engine wrote",
                 "issue 36: deadlock-free, every pair reachable",
                 ", ".join(f"{e} {len(clean[e])} of {len(routed_all[e])}" for e in clean),
                 status([e for e in clean if len(clean[e]) != len(routed_all[e])])))
    esc_trees = [t for t in conn if esc(t, "mlid") > 0]
    vl2 = [t for t in esc_trees if by[(t["tree"], "mlid")]["vls_used"] == 2]
    nov = [t for t in conn if esc(t, "mlid") == 0 and by[(t["tree"], "mlid")]["vls_used"] == 1]
    find.append(("VLs used: 2 where the escape VL is needed, 1 elsewhere (mlid)", "opensm's updn and minhop: 1 VL (SL 0)",
                 f"{len(vl2)} trees on 2 VLs, {len(nov)} on 1",
                 status([] if len(vl2) == len(esc_trees) and len(vl2) + len(nov) == len(conn) else ["vls"])))
    dec1 = [t for t in esc_trees if all(by[(t["tree"], e)].get("one_vl") == "declined" for e in ("mlid", "slid"))]
    find.append(("with one data VL (`--data-vls 1`) mlid and slid decline the trees that need the escape VL",
                 "a routing that cannot be deadlock-free declines", f"{len(dec1)} of {len(esc_trees)}",
                 status([t for t in esc_trees if t not in dec1])))
    u_auto = [t for t in degr if by[(t["tree"], "opensm updn")]["status"] == "routed"]
    u_fb = [t for t in degr if by[(t["tree"], "opensm updn")]["status"].startswith("fell back")]
    find.append(("opensm `-R updn` (its own root detection) does not route every degraded tree: it falls back to minhop",
                 "opensm 3.3.23 `-R updn`", f"routes {len(u_auto)} of {len(degr)}; falls back to minhop on {len(u_fb)}",
                 status([] if u_fb else ["none"])))
    u_top = [t for t in degr if by[(t["tree"], "opensm updn -a top")]["status"] == "routed"]
    u_sw = [t for t in u_top if by[(t["tree"], "opensm updn -a top")]["unreachable"] > 0]
    u_ca = [t for t in u_top if by[(t["tree"], "opensm updn -a top")]["unreachable_ca"] > 0]
    find.append(("opensm `-R updn -a <top switches>` leaves (CA, LID) pairs unreachable", "opensm 3.3.23 `-R updn -a`",
                 f"routes {len(u_top)} of {len(degr)}; CA pairs unreachable on {len(u_ca)}, some switch LIDs unreachable on {len(u_sw)}",
                 status([] if u_sw or u_ca else ["none"])))
    mh = lambda t: by[(t["tree"], "opensm minhop")]  # noqa: E731
    mh_loop = [t for t in degr if mh(t).get("credit_loops")]
    mh_sim = [t for t in degr if "deadlock" in (mh(t).get("uniform_verdicts", "") + mh(t).get("complement_verdicts", ""))]
    find.append(("opensm minhop (what updn falls back to) has credit loops on SL 0", "opensm 3.3.23 `-R minhop`",
                 f"credit loops on {len(mh_loop)} of {len(degr)} trees; the simulator deadlocked on {len(mh_sim)}",
                 status([] if mh_loop else ["none"])))

    def compare(e, ref, key, better_low, label, fmt):
        both = [t for t in degr if ok(by[(t["tree"], e)]) and ok(by[(t["tree"], ref)])]
        diffs = []
        for t in both:
            a, b = by[(t["tree"], e)][key], by[(t["tree"], ref)][key]
            diffs.append(((a / b if b else 1.0) if better_low else a - b, t))
        if better_low:
            worse = [(d, t) for d, t in diffs if d > 1 + 1e-9]
            lo, hi = min(d for d, _ in diffs), max(d for d, _ in diffs)
            cell = f"{len(both) - len(worse)} of {len(both)} trees; {SHORT[e]}/{SHORT[ref]} from {lo:.2f} to {hi:.2f}"
            tied = []
        else:
            worse = [(d, t) for d, t in diffs if d < -1e-9]
            lo, hi = min(d for d, _ in diffs), max(d for d, _ in diffs)
            cell = f"{len(both) - len(worse)} of {len(both)} trees; difference from {lo:+.3f} to {hi:+.3f}"
            sp = lambda t: max(by[(t["tree"], e)][key + "_spread"], by[(t["tree"], ref)][key + "_spread"])  # noqa: E731
            tied = [(d, t) for d, t in worse if -d <= sp(t) + 1e-9]
        worse.sort(key=lambda x: x[0], reverse=better_low)
        against = [(d, t) for d, t in worse if (d, t) not in tied]
        if worse:
            cell += "; below: " + ", ".join(f"{t['tree']} ({fmt(d)}{', a tie' if (d, t) in tied else ''})" for d, t in worse)
        st = status([t["tree"] for _, t in against], weak=[t["tree"] for _, t in tied],
                    explained=lambda c: (e, ref, key, c) in EXPLAINED)
        measured = (EXPLAINED.get((e, ref, key, against[0][1]["tree"])) or MEASURED.get((e, ref)) or MEASURED.get(e)
                    if against else None)
        return (label, f"opensm {SHORT[ref]}" if ref.startswith("opensm") else ref, cell, st) + ((measured,) if measured else ())

    ratio, diff = (lambda d: f"×{d:.2f}"), (lambda d: f"{d:+.3f}")
    for ref in ("opensm updn -a top", "opensm updn"):
        nm = "updn -a top" if ref.endswith("top") else "updn (own roots)"
        find.append(compare("mlid", ref, "max_load", True, f"mlid's max link load ≤ {nm}'s on the degraded trees both route", ratio))
        find.append(compare("mlid", ref, "uniform_max", False, f"mlid's max accepted uniform traffic ≥ {nm}'s", diff))
        find.append(compare("mlid", ref, "complement_max", False, f"mlid's max accepted bit-complement traffic ≥ {nm}'s", diff))
        find.append(compare("mlid", ref, "uniform_onset", False, f"mlid's uniform saturation onset ≥ {nm}'s", diff))
        find.append(compare("mlid", ref, "complement_onset", False, f"mlid's bit-complement saturation onset ≥ {nm}'s", diff))
    find.append(compare("slid", "opensm updn -a top", "max_load", True, "slid's max link load ≤ updn -a top's", ratio))
    find.append(compare("slid", "opensm updn -a top", "uniform_max", False, "slid's max accepted uniform traffic ≥ updn -a top's", diff))
    find.append(compare("separate", "opensm updn -a top", "max_load", True, "separate's max link load ≤ updn -a top's", ratio))
    find.append(compare("separate", "opensm updn -a top", "uniform_max", False, "separate's max accepted uniform traffic ≥ updn -a top's", diff))
    find.append(compare("mlid", "opensm minhop", "max_load", True, "mlid's max link load ≤ minhop's (where minhop has no credit loop)", ratio))
    find.append(compare("mlid", "opensm minhop", "uniform_max", False, "mlid's max accepted uniform traffic ≥ minhop's (same trees)", diff))
    find.append(compare("mlid", "opensm minhop", "complement_max", False, "mlid's max accepted bit-complement traffic ≥ minhop's (same trees)", diff))
    find.append(compare("mlid", "separate", "max_load", True, "mlid's max link load ≤ separate's", ratio))
    spreads = sorted(r[k] for r in rows if r["status"] == "routed" for k in
                     ("uniform_onset_spread", "uniform_max_spread", "complement_onset_spread", "complement_max_spread"))
    pct = lambda q: spreads[min(len(spreads) - 1, int(q * len(spreads)))] if spreads else 0.0  # noqa: E731
    legend = (f"{len(trees)} trees: {sum(1 for t in trees if '--fail' not in t['gen'])} intact, {len(degr)} degraded and "
              "connected" + (f", {len(trees) - len(conn)} disconnected" if len(conn) < len(trees) else "") + ". "
              "Findings are over the degraded connected trees; \"both route\" means the engine asked configured the "
              "switches, every CA pair is reachable and there is no credit loop. Saturation figures are the mean of 3 "
              "simulator seeds; the spread (largest minus smallest of the 3) of one figure is "
              f"{pct(0.5):.3f} at the median, {pct(0.9):.3f} at the 90th percentile and "
              f"{spreads[-1] if spreads else 0:.3f} at most; a tree where ibrt is below by no more than the larger "
              "of the two routings' spreads there is a tie. From [degraded-trees.csv](degraded-trees.csv).")
    return table(find, "ibrt's figure", legend, ref_header="reference")


def cell_status(r):
    s = r["status"]
    if s == "routed":
        bits = []
        if r.get("escape") not in (None, "", "0", 0):
            bits.append(f"esc {r['escape']}")
        bits.append(f"{r['vls_used']} VL" + ("s" if r["vls_used"] != 1 else ""))
        if r["unreachable_ca"]:
            bits.append(f"**{r['unreachable_ca']} CA pairs unreachable**")
        if r["unreachable"] and r["unreachable"] != r["unreachable_ca"]:
            bits.append(f"{r['unreachable'] - r['unreachable_ca']} (CA, switch) unreachable")
        if r["credit_loops"]:
            bits.append(f"**{r['credit_loops']} credit loop{'s' if r['credit_loops'] != 1 else ''}**")
        sims = {v for k in ("uniform_verdicts", "complement_verdicts") for v in r[k].split("/")} - {"ok"}
        if sims:
            bits.append("sim: " + "/".join(sorted(sims)))
        return ", ".join(bits)
    if s.startswith("fell back"):
        return s.replace("fell back to ", "→ ")
    return "declined" if s == "declined" else "—"


def tables(data):
    rows, trees, by = data
    conn, _ = split(trees)
    L = ["## Trees and verdicts", "",
         "`esc N`: destination LIDs on the escape VL; `→ minhop`: opensm fell back; "
         "`(CA, switch) unreachable`: (CA, switch LID) pairs without an LFT entry on the way.", "",
         "| tree | `ibrt gen` | CAs | " + " | ".join(SHORT[r] for r in ROUTINGS) + " |",
         "|---|---|---|" + "---|" * len(ROUTINGS)]
    for t in trees:
        L.append(f"| {t['tree']} | `{t['gen']}` | {t['cas']} | " + " | ".join(cell_status(by[(t['tree'], r)]) for r in ROUTINGS) + " |")
    L.append("")

    def metric_table(title, key, fmt, note):
        L.extend([f"## {title}", "", note, "", "| tree | " + " | ".join(SHORT[r] for r in ROUTINGS) + " |",
                  "|---|" + "---|" * len(ROUTINGS)])
        for t in conn:
            cells = []
            for r in ROUTINGS:
                x = by[(t["tree"], r)]
                if x["status"] != "routed":
                    cells.append("—")
                    continue
                v = fmt(x[key]) if not isinstance(key, tuple) else " / ".join(fmt(x[k]) for k in key)
                cells.append(v + ("*" if x.get("credit_loops") or x.get("unreachable_ca") else ""))
            L.append(f"| {t['tree']} | " + " | ".join(cells) + " |")
        L.append("")

    metric_table("Maximum link load, all-to-all", "max_load", lambda v: f"{v:.0f}",
                 "Flows per directed link (`ibrt check`, `links.max`): ibrt's engines with their "
                 "own path selection, opensm's at LMC 0. `*`: the routing has a credit loop or "
                 "unreachable CA pairs. `—`: not routed by that engine.")
    metric_table("Saturation, uniform traffic", ("uniform_onset", "uniform_max"), lambda v: f"{v:.3f}",
                 "Onset (highest offered load accepted within 5 %) / maximum accepted, fractions "
                 "of the link bandwidth per node.")
    metric_table("Saturation, bit-complement traffic", ("complement_onset", "complement_max"),
                 lambda v: f"{v:.3f}", "As above, `--pattern complement`.")
    decl = [r for r in rows if r["status"] == "declined"]
    if decl:
        L.extend(["## Declines", ""] + [f"- {r['tree']} `{r['gen']}`, {r['routing']}: {r['reason']}" for r in decl] + [""])
    fb = [r for r in rows if r["status"].startswith("fell back")]
    if fb:
        L.extend(["## opensm fallbacks", ""] + [f"- {r['tree']}, `-R {r['routing'].replace('opensm ', '')}`: {r['status']} "
                                                 f"(`{r.get('reason', '')}`)" for r in fb] + [""])
    return "\n".join(L)


if __name__ == "__main__":
    argv = sys.argv[1:]
    md = argv[argv.index("--md") + 1] if "--md" in argv else MD
    if "--csv" in argv:
        path = os.path.abspath(argv[argv.index("--csv") + 1])
        CSV, argv = os.path.basename(path), argv + ["--dir", os.path.dirname(path)]
    sys.exit(main(argv, md, RESULTS, load, findings, tables))
