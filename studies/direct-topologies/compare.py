#!/usr/bin/env python3
"""Paper 003 §4's table beside ours (issue 15): reads the `ibrt sweep merge` output of each
topology's spec (ROOT/<topology>/saturation.csv, as run.sh lays it out) and the paper's table
(paper-table.tsv beside this file), prints a Markdown table per topology with, in each cell,
the paper's figure, ours and the difference, and checks the findings the paper states in §4.

Our figure is the saturation onset by default: the highest offered load (7 bisection steps
over 0..1, resolution 1/128) whose accepted traffic stays within 5 % of it. The paper's
figures lie on that 1/128 grid (11.7 % = 15/128, 24.2 % = 31/128, 96.1 % = 123/128), so they
are such a bisection's result; --metric max-accepted gives the highest accepted rate instead
(what BookSim quotes as saturation throughput). Both are in saturation.csv.

    compare.py ROOT [--scale reduced|full] [--metric onset|max-accepted] [--write DOC]
               [--gaps TSV] [--check-gaps] [--write-gaps DOC]

--write replaces the text between "<!-- results -->" and "<!-- /results -->" in DOC.

At full scale it also writes the ledger of the cells ours misses by more than 5 points: each
such cell matched to the first rule of gaps.tsv that covers it (its status and its measured
reason). --check-gaps exits 1 when a cell has no rule, a rule matches no cell or names a
section that is a heading neither of the doc (--doc) nor of its lab notes (--history);
--write-gaps DOC replaces the text between
"<!-- gaps -->" and "<!-- /gaps -->" in DOC with the ledger.
Python 3 standard library only.
"""
import argparse
import csv
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PATTERNS = ["uniform", "complement", "bitrev", "bitrot", "shuffle", "transpose"]
BITS = PATTERNS[1:]
HEAD = ["Uniform", "Cmpl", "Rvrs", "Rotn", "Shuf", "Trns"]
TOPOLOGIES = [("torus-3d", "Torus 3D"), ("torus-4d", "Torus 4D"), ("flatfly", "FlatFly"),
              ("hypercube", "Hypercube"), ("dragonfly", "Dragonfly"), ("sfxff-1", "SF×FF-1"),
              ("sfxff-2", "SF×FF-2")]
FLATFLY_DIMS = {"full": 4, "reduced": 3}  # the FlatFly's dimension at each scale (specs.py)
GAP = 5.0  # points: the issue asks for the reason of every cell that differs by more
STATUSES = ["explained", "traded", "partly", "argued", "open", "not examined"]


def read_paper(path):
    """{(topology, routing): {pattern: percent}} and the routings in the paper's order."""
    table, order = {}, []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            topo, routing, *vals = line.rstrip("\n").split("\t")
            table[(topo, routing)] = dict(zip(PATTERNS, map(float, vals)))
            order.append((topo, routing))
    return table, order


def read_ours(root, metric):
    """{(topology, routing label): {pattern: percent}} from ROOT/<topology>/saturation.csv;
    a point the engine declined (no figures) is left out, and listed in the second result."""
    col = {"onset": "onset_load", "max-accepted": "max_accepted_fraction"}[metric]
    ours, errors = {}, []
    for topo, _ in TOPOLOGIES:
        path = os.path.join(root, topo, "saturation.csv")
        if not os.path.exists(path):
            continue
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                v = r.get(col, "")
                if v in ("", None):
                    errors.append((topo, r["routing"], r["pattern"]))
                    continue
                ours.setdefault((topo, r["routing"]), {})[r["pattern"]] = 100 * float(v)
    return ours, errors


def fmt(x):
    return "" if x is None else f"{x:.1f}"


def cell(paper, ours):
    if paper is None and ours is None:
        return ""
    if ours is None:
        return f"{fmt(paper)} / –"
    if paper is None:
        return f"– / **{fmt(ours)}**"
    return f"{fmt(paper)} / **{fmt(ours)}** ({ours - paper:+.1f})"


def tables(paper, order, ours):
    out = []
    for topo, title in TOPOLOGIES:
        routings = [r for t, r in order if t == topo]
        routings += sorted({r for t, r in ours if t == topo and r not in routings})
        out.append(f"\n**{title}** — paper / **ours** (ours − paper), percent\n")
        out.append("| Routing | " + " | ".join(HEAD) + " |")
        out.append("|---" * (len(HEAD) + 1) + "|")
        for r in routings:
            p, o = paper.get((topo, r), {}), ours.get((topo, r), {})
            out.append(f"| {r} | " + " | ".join(cell(p.get(x), o.get(x)) for x in PATTERNS) + " |")
    return "\n".join(out)


