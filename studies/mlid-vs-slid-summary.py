#!/usr/bin/env python3
"""Summarises the CSVs of mlid-vs-slid.sh into mlid-vs-slid.md: the findings table (one row per
finding of paper 000 §5, with its status) and the detail tables.

  mlid-vs-slid-summary.py              print the findings block and the detail tables
  mlid-vs-slid-summary.py --findings   print the findings block alone (what the md holds between
                                       <!-- findings:begin --> and <!-- findings:end -->)
  mlid-vs-slid-summary.py --write      rewrite both marked blocks of mlid-vs-slid.md
  --dir DIR                            read the CSVs from DIR (default: next to this script)

Every figure comes from the committed CSVs: ft-<m>-<n>-<pattern>-mean.csv (per load, the mean
over the seeds and its 95 % interval, Student's t, as `ibrt sweep` writes sweep-mean.csv),
ft-<m>-<n>-<pattern>.csv (one row per run), ft-<m>-<n>-capped-mean.csv (mlid with one LMC bit
less than its own) and mlid-vs-slid-outbuf-mean.csv (4 VLs with and without output buffers).
Standard library only."""
import collections
import csv
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from findings import Est, cmp, listed, main, over_seeds, ratio, status, table  # noqa: E402

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "results")
MD = os.path.join(RESULTS, "mlid-vs-slid.md")
FABRICS = [("ft-4-4", "FT(4,4)", 4, 4), ("ft-8-3", "FT(8,3)", 8, 3),
           ("ft-16-3", "FT(16,3)", 16, 3), ("ft-32-2", "FT(32,2)", 32, 2)]
