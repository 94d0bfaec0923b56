#!/usr/bin/env python3
"""The table of docs/results/congestion-control.md "A CC settings sweep" from the merged
sweep.csv of docs/results/cc-sweep.json: per setting the victims' accepted share of what they
offer, the hot link's use, Jain's index over the contributors, peak CCTI and the BECNs the
victims got; sorted best first (victims, then the hot link). Usage: studies/cc-sweep-summary.py
OUT/sweep.csv [N rows]."""
import csv
import sys

rows = []
for r in csv.DictReader(open(sys.argv[1])):
    vo = float(r["victim_offered"])
    rows.append({
        "cc": r['"congestion_control"'] if '"congestion_control"' in r else r["congestion_control"],
        "threshold": r["cc_sw_cong_setting_threshold"] or "-",
        "marking": r["cc_sw_cong_setting_marking_rate"] or "-",
        "timer": r["cc_ca_cong_setting_ccti_timer 0"] or "-",
        "cct": r["cc_cct"] or "-",
        "victims": float(r["victim_accepted"]) / vo if vo else 0.0,
        "hot": float(r["hot_accepted"]),
        "jain": float(r["hot_jain"]) if r["hot_jain"] else float("nan"),  # empty: cannot judge
        "ccti": r["peak_ccti"] or "-",
        "vbecns": r["victim_becns"],
    })
n = int(sys.argv[2]) if len(sys.argv) > 2 else len(rows)
rows.sort(key=lambda x: (-round(min(x["victims"], 1.0), 2), -x["hot"]))
print("| threshold | marking rate | CCTI timer | CCT | victims: accepted / offered | hot link | "
      "Jain (contributors) | peak CCTI | victim BECNs |")
print("|---|---|---|---|---|---|---|---|---|")
for x in rows[:n]:
    name = "CC off" if x["threshold"] == "-" else x["threshold"]
    print(f"| {name} | {x['marking']} | {x['timer']} | {x['cct']} | {x['victims']:.3f} | "
          f"{x['hot']:.3f} | {x['jain']:.3f} | {x['ccti']} | {x['vbecns']} |")
