#!/usr/bin/env python3
"""opensm's own engines in paper 003's table (issue 15: "the same table with the deployable
static engines ... and opensm's own engines beside the paper's routings").

    opensm_engines.py run TABLES OUT [--scale reduced|full] [--ibrt BIN] [--patterns P,...]
                      [--only TOPOLOGY,...] [-- SWEEP OPTIONS]
    opensm_engines.py table OUT [--scale reduced|full] [--results DIR] [--write DOC]

`run` simulates the tables a running opensm 3.3.23 programmed on the study's fabrics
(scripts/compare-direct-engines.sh with TABLES=DIR and FABRICS lines named as the study's
topologies: the LFTs, SL2VL tables and the SA's path SLs of each engine) with the study's own
settings: one sweep spec per topology, made from the study's spec of the same scale (patterns,
saturation search, run lengths, seed), on 8 VLs, what the ports offer. Into OUT/<topology>/ go
the merged saturation.csv and sweep.csv, and OUT/checks.tsv gets each engine's `ibrt check`
summary (the compare script's row); rerunning resumes.

`table` prints, per topology, the engines' saturation onsets (the study's metric, compare.py)
beside the study's static routings and its best adaptive routing per pattern (--results: the
study's merged results of that scale, default reduced-results or full-results beside this
file). Python 3 standard library only.
"""
import argparse
import csv
import json
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import HEAD, PATTERNS, TOPOLOGIES, read_ours  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
# The study's results: docs/results/direct-topologies/ (its scripts and inputs are here).
RESULTS = os.path.join(HERE, "..", "..", "docs", "results", "direct-topologies")
ORDER = ["torus-2QoS", "dor", "lash", "dfsssp", "nue", "nue-8vls", "updn"]


def engines_of(tables, topo):
    """The engines that routed TOPO (a directory of tables each; NAME.tmp is one being
    written), in ORDER."""
    d = os.path.join(tables, topo)
    found = [e for e in os.listdir(d) if os.path.isdir(os.path.join(d, e)) and not e.endswith(".tmp")]
    return sorted(found, key=lambda e: (ORDER.index(e) if e in ORDER else len(ORDER), e))


def spec_for(tables, topo, scale, spec_dir, patterns=None):
    study = json.load(open(os.path.join(HERE, scale, topo + ".json")))
    if patterns:
        study["patterns"] = [p for p in study["patterns"] if p in patterns]
    rel = lambda *p: os.path.relpath(os.path.join(tables, topo, *p), spec_dir)  # noqa: E731
    routings = [{"lfts": rel(e, "opensm-lfts.dump"), "guid2lid": rel(e, "guid2lid"),
                 "sl2vl": rel(e, "opensm-sl2vl.dump"), "path-sl": rel(e, "path.sl"),
                 "label": "opensm " + e} for e in engines_of(tables, topo)]
    spec = {k: study[k] for k in ("patterns", "saturation", "sim", "seeds")}
    spec.update({"title": f"opensm's engines on {study['title']}",
                 "fabrics": [{"file": rel("fabric.net")}], "routings": routings, "vls": [8]})
    return spec


def check_row(tables, topo, engine):
    """SLs, VLs, credit loops and reachability of one run, as compare-direct-engines.sh's row
    (row.tsv beside the tables) gives them: tag, routing, routes, reachable, SLs, VLs, loops."""
    with open(os.path.join(tables, topo, engine, "row.tsv")) as f:
        _, _, routes, reach, sls, vls, loops = f.readline().rstrip("\n").split("\t")[:7]
    assert routes == "yes", (topo, engine, routes)
    return [topo, "opensm " + engine, sls, vls, loops, reach]


def run(a):
    tables = os.path.abspath(a.tables)
    os.makedirs(a.out, exist_ok=True)
    checks = []
    for topo, _ in TOPOLOGIES:
        if not os.path.isdir(os.path.join(tables, topo)) or not engines_of(tables, topo):
            continue
        if a.only and topo not in a.only:
            continue
        spec_path = os.path.join(a.out, topo + ".json")
        with open(spec_path, "w") as f:
            json.dump(spec_for(tables, topo, a.scale, a.out, a.patterns), f, indent=1)
        # Exit 1: a point found a violation (opensm's dor deadlocks where it has credit
        # loops); it is kept, and the table says so.
        for cmd in ([a.ibrt, "sweep", spec_path, "--out", os.path.join(a.out, topo), "-q",
                     *a.sweep_options], [a.ibrt, "sweep", "merge", os.path.join(a.out, topo)]):
            rc = subprocess.run(cmd, stdout=subprocess.DEVNULL).returncode
            if rc > 1:
                sys.exit(f"opensm_engines.py: {' '.join(cmd)} exited {rc}")
    # Every topology with tables, run now or before (--only).
    for topo, _ in TOPOLOGIES:
        if os.path.isdir(os.path.join(tables, topo)):
            checks += [check_row(tables, topo, e) for e in engines_of(tables, topo)]
    with open(os.path.join(a.out, "checks.tsv"), "w") as f:
        f.write("topology\trouting\tSLs\tVLs\tcredit loops\treachable\n")
        f.writelines("\t".join(r) + "\n" for r in checks)