NAME = {k: name for k, name, _, _ in FABRICS}
NODES = {k: 2 * (m // 2) ** n for k, _, m, n in FABRICS}
UP_PATHS = {k: (m // 2) ** (n - 1) for k, _, m, n in FABRICS}  # top switches = up paths a pair may take
OWN_LMC = {"ft-4-4": 3, "ft-8-3": 4, "ft-16-3": 5, "ft-32-2": 4}  # `--lmc auto` (route's report.json)
VLS = (1, 2, 4)
PATTERNS = ("uniform", "centric")
SMALL = ("ft-4-4", "ft-8-3")  # the paper's "4-port or 8-port" trees
# The page's sections with what was measured for a gap, by the start of the finding's text.
TREND = "FT(16,3) and the size trend: what was measured"
MEASURED = [("Uniform traffic, 4- and 8-port", TREND), ("Uniform traffic, 16- and 32-port", TREND),
            ("MLID's gain over SLID grows", TREND), ("MLID's saturation throughput higher than SLID's in all", TREND),
            ("Uniform traffic, high load", "Latency: from generation or from injection"),
            ("10 % centric traffic, 2 and 4 VLs: latency", "Latency: from generation or from injection"),
            ("10 % centric traffic, 16- and 32-port trees: MLID with 1 VL", "Centric traffic at 1 VL: the hot node's link")]
LARGE = ("ft-16-3", "ft-32-2")  # its "16-port or 32-port" trees
MUCH = 0.10  # "much higher" (Observation 3): at least 10 % higher
CARRIED = 0.95  # a load is carried when the mean accepted traffic is at least 95 % of it


def read(d):
    """mean[(fabric, pattern, engine, vls)] = {load: (accepted Est, latency Est)} in bytes/ns/node
    and ns; runs[(fabric, pattern, engine, vls, load)] = list of run rows."""
    mean, runs, npb = {}, collections.defaultdict(list), {}
    for key, _, _, _ in FABRICS:
        files = [(p, f"{key}-{p}-mean.csv", f"{key}-{p}.csv") for p in PATTERNS]
        files.append(("capped", f"{key}-capped-mean.csv", None))
        for pattern, mfile, rfile in files:
            for r in csv.DictReader(open(os.path.join(d, mfile))):
                per = 1 / float(re.search(r"ns-per-byte=([0-9.]+)", r["sim"]).group(1))
                npb[key] = per
                pat = {"uniform": "uniform", "hotspot": "centric"}[r["pattern"]]
                cell = mean.setdefault((key, pat, r["routing"], int(r["vls"])), {})
                cell[float(r["load"])] = (
                    Est(float(r["accepted_fraction_mean"]) * per, float(r["accepted_fraction_ci95"]) * per),
                    Est(float(r["latency_mean_ns_mean"]), float(r["latency_mean_ns_ci95"])))
            if rfile:
                for r in csv.DictReader(open(os.path.join(d, rfile))):
                    runs[(key, pattern, r["routing"], int(r["vls"]), float(r["load"]))].append(r)
    return mean, runs, npb


def sat(mean, key, pattern, engine, v):
    """Saturation throughput: the highest mean accepted traffic over the loads, and its load."""
    cell = mean[(key, pattern, engine, v)]
    load = max(cell, key=lambda l: cell[l][0].v)
    return cell[load][0], load


def carried_high(mean, npb, key, pattern, v):
    """The highest load both engines carry (mean accepted >= CARRIED x offered)."""
    ok = [l for l in mean[(key, pattern, "mlid", v)]
          if all(mean[(key, pattern, e, v)][l][0].v >= CARRIED * l * npb[key] for e in ("mlid", "slid"))]
    return max(ok)


def case(key, v):
    return f"{NAME[key]} {v} VL{'s' if v > 1 else ''}"


def findings(mean, runs, npb, d):
    keys = [k for k, _, _, _ in FABRICS]
    S = {(k, p, e, v): sat(mean, k, p, e, v)[0] for k in keys for p in PATTERNS for e in ("mlid", "slid") for v in VLS}
    R = {(k, p, v): ratio(S[(k, p, "mlid", v)], S[(k, p, "slid", v)]) for k in keys for p in PATTERNS for v in VLS}
    C = {(k, p, v): cmp(S[(k, p, "mlid", v)], S[(k, p, "slid", v)]) for k in keys for p in PATTERNS for v in VLS}
    rows = []

    def ratios(ks, p, vls=VLS):
        return "; ".join(f"{NAME[k]} " + ", ".join(f"{R[(k, p, v)].v:.3f} ± {R[(k, p, v)].ci:.3f}" for v in vls)
                         for k in ks)

    # mlid's own LMC is capped on FT(16,3) only (5: 32 LIDs for 64 up paths; 6 would need 65,856
    # LIDs). ft-*-capped-mean.csv gives the other trees one LMC bit less. A throughput gap of
    # FT(16,3) at a VL count is put down to the cap when no tree with its full LMC shows that gap
    # and one bit less takes some full tree, where MLID is above SLID, to a tie with SLID or below.
    full = [k for k in keys if k != "ft-16-3"]
    capped = {(k, p, v): sat(mean, k, p, "mlid-capped", v)[0] for k in keys for p in PATTERNS for v in VLS}

    def cap_explains(c, p="uniform"):
        k, v = c[0], c[1]
        if k != "ft-16-3":
            return False
        if any(C[(t, p, v)] < 0 for t in full):
            return False
        return any(C[(t, p, v)] > 0 and cmp(capped[(t, p, v)], S[(t, p, "slid", v)]) <= 0 for t in full)

    # Observation 1.
    fail = [(k, v) for k in SMALL for v in VLS if C[(k, "uniform", v)] < 0]
    rows.append(("Uniform traffic, 4- and 8-port trees: MLID's saturation throughput a little higher than or "
                 "equal to SLID's in every case (Obs. 1)",
                 "Figs. 12, 13: MLID ≥ SLID at 1, 2, 4 VLs",
                 f"MLID / SLID at 1, 2, 4 VLs: {ratios(SMALL, 'uniform')}; below: {listed(fail, lambda c: case(*c))}",
                 status(fail, explained=cap_explains)))
    fail = [(k, v) for k in LARGE for v in VLS if C[(k, "uniform", v)] < 0]
    weak = [(k, v) for k in LARGE for v in VLS if C[(k, "uniform", v)] == 0]
    rows.append(("Uniform traffic, 16- and 32-port trees: MLID's saturation throughput higher than SLID's in "
                 "every case (Obs. 1)",
                 "Figs. 14, 15: MLID > SLID at 1, 2, 4 VLs",
                 f"MLID / SLID at 1, 2, 4 VLs: {ratios(LARGE, 'uniform')}; below: "
                 f"{listed(fail, lambda c: case(*c) + (' (LMC cap)' if cap_explains(c) else ''))}; "
                 f"tied: {listed(weak, lambda c: case(*c))}",
                 status(fail, weak, cap_explains)))

    # Observations 2 and 4: latency at the lowest load and at the highest load both carry.
    def lat(k, p, e, v, load):
        return mean[(k, p, e, v)][load][1]

    def net(k, p, e, v, load):
        return over_seeds([float(r["network_latency_mean_ns"]) for r in runs[(k, p, e, v, load)]])

    def points(p, ks, vls):
        low, high = [], []
        for k in ks:
            for v in vls:
                l0, lh = min(mean[(k, p, "mlid", v)]), carried_high(mean, npb, k, p, v)
                low.append((k, v, l0, lat(k, p, "mlid", v, l0), lat(k, p, "slid", v, l0)))
                high.append((k, v, lh, lat(k, p, "mlid", v, lh), lat(k, p, "slid", v, lh),
                             net(k, p, "mlid", v, lh), net(k, p, "slid", v, lh)))
        return low, high

    def count(cases, sign, i=3):
        return sum(1 for c in cases if cmp(c[i], c[i + 1]) == sign)

    low, high = points("uniform", keys, VLS)
    fail = [c[:2] for c in low if cmp(c[3], c[4]) > 0]
    diff = [c[3].v - c[4].v for c in low]
    rows.append(("Uniform traffic, low load: MLID's mean latency, in general, at most SLID's (Obs. 2, Rem. 2)",
                 "Figs. 12-15: MLID ≤ SLID at low load",
                 f"lowest load (0.05), MLID − SLID: {min(diff):+.0f} to {max(diff):+.0f} ns over the {len(low)} "
                 f"cases; MLID above: {listed(fail, lambda c: case(*c))}",
                 status(fail)))
    fail = [c[:2] for c in high if cmp(c[3], c[4]) < 0]
    weak = [c[:2] for c in high if cmp(c[3], c[4]) == 0]
    n_high = len(high)
    rows.append(("Uniform traffic, high load: MLID's mean latency higher than SLID's at the same offered load "
                 "(Obs. 2, Rem. 2)",
                 "Figs. 12-15: MLID > SLID near saturation",
                 f"highest load both carry, MLID above / tied / below SLID: from generation "
                 f"{count(high, 1)} / {count(high, 0)} / {count(high, -1)} of {len(high)} (above: "
                 f"{listed([c[:2] for c in high if cmp(c[3], c[4]) > 0], lambda c: case(*c))}); in the network "
                 f"alone {count(high, 1, 5)} / {count(high, 0, 5)} / {count(high, -1, 5)}",
                 status(fail, weak, n=n_high)))
    # Observation 3.
    fail = [(k, 1) for k in keys if C[(k, "centric", 1)] < 0]
    weak = [(k, 1) for k in keys if C[(k, "centric", 1)] == 0]
    much = all(R[(k, "centric", 1)].v >= 1 + MUCH for k in keys)
    rows.append(("10 % centric traffic, 1 VL: MLID's saturation throughput much higher than SLID's (Obs. 3)",
                 "Figs. 12-15: MLID ≫ SLID at 1 VL",
                 "MLID / SLID: " + "; ".join(f"{NAME[k]} {R[(k, 'centric', 1)].v:.3f} ± {R[(k, 'centric', 1)].ci:.3f}"
                                             for k in keys)
                 + f"; below: {listed(fail, lambda c: case(*c))}; tied: {listed(weak, lambda c: case(*c))}",
                 status(fail, weak, size_ok=much, n=len(keys))))
    fail = [(k, v) for k in keys for v in (2, 4) if C[(k, "centric", v)] < 0]
    weak = [(k, v) for k in keys for v in (2, 4) if C[(k, "centric", v)] == 0]
    rows.append(("10 % centric traffic, 2 and 4 VLs: MLID's saturation throughput still higher than SLID's in "
                 "every case (Obs. 3)",
                 "Figs. 12-15: MLID > SLID at 2, 4 VLs",
                 f"MLID / SLID at 2, 4 VLs: {ratios(keys, 'centric', (2, 4))}; below: "
                 f"{listed(fail, lambda c: case(*c))}; tied: {listed(weak, lambda c: case(*c))}",
                 status(fail, weak)))
    fail, weak, cells = [], [], []
    for k in LARGE:
        m1, s2 = S[(k, "centric", "mlid", 1)], S[(k, "centric", "slid", 2)]
        cells.append(f"{NAME[k]} {m1.fmt()} vs {s2.fmt()}")
        (fail if cmp(m1, s2) < 0 else weak if cmp(m1, s2) == 0 else []).append((k, 1))
    rows.append(("10 % centric traffic, 16- and 32-port trees: MLID with 1 VL above SLID with 2 VLs (Obs. 3)",
                 "Figs. 14, 15: MLID 1 VL > SLID 2 VLs",
                 "bytes/ns/node, MLID 1 VL vs SLID 2 VLs: " + "; ".join(cells),
                 status(fail, weak, n=len(LARGE))))
    # Observation 4.
    clow, chigh = points("centric", SMALL, (1,))
    both = clow + chigh
    fail = [c for c in both if cmp(c[3], c[4]) > 0]
    weak = [c for c in both if cmp(c[3], c[4]) == 0]
    rows.append(("10 % centric traffic, 4- and 8-port trees, 1 VL: MLID's mean latency below SLID's (Obs. 4)",
                 "Figs. 12, 13: MLID < SLID at 1 VL",
                 "ns, MLID vs SLID at the lowest load and the highest load both carry: "
                 + "; ".join(f"{NAME[c[0]]} load {c[2]:.4g}: {c[3].fmt(0)} vs {c[4].fmt(0)}" for c in both)
                 + f"; tied: {listed(weak, lambda c: f'{NAME[c[0]]} load {c[2]:.4g}')}",
                 status(fail, weak, n=len(both))))
    clow, chigh = points("centric", keys, (2, 4))
    fail = [c[:2] for c in clow if cmp(c[3], c[4]) > 0] + [c[:2] for c in chigh if cmp(c[3], c[4]) < 0]
    weak = [c[:2] for c in chigh if cmp(c[3], c[4]) == 0]
    n_high = len(chigh)
    rows.append(("10 % centric traffic, 2 and 4 VLs: latency as in Obs. 2, MLID at most SLID at low load and "
                 "above it at high load (Obs. 4)",
                 "Figs. 12-15: as Obs. 2",
                 f"lowest load, MLID above SLID: {count(clow, 1)} of {len(clow)}; highest load both carry, MLID "
                 f"above / tied / below: from generation {count(chigh, 1)} / {count(chigh, 0)} / "
                 f"{count(chigh, -1)} of {len(chigh)}, in the network alone {count(chigh, 1, 5)} / "
                 f"{count(chigh, 0, 5)} / {count(chigh, -1, 5)}",
                 status(fail, weak, n=n_high)))
    # Observation 5 / Remark 3: the gain grows with the network. A significant drop onto FT(16,3)
    # is put down to its LMC cap when, on the tree with the same levels, FT(8,3), one LMC bit less
    # (half its up paths, as FT(16,3) has) lowers mlid's gain over SLID significantly, and to no
    # more than FT(16,3)'s.
    by_size = sorted(keys, key=lambda k: NODES[k])
    fail, weak, cells = [], [], []
    for p in PATTERNS:
        for v in VLS:
            cells.append(f"{p} {v} VL{'s' if v > 1 else ''}: "
                         + ", ".join(f"{(R[(k, p, v)].v - 1) * 100:+.1f} %" for k in by_size))
            for a, b in zip(by_size, by_size[1:]):
                c = cmp(R[(b, p, v)], R[(a, p, v)])
                if c < 0:
                    fail.append((b, p, v))
                elif c == 0:
                    weak.append((b, p, v))

    def size_explained(c):
        k, p, v = c
        c8 = ratio(capped[("ft-8-3", p, v)], S[("ft-8-3", p, "slid", v)])
        return k == "ft-16-3" and cmp(c8, R[("ft-8-3", p, v)]) < 0 and cmp(c8, R[(k, p, v)]) <= 0

    rows.append(("MLID's gain over SLID grows with the network (Obs. 5, Rem. 3)",
                 "Figs. 12-15: gain larger on larger trees",
                 "MLID / SLID − 1 by size, " + ", ".join(f"{NAME[k]} ({NODES[k]} nodes)" for k in by_size) + ": "
                 + "; ".join(cells) + "; significant drops onto: "
                 + listed(fail, lambda c: f"{NAME[c[0]]} {c[1]} {c[2]} VL{'s' if c[2] > 1 else ''}"
                          + (" (LMC cap)" if size_explained(c) else "")),
                 status(fail, weak, size_explained)))
    # Remark 1.
    def rem1_explained(c):
        return cap_explains((c[0], c[2]), c[1])

    below = sorted(c for c in C if C[c] < 0)
    tied = sorted(c for c in C if C[c] == 0)
    rows.append(("MLID's saturation throughput higher than SLID's in all simulated cases (Rem. 1)",
                 "Figs. 12-15: MLID > SLID, 24 cases",
                 f"MLID above in {sum(1 for c in C.values() if c > 0)} of {len(C)}, tied in {len(tied)}, below in "
                 f"{len(below)}: " + listed(below, lambda c: f"{case(c[0], c[2])} {c[1]}"
                                            + (" (LMC cap)" if rem1_explained(c) else "")),
                 status(below, tied, rem1_explained)))
    # More VLs help (the figures' curves for 1, 2, 4 VLs).
    fail, weak, cells = [], [], []
    for k in keys:
        for p in PATTERNS:
            for e in ("mlid", "slid"):
                s = [S[(k, p, e, v)] for v in VLS]
                for a, b in zip(s, s[1:]):
                    (fail if cmp(b, a) < 0 else weak if cmp(b, a) == 0 else []).append((k, p, e))
        g = [S[(k, "uniform", "mlid", v)].v / S[(k, "uniform", "mlid", 1)].v for v in VLS]
        cells.append(f"{NAME[k]} ×{g[1]:.2f}, ×{g[2]:.2f}")
    rows.append(("More VLs raise both schemes' saturation throughput (Figs. 12-15's curves per VL count)",
                 "Figs. 12-15: 4 VLs > 2 VLs > 1 VL",
                 "uniform, MLID at 2 and 4 VLs against 1 VL: " + "; ".join(cells) + "; not rising: "
                 + listed(sorted(set(fail + weak)), lambda c: f"{NAME[c[0]]} {c[1]} {c[2]}"),
                 status(fail, weak)))
    legend = ("Status: **holds** (every case as the paper says), **shape only** (no case against it, but some "
              "within the intervals or short of its \"much\"), **explained gap** (cases against it, and the "
              "measurements below say why), **unexplained** (cases against it, or none significantly in its "
              "direction; the measurements tried are below). "
              "Throughput is the highest mean accepted traffic over the loads (bytes/ns/node). Two figures differ "
              "(above, below) when they differ by more than √(ci₁² + ci₂²), else they are tied. A load is carried "
              f"when the mean accepted traffic is at least {CARRIED * 100:.0f} % of it; \"from generation\" is the "
              "latency the figures plot, \"in the network\" leaves out the source queue. \"Much\" is at least "
              f"{MUCH * 100:.0f} %. \"LMC cap\": a case the LMC-cap measurement below accounts for.")
    files = [os.path.join(d, f"{k}-{p}-mean.csv") for k, _, _, _ in FABRICS for p in PATTERNS + ("capped",)]
    # Every gap links the page's section with what was measured for it (findings.table).
    rows = [r + (next((sec for start, sec in MEASURED if r[0].startswith(start)), None),)
            if r[3] in ("explained gap", "unexplained") else r for r in rows]
    return table(rows, "ibrt's figure (mean ± 95 % CI over the seeds)", legend,
                 files + [os.path.join(d, "mlid-vs-slid-outbuf-mean.csv")])


def tables(mean, runs, npb, d):
    out = []
    for p in PATTERNS:
        label = "uniform" if p == "uniform" else "10 % centric"
        out.append(f"\n### {label} traffic: saturation throughput (bytes/ns/node, mean ± 95 % CI)\n")
        out.append("| fabric | VLs | MLID | SLID | MLID / SLID |")
        out.append("|---|---|---|---|---|")
        for k, name, _, _ in FABRICS:
            for v in VLS:
                m, s = sat(mean, k, p, "mlid", v)[0], sat(mean, k, p, "slid", v)[0]
                r = ratio(m, s)
                out.append(f"| {name} | {v} | {m.fmt()} | {s.fmt()} | {r.v:.3f} ± {r.ci:.3f} |")
        out.append(f"\n### {label} traffic: mean latency (ns, mean ± 95 % CI) at the lowest load and at the "
                   f"highest load both carry\n")
        out.append("| fabric | VLs | offered load | MLID | SLID | MLID network latency | SLID network latency "
                   "| unfinished MLID / SLID |")
        out.append("|---|---|---|---|---|---|---|---|")
        for k, name, _, _ in FABRICS:
            for v in VLS:
                for load in (min(mean[(k, p, "mlid", v)]), carried_high(mean, npb, k, p, v)):
                    m, s = mean[(k, p, "mlid", v)][load][1], mean[(k, p, "slid", v)][load][1]
                    net = {e: sum(float(r["network_latency_mean_ns"]) for r in runs[(k, p, e, v, load)])
                           / len(runs[(k, p, e, v, load)]) for e in ("mlid", "slid")}
                    unf = {e: sum(int(r["measured_unfinished"]) for r in runs[(k, p, e, v, load)])
                           for e in ("mlid", "slid")}
                    out.append(f"| {name} | {v} | {load:.4g} | {m.fmt(0)} | {s.fmt(0)} | {net['mlid']:.0f} | "
                               f"{net['slid']:.0f} | {unf['mlid']} / {unf['slid']} |")
    out.append("\n### What one LMC bit less costs mlid (saturation throughput, bytes/ns/node, mean ± 95 % CI)\n")
    out.append("| fabric | up paths | own LMC | traffic | VLs | mlid, own LMC | mlid, one bit less | SLID "
               "| one bit less / own | one bit less / SLID |")
    out.append("|---|---|---|---|---|---|---|---|---|---|")
    for k, name, _, _ in FABRICS:
        for p in PATTERNS:
            for v in VLS:
                m, c, s = (sat(mean, k, p, e, v)[0] for e in ("mlid", "mlid-capped", "slid"))
                r, q = ratio(c, m), ratio(c, s)
                out.append(f"| {name} | {UP_PATHS[k]} | {OWN_LMC[k]} | {p} | {v} | {m.fmt()} | {c.fmt()} | {s.fmt()} | "
                           f"{r.v:.3f} ± {r.ci:.3f} | {q.v:.3f} ± {q.ci:.3f} |")
    out.append("\n### 4 VLs, uniform traffic: with and without the output buffers (saturation throughput, "
               "fraction of the link bandwidth, mean ± 95 % CI)\n")
    out.append("| fabric | output buffer (B per VL) | injection | MLID | SLID | MLID / SLID |")
    out.append("|---|---|---|---|---|---|")
    for (fab, ob, inj), (m, sl) in sorted(outbuf(d).items(), key=lambda x: (NODES[x[0][0]], int(x[0][1]), x[0][2])):
        r = ratio(m, sl)
        out.append(f"| {NAME[fab]} | {ob} | {inj} | {m.fmt()} | {sl.fmt()} | {r.v:.3f} ± {r.ci:.3f} |")
    return "\n".join(out) + "\n"


def outbuf(d):
    """mlid-vs-slid-outbuf-mean.csv: (fabric, output buffer, injection) -> (MLID, SLID) saturation
    throughput as a fraction of the link bandwidth."""
    best = {}
    for r in csv.DictReader(open(os.path.join(d, "mlid-vs-slid-outbuf-mean.csv"))):
        sim = dict(x.split("=", 1) for x in r["sim"].split(";"))
        m, n = re.match(r"fat-tree -m (\d+) -n (\d+)", r["fabric"]).groups()
        k = (f"ft-{m}-{n}", sim["output-buffer-bytes"], sim["injection"], r["routing"])
        a = Est(float(r["accepted_fraction_mean"]), float(r["accepted_fraction_ci95"]))
        if k not in best or a.v > best[k].v:
            best[k] = a
    return {k[:3]: (best[k[:3] + ("mlid",)], best[k[:3] + ("slid",)]) for k in best if k[3] == "mlid"}


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], MD, RESULTS, lambda d: (read(d), d), lambda x: findings(*x[0], x[1]),
                  lambda x: tables(*x[0], x[1])))
