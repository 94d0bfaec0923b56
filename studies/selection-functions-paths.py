#!/usr/bin/env python3
"""Preferred up paths of paper 004's static-priority selection functions on a k-ary n-tree, and
the flows they put on each link (docs/results/selection-functions.md, "What was measured for
the gaps"). Standard library only.

  selection-functions-paths.py count K N PATTERN [SEL...]
      For each selection (ff, ssp, sdp, sop, sadp; default all five) and a permutation PATTERN
      (complement, shuffle, bitrev, as ibrt sim defines them), follow every flow's preferred up
      path (no overflow) and slid's down path, and print per stage and direction the most flows
      that meet on one link and how many links carry two or more.
  selection-functions-paths.py links JSON K N PATTERN SEL
      The per-link utilization of an `ibrt sim --json` run (its first run) against load x the
      flows the preferred paths put on each switch-to-switch link: per stage and direction, the
      mean and max utilization and the predicted figure (a check that the model below is ibrt's).
  selection-functions-paths.py spread JSON [JSON...]
      Per stage and direction, the mean, coefficient of variation and max of the switch-to-switch
      links' utilization of each `ibrt sim --json` file, and the up links' share of the
      busiest up port of each switch.
  selection-functions-paths.py row ID JSON
      One CSV line for the run: ID, selection, load, accepted fraction, mean latency (ns), and
      the SHA-1 of its per-link utilization list (two runs with the same digest loaded every
      link alike).

The tree is ibrt's `gen kary-ntree`: node P(p_{n-1}..p_0) hangs on port p_0 of SW<0, p_{n-1}..p_1>;
SW<s, w> (digits w_{n-2}..w_0) has down ports 1..k and up ports k+1..2k, up port k+1+j leading to
SW<s+1, w with w_s = j>. Preferred up port j at a stage-s switch w, for a packet from p to q:
FF 0, SSP w_s, SDP q_0, SOP p_0, SADP q_s (sim/selection.hpp)."""
import json
import re
import statistics
import sys
from collections import Counter, defaultdict


