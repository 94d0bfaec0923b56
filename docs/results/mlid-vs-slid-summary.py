#!/usr/bin/env python3
"""Summarises the CSVs of mlid-vs-slid.sh into the tables of mlid-vs-slid.md: per fabric,
pattern, engine and VL count the saturation throughput (the highest accepted traffic over the
sweep, bytes/ns/node) and the mean latency at the lowest and at a middle offered load."""
import collections
import csv
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
fabrics = [("ft-4-4", "FT(4,4)"), ("ft-8-3", "FT(8,3)"), ("ft-16-3", "FT(16,3)"), ("ft-32-2", "FT(32,2)")]
for pattern in ("uniform", "centric"):
    print(f"\n### {pattern} traffic: saturation throughput (max accepted, bytes/ns/node)\n")
    print("| fabric | VLs | MLID | SLID | MLID / SLID |")
    print("|---|---|---|---|---|")
    lat_rows = []
    for key, name in fabrics:
        path = os.path.join(here, f"{key}-{pattern}.csv")
        if not os.path.exists(path):
            print(f"| {name} | missing | | | |")
            continue
        runs = collections.defaultdict(list)
        for r in csv.DictReader(open(path)):
            # "routing" since the one-line sweep runs as a spec; the committed CSVs predate it.
            runs[(r.get("routing") or r["engine"], int(r["vls"]))].append(r)
        for v in (1, 2, 4):
            best = {e: max(float(r["accepted_bytes_per_ns"]) for r in runs[(e, v)]) for e in ("mlid", "slid")}
            print(f"| {name} | {v} | {best['mlid']:.4f} | {best['slid']:.4f} | {best['mlid'] / best['slid']:.3f} |")
            loads = sorted({float(r["load"]) for r in runs[("mlid", v)]})
            for load in (loads[0], loads[len(loads) // 2]):
                lat = {e: next(float(r["latency_mean_ns"]) for r in runs[(e, v)] if float(r["load"]) == load)
                       for e in ("mlid", "slid")}
                unfinished = {e: next(int(r["measured_unfinished"]) for r in runs[(e, v)] if float(r["load"]) == load)
                              for e in ("mlid", "slid")}
                lat_rows.append((name, v, load, lat, unfinished))
    print(f"\n### {pattern} traffic: mean latency (ns) at the lowest and a middle offered load\n")
    print("| fabric | VLs | offered load | MLID | SLID | unfinished MLID / SLID |")
    print("|---|---|---|---|---|---|")
    for name, v, load, lat, unf in lat_rows:
        print(f"| {name} | {v} | {load:.4g} | {lat['mlid']:.0f} | {lat['slid']:.0f} | {unf['mlid']} / {unf['slid']} |")
