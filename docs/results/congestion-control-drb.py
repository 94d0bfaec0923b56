#!/usr/bin/env python3
"""Paper 002's figures from the runs of congestion-control-drb.sh.

  --series FULL.csv RUN.json OUT.csv   reduce one hot-spot run's per-link time series (every
                                       link, 25 us steps) to the links around the hot spot, and
                                       write OUT-summary.json with its figures
  --figures DIR                        draw DIR's SVGs and print the tables of
                                       congestion-control.md (Markdown, on stdout)

The figures go through ibrt's one plotting path (issue 40): each is written as a figure,
"ibrt-figure/1" (tools/figure_file.hpp: title, labels, curves named by their settings), and
drawn by `ibrt plot`, the binary in $IBRT (default: ibrt on PATH), so that they follow the
rules and styles of ibrt's own figures (plot/plot.hpp)."""
import csv
import json
import math
import os
import subprocess
import sys

NAMES = {"none": "no CC", "iba": "IBA CC", "drb": "DRB", "drb-iba": "DRB + IBA CC",
         "random": "random LID (no CC)"}
HOT = (1000.0, 2000.0)  # the hot spot's window, us


def figure(series, title, x_label, y_label, legend, common=(), log_y=False):
    """An ibrt-figure/1: one curve per (name, [(x, y), ...]) of `series`, named by the setting
    `legend`; `common` are (setting, value) pairs every curve shares (said once, under the
    title). JSON has no NaN: a value that is not finite is null (no point)."""
    value = lambda v: v if math.isfinite(v) else None
    return {"schema": "ibrt-figure/1", "title": title, "x_label": x_label, "y_label": y_label,
            "log_y": log_y,
            "curves": [{"settings": {legend: name, **dict(common)},
                        "x": [value(x) for x, _ in pts], "y": [value(y) for _, y in pts]}
                       for name, pts in series]}


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


def node_of(link):
    """The node of a link end named "switch 'sw-3.3' (GUID ...)[2]"."""
    return link.rsplit("[", 1)[0]


def reduce_series(full, run_json, out):
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

    summary = {
        "hot_switch": hot_sw,
        "accepted_fraction": run["accepted_fraction"],
        "latency_mean_us": run["latency_ns"]["mean"] / 1000,
        "latency_p99_us": run["latency_ns"]["p99"] / 1000,
        "throttled_fraction": run["throttled_fraction"],
        "eject_util_hot": mean([eject], *HOT),
        "into_hot_mean_hot": mean(into, *HOT),
        "into_hot_peak_hot": peak(into, *HOT),
        "switch_links_peak_before": peak(sw_links, 0, HOT[0]),
        "switch_links_peak_hot": peak(sw_links, *HOT),
        "switch_links_over_90_hot": sum(1 for k in sw_links if mean([k], *HOT) > 0.9),
        "switch_links_over_50_hot": sum(1 for k in sw_links if mean([k], *HOT) > 0.5),
        "switch_links_peak_after": peak(sw_links, HOT[1] + 200, 1e12),
        "drb": run.get("drb"),
    }
    json.dump(summary, open(out.replace("-series.csv", "-summary.json"), "w"), indent=1)


