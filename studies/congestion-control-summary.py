#!/usr/bin/env python3
"""Summarises docs/results/congestion-control.md (issue 16): the findings table, the page's own
claims against the classic IBA CC behaviour (the IBA spec's congestion control; Gran et al.'s
hot spot, victims and parking lot, whose papers are not in this repository), and the classic
scenarios' table.

  congestion-control-summary.py              print the findings block and the tables block
  congestion-control-summary.py --findings   print the findings block alone
  congestion-control-summary.py --write      rewrite both marked blocks of the md
  --dir DIR                                  read the CSVs from DIR (default: docs/results)

From the committed runs: cc-classic.csv (`ibrt sweep docs/results/cc-classic.json`), the
hysteresis runs cc-hysteresis/*.csv and *-summary.json (studies/cc-hysteresis.sh; read with
cc-hysteresis.py's functions) and cc-sweep.csv (`ibrt sweep docs/results/cc-sweep.json`).
A setting "works" when the victims accept at least 95 % of their offer with the hot link at
least 90 % busy (the page's criterion). Standard library only."""
import csv
import importlib.util
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from findings import main, status, table  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "..", "docs", "results")
MD = os.path.join(RESULTS, "congestion-control.md")
_spec = importlib.util.spec_from_file_location("cchyst", os.path.join(HERE, "cc-hysteresis.py"))
hyst = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hyst)
ORDER = ["off", "1", "2", "3", "4", "5", "8", "12", "15"]
VICTIMS_OK, HOT_OK, FAIR = 0.95, 0.90, 0.99


def cc_rows(path, scenario=False):
    out = []
    for r in csv.DictReader(open(path)):
        vo = float(r["victim_offered"] or 0)
        out.append({"scenario": "hot" if "hotspot" in r["sim"] else "park", "thr": r["cc_sw_cong_setting_threshold"] or "off",
                    "mark": r.get("cc_sw_cong_setting_marking_rate", ""), "timer": r.get("cc_ca_cong_setting_ccti_timer 0", ""),
                    "victims": float(r["victim_accepted"]) / vo if vo else None, "hot": float(r["hot_accepted"]),
                    "jain": float(r["hot_jain"]), "becns": int(r["victim_becns"] or 0), "verdict": r["verdict"]})
    return out


def load(d):
    runs = {}
    for k in ORDER:
        r = hyst.load(os.path.join(d, "cc-hysteresis", f"{k}.csv"))
        runs[k] = (r, json.load(open(os.path.join(d, "cc-hysteresis", f"{k}-summary.json"))))
    return cc_rows(os.path.join(d, "cc-classic.csv")), runs, cc_rows(os.path.join(d, "cc-sweep.csv"))


def works(x):
    return x["victims"] >= VICTIMS_OK and x["hot"] >= HOT_OK


