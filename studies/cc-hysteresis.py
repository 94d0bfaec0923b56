#!/usr/bin/env python3
"""The congestion tree over time by switch threshold, from the runs of cc-hysteresis.sh.

  --reduce SERIES.csv RUN.json OUT.csv   one run's per-link time series (every link, 25 us) to
                                         the victims', the hot link's, the contributors' and
                                         the contributors' uplinks' utilization per interval,
                                         with the run's CC counters in OUT-summary.json
  --figures DIR                          draw DIR/victims.svg and DIR/contributors.svg
                                         with `ibrt plot` (the binary in $IBRT, default ibrt;
                                         congestion-control-drb.py's figure and draw, beside
                                         this script) and print the table of
                                         docs/results/congestion-control.md (Markdown, on stdout)

Names follow docs/results/cc-classic/hotspot-victims.pairs on `ibrt gen clos --radix 36
--levels 2`: host p of leaf L is 'host-lL-p'; the hot spot is host-l0-0; the contributors hosts 1
and 2 of leaves 1-8; the victims host 3 of leaves 1-8, sending half a link each to host 0 of
leaves 9-16."""
import csv
import importlib.util
import json
import os
import re
import sys

HOT = (1000.0, 3000.0)  # the hot spot's window, us
STEP = 25.0
NAME = re.compile(r"'([^']+)'.*\[(\d+)\]$")
VICTIM_DST = {f"host-l{leaf}-0" for leaf in range(9, 17)}
VICTIM_SRC = {f"host-l{leaf}-3" for leaf in range(1, 9)}
CONTRIB = {f"host-l{leaf}-{p}" for leaf in range(1, 9) for p in (1, 2)}
UPLINK_FROM = {f"leaf-{leaf}" for leaf in range(1, 9)}
VICTIM_OFFER = 8 * 0.5  # links' worth


def node(link):
    m = NAME.search(link)
    return m.group(1) if m else link


def reduce_series(series, run_json, out):
    rows = {}
    with open(series) as f:
        for r in csv.DictReader(f):
            t = float(r["t_us"])
            a, b, u = node(r["link"]), node(r["to"]), float(r["utilization"])
            acc = rows.setdefault(t, {"victims": 0.0, "hot": 0.0, "contributors": 0.0,
                                      "uplinks": 0.0})
            if b in VICTIM_DST:
                acc["victims"] += u / VICTIM_OFFER
            if b == "host-l0-0":
                acc["hot"] += u
            if a in CONTRIB:
                acc["contributors"] += u / len(CONTRIB)
            if a in UPLINK_FROM and b == "spine-0":
                acc["uplinks"] += u / len(UPLINK_FROM)
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["t_us", "victims", "hot_link", "contributor_mean", "uplink_mean"])
        for t in sorted(rows):
            a = rows[t]
            w.writerow([f"{t:g}", f"{a['victims']:.4f}", f"{a['hot']:.4f}",
                        f"{a['contributors']:.4f}", f"{a['uplinks']:.4f}"])
    with open(run_json) as f:
        run = json.load(f)
    cc = run["runs"][0].get("congestion_control", {})
    with open(out.replace(".csv", "-summary.json"), "w") as f:
        json.dump({k: cc.get(k) for k in ("fecn_marked", "becn_sent", "peak_ccti")}, f,
                  sort_keys=True)
        f.write("\n")


def load(path):
    with open(path) as f:
        return [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]


def mean(rows, key, lo, hi):
    xs = [r[key] for r in rows if lo <= r["t_us"] < hi]
    return sum(xs) / len(xs) if xs else float("nan")


def rolling(rows, key, width=4):
    """`key` averaged over `width` intervals ending at each (100 us for 25 us steps): a
    victim's half link in 25 us is ~49 packets, so single intervals are noisy."""
    out = []
    for i, r in enumerate(rows):
        w = rows[max(0, i - width + 1):i + 1]
        out.append((r["t_us"] + STEP, sum(x[key] for x in w) / len(w)))
    return out


def first_at(rows, key, start, pred, width=4):
    """us after `start` at which the `width`-interval mean of `key` first satisfies `pred`."""
    for at, v in rolling(rows, key, width):
        if at >= start + width * STEP and pred(v):
            return at - start
    return None


def busy_until(rows):
    """The end of the last interval in which the hot link was more than half busy (us): the
    contributors' source queues keep the hot spot alive after they stop generating."""
    return max(r["t_us"] + STEP for r in rows if r["hot_link"] > 0.5)


def figures(d):
    order = ["off", "1", "2", "3", "4", "5", "8", "12", "15"]
    runs = {k: load(os.path.join(d, f"{k}.csv")) for k in order
            if os.path.exists(os.path.join(d, f"{k}.csv"))}
    summ = {}
    for k in runs:
        p = os.path.join(d, f"{k}-summary.json")
        summ[k] = json.load(open(p)) if os.path.exists(p) else {}
    spec = importlib.util.spec_from_file_location(
        "ccdrb", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                              "congestion-control-drb.py"))
    drb = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(drb)
    label = lambda k: "CC off" if k == "off" else f"threshold {k}"
    shown = [k for k in ("off", "1", "4", "8", "15") if k in runs]
    over_time = lambda key: [(label(k), [(r["t_us"] / 1000 + STEP / 2000, r[key])
                                         for r in runs[k]]) for k in shown]
    scenario = [("victims", "8 victims offering half a link each"),
                ("hot spot", "16 contributors to one host from 1 to 3 ms")]
    drb.draw(drb.figure(over_time("victims"), "Victims over time", "time (ms)",
                        "victims: accepted / offered", "IBA CC", scenario),
             os.path.join(d, "victims.svg"))
    drb.draw(drb.figure(over_time("contributor_mean"),
                        "Contributors' injection over time (fair share 1/16)", "time (ms)",
                        "mean contributor link use", "IBA CC", scenario),
             os.path.join(d, "contributors.svg"))
    lo, hi = HOT
    fmt = lambda x: "—" if x is None else f"{x:.0f}"
    print("| threshold | victims 0–1 ms | 1.0–1.1 ms | 1.1–2 ms | 2–3 ms | 3–4 ms | after the "
          "hot link idles | victims < 0.5 after (µs) | victims first ≥ 0.9 after (µs) "
          "| hot link busy until (ms) | hot link 1 ms–idle | contributors 1–3 ms "
          "| FECN marked | peak CCTI |")
    print("|" + "---|" * 14)
    for k in runs:
        r = runs[k]
        s = summ[k]
        end = busy_until(r)
        print(f"| {label(k).replace('threshold ', '')} | {mean(r, 'victims', 0, lo):.3f} "
              f"| {mean(r, 'victims', lo, lo + 100):.3f} "
              f"| {mean(r, 'victims', lo + 100, 2000):.3f} "
              f"| {mean(r, 'victims', 2000, hi):.3f} | {mean(r, 'victims', hi, 4000):.3f} "
              f"| {mean(r, 'victims', end + 100, 5000):.3f} "
              f"| {fmt(first_at(r, 'victims', lo, lambda v: v < 0.5, 1))} "
              f"| {fmt(first_at(r, 'victims', lo + 100, lambda v: v >= 0.9))} "
              f"| {end / 1000:.3f} | {mean(r, 'hot_link', lo, end):.3f} "
              f"| {mean(r, 'contributor_mean', lo, hi):.4f} "
              f"| {s.get('fecn_marked') or '—'} | {s.get('peak_ccti') or '—'} |")

if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--reduce":
        reduce_series(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) == 3 and sys.argv[1] == "--figures":
        figures(sys.argv[2])
    else:
        sys.exit(__doc__)
