#!/usr/bin/env python3
"""Paper 003's routings on degraded fabrics (issue 15, "beyond the paper"): for every routing
of specs.py's ROUTINGS, on the reduced-scale fabric of each topology with a fraction of its
switch-to-switch cables failed (`ibrt gen ... --fail-links F --seed S --keep-connected`), one
row: does the engine route it (`ibrt route`; a decline must be exit 2 with a reason, anything
else is a crash), do its tables pass `ibrt check` (every pair reachable, no credit loop, and
with forwarding sets `--tables`: every choice delivers, no livelock, no credit loop in the
extended channel dependency graph, longest path within the routing's hop budget), and does an
overloaded `ibrt sim` (offered load 1.0, uniform and complement) end `ok`, with no deadlock.

    python3 studies/direct-topologies/probe_degraded.py [--topo T ...] [--fail 0.05 0.1]
            [--seeds 1 2 3] [--labels L ...] [--out DIR] > probe.tsv

IBRT (default: build/ibrt of this tree) is the binary. The hop budget of Distance Based +E
(and Deflection +E) is the degraded fabric's switch-graph diameter plus E (§3.7: VL = D + E
at the source, one less per hop, D the distance over the cables present); the other routings'
budget is what their engine reports (the check's longest path is printed for them).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import specs  # noqa: E402  (the one list of routings)

IBRT = os.environ.get("IBRT", os.path.join(HERE, "..", "..", "build", "ibrt"))
SIM = ["--load", "1.0", "--warmup-us", "2", "--measure-us", "5", "--drain-us", "5"]


def run(args, cwd):
    p = subprocess.run([IBRT] + args, cwd=cwd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def last_line(text):
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""


def engine_args(routing):
    a = ["--engine", routing["engine"]]
    for o in routing.get("engine-opt", []):
        a += ["--engine-opt", o]
    return a


def probe(fabric, routing, meta, vls, diameter, wd):
    """One routing on one fabric: route, check, sim. Returns the row's fields."""
    data_vls = ["--data-vls", str(routing.get("data-vls", 8))]
    out = os.path.join(wd, "r")
    subprocess.run(["rm", "-rf", out])
    rc, so, se = run(["route"] + engine_args(routing) + data_vls +
                     ["--fabric", fabric, "--out", out, "--no-load", "--no-path-selection"], wd)
    if rc != 0:
        kind = "declines" if rc == 2 else f"CRASH (exit {rc})"
        return {"route": kind, "reason": last_line(se)}
    row = {"route": "routes"}
    c = ["check", "--fabric", fabric, "--lfts", f"{out}/opensm-lfts.dump",
         "--guid2lid", f"{out}/guid2lid", "--json"]
    for flag, f in [("--sl2vl", "opensm-sl2vl.dump"), ("--path-sl", "path-sl"),
                    ("--tables", "forwarding-sets")]:
        if os.path.exists(f"{out}/{f}"):
            c += [flag, f"{out}/{f}"]
    if not os.path.exists(f"{out}/path-sl") and os.path.exists(f"{out}/opensm-sl2vl.dump"):
        c += ["--sl", "0"]  # no path SLs written: every path on SL 0
    rc, so, se = run(c, wd)
    try:
        j = json.loads(so)
    except json.JSONDecodeError:
        return dict(row, check=f"CRASH (exit {rc})", reason=last_line(se))
    ch = j["checks"]
    reach = ch.get("reachability", {})
    dl = ch.get("deadlock", {})
    fs = ch.get("forwarding_sets")
    bad = []
    if reach and not reach.get("passed", True):
        bad.append("unreachable pairs")
    if dl and not dl.get("passed", True):
        bad.append(f"{dl.get('credit_loops', '?')} credit loops (LFTs)")
    hops = ""
    if fs is not None:
        hops = fs.get("max_hops", "")
        for k in ("stuck", "misrouted", "livelocks", "credit_loops"):
            if fs.get(k):
                bad.append(f"{fs[k]} {k} (sets)")
        if "extra_hops" in meta and hops != "" and hops > diameter + meta["extra_hops"]:
            bad.append(f"longest path {hops} > diameter {diameter} + {meta['extra_hops']}")
    if rc not in (0, 1):
        bad.append(f"check exit {rc}")
    row.update(check="ok" if not bad and rc == 0 else "FAIL: " + "; ".join(bad or [f"exit {rc}"]),
               sets="yes" if fs is not None else "no", hops=hops)
    sims = []
    for pattern in ("uniform", "complement"):
        s = ["sim", "--fabric", fabric] + engine_args(routing) + data_vls + \
            ["--vls", str(vls), "--pattern", pattern, "-q", "--json"] + SIM
        if "selection" in routing:
            s += ["--selection", routing["selection"]]
        rc, so, se = run(s, wd)
        try:
            r = json.loads(so)["runs"][0]
            p = r["packets"]
            ok = r["verdict"] == "ok" and not r["deadlock"] and p["dropped"] == 0 \
                and p["misdelivered"] == 0 and p["delivered"] > 0
            sims.append(f"{pattern} {r['verdict']}" + ("" if ok else " FAIL"))
        except (json.JSONDecodeError, KeyError, IndexError):
            sims.append(f"{pattern} CRASH (exit {rc}): {last_line(se)}")
    row["sim"] = ", ".join(sims)
    return row