def mean(d, pats):
    vals = [d[p] for p in pats if p in d]
    return statistics.fmean(vals) if len(vals) == len(pats) else None


def findings(t, scale, name):
    """The findings §4 states, each (key, statement, verdict, numbers, cases) on table t. A case
    is (label, a, b): one comparison the finding makes, where the paper says a is above b (or
    level with it, where the statement allows ties); the verdict is compare.py's strict reading
    of them. studies/direct-topologies-summary.py turns the same cases into the findings
    table's statuses."""
    res = []
    ff = {r: v for (topo, r), v in t.items() if topo == "flatfly"}
    dim = FLATFLY_DIMS[scale]
    # 1. Distance Based +dimension is FlatFly's best routing (mean over the six patterns).
    means = {r: mean(v, PATTERNS) for r, v in ff.items() if mean(v, PATTERNS) is not None}
    if means:
        best = max(means, key=means.get)
        target = f"Distance Based +{dim}"
        ok = target in means and means[target] >= means[best] - 1e-9
        cases = [(f"{target} against {r}", means[target], m) for r, m in means.items()
                 if r != target and target in means]
        res.append(("best", f"FlatFly's best routing is Distance Based +dimension ({target} here)",
                    ok, f"best by mean over the 6 patterns: {best} {means[best]:.1f}; "
                        f"{target} {fmt(means.get(target))}", cases))
    # 2. The optimal number of extra hops equals the dimension (among Distance Based +E).
    db = {e: means.get("Distance Based" + (f" +{e}" if e else "")) for e in range(5)}
    db = {e: m for e, m in db.items() if m is not None}
    if db:
        top = max(db.values())
        best_e = [e for e, m in db.items() if m >= top - 1e-9]
        # Strictly: E = dimension at least a point (above one bisection step) over every
        # smaller E, so that a flat curve does not count.
        cases = [(f"E={dim} against E={e}", db[dim], m) for e, m in db.items() if e != dim and dim in db]
        res.append(("extra", f"the optimal number of extra hops equals the FlatFly's dimension ({dim})",
                    dim in best_e and all(db[e] <= top - 1.0 for e in db if e < dim),
                    "Distance Based +E mean: " + ", ".join(f"E={e}: {m:.1f}" for e, m in db.items()), cases))
    # 3. Tori and hypercube are worst on uniform traffic (best routing of each topology).
    uni = {}
    for (topo, r), v in t.items():
        if "uniform" in v:
            uni[topo] = max(uni.get(topo, 0), v["uniform"])
    low = {k: v for k, v in uni.items() if k in ("torus-3d", "torus-4d", "hypercube")}
    high = {k: v for k, v in uni.items() if k not in low}
    if low and high:
        cases = [(f"{h} against {lo}", high[h], low[lo]) for h in high for lo in low]
        res.append(("uniform", "tori and hypercube are worst on uniform traffic",
                    max(low.values()) < min(high.values()),
                    "best uniform: " + ", ".join(f"{k} {v:.1f}" for k, v in sorted(uni.items(), key=lambda x: x[1])),
                    cases))
    # 4. GID and GSD are Dragonfly's best on the bit patterns (mean over the five).
    df = {r: mean(v, BITS) for (topo, r), v in t.items() if topo == "dragonfly"}
    df = {r: m for r, m in df.items() if m is not None}
    if "GID" in df or "GSD" in df:
        best = max(df, key=df.get)
        ok = max(df.get("GID", -1), df.get("GSD", -1)) >= df[best] - 1e-9
        top = max((r for r in ("GID", "GSD") if r in df), key=df.get)
        cases = [(f"{top} against {r}", df[top], m) for r, m in df.items() if r not in ("GID", "GSD")]
        res.append(("gid", "GID / GSD are Dragonfly's best on the bit patterns", ok,
                    f"best bit-pattern mean: {best} {df[best]:.1f}; GID {fmt(df.get('GID'))}, GSD {fmt(df.get('GSD'))}",
                    cases))
    else:
        res.append(("gid", "GID / GSD are Dragonfly's best on the bit patterns", None,
                    "not measured: " + name + " has no GID/GSD rows", []))
    # 5. FlatFly and SF×FF-1 are the winners: top two on uniform (best routing), on the best
    # routing per bit pattern (mean of the per-pattern best), and on Distance Based.
    crit = {}
    for topo, _ in TOPOLOGIES:
        rows = {r: v for (tp, r), v in t.items() if tp == topo}
        if not rows:
            continue
        u = max((v.get("uniform", 0) for v in rows.values()), default=0)
        bits = [max((v.get(p, 0) for v in rows.values()), default=0) for p in BITS]
        d = mean(rows.get("Distance Based", {}), PATTERNS)
        crit[topo] = (u, statistics.fmean(bits), d)
    if {"flatfly", "sfxff-1"} <= crit.keys():
        verdicts, nums, cases = [], [], []
        for i, what in enumerate(["uniform", "best routing on the bit patterns", "Distance Based"]):
            ranked = sorted((k for k in crit if crit[k][i] is not None), key=lambda k: -crit[k][i])
            # Top two, ties included: neither winner below any other topology.
            win = [crit[k][i] for k in ("flatfly", "sfxff-1") if crit[k][i] is not None]
            rest = [crit[k][i] for k in ranked if k not in ("flatfly", "sfxff-1")]
            verdicts.append(len(win) == 2 and (not rest or min(win) >= max(rest) - 1e-9))
            nums.append(f"{what}: " + ", ".join(f"{k} {crit[k][i]:.1f}" for k in ranked))
            cases += [(f"{what}: {w} against {k}", crit[w][i], crit[k][i])
                      for w in ("flatfly", "sfxff-1") for k in ranked
                      if k not in ("flatfly", "sfxff-1") and crit[w][i] is not None]
        res.append(("winners", "FlatFly and SF×FF-1 are the winners (top two, ties included, on uniform, "
                    "best routing per bit pattern, Distance Based)", all(verdicts),
                    "; ".join(f"{n} ({'yes' if v else 'no'})" for n, v in zip(nums, verdicts)), cases))
    return res


