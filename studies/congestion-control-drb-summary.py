#!/usr/bin/env python3
"""Summarises the CSVs of studies/congestion-control-drb.sh into
docs/results/congestion-control-drb.md: the findings table (one row per finding of paper 002,
with its status) and the detail tables.

  congestion-control-drb-summary.py              print the findings block and the detail tables
  congestion-control-drb-summary.py --findings   print the findings block alone (what the md
                                                 holds between <!-- findings:begin --> and
                                                 <!-- findings:end -->)
  congestion-control-drb-summary.py --write      rewrite both marked blocks of the md
  --dir DIR                                      read the CSVs from DIR (default:
                                                 docs/results/congestion-control-drb)

Every figure comes from the committed files: <fabric>-shuffle-mean.csv (per regime and load, the
mean over the seeds and its 95 % interval, as `ibrt sweep` writes sweep-mean.csv),
<fabric>-shuffle-<regime>.csv (one row per run), linkhot.csv (the link hot-spot runs of Fig. 10,
one row per regime and seed), hotspot.csv (the node hot-spot runs, likewise) and drb-variants.csv (the
gaps' runs at load 1, one row per run). The comparison and status rules are studies/findings.py's. Standard library
only."""
import csv
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from findings import Est, cmp, listed, main, over_seeds, ratio, read_mean, status, table  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "..", "docs", "results")
MD = os.path.join(RESULTS, "congestion-control-drb.md")
REGIMES = ("none", "iba", "drb", "drb-iba", "random")
NAMES = {"none": "no CC", "iba": "IBA CC", "drb": "DRB", "drb-iba": "DRB + IBA CC",
         "random": "random LID (no CC)", "drb-keep": "DRB, paths kept open",
         "drb-eager": "DRB, a path per BECN", "iba-t15": "IBA CC", "drb-t15": "DRB"}
VARIANTS = ("iba", "drb", "drb-keep", "drb-eager")  # the gaps' runs, drb-variants.csv
# The sections of the page with the measurements tried for each gap (findings.table's links).
MEASURED = {"mesh": "Mesh throughput: DRB's paths and its constriction timer",
            "latency": "Latency at the maximum load: the source queues",
            "hot": "The link hot spot: DRB's notifications"}
FABRICS = (("torus-8x8", "8x8 torus"), ("mesh-8x4", "8x4 mesh"))
NAME = dict(FABRICS)
VLS = 15
SIZE = 0.05  # a paper's percentage is matched when ibrt's is within its interval + 5 points
SIMILAR = 0.10  # "similar", "quite similar": within 10 %
CARRIED = 0.95  # a load is carried while the mean accepted traffic is >= 95 % of the offered
LOW, HIGH = 400, 800  # bits/us per node: §5.1's low, medium (400-800) and high (over 800) loads
PAPER = {"throughput": 0.35, "latency torus-8x8": 0.66, "latency mesh-8x4": 0.42,
         "peaks": 0.43, "peak iba": 1750, "peak drb": 1000}


