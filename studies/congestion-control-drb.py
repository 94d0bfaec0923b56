#!/usr/bin/env python3
"""Paper 002's figures from the runs of studies/congestion-control-drb.sh.

  --split SWEEP.csv REGIME DIR         split one regime's `ibrt sweep` sweep.csv by fabric into
                                       DIR/<fabric>-shuffle-REGIME.csv (one row per run)
  --split-mean DIR MEAN.csv...         the regimes' sweep-mean.csv files, split by fabric into
                                       DIR/<fabric>-shuffle-mean.csv (every regime, per load the
                                       seeds' mean and 95 % interval)
  --series FULL.csv RUN.json REGIME SEED HOT.csv [OUT.csv]
                                       one node hot-spot run's per-link time series (every link,
                                       25 us steps): append its figures as a row of HOT.csv and,
                                       with OUT.csv, keep the links around the hot spot there
  --link-series FULL.csv RUN.json REGIME SEED PAIRS LINKHOT.csv BUSIEST.csv [OUT.csv]
                                       the same for a link hot-spot run (--pattern hot-flows): the
                                       hot area is the links PAIRS names in its "# hot link: A B"
                                       lines; append the run's figures to LINKHOT.csv, its
                                       busiest hot-area link per 25 us to BUSIEST.csv and, with
                                       OUT.csv, keep the hot area's links there
  --figures DIR                        draw DIR's SVGs with `ibrt plot` (this IBRT)

The tables of docs/results/congestion-control-drb.md come from these files through
studies/congestion-control-drb-summary.py. The figures go through ibrt's one plotting path
(issue 40): each is written as a figure, "ibrt-figure/1" (tools/figure_file.hpp: title, labels,
curves named by their settings, 95 % error bars), and drawn by `ibrt plot`, the binary in $IBRT
(default: ibrt on PATH), so that they follow the rules and styles of ibrt's own figures
(plot/plot.hpp). studies/cc-hysteresis.py draws with figure() and draw() too."""
import csv
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from findings import T975  # noqa: E402  Student's t, 97.5 %, by degrees of freedom

REGIMES = ("none", "iba", "drb", "drb-iba", "random")
NAMES = {"none": "no CC", "iba": "IBA CC", "drb": "DRB", "drb-iba": "DRB + IBA CC",
         "random": "random LID (no CC)"}
# `ibrt gen` arguments of the fabrics (the sweep's fabric column) and their file names.
FABRICS = {"torus --k 8,8": "torus-8x8", "mesh --k 8,4": "mesh-8x4"}
TITLES = {"torus-8x8": "8x8 torus (64 nodes)", "mesh-8x4": "8x4 mesh (32 nodes)"}
HOT = (1000.0, 2000.0)  # the hot spot's window, us


def figure(series, title, x_label, y_label, legend, common=(), log_y=False, errors=None):
    """An ibrt-figure/1: one curve per (name, [(x, y), ...]) of `series`, named by the setting
    `legend`; `common` are (setting, value) pairs every curve shares (said once, under the
    title); `errors`, if given, holds per curve the y values' 95 % half-widths. JSON has no
    NaN: a value that is not finite is null (no point)."""
    value = lambda v: v if v is not None and math.isfinite(v) else None
    curves = []
    for i, (name, pts) in enumerate(series):
        c = {"settings": {legend: name, **dict(common)},
             "x": [value(x) for x, _ in pts], "y": [value(y) for _, y in pts]}
        if errors is not None:
            c["y_err"] = [value(e) for e in errors[i]]
        curves.append(c)
    return {"schema": "ibrt-figure/1", "title": title, "x_label": x_label, "y_label": y_label,
            "log_y": log_y, "curves": curves}


def draw(fig, path):
    """Draws `fig` into `path` (.svg or .png) with `ibrt plot`, the binary in $IBRT."""
    ibrt = os.environ.get("IBRT") or "ibrt"
    try:
        r = subprocess.run([ibrt, "plot", "-", "-o", path], input=json.dumps(fig, indent=1),
                           text=True)
    except OSError as e:
        sys.exit(f"cannot run {ibrt} (set IBRT to the ibrt binary): {e}")
    if r.returncode != 0:
        sys.exit(f"{ibrt} plot did not draw {path} (exit {r.returncode})")