def findings(data):
    classic, runs, sweep = data
    hot = {x["thr"]: x for x in classic if x["scenario"] == "hot"}
    park = {x["thr"]: x for x in classic if x["scenario"] == "park"}
    thr = [str(t) for t in range(1, 16)]
    both = [t for t in thr if hot[t]["victims"] >= VICTIMS_OK and park[t]["jain"] >= FAIR]
    fair = [t for t in thr if park[t]["jain"] >= FAIR]
    lo, hi = hyst.HOT
    onset = {k: hyst.first_at(r, "victims", lo, lambda v: v < 0.5, 1) for k, (r, _) in runs.items()}
    back = {k: hyst.first_at(r, "victims", lo + 100, lambda v: v >= 0.9) for k, (r, _) in runs.items()}
    after = {k: hyst.mean(r, "victims", hyst.busy_until(r) + 100, 5000) for k, (r, _) in runs.items()}
    order = [back[k] for k in ORDER[1:]]
    cc = [x for x in sweep if x["thr"] != "off"]

    def never(pred, what):
        xs = [x for x in cc if pred(x)]
        return (f"{what}: {sum(works(x) for x in xs)} of {len(xs)} settings work (victims at most "
                f"{max(x['victims'] for x in xs):.3f})", status([x for x in xs if works(x)]))

    rows = [
        ("without CC the hot spot's congestion tree blocks the victims, whose traffic only shares its buffers",
         "head-of-line blocking spreads the tree to flows that do not go to the hot spot",
         f"victims accept {hot['off']['victims']:.3f} of their offer, the hot link {hot['off']['hot']:.3f} busy",
         status([] if hot["off"]["victims"] < 0.5 else ["off"])),
        ("with CC the contributors are throttled and the victims get what they offer, the hot link kept busy",
         "CC removes the tree: victims at their offer, the hot spot at link rate",
         f"threshold 1: victims {hot['1']['victims']:.3f}, hot link {hot['1']['hot']:.3f}",
         status([] if works(hot["1"]) else ["1"])),
        ("without CC the parking lot is unfair: the switches' round robin divides the hot link by input port",
         "per-port arbitration favours the flows that join near the hot spot",
         f"Jain's index over the contributors {park['off']['jain']:.3f}", status([] if park["off"]["jain"] < FAIR else ["off"])),
        ("with CC the parking lot's contributors get fair shares", "CC's fairness among contributors",
         f"Jain ≥ {FAIR} at thresholds {', '.join(fair)}; {park['1']['jain']:.3f} at 1, {park['2']['jain']:.3f} at 2",
         status([] if fair else ["none"])),
        ("one threshold serves both scenarios: victims at their offer and a fair parking lot",
         "the threshold: how full a buffer must be before packets are marked",
         f"both at thresholds {', '.join(both) or 'none'}; from 5 on the victims get "
         f"{min(hot[t]['victims'] for t in thr[4:]):.3f}–{max(hot[t]['victims'] for t in thr[4:]):.3f} "
         f"({min(hot[t]['becns'] for t in thr[4:]):,}–{max(hot[t]['becns'] for t in thr[4:]):,} victim BECNs)",
         status([] if both else ["none"])),
        ("over time, the congestion tree forms as fast at every threshold",
         "issue 16's reading of Gran et al.'s threshold hysteresis (their papers are not here): the threshold's effect on the tree's formation and removal",
         f"victims below half their offer {', '.join(sorted({str(int(v)) for v in onset.values()}))} µs after the "
         f"onset in all {len(onset)} runs (CC off, thresholds {', '.join(ORDER[1:])})",
         status([k for k in onset if onset[k] != onset["off"]])),
        ("... and is removed later the higher the threshold", "as above",
         "victims first at 0.9 after (µs): " + ", ".join(f"{k} {int(back[k])}" for k in ORDER[1:])
         + f"; CC off {int(back['off'])}",
         status([k for i, k in enumerate(ORDER[2:]) if order[i + 1] < order[i]] + ([] if back["off"] > max(order) else ["off"]))),
        ("after the hot spot no raised CCTI throttles the victims", "CCTIs decay once BECNs stop",
         f"victims {min(after.values()):.3f}–{max(after.values()):.3f} of their offer once the hot link idles",
         status([k for k in after if after[k] < 0.99])),
        ("a CCTI timer shorter than the BECNs' interval never removes the tree",
         "CCTI +1 per BECN, −1 per timer expiry", *never(lambda x: x["timer"] == "2", "timer 2 (× 1.024 µs)")),
        ("marking too few packets never removes the tree", "marking rate: packets between marks",
         *never(lambda x: x["mark"] == "15", "marking rate 15")),
        ("a threshold that marks at the contributors' leaf uplinks throttles the victims",
         "victims' packets wait there too", *never(lambda x: int(x["thr"]) >= 8, "thresholds 8, 12, 15")),
    ]
    n = len(classic) + len(sweep)
    bad = sum(x["verdict"] != "ok" for x in classic + sweep)
    legend = ("Victims: what the victim flows accept over what they offer; Jain's index over the contributors' "
              f"accepted traffic. A setting works when the victims get ≥ {VICTIMS_OK} of their offer with the hot "
              f"link ≥ {HOT_OK} busy. From [cc-classic.csv](cc-classic.csv), [cc-hysteresis/](cc-hysteresis/) and "
              f"[cc-sweep.csv](cc-sweep.csv); one run per point. "
              + (f"All {n} runs of the two sweeps ended with the verdict ok." if not bad else
                 f"{bad} of the {n} runs of the two sweeps ended with a verdict other than ok."))
    return table(rows, "ibrt's figure", legend, ref_header="reference (IBA CC)")


def tables(data):
    classic = data[0]
    out = ["| scenario | CC | victims | hot link | Jain (contributors) |", "|---|---|---|---|---|"]
    for scen, name, thrs in (("hot", "hot spot with victims", ("off", "1")), ("park", "parking lot", ("off", "1", "4"))):
        for t in thrs:
            x = next(x for x in classic if x["scenario"] == scen and x["thr"] == t)
            v = "—" if x["victims"] is None else f"{x['victims']:.3f}"
            out.append(f"| {name} | {'off' if t == 'off' else f'on (threshold {t})'} | {v} | {x['hot']:.3f} | {x['jain']:.3f} |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], MD, RESULTS, load, findings, tables))