class Data:
    def __init__(self, d):
        self.mean, self.runs = {}, {}
        self.mean_files = [os.path.join(d, f"{fab}-shuffle-mean.csv") for fab, _ in FABRICS]
        for fab, _ in FABRICS:
            p = os.path.join(d, f"{fab}-shuffle-mean.csv")
            self.mean[fab] = {routing: loads for (routing, _, _), loads in read_mean(p).items()}
            sim = next(csv.DictReader(open(p)))["sim"]
            ns_per_byte = float(re.search(r"ns-per-byte=([0-9.]+)", sim).group(1))
            self.link = 8000 / ns_per_byte  # bits/us (Mb/s) of one link
            for r in REGIMES:
                self.runs[(fab, r)] = list(csv.DictReader(open(os.path.join(d, f"{fab}-shuffle-{r}.csv"))))
        self.hot = list(csv.DictReader(open(os.path.join(d, "hotspot.csv"))))
        self.linkhot = list(csv.DictReader(open(os.path.join(d, "linkhot.csv"))))
        self.seeds = next(csv.DictReader(open(os.path.join(d, "torus-8x8-shuffle-mean.csv"))))["seeds"]
        self.hot_seeds = len({r["seed"] for r in self.hot})
        self.linkhot_seeds = len({r["seed"] for r in self.linkhot})
        self.variants = list(csv.DictReader(open(os.path.join(d, "drb-variants.csv"))))
        first = self.linkhot[0]
        self.hot_fraction, self.hot_pairs = float(first["hot_fraction"]), int(first["pairs"])

    def loads(self, fab):
        return sorted(self.mean[fab]["iba"])

    def acc(self, fab, r, load):
        return self.mean[fab][r][load][0]

    def lat(self, fab, r, load):
        """Mean latency in us."""
        e = self.mean[fab][r][load][1]
        return Est(e.v / 1000, e.ci / 1000)

    def sat(self, fab, r):
        """Saturation throughput: the highest mean accepted fraction over the loads, and its load."""
        load = max(self.mean[fab][r], key=lambda l: self.mean[fab][r][l][0].v)
        return self.mean[fab][r][load][0], load

    def carried(self, fab, r, load):
        """Accepted over offered traffic (the run's own offered fraction: perfect shuffle leaves
        the two nodes it maps onto themselves idle), over the seeds."""
        return over_seeds([float(x["accepted_fraction"]) / float(x["offered_fraction"])
                           for x in self.runs[(fab, r)] if float(x["load"]) == load])

    def onset(self, fab, r):
        """Saturation onset: the lowest load not carried (None: every load carried)."""
        return next((l for l in self.loads(fab) if self.carried(fab, r, l).v < CARRIED), None)

    def runs_mean(self, fab, r, load, key):
        vals = [float(x[key]) for x in self.runs[(fab, r)] if float(x["load"]) == load and x.get(key, "") != ""]
        return sum(vals) / len(vals) if vals else None

    def hot_est(self, regime, key):
        """A figure of the node hot-spot runs over the seeds (None where a run lacks it)."""
        return seeds_est(self.hot, regime, key)

    def link_est(self, regime, key):
        """A figure of the link hot-spot runs over the seeds (None where a run lacks it)."""
        return seeds_est(self.linkhot, regime, key)

    def var_est(self, fab, queue, regime, key):
        """A figure of the gaps' runs (drb-variants.csv: shuffle at load 1) over the seeds."""
        return seeds_est([x for x in self.variants if x["fabric"] == fab and x["source_queue"] == queue],
                         regime, key)


def seeds_est(runs, regime, key):
    vals = [x[key] for x in runs if x["regime"] == regime]
    return None if "" in vals else over_seeds([float(v) for v in vals])


def est_rows(rows, regimes, est, corner=""):
    """A table, regimes across (headed by their names, `corner` above the labels), rows (label,
    key, digits, scale) down: per regime the figure est(regime, key) over the seeds, mean ± 95 %
    interval, or a dash where the runs lack it."""
    names = " | ".join(NAMES[r] for r in regimes)
    out = ["| " + (corner + " | " if corner else "| ") + names + " |", "|---|" + "---|" * len(regimes)]
    for label, key, digits, scale in rows:
        cells = [f"{e.v * scale:,.{digits}f} ± {e.ci * scale:,.{digits}f}" if e else "—"
                 for e in (est(r, key) for r in regimes)]
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    return out


def pct(r):
    """A ratio as a change in per cent, with its interval."""
    return f"{(r.v - 1) * 100:+.1f} ± {r.ci * 100:.1f} %"


def us(e):
    return f"{e.v:.1f} ± {e.ci:.1f}"


