#!/usr/bin/env python3
"""Paper 002's figures from the runs of congestion-control-drb.sh.

  --series FULL.csv RUN.json OUT.csv   reduce one hot-spot run's per-link time series (every
                                       link, 25 us steps) to the links around the hot spot, and
                                       write OUT-summary.json with its figures
  --figures DIR                        draw DIR's SVGs and print the tables of
                                       congestion-control.md (Markdown, on stdout)

The SVGs are drawn as ibrt's own were when this study ran (sim/svg_plot.cpp, since replaced by
plot/, matplotlib, issue 40): nice 1-2-5 ticks, one coloured polyline with markers per series,
a legend on the right."""
import csv
import glob
import json
import math
import os
import sys
from xml.sax.saxutils import escape

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"]
NAMES = {"none": "no CC", "iba": "IBA CC", "drb": "DRB", "drb-iba": "DRB + IBA CC",
         "random": "random LID (no CC)"}
HOT = (1000.0, 2000.0)  # the hot spot's window, us


def nice(span, target=6):
    raw = span / target
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if raw <= m * mag:
            return m * mag
    return 10 * mag


def plot(series, title, xlabel, ylabel, path, logy=False):
    W, H, L, R, T, B = 720, 480, 80, 190, 40, 60
    pw, ph = W - L - R, H - T - B
    xs_all = [x for _, pts in series for x, _ in pts]
    ys_all = [y for _, pts in series for _, y in pts if y > 0 or not logy]
    xmax = max(xs_all) if xs_all else 1
    xstep = nice(xmax)
    xmax = math.ceil(xmax / xstep) * xstep
    if logy:
        lo = math.floor(math.log10(min(ys_all)))
        hi = math.ceil(math.log10(max(ys_all)))
        hi = max(hi, lo + 1)
        fy = lambda y: T + ph - (math.log10(y) - lo) / (hi - lo) * ph
        yticks = [10 ** k for k in range(lo, hi + 1)]
    else:
        ymax = max(ys_all) if ys_all else 1
        ystep = nice(ymax)
        ymax = math.ceil(ymax / ystep) * ystep
        fy = lambda y: T + ph - y / ymax * ph
        yticks = [k * ystep for k in range(int(round(ymax / ystep)) + 1)]
    fx = lambda x: L + x / xmax * pw
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
         f'font-family="sans-serif" font-size="12">',
         '<rect width="100%" height="100%" fill="white"/>',
         f'<text x="{L + pw / 2}" y="24" text-anchor="middle" font-size="15">{escape(title)}</text>']
    x = 0.0
    while x <= xmax + xstep / 2:
        o.append(f'<line x1="{fx(x):.1f}" y1="{T}" x2="{fx(x):.1f}" y2="{T + ph}" stroke="#ddd"/>'
                 f'<text x="{fx(x):.1f}" y="{T + ph + 18}" text-anchor="middle">{x:g}</text>')
        x += xstep
    for y in yticks:
        o.append(f'<line x1="{L}" y1="{fy(y):.1f}" x2="{L + pw}" y2="{fy(y):.1f}" stroke="#ddd"/>'
                 f'<text x="{L - 6}" y="{fy(y) + 4:.1f}" text-anchor="end">{y:g}</text>')
    o.append(f'<rect x="{L}" y="{T}" width="{pw}" height="{ph}" fill="none" stroke="black"/>')
    o.append(f'<text x="{L + pw / 2}" y="{H - 16}" text-anchor="middle">{escape(xlabel)}</text>')
    o.append(f'<text x="18" y="{T + ph / 2}" text-anchor="middle" '
             f'transform="rotate(-90 18 {T + ph / 2})">{escape(ylabel)}</text>')
    for i, (name, pts) in enumerate(series):
        c = COLOURS[i % len(COLOURS)]
        pts = [(x, y) for x, y in pts if y > 0 or not logy]
        if not pts:
            continue
        path_d = " ".join(f"{fx(x):.1f},{fy(y):.1f}" for x, y in pts)
        o.append(f'<polyline points="{path_d}" fill="none" stroke="{c}" stroke-width="1.5"/>')
        if len(pts) <= 40:
            for x, y in pts:
                o.append(f'<circle cx="{fx(x):.1f}" cy="{fy(y):.1f}" r="2.5" fill="{c}"/>')
        ly = T + 10 + 20 * i
        o.append(f'<line x1="{L + pw + 12}" y1="{ly}" x2="{L + pw + 32}" y2="{ly}" stroke="{c}" '
                 f'stroke-width="2"/><text x="{L + pw + 38}" y="{ly + 4}">{escape(name)}</text>')
    o.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(o) + "\n")


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
        plot(thr, f"{title}, perfect shuffle: throughput", "offered load (fraction of link)",
             "accepted (fraction of link)", os.path.join(d, f"{topo}-throughput.svg"))
        plot(lat, f"{title}, perfect shuffle: latency", "offered load (fraction of link)",
             "mean latency (us, log)", os.path.join(d, f"{topo}-latency.svg"), logy=True)
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
        plot(series, "8x8 torus, hot spot 1-2 ms: busiest link into the hot switch",
             "time (us)", "utilization per 25 us", os.path.join(d, "hotspot-links.svg"))
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