def diameter_of(fabric):
    """Switch-graph diameter over the cables present (BFS over the fabric file's switch links)."""
    sw, links = parse_switch_links(fabric)
    best = 0
    for s in sw:
        dist = {s: 0}
        frontier = [s]
        while frontier:
            nxt = []
            for u in frontier:
                for v in links[u]:
                    if v not in dist:
                        dist[v] = dist[u] + 1
                        nxt.append(v)
            frontier = nxt
        best = max(best, max(dist.values()))
    return best


def parse_switch_links(path):
    """Switches and their switch neighbours from an ibnetdiscover/ibsim .net file."""
    sw, links, cur = [], {}, None
    with open(path) as f:
        for line in f:
            t = line.strip()
            if t.startswith("Switch"):
                cur = t.split('"')[1]
                sw.append(cur)
                links.setdefault(cur, set())
            elif t.startswith(("Ca", "Hca")):
                cur = None
            elif cur and t.startswith("[") and '"' in t:
                peer = t.split('"')[1]
                links[cur].add(peer)
    switches = set(sw)
    for s in sw:
        links[s] = {p for p in links[s] if p in switches}
    return sw, links


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--topo", nargs="*", default=list(specs.ROUTINGS))
    ap.add_argument("--fail", nargs="*", type=float, default=[0.05, 0.10])
    ap.add_argument("--seeds", nargs="*", type=int, default=[1, 2, 3])
    ap.add_argument("--labels", nargs="*", help="only the routings with these labels (specs.ROUTINGS)")
    ap.add_argument("--out", help="keep the fabrics here (default: a temporary directory)")
    a = ap.parse_args()
    wd = a.out or tempfile.mkdtemp(prefix="probe-degraded.")
    os.makedirs(wd, exist_ok=True)
    print("topology\tfail\tseed\tdiameter\trouting\troute\tcheck\tsets\tlongest\tsim\treason", flush=True)
    for topo in a.topo:
        _, rows = specs.ROUTINGS[topo]
        gen, _ = specs.FABRICS["reduced"][topo]
        for fail in a.fail:
            for seed in a.seeds:
                fabric = os.path.join(wd, f"{topo}-{fail}-{seed}.net")
                rc, so, se = run(["gen"] + gen.split() + ["--fail-links", str(fail), "--seed",
                                                          str(seed), "--keep-connected", "-o", fabric], wd)
                if rc != 0:
                    print(f"{topo}\t{fail}\t{seed}\t\t(gen)\tgen exit {rc}\t\t\t\t\t{last_line(se)}", flush=True)
                    continue
                diam = diameter_of(fabric)
                vls = specs.vls_needed(rows, diam)
                for label, routing, meta in rows:
                    if a.labels and label not in a.labels:
                        continue
                    routing = dict(routing)
                    if vls > 8:
                        routing["data-vls"] = 15
                    r = probe(fabric, routing, meta, vls, diam, wd)
                    print("\t".join(str(x) for x in [
                        topo, fail, seed, diam, label, r.get("route", ""), r.get("check", ""),
                        r.get("sets", ""), r.get("hops", ""), r.get("sim", ""), r.get("reason", "")]),
                        flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