def digits(x, k, n):
    return [(x // k ** i) % k for i in range(n)]  # d[0] = p_0


def perm(pattern, k, n):
    N = k ** n
    bits = N.bit_length() - 1
    if pattern == "complement":
        return {s: N - 1 - s for s in range(N)}
    if pattern == "shuffle":
        return {s: ((s << 1) | (s >> (bits - 1))) & (N - 1) for s in range(N)}
    if pattern == "bitrev":
        return {s: int(format(s, f"0{bits}b")[::-1], 2) for s in range(N)}
    raise SystemExit(f"unknown pattern {pattern}")


def pref(sel, s, w, p, q):
    return {"ff": 0, "ssp": w[s], "sdp": q[0], "sop": p[0], "sadp": q[s]}[sel]


def path(sel, k, n, src, dst):
    """The links (stage, 'up'|'down', switch label w as a tuple w_0..w_{n-2}, port) of the
    preferred path from src to dst."""
    p, q = digits(src, k, n), digits(dst, k, n)
    diff = [i for i in range(1, n) if p[i] != q[i]]
    h = max(diff) if diff else 0
    w = p[1:]  # w_i = p_{i+1}
    links = []
    for s in range(h):
        j = pref(sel, s, w, p, q)
        links.append((s, "up", tuple(w), k + 1 + j))
        w = list(w)
        w[s] = j
    for t in range(h, 0, -1):
        links.append((t, "down", tuple(w), 1 + q[t]))
        w = list(w)
        w[t - 1] = q[t]
    links.append((0, "down", tuple(w), 1 + q[0]))  # the leaf to the destination node
    return links


def flows_per_link(sel, k, n, pattern):
    c = Counter()
    for s, d in perm(pattern, k, n).items():
        if s != d:
            c.update(path(sel, k, n, s, d))
    return c


def count(args):
    k, n, pattern = int(args[0]), int(args[1]), args[2]
    sels = args[3:] or ["ff", "ssp", "sdp", "sop", "sadp"]
    print("selection,stage,direction,links_used,max_flows_on_a_link,links_with_2_or_more,bound")
    for sel in sels:
        c = flows_per_link(sel, k, n, pattern)
        per = defaultdict(list)
        for (s, d, _, _), m in c.items():
            per[(s, d)].append(m)
        worst = max(c.values())
        for (s, d) in sorted(per, key=lambda x: (x[1] == "down", x[0] if x[1] == "up" else -x[0])):
            v = per[(s, d)]
            print(f"{sel},{s},{d},{len(v)},{max(v)},{sum(x >= 2 for x in v)},{1 / max(v):.3f}")
        print(f"{sel},all,,{len(c)},{worst},{sum(x >= 2 for x in c.values())},{1 / worst:.3f}")


LINK = re.compile(r"SW<(\d+),(\d+)>")


def sim_links(path_):
    run = json.load(open(path_))["runs"][0]
    out = {}
    for l in run["utilization"]["links"]:
        m = LINK.search(l["node"])
        if m:
            out[(int(m.group(1)), m.group(2), l["port"])] = l["util"]
    return run, out


def label(w):
    return "".join(str(x) for x in reversed(w))


def links(args):
    js, k, n, pattern, sel = args[0], int(args[1]), int(args[2]), args[3], args[4]
    run, util = sim_links(js)
    load = run["load"]
    c = flows_per_link(sel, k, n, pattern)
    pred = {(s, label(w), port): m * load for (s, d, w, port), m in c.items()}
    print(f"# {js}: load {load}, accepted {run['accepted_fraction']:.3f}")
    print("stage,direction,links,util_mean,util_max,predicted_max,max_abs_error")
    groups = defaultdict(list)
    for (s, w, port), u in util.items():
        d = "up" if port > k else "down"
        groups[(s, d)].append((u, pred.get((s, w, port), 0.0)))
    for (s, d) in sorted(groups, key=lambda x: (x[1] == "down", x[0] if x[1] == "up" else -x[0])):
        v = groups[(s, d)]
        if d == "up" and s == n - 1:
            continue
        print(f"{s},{d},{len(v)},{statistics.mean(u for u, _ in v):.3f},{max(u for u, _ in v):.3f},"
              f"{max(p for _, p in v):.3f},{max(abs(u - p) for u, p in v):.3f}")


def spread(args):
    print("id,selection,load,accepted,latency_ns,stage,direction,links,util_mean,util_cv,util_max,"
          "busiest_up_port_share")
    for js in args:
        run, util = sim_links(js)
        sel = json.load(open(js))["options"].get("selection", "")
        k = max(port for _, _, port in util) // 2
        groups = defaultdict(list)
        sw = defaultdict(list)
        for (s, w, port), u in util.items():
            d = "up" if port > k else "down"
            groups[(s, d)].append(u)
            if d == "up":
                sw[(s, w)].append(u)
        for (s, d) in sorted(groups, key=lambda x: (x[1] == "down", x[0] if x[1] == "up" else -x[0])):
            v = groups[(s, d)]
            m = statistics.mean(v)
            share = ""
            if d == "up":
                sh = [max(x) / sum(x) for (st, _), x in sw.items() if st == s and sum(x) > 0]
                share = f"{statistics.mean(sh):.3f}"
            print(f"{js},{sel},{run['load']},{run['accepted_fraction']:.3f},{run['latency_ns']['mean']:.0f},"
                  f"{s},{d},{len(v)},{m:.3f},{statistics.pstdev(v) / m if m else 0:.3f},{max(v):.3f},{share}")


def row(args):
    import hashlib
    ident, js = args
    d = json.load(open(js))
    run = d["runs"][0]
    digest = hashlib.sha1(json.dumps([(l["node"], l["port"], l["util"]) for l in run["utilization"]["links"]])
                          .encode()).hexdigest()[:12]
    print(f"{ident},{d['options'].get('selection', '')},{run['load']},{run['accepted_fraction']:.4f},"
          f"{run['latency_ns']['mean']:.0f},{digest}")


if __name__ == "__main__":
    cmd, rest = sys.argv[1], sys.argv[2:]
    sys.exit({"count": count, "links": links, "spread": spread, "row": row}[cmd](rest))