def findings(D):
    rows = []
    bits = lambda load: load * D.link  # offered bits/us per node
    loads = D.loads("torus-8x8")
    low = [l for l in loads if bits(l) < LOW]
    mid = [l for l in loads if LOW <= bits(l) <= HIGH]
    high = [l for l in loads if bits(l) > HIGH]
    top = max(loads)

    # §5.1, §5.2: alike without congestion.
    cases, fail = [], []
    for fab, _ in FABRICS:
        for l in low:
            for what, a, b in (("accepted", D.acc(fab, "drb", l), D.acc(fab, "iba", l)),
                               ("latency", D.lat(fab, "drb", l), D.lat(fab, "iba", l))):
                r = ratio(a, b)
                cases.append(r)
                if cmp(a, b) != 0 and abs(r.v - 1) > SIMILAR:
                    fail.append(f"{NAME[fab]} {l:g} {what}")
    rows.append((f"Without congestion (offered load below {LOW} bits/µs per node) DRB performs as IBA CC: it does "
                 "not change the network's performance (§5.1, §5.2)",
                 f"Figs. 8, 9: the curves alike below {LOW} bits/µs",
                 f"loads {', '.join(f'{l:g}' for l in low)} (up to {bits(max(low)):.0f} bits/µs), both fabrics: "
                 f"DRB / IBA CC {min(c.v for c in cases):.3f} to {max(c.v for c in cases):.3f} over the "
                 f"{len(cases)} cases (accepted, latency); apart by more than {SIMILAR * 100:.0f} %: {listed(fail)}",
                 status(fail)))

    # §5.1: latency at medium and high loads on the torus.
    for band, ls, paper, word in (("400-800 bits/µs", mid, "Fig. 8b: DRB 80-100 µs, IBA CC 80 µs-100 ms", "lower"),
                                  ("over 800 bits/µs", high, "Fig. 8b: DRB 100 µs-50 ms, IBA CC over 200 ms",
                                   "remarkably lower")):
        fail = [l for l in ls if cmp(D.lat("torus-8x8", "drb", l), D.lat("torus-8x8", "iba", l)) > 0]
        weak = [l for l in ls if cmp(D.lat("torus-8x8", "drb", l), D.lat("torus-8x8", "iba", l)) == 0]
        rows.append((f"Torus, {band} (loads {', '.join(f'{l:g}' for l in ls)}): DRB's latency {word} than IBA "
                     "CC's (§5.1)", paper,
                     "µs, DRB vs IBA CC: " + "; ".join(f"{l:g}: {us(D.lat('torus-8x8', 'drb', l))} vs "
                                                       f"{us(D.lat('torus-8x8', 'iba', l))}" for l in ls)
                     + f"; DRB above: {listed(fail, str)}; tied: {listed(weak, str)}",
                     status(fail, weak, n=len(ls))))

    # §5.1: +35 % throughput on the torus.
    (sd, ld), (si, li) = D.sat("torus-8x8", "drb"), D.sat("torus-8x8", "iba")
    r = ratio(sd, si)
    c = cmp(sd, si)
    rows.append(("Torus: DRB's throughput about 35 % above IBA CC's (§5.1; abstract and §6: 35 %)",
                 "Fig. 8a: +35 %",
                 f"saturation (highest mean accepted over the loads, fraction of the link): DRB {sd.fmt(3)} "
                 f"(at load {ld:g}), IBA CC {si.fmt(3)} (at load {li:g}): {pct(r)}",
                 status(["below"] if c < 0 else [], ["tied"] if c == 0 else [],
                        size_ok=abs(r.v - 1 - PAPER["throughput"]) <= r.ci + SIZE, n=1)))

    # §5.1: saturation is reached before with IBA CC (both fabrics).
    fail, weak, size, cells = [], [], True, []
    for fab, _ in FABRICS:
        oi, od = D.onset(fab, "iba"), D.onset(fab, "drb")
        if oi is None:
            weak.append(NAME[fab])
            cells.append(f"{NAME[fab]}: IBA CC carries every load")
            continue
        a, b = D.carried(fab, "drb", oi), D.carried(fab, "iba", oi)
        x = cmp(a, b)
        (fail if x < 0 else weak if x == 0 else []).append(NAME[fab])
        size = size and a.v >= CARRIED
        cells.append(f"{NAME[fab]}: onset IBA CC {oi:g}, DRB {od if od is None else f'{od:g}'}; at {oi:g} "
                     f"accepted / offered DRB {a.fmt(3)} vs IBA CC {b.fmt(3)}")
    rows.append(("IBA CC saturates before DRB: \"network saturation is reached before with IBA_CC\" (§5.1; the "
                 "mesh, §5.2)",
                 "Figs. 8a, 9a: IBA CC's curve leaves the diagonal first",
                 "; ".join(cells) + f"; DRB not above: {listed(fail + weak)}",
                 status(fail, weak, size_ok=size, n=len(FABRICS))))

    # §5.2: the mesh.
    (md, mld), (mi, mli) = D.sat("mesh-8x4", "drb"), D.sat("mesh-8x4", "iba")
    rm = ratio(md, mi)
    c = cmp(md, mi)
    # The gap's measurement: DRB whose alternative paths stay open, at the maximum load.
    keep, iba = D.var_est("mesh-8x4", "256", "drb-keep", "accepted_fraction"), \
        D.var_est("mesh-8x4", "256", "iba", "accepted_fraction")
    opened, closed = D.var_est("mesh-8x4", "256", "drb", "drb_paths_opened"), \
        D.var_est("mesh-8x4", "256", "drb", "drb_constrictions")
    kept_above = cmp(keep, iba) > 0
    rows.append(("Mesh: DRB handles greater communication loads than IBA CC (§5.2)",
                 "Fig. 9a: DRB's received load above IBA CC's",
                 f"saturation: DRB {md.fmt(3)} (at load {mld:g}), IBA CC {mi.fmt(3)} (at load {mli:g}): {pct(rm)}; "
                 f"at load 1 DRB opens {opened.v:.0f} paths a run and its timer closes {closed.v:.0f}; with its "
                 f"paths kept open (timer off) DRB accepts {keep.fmt(3)}: {pct(ratio(keep, iba))} over IBA CC",
                 status(["below"] if c < 0 else [], ["tied"] if c == 0 else [], explained=lambda _: kept_above, n=1),
                 MEASURED["mesh"]))
    c = cmp(rm, r)
    rows.append(("Mesh: fewer alternative paths than the torus, so DRB's throughput gain slightly worse there "
                 "(§5.2)",
                 "Fig. 9a against Fig. 8a: \"slightly worse\"",
                 f"DRB / IBA CC saturation: mesh {rm.fmt(3)}, torus {r.fmt(3)}",
                 status(["above"] if c > 0 else [], ["tied"] if c == 0 else [], n=1)))

    # §5.2: latency at the maximum traffic load.
    for fab, label in FABRICS:
        a, b = D.lat(fab, "drb", top), D.lat(fab, "iba", top)
        q = ratio(a, b)
        c = cmp(a, b)
        p = PAPER[f"latency {fab}"]
        rows.append((f"{label.split()[1].capitalize()}: latency reduced {p * 100:.0f} % against IBA CC at the maximum "
                     "traffic load (§5.2; abstract and §6: 42-66 %)",
                     f"Fig. {8 if fab == 'torus-8x8' else 9}b: −{p * 100:.0f} %",
                     f"at the highest offered load ({top:g} of the link): DRB {us(a)} µs, IBA CC {us(b)} µs: {pct(q)}",
                     status(["above"] if c > 0 else [], ["tied"] if c == 0 else [],
                            size_ok=abs(1 - q.v - p) <= q.ci + SIZE, n=1), MEASURED["latency"]))

    # §5.3, §6: load peaks in the hot spot, on five links as the paper has it.
    pi, pd = D.link_est("iba", "busiest_peak_hot"), D.link_est("drb", "busiest_peak_hot")
    mi, md = D.link_est("iba", "busiest_mean_hot"), D.link_est("drb", "busiest_mean_hot")
    bg = D.link_est("iba", "hot_links_mean_before")
    q = ratio(pd, pi)
    c = cmp(pd, pi)
    mbps = lambda e: f"{e.v * D.link:,.0f} ± {e.ci * D.link:,.0f}"
    rows.append(("Hot spot: DRB reduces the load peaks 43 % against IBA CC (§5.3, Fig. 10; §6)",
                 f"Fig. 10: IBA CC over {PAPER['peak iba']:,} Mb/s, DRB about {PAPER['peak drb']:,} Mb/s: −43 %",
                 f"hot spot on five links of the 8x8 torus ({D.hot_pairs} flows, {D.hot_fraction * 100:.0f} % of their "
                 f"sources' messages from 1 to 2 ms, over uniform traffic at 0.3 of the link: the five links at "
                 f"{mbps(bg)} Mb/s before it): the hot area's busiest link per 25 µs during the hot spot, IBA CC "
                 f"{mbps(pi)} Mb/s, DRB {mbps(pd)} Mb/s: {pct(q)}; its mean over the hot spot IBA CC {mbps(mi)}, "
                 f"DRB {mbps(md)} Mb/s",
                 status(["above"] if c > 0 else [], ["tied"] if c == 0 else [],
                        size_ok=abs(1 - q.v - PAPER["peaks"]) <= q.ci + SIZE, n=1), MEASURED["hot"]))

    legend = ("Status: **holds** (every case as the paper says, and its size where it gives one), **shape only** "
              "(no case against it, but some within the intervals or short of the paper's size), **explained gap** "
              "(cases against it, and a measurement on this page says why), **unexplained** (cases against it, or "
              "none significantly in its direction). "
              f"Figures are means over {D.seeds} seeds with their 95 % intervals (the hot spot: {D.linkhot_seeds} seeds). "
              "Two figures differ when they differ by more than √(ci₁² + ci₂²), else they are tied. A paper's "
              f"percentage is matched when ibrt's is within its own interval + {SIZE * 100:.0f} points of it; "
              f"\"similar\" is within {SIMILAR * 100:.0f} %. Throughput is the saturation throughput, the highest "
              "mean accepted traffic over the loads; the paper's \"maximum traffic load\" is the highest offered "
              f"load run, {top:g} of the link. A load is carried while accepted / offered is at least "
              f"{CARRIED * 100:.0f} %; the onset is the lowest load not carried. Offered bits/µs are per node, on "
              f"the setting's {D.link:.0f} Mb/s link (footnote 4).")
    return table(rows, "ibrt's figure (mean ± 95 % CI over the seeds)", legend, D.mean_files)