def findings_md(paper, ours, scale):
    out = ["\n| finding (§4) | paper's table | ours | numbers (ours; paper's below) |", "|---|---|---|---|"]
    verdict = lambda ok: "n/a" if ok is None else ("as stated" if ok else "not as stated")
    fp = {f[0]: f for f in findings(paper, "full", "the paper")}
    for key, stmt, ok, nums, _ in findings(ours, scale, "ours"):
        p = fp.get(key)
        pv, pn = ("", "") if p is None else (verdict(p[2]), p[3])
        out.append(f"| {stmt} | {pv} | **{verdict(ok)}** | {nums}<br>paper: {pn} |")
    return "\n".join(out)


def read_gaps(path):
    """gaps.tsv's rules in order: topology, routings and patterns (sets, or None for "*"),
    status, reason, section."""
    rules = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 6 or fields[3] not in STATUSES:
                raise SystemExit(f"{path}:{n}: expected 6 tab-separated fields with a status of "
                                 f"{', '.join(STATUSES)}")
            topo, routings, patterns, status, reason, section = fields
            unknown = set(patterns.split(",")) - set(PATTERNS) - {"*"}
            if unknown:
                raise SystemExit(f"{path}:{n}: unknown pattern {', '.join(sorted(unknown))}")
            some = lambda x: None if x == "*" else set(x.split(","))
            rules.append(dict(line=n, topo=topo, routings=some(routings), patterns=some(patterns),
                              status=status, reason=reason, section=section, cells=[]))
    return rules


def gap_cells(paper, ours):
    """Every cell of both tables whose printed difference is more than GAP points."""
    cells = []
    for (topo, routing), p in paper.items():
        o = ours.get((topo, routing), {})
        for pat in PATTERNS:
            if pat in p and pat in o and abs(round(o[pat] - p[pat], 1)) > GAP:
                cells.append((topo, routing, pat, p[pat], o[pat]))
    return cells


def match_gaps(cells, rules, headings, paper):
    """Each cell into its rule's `cells`; the problems that --check-gaps fails on."""
    problems = []
    for r in rules:
        known = {routing for topo, routing in paper if topo == r["topo"]}
        for name in sorted((r["routings"] or set()) - known) or ([] if known else [r["topo"]]):
            problems.append(f"gaps.tsv:{r['line']}: the paper's table has no {r['topo']} {name}")
    for cell in cells:
        topo, routing, pat = cell[:3]
        rule = next((r for r in rules if r["topo"] == topo
                     and (r["routings"] is None or routing in r["routings"])
                     and (r["patterns"] is None or pat in r["patterns"])), None)
        if rule is None:
            problems.append(f"no rule for {topo} {routing} {pat}")
        else:
            rule["cells"].append(cell)
    for r in rules:
        if not r["cells"]:
            problems.append(f"gaps.tsv:{r['line']}: the rule matches no cell")
        if r["section"] and r["section"] not in headings:
            problems.append(f"gaps.tsv:{r['line']}: no heading \"{r['section']}\" in the doc")
    return problems


