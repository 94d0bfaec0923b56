#!/usr/bin/env python3
"""Summarises opensm's own engines next to ibrt's on direct topologies (issue 13) into
docs/results/direct-engines.md's findings table, opensm's engines as the reference.

  direct-engines-summary.py              print the findings block
  direct-engines-summary.py --findings   the same (what the md holds between
                                         <!-- findings:begin --> and <!-- findings:end -->)
  direct-engines-summary.py --write      rewrite the md's findings block
  --dir DIR                              read DIR/direct-engines.tsv (default: docs/results)

direct-engines.tsv holds the rows of scripts/compare-direct-engines.sh in its ROWS= format (tab
separated: fabric, routing, routes, then reachable pairs, SLs, VLs, credit loops, uniform and
bit-complement saturation, or opensm's reason when the engine did not route). The committed one
was taken from the page's table (2026-11-24, the torus-4x4x4-failed rows 2026-11-26); `ROWS=`
writes it anew. Standard library only."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from findings import REF_LEGEND, listed, main, status, table  # noqa: E402

RESULTS = os.path.join(HERE, "..", "docs", "results")
MD = os.path.join(RESULTS, "direct-engines.md")
TIE = 0.02  # saturation from a 6-step bisection: figures within about 0.02 are a tie (the page's caveat)
TORI = ("torus-4x4x4", "torus-4x4x4-failed", "torus-5x5x3-failed")
SYMMETRIC = ("torus-4x4x4", "hypercube-6d")  # where dimension order takes bit complement at full rate
FIELDS = ("reach", "sls", "vls", "loops", "uniform", "bitcomp")
GAP_5X5X3 = "The degraded 5x5x3 torus: ibrt's torus against torus-2QoS"
GAP_VLS = "The degraded 4x4x4 torus: ibrt's flatfly on every VL"


def load(d):
    rows = {}
    for line in open(os.path.join(d, "direct-engines.tsv"), encoding="utf-8"):
        f = line.rstrip("\n").split("\t")
        rows.setdefault(f[0], {})[f[1]] = dict(zip(FIELDS, f[3:])) if f[2] == "yes" else {"no": f[3]}
    return rows


def ibrt(engines):
    return next(v for k, v in engines.items() if k.startswith("ibrt "))


def sat(row, pat):
    return None if row[pat].startswith("deadlock") else float(row[pat])


def findings(data):
    fabrics = list(data)
    rows = []
    # updn on direct topologies.
    routed = [f for f in fabrics if "no" not in data[f]["updn"]]
    mine = [f for f in fabrics if "no" in ibrt(data[f])]
    rows.append(("opensm's updn routes none of these fabrics (no roots found; opensm falls back to minhop)",
                 f"updn routes {len(routed)} of {len(fabrics)} (\"{data[fabrics[0]]['updn']['no'].split(': ')[-1]}\")",
                 f"ibrt's engine for the family routes {len(fabrics) - len(mine)} of {len(fabrics)}", status(routed)))
    # ibrt's engines: every fabric, every pair, no credit loop.
    ok = lambda r: "no" not in r and r["reach"] == "all" and r["loops"] == "0"  # noqa: E731
    bad = [f for f in fabrics if not ok(ibrt(data[f]))]
    free = [e for e in ("lash", "dfsssp", "nue") if all(ok(data[f][e]) for f in fabrics)]
    engines = sorted({k for f in fabrics for k in data[f] if k.startswith("ibrt ")})
    rows.append(("ibrt's engines route every fabric, every pair reached, with no credit loop",
                 f"deadlock-free on all {len(fabrics)}: {', '.join(free)}",
                 f"{len(fabrics) - len(bad)} of {len(fabrics)} ({', '.join(engines)}); not: {listed(bad)}", status(bad)))
    # dor on rings.
    tori = [f for f in fabrics if f in TORI]
    bad = [f for f in tori if data[f]["dor"]["loops"] == "0" or not data[f]["dor"]["uniform"].startswith("deadlock")]
    rows.append(("dor has credit loops on every torus and deadlocks under uniform traffic",
                 "; ".join(f"{f}: {data[f]['dor']['loops']} loops, {data[f]['dor']['uniform']}" for f in tori),
                 "ibrt's engines on the tori: " + ", ".join(f"{f} {ibrt(data[f])['loops']} loops" for f in tori)
                 + f"; not so for dor: {listed(bad)}", status(bad)))
    # dor where dimension order is deadlock-free.
    dimfree = ("hyperx-4x4x4-L2", "hypercube-6d")
    cases = [(f"{f} {p}", sat(data[f]["dor"], p), sat(ibrt(data[f]), p)) for f in dimfree for p in ("uniform", "bitcomp")]
    bad = [f for f in dimfree if data[f]["dor"]["loops"] != "0" or data[f]["dor"]["vls"] != "1"]
    bad += [c[0] for c in cases if abs(c[2] - c[1]) > TIE]
    rows.append(("On HyperX and the hypercube dor is deadlock-free on one VL, and ibrt's flatfly gives its figures "
                 f"(within {TIE})", ", ".join(f"{c[0]} {c[1]:.3f}" for c in cases),
                 ", ".join(f"{c[0]} {c[2]:.3f}" for c in cases) + f"; apart or with loops: {listed(bad)}", status(bad)))
    # ibrt's torus against torus-2QoS.
    cases, vls = [], []
    for f in ("torus-4x4x4", "torus-5x5x3-failed"):
        t, q = ibrt(data[f]), data[f]["torus-2QoS"]
        cases += [(f"{f} {p}", sat(q, p), sat(t, p)) for p in ("uniform", "bitcomp")]
        vls.append(f"{f} {t['vls']} / {q['vls']}")
    against = [c for c in cases if c[2] < c[1] - TIE]
    more = [v for v in vls if int(v.split()[1]) > int(v.split()[-1])]
    rows.append((f"ibrt's torus saturates at least as high as torus-2QoS (a tie within {TIE}) on no more VLs, with "
                 "no configuration file", ", ".join(f"{c[0]} {c[1]:.3f}" for c in cases),
                 ", ".join(f"{c[0]} {c[2]:.3f}" for c in cases) + f"; VLs ibrt / torus-2QoS: {', '.join(vls)}; "
                 f"below by more than {TIE}: {listed(c[0] for c in against)}", status(against + more), GAP_5X5X3))
    # dfsssp's price under bit complement.
    cases = [(f, sat(data[f]["dfsssp"], "bitcomp"), sat(ibrt(data[f]), "bitcomp")) for f in SYMMETRIC]
    bad = [c for c in cases if c[1] >= c[2] - TIE]
    rows.append(("dfsssp (every VL it may) takes bit complement below dimension order on the symmetric fabrics",
                 "dfsssp: " + ", ".join(f"{c[0]} {c[1]:.3f}" for c in cases) + "; its VLs: "
                 + ", ".join(sorted({data[f]["dfsssp"]["vls"] for f in fabrics})),
                 "ibrt's: " + ", ".join(f"{c[0]} {c[2]:.3f}" for c in cases), status(bad)))
    # nue on one VL.
    low = [f for f in fabrics if f.startswith(("torus", "hypercube"))]
    bad = [f for f in fabrics if "no" in data[f]["nue"] or data[f]["nue"]["loops"] != "0" or data[f]["nue"]["vls"] != "1"]
    bad += [f for f in low if float(data[f]["nue"]["uniform"]) > 0.3]
    nue = [float(data[f]["nue"]["uniform"]) for f in low]
    mine = [float(ibrt(data[f])["uniform"]) for f in low]
    rows.append(("nue as opensm configures it (one VL) routes every fabric without credit loops, at a low uniform "
                 "saturation (below 0.3) on the tori and the hypercube", f"nue uniform there {min(nue):.3f}-{max(nue):.3f}",
                 f"ibrt's there {min(mine):.3f}-{max(mine):.3f}; not so: {listed(bad)}", status(bad)))
    # VLs against lash.
    cases = [(f, int(data[f]["lash"]["vls"]), int(ibrt(data[f])["vls"])) for f in fabrics]
    more = [c for c in cases if c[2] > c[1]]
    rows.append(("ibrt's engines need no more VLs than lash", "lash's VLs: " + ", ".join(f"{c[0]} {c[1]}" for c in cases),
                 "ibrt's: " + ", ".join(f"{c[0]} {c[2]}" for c in cases) + f"; more than lash: {listed(c[0] for c in more)}",
                 status(more), GAP_VLS))
    legend = (REF_LEGEND + " One CA per switch, under ibsim with opensm 3.3.23 (`-Q -R ENGINE`; ibrt's engines through "
              "libibrt.so); VLs: those the paths take between switches; credit loops: cyclic components of the channel "
              "dependency graph on them; saturation: `ibrt sim --saturation` on the SM's tables, 6 bisection steps, "
              f"so figures within {TIE} are a tie.")
    return table(rows, "ibrt's engines", legend, ref_header="reference (opensm's engines)")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], MD, RESULTS, load, findings))
