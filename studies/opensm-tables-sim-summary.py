#!/usr/bin/env python3
"""Summarises studies/opensm-tables-sim.sh (real opensm tables in the simulator, issue 6) into
docs/results/opensm-tables-sim.md: the findings table, the page's own claims against opensm's
engines, and the table of the five routings.

  opensm-tables-sim-summary.py              print the findings block and the tables block
  opensm-tables-sim-summary.py --findings   print the findings block alone
  opensm-tables-sim-summary.py --write      rewrite both marked blocks of the md
  --dir DIR                                 read the CSVs from DIR (default: docs/results)

opensm-tables-sim.csv is the study's table (seed 1), extracted from the page as the script
printed it on 2026-11-21 (the script now writes it too); opensm-tables-sim-seeds.csv is ibrt's
mlid and slid over seeds 1-5 (studies/opensm-tables-sim-seeds.sh, no opensm needed). The static
link loads the reference column quotes are opensm-engines-balance.md's. Standard library only."""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from findings import cmp, main, over_seeds, status, table  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "..", "docs", "results")
MD = os.path.join(RESULTS, "opensm-tables-sim.md")
COLS = ("saturation_load", "accepted_there", "max_accepted", "latency_mean_ns_0.1", "latency_p99_ns_0.1")
TIE = 0.01  # one seed: latencies within 1 % are not told apart


def load(d):
    main_rows = {r["routing"]: r for r in csv.DictReader(open(os.path.join(d, "opensm-tables-sim.csv")))}
    seeds = {}
    for r in csv.DictReader(open(os.path.join(d, "opensm-tables-sim-seeds.csv"))):
        seeds.setdefault((r["engine"], int(r["buffer_bytes"])), []).append(float(r["max_accepted"]))
    return main_rows, {k: over_seeds(v) for k, v in seeds.items()}


def figs(r):
    return f"{r['saturation_load']} / {r['max_accepted']}"


def findings(data):
    t, s = data
    ft, slid, mlid = t["opensm ftree"], t["ibrt slid"], t["ibrt mlid"]
    same = [c for c in COLS if ft[c] != slid[c]]
    slow = [e for e in ("opensm updn", "opensm minhop")
            if float(t[e]["saturation_load"]) >= float(ft["saturation_load"]) / 2]
    behind = [b for b in (1024, 4096) if cmp(s[("mlid", b)], s[("slid", b)]) < 0]
    lat_m, lat_f = float(mlid["latency_mean_ns_0.1"]), float(ft["latency_mean_ns_0.1"])
    rows = [
        ("opensm's ftree tables, read back through the LFT dump and guid2lid, simulate as ibrt's "
         "slid (both destination-mod-k on this tree)", f"ftree {figs(ft)}, latency {ft['latency_mean_ns_0.1']} / "
         f"{ft['latency_p99_ns_0.1']} ns", f"slid {figs(slid)}, latency {slid['latency_mean_ns_0.1']} / "
         f"{slid['latency_p99_ns_0.1']} ns", status(same)),
        ("opensm's updn and minhop (LMC 0, balancing over the switches' LIDs too) saturate far below "
         "its ftree, as their static link loads say", "all-to-all max/mean link load 3.797 (updn, "
         "minhop) against 1.051 (ftree)", f"saturation {t['opensm updn']['saturation_load']} (updn), "
         f"{t['opensm minhop']['saturation_load']} (minhop) against {ft['saturation_load']}", status(slow)),
        ("ibrt's mlid (LMC 4, its path selection) saturates as high as opensm's ftree",
         f"ftree {figs(ft)}", f"mlid {figs(mlid)}; max accepted over seeds 1-5: "
         + "; ".join(f"{b // 1024} KB buffers {s[('mlid', b)].fmt(3)} against slid's {s[('slid', b)].fmt(3)}"
                     for b in (1024, 4096)),
         status(behind), "mlid below ftree"),
        ("ibrt's mlid has a mean latency at load 0.1 no higher than opensm's ftree", f"{lat_f:.0f} ns",
         f"{lat_m:.0f} ns (one seed)", status([] if lat_m <= lat_f * (1 + TIE) else ["mlid"],
                                               weak=["mlid"] if abs(lat_m - lat_f) <= TIE * lat_f else ())),
    ]
    legend = ("Saturation load / max accepted: fractions of the link bandwidth per node (FT(8,3), "
              "uniform, 1 KB buffers per VL, 1 VL, seed 1; [opensm-tables-sim.csv](opensm-tables-sim.csv)); "
              "over seeds: mean ± 95 % interval ([opensm-tables-sim-seeds.csv](opensm-tables-sim-seeds.csv)). "
              "Static loads: [opensm-engines-balance.md](opensm-engines-balance.md). Latencies within 1 % "
              "(one seed) count as a tie.")
    return table(rows, "ibrt's figure", legend, ref_header="reference (opensm's engines)")


def tables(data):
    t, _ = data
    out = ["| routing | saturation load | accepted there | max accepted | latency mean at load 0.1, ns | p99, ns |",
           "|---|---|---|---|---|---|"]
    out += [f"| {k} | " + " | ".join(r[c] for c in COLS) + " |" for k, r in t.items()]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], MD, RESULTS, load, findings, tables))