def gaps_md(cells, rules):
    titles = dict(TOPOLOGIES)
    short = dict(zip(PATTERNS, HEAD))
    count = lambda topo, status: sum(len(r["cells"]) for r in rules
                                     if r["status"] == status and topo in (None, r["topo"]))
    out = [f"\n{len(cells)} cells differ from the paper's by more than {GAP:g} points. Each is "
           "matched to the first rule of `gaps.tsv` that covers it; the status says how far its "
           "reason is measured (the file's header defines them).\n",
           "| topology | " + " | ".join(STATUSES) + " | cells |", "|---" * (len(STATUSES) + 2) + "|"]
    for topo, title in TOPOLOGIES + [(None, "all")]:
        n = [count(topo, s) for s in STATUSES]
        if sum(n):
            out.append(f"| {title} | " + " | ".join(map(str, n)) + f" | {sum(n)} |")
    out += ["", "| topology | cells (ours − paper) | status | reason, measured (paper's figures in "
            "parentheses) | where |", "|---|---|---|---|---|"]
    for r in rules:
        if r["cells"]:
            listed = "; ".join(f"{routing} {short[pat]} {o - p:+.1f}" for _, routing, pat, p, o in r["cells"])
            where = f'"{r["section"]}"' if r["section"] else ""
            out.append(f"| {titles.get(r['topo'], r['topo'])} | {listed} | {r['status']} | {r['reason']} "
                       f"| {where} |")
    return "\n".join(out)


def replace_block(path, tag, text):
    doc = open(path).read()
    new, n = re.subn(rf"(<!-- {tag} -->\n).*?(<!-- /{tag} -->)", lambda m: m.group(1) + text + m.group(2),
                     doc, flags=re.S)
    if n != 1:
        raise SystemExit(f"compare.py: {path} has no <!-- {tag} --> block")
    open(path, "w").write(new)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", help="directory with <topology>/saturation.csv (run.sh's output)")
    ap.add_argument("--scale", choices=["reduced", "full"], default="reduced")
    ap.add_argument("--metric", choices=["onset", "max-accepted"], default="onset")
    ap.add_argument("--paper", default=os.path.join(HERE, "paper-table.tsv"))
    ap.add_argument("--write", metavar="DOC", help="replace the results block of DOC")
    ap.add_argument("--gaps", default=os.path.join(HERE, "gaps.tsv"))
    ap.add_argument("--doc", default=os.path.join(HERE, "..", "..", "docs", "results", "direct-topologies.md"),
                    help="the doc whose headings gaps.tsv's sections name")
    ap.add_argument("--history", default=os.path.join(HERE, "..", "..", "docs", "history", "direct-topologies-log.md"),
                    help="the lab notes, whose headings gaps.tsv's sections may name too")
    ap.add_argument("--check-gaps", action="store_true", help="fail when the ledger is incomplete")
    ap.add_argument("--write-gaps", metavar="DOC", help="replace the gaps block of DOC")
    a = ap.parse_args()
    paper, order = read_paper(a.paper)
    ours, errors = read_ours(a.root, a.metric)
    if not ours:
        print(f"compare.py: no saturation.csv under {a.root}", file=sys.stderr)
        return 2
    label = {"reduced": "REDUCED SCALE (<= 256 switches; the paper's figures are at 16,384 hosts)",
             "full": "full scale (16,384 hosts)"}[a.scale]
    md = [f"Ours: {label}; metric: {a.metric} (see compare.py). Cells: paper / **ours** (difference)."]
    md.append(tables(paper, order, ours))
    md.append("\n#### The paper's findings\n")
    md.append(findings_md(paper, ours, a.scale))
    if errors:
        md.append("\nPoints with no figure (the engine declined): " +
                  ", ".join(f"{t} {r} {p}" for t, r, p in errors))
    if (a.check_gaps or a.write_gaps) and a.scale != "full":
        print("compare.py: the gaps ledger is of the full-scale table: give --scale full",
              file=sys.stderr)
        return 2
    problems = []
    if a.scale == "full":
        cells, rules = gap_cells(paper, ours), read_gaps(a.gaps)
        headings = {line.lstrip("#").strip() for doc in (a.doc, a.history) if os.path.exists(doc)
                    for line in open(doc) if line.startswith("#")}
        problems = match_gaps(cells, rules, headings, paper)
        ledger = gaps_md(cells, rules) + "\n"
        md.append(f"\n#### Where ours differs by more than {GAP:g} points, and why\n" + ledger)
        if a.write_gaps:
            replace_block(a.write_gaps, "gaps", ledger)
    text = "\n".join(md) + "\n"
    if a.write:
        replace_block(a.write, "results", text)
    else:
        sys.stdout.write(text)
    for p in problems:
        print(f"compare.py: {p}", file=sys.stderr)
    return 1 if problems and a.check_gaps else 0


if __name__ == "__main__":
    sys.exit(main())