def split(sweep_csv, regime, d):
    with open(sweep_csv, newline="") as f:
        rows = list(csv.reader(f))
    head, col = rows[0], rows[0].index("fabric")
    for gen, name in FABRICS.items():
        with open(os.path.join(d, f"{name}-shuffle-{regime}.csv"), "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(head)
            w.writerows(r for r in rows[1:] if r[col] == gen)


def split_mean(d, files):
    head, rows = None, []
    for p in files:
        with open(p, newline="") as f:
            r = list(csv.reader(f))
        if head is not None and r[0] != head:
            sys.exit(f"{p}: its columns differ from the other sweep-mean.csv files")
        head = r[0]
        rows += r[1:]
    col = head.index("fabric")
    for gen, name in FABRICS.items():
        with open(os.path.join(d, f"{name}-shuffle-mean.csv"), "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(head)
            w.writerows(r for r in rows if r[col] == gen)


def node_of(link):
    """The node of a link end named "switch 'sw-3.3' (GUID ...)[2]"."""
    return link.rsplit("[", 1)[0]


HOT_COLUMNS = ["regime", "seed", "hot_switch", "accepted_fraction", "latency_mean_us",
               "latency_p99_us", "throttled_fraction", "eject_util_hot", "into_hot_mean_hot",
               "into_hot_peak_hot", "switch_links_peak_before", "switch_links_peak_hot",
               "switch_links_over_50_hot", "switch_links_over_90_hot", "switch_links_peak_after",
               "drb_paths_opened", "drb_constrictions", "drb_alternative_packets",
               "drb_peak_open_paths", "drb_peak_flows"]


def reduce_series(full, run_json, regime, seed, hot_csv, out=None):
    rows = list(csv.DictReader(open(full)))
    inside = lambda r: HOT[0] <= float(r["t_us"]) < HOT[1]
    # The hot CA's link: the switch-to-CA link busiest during the hot spot.
    per_link = {}
    for r in rows:
        if inside(r):
            per_link[(r["link"], r["to"])] = per_link.get((r["link"], r["to"]), 0) + float(r["bytes"])
    eject = max((k for k in per_link if k[0].startswith("switch") and k[1].startswith("CA")),
                key=lambda k: per_link[k])
    hot_sw = node_of(eject[0])
    into = {k for k in per_link if k[0].startswith("switch") and node_of(k[1]) == hot_sw}
    keep = into | {eject}
    sw_links = [k for k in per_link if k[0].startswith("switch") and k[1].startswith("switch")]
    steps = sorted({float(r["t_us"]) for r in rows})
    util = {}
    for r in rows:
        util[(r["link"], r["to"], float(r["t_us"]))] = float(r["utilization"])
    if out:
        with open(out, "w") as f:
            f.write("t_us,link,to,bytes,utilization\n")
            for r in rows:
                if (r["link"], r["to"]) in keep:
                    f.write(f'{r["t_us"]},"{r["link"]}","{r["to"]}",{r["bytes"]},{r["utilization"]}\n')
    run = json.load(open(run_json))["runs"][0]

    def peak(links, lo, hi):
        return max((util[(a, b, t)] for a, b in links for t in steps if lo <= t < hi), default=0)

    def mean(links, lo, hi):
        vals = [util[(a, b, t)] for a, b in links for t in steps if lo <= t < hi]
        return sum(vals) / len(vals) if vals else 0

    drb = run.get("drb") or {}
    row = {
        "regime": regime, "seed": seed, "hot_switch": hot_sw,
        "accepted_fraction": f'{run["accepted_fraction"]:.6f}',
        "latency_mean_us": f'{run["latency_ns"]["mean"] / 1000:.3f}',
        "latency_p99_us": f'{run["latency_ns"]["p99"] / 1000:.3f}',
        "throttled_fraction": f'{run["throttled_fraction"]:.6f}',
        "eject_util_hot": f"{mean([eject], *HOT):.6f}",
        "into_hot_mean_hot": f"{mean(into, *HOT):.6f}",
        "into_hot_peak_hot": f"{peak(into, *HOT):.6f}",
        "switch_links_peak_before": f"{peak(sw_links, 0, HOT[0]):.6f}",
        "switch_links_peak_hot": f"{peak(sw_links, *HOT):.6f}",
        "switch_links_over_50_hot": sum(1 for k in sw_links if mean([k], *HOT) > 0.5),
        "switch_links_over_90_hot": sum(1 for k in sw_links if mean([k], *HOT) > 0.9),
        "switch_links_peak_after": f"{peak(sw_links, HOT[1] + 200, 1e12):.6f}",
        "drb_paths_opened": drb.get("paths_opened", ""),
        "drb_constrictions": drb.get("constrictions", ""),
        "drb_alternative_packets": drb.get("alternative_packets", ""),
        "drb_peak_open_paths": drb.get("peak_open_paths", ""),
        "drb_peak_flows": drb.get("peak_flows", ""),
    }
    append_row(hot_csv, HOT_COLUMNS, row)


def append_row(path, columns, row):
    """Appends one run's row to the CSV at path, with the header when the file is new."""
    new = not os.path.exists(path)
    with open(path, "a", newline="") as f:
        w = csv.DictWriter(f, columns, lineterminator="\n")
        if new:
            w.writeheader()
        w.writerow(row)


VARIANT_COLUMNS = ["fabric", "regime", "source_queue", "seed", "accepted_fraction", "latency_mean_us",
                   "latency_p50_us", "network_latency_us", "throttled_fraction", "becn_received",
                   "drb_paths_opened", "drb_constrictions", "drb_alternative_packets", "generated",
                   "flows", "flows_10_becns", "flows_starved"]


def run_row(run_json, fabric, regime, queue, seed, out_csv):
    """One shuffle run of the gaps' part as a row of drb-variants.csv: its throughput and
    latencies, DRB's counters, and its flows: how many got the 10 BECNs that open a path, and
    how many were starved (under 5 % of their offered traffic accepted)."""
    r = json.load(open(run_json))["runs"][0]
    lat, drb, flows = r["latency_ns"], r.get("drb", {}), r["flows"]
    append_row(out_csv, VARIANT_COLUMNS, {
        "fabric": fabric, "regime": regime, "source_queue": queue, "seed": seed,
        "accepted_fraction": f"{r['accepted_fraction']:.6f}", "latency_mean_us": f"{lat['mean'] / 1000:.3f}",
        "latency_p50_us": f"{lat['p50'] / 1000:.3f}", "network_latency_us": f"{lat['network_mean'] / 1000:.3f}",
        "throttled_fraction": f"{r['throttled_fraction']:.6f}",
        "becn_received": r["congestion_control"]["becn_received"],
        "drb_paths_opened": drb.get("paths_opened", ""), "drb_constrictions": drb.get("constrictions", ""),
        "drb_alternative_packets": drb.get("alternative_packets", ""), "generated": r["packets"]["generated"],
        "flows": len(flows), "flows_10_becns": sum(f["becns"] >= 10 for f in flows),
        "flows_starved": sum(f["accepted_fraction"] < 0.05 * f["offered_fraction"] for f in flows)})


def node_name(end):
    """The node name of a link end: "sw-3.3" of "switch 'sw-3.3' (GUID ...)[2]"."""
    return end.split("'")[1]


def hot_links(pairs):
    """The hot area of a pairs file: its "# hot link: FROM TO" lines, as (from, to) switch names."""
    out = []
    for line in open(pairs):
        if line.startswith("# hot link:"):
            a, b = line.split(":", 1)[1].split()
            out.append((a, b))
    if not out:
        sys.exit(f"{pairs}: no '# hot link: FROM TO' line names the hot area")
    return out


def flows_of(pairs):
    """The (source, destination) CA names of a pairs file's flows: on `ibrt gen torus --k 8,8`
    CA i is host-(i / 8).(i % 8) (link-hotspot.pairs says so)."""
    name = lambda i: f"host-{i // 8}.{i % 8}-0"
    out = set()
    for line in open(pairs):
        f = line.split("#", 1)[0].split()
        if f:
            out.add((name(int(f[0])), name(int(f[1]))))
    return out


LINKHOT_COLUMNS = ["regime", "seed", "hot_fraction", "pairs", "accepted_fraction", "latency_mean_us", "latency_p99_us",
                   "throttled_fraction", "hot_links_mean_before", "hot_links_mean_hot",
                   "busiest_mean_hot", "busiest_peak_before", "busiest_peak_hot", "busiest_peak_after",
                   "busiest_series_mean_hot", "switch_links_peak_hot", "switch_links_busiest_mean_hot",
                   "eject_busiest_mean_hot", "fecn_marked", "becn_received", "hot_flows_becns",
                   "max_flow_becns", "peak_ccti",
                   "drb_paths_opened", "drb_constrictions", "drb_alternative_packets",
                   "drb_peak_open_paths", "drb_peak_flows"]


def reduce_link_series(full, run_json, regime, seed, pairs, linkhot_csv, busiest_csv, out=None):
    """One link hot-spot run: per 25 us step the hot area's links (named by the pairs file), the
    busiest of them, and every switch-to-switch and switch-to-CA link for comparison."""
    area = set(hot_links(pairs))
    rows = list(csv.DictReader(open(full)))
    steps = sorted({float(r["t_us"]) for r in rows})
    util = {}  # (link, to) -> {t: utilization}
    names = {}
    for r in rows:
        k = (r["link"], r["to"])
        util.setdefault(k, {})[float(r["t_us"])] = float(r["utilization"])
        names[k] = (node_name(r["link"]), node_name(r["to"]))
    hot = [k for k in util if names[k] in area]
    found = {names[k] for k in hot}
    if found != area:
        sys.exit(f"{full}: no link {sorted(area - found)} in the series (the pairs file's hot area)")
    sw = [k for k in util if k[0].startswith("switch") and k[1].startswith("switch")]
    eject = [k for k in util if k[0].startswith("switch") and k[1].startswith("CA")]
    win = lambda lo, hi: [t for t in steps if lo <= t < hi]
    before, inside, after = win(0, HOT[0]), win(*HOT), win(HOT[1] + 200, 1e12)
    mean = lambda k, ts: sum(util[k].get(t, 0) for t in ts) / len(ts)
    peak = lambda links, ts: max(util[k].get(t, 0) for k in links for t in ts)
    # The busiest hot-area link per step: what the figure plots over time.
    busiest = [(t, max(util[k].get(t, 0) for k in hot)) for t in steps]
    with open(busiest_csv, "a", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        if f.tell() == 0:
            w.writerow(["regime", "seed", "t_us", "utilization"])
        w.writerows((regime, seed, f"{t:g}", f"{u:.6f}") for t, u in busiest)
    if out:
        with open(out, "w") as f:
            f.write("t_us,link,to,bytes,utilization\n")
            for r in rows:
                if names[(r["link"], r["to"])] in area:
                    f.write(f'{r["t_us"]},"{r["link"]}","{r["to"]}",{r["bytes"]},{r["utilization"]}\n')
    doc = json.load(open(run_json))
    run = doc["runs"][0]
    cc = run.get("congestion_control") or {}
    drb = run.get("drb") or {}
    # BECNs per flow (--flow-stats): those of the pairs' flows, and the most any flow received.
    becns = {(node_name(f["src"]), node_name(f["dst"])): f["becns"] for f in run.get("flows") or []}
    hot_flows = flows_of(pairs)
    row = {
        "regime": regime, "seed": seed,
        "hot_fraction": doc["config"]["hot_fraction"], "pairs": doc["config"]["pairs"],
        "accepted_fraction": f'{run["accepted_fraction"]:.6f}',
        "latency_mean_us": f'{run["latency_ns"]["mean"] / 1000:.3f}',
        "latency_p99_us": f'{run["latency_ns"]["p99"] / 1000:.3f}',
        "throttled_fraction": f'{run["throttled_fraction"]:.6f}',
        "hot_links_mean_before": f"{sum(mean(k, before) for k in hot) / len(hot):.6f}",
        "hot_links_mean_hot": f"{sum(mean(k, inside) for k in hot) / len(hot):.6f}",
        "busiest_mean_hot": f"{max(mean(k, inside) for k in hot):.6f}",
        "busiest_peak_before": f"{peak(hot, before):.6f}",
        "busiest_peak_hot": f"{peak(hot, inside):.6f}",
        "busiest_peak_after": f"{peak(hot, after):.6f}",
        "busiest_series_mean_hot": f"{sum(u for t, u in busiest if HOT[0] <= t < HOT[1]) / len(inside):.6f}",
        "switch_links_peak_hot": f"{peak(sw, inside):.6f}",
        "switch_links_busiest_mean_hot": f"{max(mean(k, inside) for k in sw):.6f}",
        "eject_busiest_mean_hot": f"{max(mean(k, inside) for k in eject):.6f}",
        "fecn_marked": cc.get("fecn_marked", ""),
        "becn_received": cc.get("becn_received", ""),
        "hot_flows_becns": sum(becns.get(k, 0) for k in hot_flows) if cc else "",
        "max_flow_becns": max(becns.values(), default=0) if cc else "",
        "peak_ccti": cc.get("peak_ccti", ""),
        "drb_paths_opened": drb.get("paths_opened", ""),
        "drb_constrictions": drb.get("constrictions", ""),
        "drb_alternative_packets": drb.get("alternative_packets", ""),
        "drb_peak_open_paths": drb.get("peak_open_paths", ""),
        "drb_peak_flows": drb.get("peak_flows", ""),
    }
    if cc and not run.get("flows"):
        sys.exit(f"{run_json}: no per-flow figures (run with --flow-stats)")
    append_row(linkhot_csv, LINKHOT_COLUMNS, row)


def figures(d):
    for name, title in TITLES.items():
        p = os.path.join(d, f"{name}-shuffle-mean.csv")
        if not os.path.exists(p):
            continue
        by = {}
        for r in csv.DictReader(open(p)):
            by.setdefault(r["routing"], []).append(r)
        regimes = [s for s in REGIMES if s in by]
        seeds = by[regimes[0]][0]["seeds"]
        f = lambda r, k: float(r[k])
        thr = [(NAMES[s], [(f(r, "load"), f(r, "accepted_fraction_mean")) for r in by[s]]) for s in regimes]
        thr_e = [[f(r, "accepted_fraction_ci95") for r in by[s]] for s in regimes]
        lat = [(NAMES[s], [(f(r, "load"), f(r, "latency_mean_ns_mean") / 1000) for r in by[s]]) for s in regimes]
        lat_e = [[f(r, "latency_mean_ns_ci95") / 1000 for r in by[s]] for s in regimes]
        common = [("traffic", "perfect-shuffle traffic"), ("seeds", f"mean of {seeds} seeds, 95 % CI")]
        draw(figure(thr, f"{title}: throughput", "offered load (fraction of link)",
                    "accepted (fraction of link)", "regime", common, errors=thr_e),
             os.path.join(d, f"{name}-throughput.svg"))
        draw(figure(lat, f"{title}: latency", "offered load (fraction of link)",
                    "mean latency (us, log scale)", "regime", common, log_y=True, errors=lat_e),
             os.path.join(d, f"{name}-latency.svg"))
    series = []
    for s in ("none", "iba", "drb"):
        p = os.path.join(d, f"hotspot-{s}-series.csv")
        if not os.path.exists(p):
            continue
        rows = list(csv.DictReader(open(p)))
        hot = node_of(max((r for r in rows if r["to"].startswith("CA")), key=lambda r: float(r["bytes"]))["link"])
        by_t = {}
        for r in rows:
            if node_of(r["to"]) == hot:
                t = float(r["t_us"])
                by_t[t] = max(by_t.get(t, 0), float(r["utilization"]))
        series.append((NAMES[s], sorted((t + 12.5, u) for t, u in by_t.items())))
    p = os.path.join(d, "linkhot-busiest.csv")
    if os.path.exists(p):
        setting = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "settings",
                                              "paper-002.json")))
        link = 8000 / setting["ns-per-byte"]  # Mb/s of one link
        by = {}
        for r in csv.DictReader(open(p)):
            by.setdefault(r["regime"], {}).setdefault(float(r["t_us"]), []).append(float(r["utilization"]))
        curves, errs = [], []
        for s in ("none", "iba", "drb"):
            if s not in by:
                continue
            pts, err = [], []
            for t, us in sorted(by[s].items()):
                n = len(us)
                m = sum(us) / n
                sd = math.sqrt(sum((u - m) ** 2 for u in us) / (n - 1)) if n > 1 else 0
                pts.append((t + 12.5, m * link))
                err.append(T975[n - 1] * sd / math.sqrt(n) * link if n > 1 else 0)
            curves.append((NAMES[s], pts))
            errs.append(err)
            seeds = len(next(iter(by[s].values())))
        draw(figure(curves, "8x8 torus: the busiest link of the hot area over time (Fig. 10)", "time (us)",
                    f"Mb/s per 25 us (link {link:.0f} Mb/s)", "regime",
                    [("traffic", "uniform at 0.3 of the link"),
                     ("hot spot", "hot flows over 5 links from 1 to 2 ms"),
                     ("seeds", f"mean of {seeds} seeds, 95 % CI")], errors=errs),
             os.path.join(d, "linkhot-links.svg"))
    if series:
        draw(figure(series, "8x8 torus: the busiest link into the hot switch over time",
                    "time (us)", "utilization per 25 us", "regime",
                    [("traffic", "uniform at 0.3 of the link"),
                     ("hot spot", "5 % of it to CA 27 from 1 to 2 ms"), ("seed", "seed 1")]),
             os.path.join(d, "hotspot-links.svg"))


if __name__ == "__main__":
    a = sys.argv
    if a[1] == "--split":
        split(a[2], a[3], a[4])
    elif a[1] == "--split-mean":
        split_mean(a[2], a[3:])
    elif a[1] == "--series":
        reduce_series(*a[2:8])
    elif a[1] == "--run-row":
        run_row(*a[2:8])
    elif a[1] == "--link-series":
        reduce_link_series(*a[2:10])
    else:
        figures(a[2])
