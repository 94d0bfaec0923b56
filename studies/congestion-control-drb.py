#!/usr/bin/env python3
"""Paper 002's figures from the runs of studies/congestion-control-drb.sh.

  --split SWEEP.csv REGIME DIR         split one regime's `ibrt sweep` sweep.csv by fabric into
                                       DIR/<fabric>-shuffle-REGIME.csv (one row per run)
  --split-mean DIR MEAN.csv...         the regimes' sweep-mean.csv files, split by fabric into
                                       DIR/<fabric>-shuffle-mean.csv (every regime, per load the
                                       seeds' mean and 95 % interval)
  --series FULL.csv RUN.json REGIME SEED HOT.csv [OUT.csv]
                                       one hot-spot run's per-link time series (every link, 25 us
                                       steps): append its figures as a row of HOT.csv and, with
                                       OUT.csv, keep the links around the hot spot there
  --figures DIR                        draw DIR's SVGs with `ibrt plot` (this IBRT)

The tables of docs/results/congestion-control-drb.md come from these files through
studies/congestion-control-drb-summary.py. The figures go through ibrt's one plotting path
(issue 40): each is written as a figure, "ibrt-figure/1" (tools/figure_file.hpp: title, labels,
curves named by their settings, 95 % error bars), and drawn by `ibrt plot`, the binary in $IBRT
(default: ibrt on PATH), so that they follow the rules and styles of ibrt's own figures
(plot/plot.hpp). docs/results/cc-hysteresis.py draws with figure() and draw() too."""
import csv
import json
import math
import os
import subprocess
import sys

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
    new = not os.path.exists(hot_csv)
    with open(hot_csv, "a", newline="") as f:
        w = csv.DictWriter(f, HOT_COLUMNS, lineterminator="\n")
        if new:
            w.writeheader()
        w.writerow(row)


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
    else:
        figures(a[2])