def tables(D):
    out = []
    for fab, label in FABRICS:
        loads = D.loads(fab)
        out.append(f"\n### {label}, perfect shuffle (Fig. {8 if fab == 'torus-8x8' else 9})\n")
        out.append(f"![{label} throughput](congestion-control-drb/{fab}-throughput.svg)")
        out.append(f"![{label} latency](congestion-control-drb/{fab}-latency.svg)\n")
        out.append(f"Accepted traffic (fraction of the link bandwidth, mean ± 95 % CI over {D.seeds} seeds):\n")
        out.append("| load | " + " | ".join(NAMES[r] for r in REGIMES) + " | DRB / IBA CC |")
        out.append("|---|" + "---|" * (len(REGIMES) + 1))
        for l in loads:
            out.append(f"| {l:g} | " + " | ".join(D.acc(fab, r, l).fmt(3) for r in REGIMES)
                       + f" | {pct(ratio(D.acc(fab, 'drb', l), D.acc(fab, 'iba', l)))} |")
        out.append(f"\nMean latency from generation (µs, mean ± 95 % CI):\n")
        out.append("| load | " + " | ".join(NAMES[r] for r in REGIMES) + " | DRB / IBA CC |")
        out.append("|---|" + "---|" * (len(REGIMES) + 1))
        for l in loads:
            out.append(f"| {l:g} | " + " | ".join(us(D.lat(fab, r, l)) for r in REGIMES)
                       + f" | {pct(ratio(D.lat(fab, 'drb', l), D.lat(fab, 'iba', l)))} |")
        out.append("\nSaturation (highest mean accepted over the loads) and its onset (the lowest load whose "
                   f"accepted / offered falls below {CARRIED:g}):\n")
        out.append("| regime | saturation throughput | at load | onset load | accepted / offered there |")
        out.append("|---|---|---|---|---|")
        for r in REGIMES:
            s, l = D.sat(fab, r)
            o = D.onset(fab, r)
            out.append(f"| {NAMES[r]} | {s.fmt(3)} | {l:g} | {'—' if o is None else f'{o:g}'} | "
                       f"{'—' if o is None else D.carried(fab, r, o).fmt(3)} |")
        out.append("\nCongestion control and DRB at work (means over the seeds of each run's counters, whole run):\n")
        out.append("| load | IBA CC: BECNs | IBA CC: peak CCTI | DRB: BECNs | DRB: paths opened | DRB: constrictions "
                   "| DRB: peak open paths per flow | DRB: peak flows with DRB state |")
        out.append("|---|---|---|---|---|---|---|---|")
        for l in loads:
            m = lambda r, k: D.runs_mean(fab, r, l, k)
            out.append(f"| {l:g} | {m('iba', 'becn_received'):.0f} | {m('iba', 'peak_ccti'):.1f} | "
                       f"{m('drb', 'becn_received'):.0f} | {m('drb', 'drb_paths_opened'):.0f} | "
                       f"{m('drb', 'drb_constrictions'):.0f} | {m('drb', 'drb_peak_open_paths'):.1f} | "
                       f"{m('drb', 'drb_peak_flows'):.0f} |")
    hr = ("none", "iba", "drb")
    out.append("\n### A hot spot on links that appears and goes (Fig. 10)\n")
    out.append("![busiest link of the hot area over time](congestion-control-drb/linkhot-links.svg)\n")
    out.append("Busiest switch links over time (seed 1): [no CC](congestion-control-drb/linkhot-none.svg), "
               "[IBA CC](congestion-control-drb/linkhot-iba.svg), [DRB](congestion-control-drb/linkhot-drb.svg).\n")
    out.append(f"Mean ± 95 % CI over {D.linkhot_seeds} seeds. The hot area is the five links "
               "sw-0.3 → sw-1.3 → … → sw-5.3 ([link-hotspot.pairs](congestion-control-drb/link-hotspot.pairs)); "
               f"from 1 to 2 ms the {D.hot_pairs} sources of that file send {D.hot_fraction * 100:.0f} % of their "
               "messages to their pairs. \"Per 25 µs\" figures are busy fractions of one link "
               f"({D.link:.0f} Mb/s) in 25 µs intervals, \"mean busy\" their mean over the period.\n")
    rows = [("accepted (fraction of link, 0-3 ms)", "accepted_fraction", 3, 1),
            ("mean latency (µs)", "latency_mean_us", 1, 1),
            ("p99 latency (µs)", "latency_p99_us", 1, 1),
            ("refused at the sources (fraction)", "throttled_fraction", 4, 1),
            ("hot-area links, mean busy before (0-1 ms)", "hot_links_mean_before", 3, 1),
            ("hot-area links, mean busy 1-2 ms", "hot_links_mean_hot", 3, 1),
            ("busiest hot-area link, mean busy 1-2 ms", "busiest_mean_hot", 3, 1),
            ("the same in Mb/s", "busiest_mean_hot", 0, D.link),
            ("busiest hot-area link per 25 µs, before (0-1 ms)", "busiest_peak_before", 3, 1),
            ("busiest hot-area link per 25 µs, 1-2 ms", "busiest_peak_hot", 3, 1),
            ("the same in Mb/s", "busiest_peak_hot", 0, D.link),
            ("busiest hot-area link per 25 µs, from 2.2 ms", "busiest_peak_after", 3, 1),
            ("busiest hot-area link per 25 µs, its mean over 1-2 ms", "busiest_series_mean_hot", 3, 1),
            ("busiest switch link anywhere per 25 µs, 1-2 ms", "switch_links_peak_hot", 3, 1),
            ("busiest switch link anywhere, mean busy 1-2 ms", "switch_links_busiest_mean_hot", 3, 1),
            ("busiest link into a CA, mean busy 1-2 ms", "eject_busiest_mean_hot", 3, 1)]
    out += est_rows(rows, hr, D.link_est)
    m = lambda r, k: D.link_est(r, k).v
    top = lambda r, k: max(int(x[k]) for x in D.linkhot if x["regime"] == r)
    out.append(f"\nCongestion control and DRB in the link hot-spot runs (means over the seeds, whole run): packets "
               f"marked (FECN) {m('iba', 'fecn_marked'):.0f} with IBA CC and {m('drb', 'fecn_marked'):.0f} with DRB, "
               f"of whose BECNs the {D.hot_pairs} hot flows received {m('iba', 'hot_flows_becns'):.0f} and "
               f"{m('drb', 'hot_flows_becns'):.0f}; the most any one flow received in a run: "
               f"{m('iba', 'max_flow_becns'):.1f} and {m('drb', 'max_flow_becns'):.1f} (at most "
               f"{top('iba', 'max_flow_becns')} and {top('drb', 'max_flow_becns')} over the seeds); "
               f"peak CCTI {m('iba', 'peak_ccti'):.1f} with IBA CC; DRB {m('drb', 'drb_paths_opened'):.1f} paths "
               f"opened, {m('drb', 'drb_alternative_packets'):.0f} packets on alternative paths, peak "
               f"{m('drb', 'drb_peak_open_paths'):.1f} open paths per flow, peak {m('drb', 'drb_peak_flows'):.0f} "
               "flows with DRB state.")
    dr = ("iba-t15", "drb-t15")
    if all(any(x["regime"] == r for x in D.linkhot) for r in dr):
        out.append("\nA diagnostic, not the paper's set-up: the same runs with the switch threshold at level 15, the "
                   "most aggressive (a port VL is congested as soon as a packet waits behind the one leaving), "
                   f"instead of the paper's 80 % of the buffer (mean ± 95 % CI over {D.linkhot_seeds} seeds):\n")
        rows = [("hot-area links, mean busy 1-2 ms", "hot_links_mean_hot", 3, 1),
                ("busiest hot-area link, mean busy 1-2 ms (Mb/s)", "busiest_mean_hot", 0, D.link),
                ("busiest hot-area link per 25 µs, 1-2 ms (Mb/s)", "busiest_peak_hot", 0, D.link),
                ("busiest hot-area link per 25 µs, from 2.2 ms (Mb/s)", "busiest_peak_after", 0, D.link),
                ("mean latency (µs)", "latency_mean_us", 1, 1),
                ("packets marked (FECN)", "fecn_marked", 0, 1),
                ("BECNs to the hot flows", "hot_flows_becns", 0, 1),
                ("most BECNs to one flow", "max_flow_becns", 0, 1),
                ("peak CCTI", "peak_ccti", 1, 1),
                ("DRB: paths opened", "drb_paths_opened", 1, 1),
                ("DRB: packets on alternative paths", "drb_alternative_packets", 0, 1)]
        out += est_rows(rows, dr, D.link_est, "threshold 15")
    if any(x["regime"] == "drb-eager" for x in D.linkhot):
        out.append("\nA diagnostic at the paper's threshold: DRB opening a path per BECN instead of per 10 "
                   f"(mean ± 95 % CI over {D.linkhot_seeds} seeds):\n")
        er = ("drb", "drb-eager")
        rows = [("hot-area links, mean busy 1-2 ms", "hot_links_mean_hot", 3, 1),
                ("busiest hot-area link, mean busy 1-2 ms (Mb/s)", "busiest_mean_hot", 0, D.link),
                ("busiest hot-area link per 25 µs, 1-2 ms (Mb/s)", "busiest_peak_hot", 0, D.link),
                ("packets marked (FECN)", "fecn_marked", 0, 1),
                ("BECNs to the hot flows", "hot_flows_becns", 0, 1),
                ("DRB: paths opened", "drb_paths_opened", 1, 1),
                ("DRB: packets on alternative paths", "drb_alternative_packets", 0, 1)]
        out += est_rows(rows, er, D.link_est)
    out.append("\n### DRB's parameters and the source queues at the maximum load\n")
    out.append("Perfect shuffle at load 1 of the link ([drb-variants.csv](congestion-control-drb/drb-variants.csv)), "
               f"mean ± 95 % CI over the seeds: IBA CC, DRB as the paper has it, DRB whose paths never close "
               "(constriction timer off) and DRB that opens a path per BECN, with the 256-packet source queues of "
               "every other run and with unbounded ones. \"Alternative packets\" are the share of the packets "
               "generated that DRB gave a path other than the original (it chooses when a packet is generated); a flow is starved when under 5 % of its "
               "offered traffic is accepted.\n")
    vrows = [("accepted (fraction of the link)", "accepted_fraction", 3, 1),
             ("mean latency from generation (µs)", "latency_mean_us", 1, 1),
             ("median latency from generation (µs)", "latency_p50_us", 1, 1),
             ("mean latency in the network (µs)", "network_latency_us", 1, 1),
             ("BECNs received", "becn_received", 0, 1),
             ("DRB: paths opened", "drb_paths_opened", 1, 1),
             ("DRB: paths closed by the timer", "drb_constrictions", 1, 1),
             ("flows with 10 BECNs or more", "flows_10_becns", 1, 1),
             ("starved flows", "flows_starved", 1, 1)]
    for fab, label in FABRICS:
        for queue, qname in (("256", "256-packet source queues"), ("0", "unbounded source queues")):
            out.append(f"\n{label}, {qname}:\n")
            est = lambda r, k, fab=fab, queue=queue: D.var_est(fab, queue, r, k)
            out += est_rows(vrows, VARIANTS, est)
            share = [D.var_est(fab, queue, r, "drb_alternative_packets") for r in VARIANTS]
            gen = [D.var_est(fab, queue, r, "generated") for r in VARIANTS]
            out.append("| alternative packets (share of those generated) | " + " | ".join(
                "—" if a is None else f"{a.v / g.v:.3f}" for a, g in zip(share, gen)) + " |")
    queues = sorted({x["source_queue"] for x in D.variants}, key=lambda q: int(q) or 1 << 30)
    out.append("\nThe source-queue bound (packets per flow; 0: unbounded), IBA CC and DRB as the paper has "
               "them, mean ± 95 % CI over the seeds:\n")
    out.append("| source queue | " + " | ".join(f"{NAME[f]}: {w}" for f, _ in FABRICS for w in
                                                 ("accepted, DRB / IBA CC", "latency IBA CC (µs)", "latency DRB (µs)",
                                                  "latency, DRB / IBA CC")) + " |")
    out.append("|---|" + "---|" * 4 * len(FABRICS))
    for q in queues:
        cells = []
        for fab, _ in FABRICS:
            e = lambda r, k: D.var_est(fab, q, r, k)
            cells += [pct(ratio(e("drb", "accepted_fraction"), e("iba", "accepted_fraction"))),
                      us(e("iba", "latency_mean_us")), us(e("drb", "latency_mean_us")),
                      pct(ratio(e("drb", "latency_mean_us"), e("iba", "latency_mean_us")))]
        out.append(f"| {q if q != '0' else 'unbounded'} | " + " | ".join(cells) + " |")
    out.append("\n### For contrast: a hot spot on a node\n")
    out.append("![busiest link into the hot switch over time](congestion-control-drb/hotspot-links.svg)\n")
    out.append("Busiest switch links over time (seed 1): [no CC](congestion-control-drb/hotspot-none.svg), "
               "[IBA CC](congestion-control-drb/hotspot-iba.svg), [DRB](congestion-control-drb/hotspot-drb.svg).\n")
    out.append(f"Mean ± 95 % CI over {D.hot_seeds} seeds; \"per 25 µs\" figures are busy fractions of one link "
               f"({D.link:.0f} Mb/s) in 25 µs intervals; the hot spot (5 % of every source's messages to CA 27) "
               "lasts from 1 to 2 ms.\n")
    rows = [("accepted (fraction of link, 0-3 ms)", "accepted_fraction", 3, 1),
            ("mean latency (µs)", "latency_mean_us", 1, 1),
            ("p99 latency (µs)", "latency_p99_us", 1, 1),
            ("refused at the sources (fraction)", "throttled_fraction", 4, 1),
            ("hot node's link busy, 1-2 ms", "eject_util_hot", 3, 1),
            ("links into the hot switch, mean busy 1-2 ms", "into_hot_mean_hot", 3, 1),
            ("busiest link into the hot switch per 25 µs, 1-2 ms", "into_hot_peak_hot", 3, 1),
            ("busiest switch link per 25 µs, before (0-1 ms)", "switch_links_peak_before", 3, 1),
            ("busiest switch link per 25 µs, 1-2 ms", "switch_links_peak_hot", 3, 1),
            ("the same in Mb/s", "switch_links_peak_hot", 0, D.link),
            ("busiest switch link per 25 µs, from 2.2 ms", "switch_links_peak_after", 3, 1),
            ("switch links > 50 % busy over 1-2 ms", "switch_links_over_50_hot", 1, 1),
            ("switch links > 90 % busy over 1-2 ms", "switch_links_over_90_hot", 1, 1)]
    out += est_rows(rows, hr, D.hot_est)
    drb = {k: D.hot_est("drb", k).v for k in ("drb_paths_opened", "drb_constrictions", "drb_alternative_packets",
                                              "drb_peak_open_paths", "drb_peak_flows")}
    out.append(f"\nDRB in the hot-spot runs (means over the seeds): {drb['drb_paths_opened']:.0f} paths opened, "
               f"{drb['drb_constrictions']:.0f} constrictions, {drb['drb_alternative_packets']:.0f} packets on "
               f"alternative paths, peak {drb['drb_peak_open_paths']:.1f} open paths per flow, peak "
               f"{drb['drb_peak_flows']:.0f} flows with DRB state.")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], MD, os.path.join(RESULTS, "congestion-control-drb"), Data, findings, tables))