def figures(d):
    print("### Shuffle traffic\n")
    for topo, title in (("torus-8x8", "8x8 torus (64 nodes)"), ("mesh-8x4", "8x4 mesh (32 nodes)")):
        runs = {}
        for s in NAMES:
            p = os.path.join(d, f"{topo}-shuffle-{s}.csv")
            if os.path.exists(p):
                runs[s] = list(csv.DictReader(open(p)))
        if not runs:
            continue
        thr = [(NAMES[s], [(float(r["offered_fraction"]), float(r["accepted_fraction"])) for r in rr])
               for s, rr in runs.items()]
        lat = [(NAMES[s], [(float(r["offered_fraction"]), float(r["latency_mean_ns"]) / 1000) for r in rr])
               for s, rr in runs.items()]
        shuffle = [("traffic", "perfect-shuffle traffic")]
        draw(figure(thr, f"{title}: throughput", "offered load (fraction of link)",
                    "accepted (fraction of link)", "regime", shuffle),
             os.path.join(d, f"{topo}-throughput.svg"))
        draw(figure(lat, f"{title}: latency", "offered load (fraction of link)",
                    "mean latency (us, log scale)", "regime", shuffle, log_y=True),
             os.path.join(d, f"{topo}-latency.svg"))
        loads = [r["load"] for r in runs["none"]]
        print(f"**{title}**: accepted traffic (fraction of the link bandwidth) and mean latency "
              f"(us) per offered load\n")
        print("| load | " + " | ".join(f"{NAMES[s]} acc. | lat." for s in runs) + " | DRB / IBA acc. | DRB / IBA lat. |")
        print("|---|" + "---|---|" * len(runs) + "---|---|")
        for i, load in enumerate(loads):
            cells = []
            for s, rr in runs.items():
                r = rr[i]
                ok = "" if r["verdict"] == "ok" else f" ({r['verdict']})"
                cells.append(f"{float(r['accepted_fraction']):.3f}{ok} | {float(r['latency_mean_ns']) / 1000:.1f}")
            a_d, a_i = float(runs["drb"][i]["accepted_fraction"]), float(runs["iba"][i]["accepted_fraction"])
            l_d, l_i = float(runs["drb"][i]["latency_mean_ns"]), float(runs["iba"][i]["latency_mean_ns"])
            print(f"| {load} | " + " | ".join(cells) + f" | {a_d / a_i - 1:+.0%} | {l_d / l_i - 1:+.0%} |")
        best = {s: max(float(r["accepted_fraction"]) for r in rr) for s, rr in runs.items()}
        print("\nSaturation throughput (highest accepted over the loads): " +
              ", ".join(f"{NAMES[s]} {v:.3f}" for s, v in best.items()) +
              f"; DRB against IBA CC {best['drb'] / best['iba'] - 1:+.0%}.\n")
        if "paths_opened" in "".join(runs["drb"][0].keys()) or True:
            r = runs["drb"][-1]
            if "drb_paths_opened" in r:
                print(f"DRB at load {r['load']}: {r['drb_paths_opened']} paths opened, "
                      f"{r['drb_constrictions']} constrictions, peak {r['drb_peak_open_paths']} open "
                      f"paths per flow, peak {r['drb_peak_flows']} flows with DRB state.\n")
    summaries = {}
    for s in ("none", "iba", "drb"):
        p = os.path.join(d, f"hotspot-{s}-summary.json")
        if os.path.exists(p):
            summaries[s] = json.load(open(p))
    if summaries:
        series = []
        for s in summaries:
            rows = list(csv.DictReader(open(os.path.join(d, f"hotspot-{s}-series.csv"))))
            hot = summaries[s]["hot_switch"]
            by_t = {}
            for r in rows:
                if node_of(r["to"]) == hot:
                    t = float(r["t_us"])
                    by_t[t] = max(by_t.get(t, 0), float(r["utilization"]))
            series.append((NAMES[s], sorted((t + 12.5, u) for t, u in by_t.items())))
        draw(figure(series, "8x8 torus: the busiest link into the hot switch over time",
                    "time (us)", "utilization per 25 us", "regime",
                    [("traffic", "uniform at 0.3 of the link"),
                     ("hot spot", "5 % of it to CA 27 from 1 to 2 ms")]),
             os.path.join(d, "hotspot-links.svg"))
        print("### Hot spot (uniform 0.3, 5 % to one node from 1 to 2 ms)\n")
        print("| | " + " | ".join(NAMES[s] for s in summaries) + " |")
        print("|---|" + "---|" * len(summaries))
        rows = [("accepted (fraction of link, 0-3 ms)", "accepted_fraction", "{:.3f}"),
                ("mean latency (us)", "latency_mean_us", "{:.1f}"),
                ("p99 latency (us)", "latency_p99_us", "{:.1f}"),
                ("refused at the sources (fraction)", "throttled_fraction", "{:.3f}"),
                ("hot node's link busy, 1-2 ms", "eject_util_hot", "{:.3f}"),
                ("links into the hot switch, mean busy 1-2 ms", "into_hot_mean_hot", "{:.3f}"),
                ("busiest switch link per 25 us, before", "switch_links_peak_before", "{:.3f}"),
                ("busiest switch link per 25 us, 1-2 ms", "switch_links_peak_hot", "{:.3f}"),
                ("switch links > 50 % busy over 1-2 ms", "switch_links_over_50_hot", "{}"),
                ("switch links > 90 % busy over 1-2 ms", "switch_links_over_90_hot", "{}"),
                ("busiest switch link per 25 us, from 2.2 ms", "switch_links_peak_after", "{:.3f}")]
        for label, key, fmtx in rows:
            print(f"| {label} | " + " | ".join(fmtx.format(summaries[s][key]) for s in summaries) + " |")
        if summaries.get("drb", {}).get("drb"):
            x = summaries["drb"]["drb"]
            print(f"\nDRB in the hot-spot run: {x['paths_opened']} paths opened, "
                  f"{x['constrictions']} constrictions, {x['alternative_packets']} packets on "
                  f"alternative paths, peak {x['peak_open_paths']} open paths per flow, peak "
                  f"{x['peak_flows']} flows with DRB state.")


if __name__ == "__main__":
    if sys.argv[1] == "--series":
        reduce_series(*sys.argv[2:5])
    else:
        figures(sys.argv[2])