def read_results(out, topo):
    """{(routing, pattern): (onset %, load % of the first deadlocked run or None)}. A routing
    with credit loops (opensm's dor off the tori's datelines) can deadlock above some load: its
    onset is what it carried below that."""
    res, dead = {}, {}
    with open(os.path.join(out, topo, "sweep.csv"), newline="") as f:
        for r in csv.DictReader(f):
            if r["verdict"] == "deadlock":
                k = (r["routing"], r["pattern"])
                dead[k] = min(dead.get(k, 2.0), float(r["load"]))
    with open(os.path.join(out, topo, "saturation.csv"), newline="") as f:
        for r in csv.DictReader(f):
            k = (r["routing"], r["pattern"])
            res[k] = (100 * float(r["onset_load"]), 100 * dead[k] if k in dead else None)
    return res


def fmt(x):
    return "–" if x is None else f"{x:.1f}"


def mean_md(vals):
    return fmt(statistics.mean(vals) if len(vals) == len(PATTERNS) else None)


def table(a):
    out = []  # the lines, for stdout or for --write's DOC
    study, _ = read_ours(a.results or os.path.join(RESULTS, a.scale + "-results"), "onset")
    with open(os.path.join(a.out, "checks.tsv"), newline="") as f:
        checks = {(r["topology"], r["routing"]): r for r in csv.DictReader(f, delimiter="\t")}
    for topo, name in TOPOLOGIES:
        if not os.path.exists(os.path.join(a.out, topo, "saturation.csv")):
            continue
        ours = read_results(a.out, topo)
        spec = json.load(open(os.path.join(HERE, a.scale, topo + ".json")))
        static = [r["label"] for r in spec["routings"] if "selection" not in r]
        adaptive = [r["label"] for r in spec["routings"] if "selection" in r]
        out.append(f"\n**{name}**\n")
        out.append("| routing | SLs | VLs | credit loops | reachable | " + " | ".join(HEAD) + " | mean |")
        out.append("|---|---|---|---|---|" + "---|" * (len(HEAD) + 1))
        for (t, routing), c in checks.items():
            if t != topo:
                continue
            got = [ours.get((routing, p)) for p in PATTERNS]
            cells = ["–" if g is None else fmt(g[0]) if g[1] is None else
                     f"{fmt(g[0])}, deadlock from {g[1]:.1f}" for g in got]
            out.append(f"| {routing} | {c['SLs']} | {c['VLs']} | {c['credit loops']} | {c['reachable']} | "
                  + " | ".join(cells) + f" | {mean_md([g[0] for g in got if g])} |")
        for label in static:
            v = study.get((topo, label), {})
            out.append(f"| ibrt {label} (study, static) | | | | | " +
                  " | ".join(fmt(v.get(p)) for p in PATTERNS) + f" | {mean_md(list(v.values()))} |")
        # Per pattern, the best of the rows above that never deadlocked there: what static
        # tables on a stock fabric get, against the best the extended switch gets.
        best_static = []
        for p in PATTERNS:
            vals = [g[0] for (r, q), g in ours.items() if q == p and g[1] is None]
            vals += [study[(topo, r)][p] for r in static if p in study.get((topo, r), {})]
            best_static.append(max(vals) if vals else None)
        out.append("| best static, per pattern | | | | | " + " | ".join(map(fmt, best_static)) +
              f" | {mean_md([b for b in best_static if b is not None])} |")
        if adaptive:
            best = []
            for p in PATTERNS:
                vals = [(study[(topo, r)][p], r) for r in adaptive if p in study.get((topo, r), {})]
                best.append(max(vals) if vals else None)
            out.append("| best of the study's adaptive routings (extended switch) | | | | | " +
                  " | ".join("–" if b is None else f"{b[0]:.1f} ({b[1]})" for b in best) +
                  f" | {mean_md([b[0] for b in best if b is not None])} |")
    text = "\n".join(out).lstrip("\n") + "\n"
    if not a.write:
        sys.stdout.write(text)
        return
    tag = f"opensm-{a.scale}"
    doc = open(a.write).read()
    new, n = re.subn(rf"(<!-- {tag} -->\n).*?(<!-- /{tag} -->)",
                     lambda m: m.group(1) + text + m.group(2), doc, flags=re.S)
    if n != 1:
        sys.exit(f"opensm_engines.py: {a.write} has no <!-- {tag} --> block")
    open(a.write, "w").write(new)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("tables")
    t = sub.add_parser("table")
    for p in (r, t):
        p.add_argument("out")
        p.add_argument("--scale", choices=["reduced", "full"], default="reduced")
    r.add_argument("--ibrt", default=os.path.join(HERE, "../../build/ibrt"))
    r.add_argument("--patterns", type=lambda v: v.split(","),
                   help="only these of the study's patterns (comma-separated); default all")
    r.add_argument("--only", type=lambda v: v.split(","), help="only these topologies")
    t.add_argument("--results", help="the study's merged results of this scale")
    t.add_argument("--write", metavar="DOC",
                   help="replace the text between <!-- opensm-SCALE --> and <!-- /opensm-SCALE --> in DOC")
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    a = ap.parse_args(argv[:cut])
    if a.cmd == "run":
        a.sweep_options = argv[cut + 1:]  # after --: passed to `ibrt sweep`
        run(a)
    else:
        table(a)


if __name__ == "__main__":
    main()
