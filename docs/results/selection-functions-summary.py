#!/usr/bin/env python3
"""Summarises the CSVs of selection-functions.sh into the tables of selection-functions.md:
per figure, each routing's saturation throughput (the highest accepted fraction over the
loads) and mean latency at loads 0.1, 0.3 and 0.5; then paper 004's claims, with numbers."""
import collections
import csv
import json
import os

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "selection-functions")
figures = [
    ("fig3a-4ary2-uniform", "4-ary 2-tree, uniform, 1 VC (Fig. 3a)"),
    ("fig3b-4ary4-uniform", "4-ary 4-tree, uniform, 1 VC (Fig. 3b)"),
    ("fig4a-4ary6-uniform", "4-ary 6-tree, uniform, 1 VC (Fig. 4a)"),
    ("fig4b-4ary6-uniform-3vc", "4-ary 6-tree, uniform, 3 VCs (Fig. 4b)"),
    ("fig6-4ary4-complement", "4-ary 4-tree, complement, 1 VC (Fig. 6)"),
    ("4ary6-complement", "4-ary 6-tree, complement, 1 VC"),
    ("8ary3-uniform", "8-ary 3-tree, uniform, 1 VC"),
    ("8ary3-complement", "8-ary 3-tree, complement, 1 VC"),
    ("16ary2-uniform", "16-ary 2-tree, uniform, 1 VC"),
    ("16ary2-complement", "16-ary 2-tree, complement, 1 VC"),
]
LAT_LOADS = (0.1, 0.3, 0.5)


def load(key):
    path = os.path.join(here, key + ".csv")
    if not os.path.exists(path):
        return None
    runs = collections.defaultdict(dict)
    for r in csv.DictReader(open(path)):
        runs[r["routing"]][float(r["load"])] = r
    return runs


data = {}
for key, title in figures:
    runs = load(key)
    if runs is None:
        print(f"\n### {title}\n\nmissing: run selection-functions.sh\n")
        continue
    data[key] = runs
    print(f"\n### {title}\n")
    print(f"![{title}](selection-functions/{key}.svg)\n")
    print("| routing | saturation (max accepted) | " +
          " | ".join(f"latency at {l} (µs)" for l in LAT_LOADS) + " |")
    print("|---|---|" + "---|" * len(LAT_LOADS))
    for routing, by_load in runs.items():
        sat = max(float(r["accepted_fraction"]) for r in by_load.values())
        lats = [f"{float(by_load[l]['latency_mean_ns']) / 1000:.2f}" if l in by_load else "" for l in LAT_LOADS]
        print(f"| {routing} | {sat:.3f} | " + " | ".join(lats) + " |")


def sat(key, routing):
    return max(float(r["accepted_fraction"]) for r in data[key][routing].values())


def lat(key, routing, l):
    return float(data[key][routing][l]["latency_mean_ns"])


print("\n### Paper 004's claims\n")
sels = ["ff", "ssp", "sdp", "sop", "sadp", "cp", "mc", "rp"]
for key in ("fig3b-4ary4-uniform", "fig4a-4ary6-uniform", "fig4b-4ary6-uniform-3vc",
            "fig6-4ary4-complement", "4ary6-complement"):
    if key not in data:
        continue
    order = sorted(sels, key=lambda s: -sat(key, s))
    print(f"- {key}: saturation order " + " > ".join(f"{s} {sat(key, s):.3f}" for s in order))
if "fig4a-4ary6-uniform" in data:
    k = "fig4a-4ary6-uniform"
    for l in (0.2, 0.3, 0.4, 0.5):
        print(f"- 4-ary 6-tree uniform at load {l}: FF / SADP latency {lat(k, 'ff', l) / lat(k, 'sadp', l):.1f}x "
              f"(paper 8.9x); SADP {100 * (1 - lat(k, 'sadp', l) / lat(k, 'mc', l)):.1f} % below MC (paper 24.53 %)")
for u, c in (("fig3b-4ary4-uniform", "fig6-4ary4-complement"), ("fig4a-4ary6-uniform", "4ary6-complement")):
    if u in data and c in data:
        print(f"- {u} -> {c}: saturation " + ", ".join(
            f"{s} {sat(u, s):.3f} -> {sat(c, s):.3f}" for s in ("ssp", "sdp", "sop", "sadp", "cp", "mc")))
fig5 = os.path.join(here, "fig5.jsonl")
if os.path.exists(fig5):
    print("\n### Link utilization at saturation, 4-ary 6-tree, uniform (Fig. 5)\n")
    print("| selection | load | accepted | links | max | mean | stdev | links below 50 % |")
    print("|---|---|---|---|---|---|---|---|")
    for x in map(json.loads, open(fig5)):
        print(f"| {x['selection']} | {x['load']} | {x['accepted']:.3f} | {x['links']} | {x['max']:.3f} | "
              f"{x['mean']:.3f} | {x['stdev']:.3f} | {100 * x['below_half']:.1f} % |")
    print("\n" + " ".join(f"![Fig. 5 {s}](selection-functions/fig5-{s}.svg)" for s in ("ff", "mc", "sadp")))
