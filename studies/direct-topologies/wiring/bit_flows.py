#!/usr/bin/env python3
"""Where a bit pattern's flows go, switch by switch, under a host numbering: why the
topology-agnostic routings (paper 003 §3.7, Distance Based / Deflection) sit far above the
paper's table on the bit patterns of the FlatFly and SF×FF (docs/history/direct-topologies-log.md,
"The bit patterns above the paper: host numbering, measured").

A bit pattern is one flow per host. What a minimal adaptive routing can do with it depends on
how the flows group by switch: k flows from one switch to one other switch at distance 1 have
one (bundle of) channel(s) between them, so minimal routing cannot give them more than
width / k; flows of a switch spread over many destination switches share nothing. For a
fabric file, a host order and a pattern this prints

  - per source switch, how many distinct destination switches its hosts send to;
  - the most flows from one switch to one other switch (a switch pair);
  - the fewest flows the busiest first- or last-hop channel (one cable, one direction) must
    carry under any minimal routing, each parallel cable a channel; 1 / that bounds the
    onset of every minimal routing (Distance Based; no simulation; not a bound for +E,
    whose extra hops may leave by any cable). It misses cuts inside the fabric: complement
    on the FlatFly 4x8x8x8 makes every flow cross, in each dimension of 8, a cable from x to
    7 - x, one per switch: 8 flows a cable on average for any minimal routing, which the
    endpoints do not show;
  - the most flows on one channel when every flow splits evenly over its minimal next hops
    at every switch: what an oblivious minimal routing loads (an adaptive one can do better);
  - whether the flows are the same set as under the natural order.

Host orders are ibrt's (sim/host_order.hpp): natural, port-major, random (`--seed`, the
bijection `ibrt sim --host-order random` draws; fabric_file.py). `--on
switches` applies the pattern to the switch index instead of the host index and keeps the
host's port (host p of switch s sends to host p of switch P(s)): every pattern then moves a
switch's hosts as one block, which a numbering of the hosts cannot do (no set of 3 of the 14
index bits is mapped onto itself by reversal, transpose or rotation). On 2^11 switches the
transpose rotates the 11 bits by 5 (D&T's d_i = s_((i + b/2) mod b) with b/2 rounded down).
With --pairs OUT it writes the flows as an `ibrt sim --pattern pairs` file of CA indices.

Switches and CAs are numbered in file order (`ibrt gen`'s, the natural order).

usage: bit_flows.py FABRIC.net ORDER PATTERN [--seed S] [--on hosts|switches] [--pairs OUT]
(standard library only; about 15 s on a full-scale fabric)
"""
import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from fabric_file import bit_pattern, host_order, read_fabric  # noqa: E402


def distances(adj):
    """dist[t][v]: switch hops from v to t (bitset BFS of all pairs at once)."""
    n = len(adj)
    reach = [1 << v for v in range(n)]
    dist = [bytearray(b"\xff" * n) for _ in range(n)]
    for v in range(n):
        dist[v][v] = 0
    k = 0
    while True:
        k += 1
        nxt = []
        for v in range(n):
            r = reach[v]
            for u in adj[v]:
                r |= reach[u]
            nxt.append(r)
        grown = False
        for v in range(n):
            new = nxt[v] & ~reach[v]
            while new:
                low = new & -new
                dist[low.bit_length() - 1][v] = k
                new ^= low
                grown = True
        reach = nxt
        if not grown:
            return dist


def flows_of(ca_sw, order, pattern, on):
    n = len(ca_sw)
    if on == "hosts":
        b = n.bit_length() - 1
        if 1 << b != n:
            sys.exit("bit_flows.py: %d CAs, not a power of two" % n)
        f = bit_pattern(pattern, b)
        return [(order[s], order[f(s)]) for s in range(n) if f(s) != s]
    per = collections.Counter(ca_sw)
    c = per[0]
    n_sw = len(per)
    b = n_sw.bit_length() - 1
    if 1 << b != n_sw or any(v != c for v in per.values()):
        sys.exit("bit_flows.py: --on switches needs 2^b switches with equal hosts")
    f = bit_pattern(pattern, b)
    return [(s * c + p, f(s) * c + p) for s in range(n_sw) for p in range(c) if f(s) != s]


def even_split_load(adj, dist, pair_flows):
    """Most flows on one channel when every flow splits evenly over its minimal next hops at
    every switch (each parallel cable a next hop): an oblivious minimal routing's load."""
    load = collections.defaultdict(float)
    for (a, z), k in pair_flows.items():
        dz = dist[z]
        layer = {a: float(k)}
        d = dz[a]
        while d > 0:
            nxt = collections.defaultdict(float)
            for v, x in layer.items():
                hops = [(u, w) for u, w in adj[v].items() if dz[u] == d - 1]
                tot = sum(w for _, w in hops)
                for u, w in hops:
                    load[(v, u)] += x / tot  # per cable of the bundle
                    nxt[u] += x * w / tot
            layer = nxt
            d -= 1
    return max(load.values()) if load else 0.0


def endpoint_load(adj, dist, pair_flows):
    """The fewest flows that the busiest first- or last-hop channel must carry under any
    minimal routing: a flow from a to z may leave a only on a cable to a neighbour one hop
    closer to z (and enter z only from one), so for every set T of a switch's destinations
    the flows to T share the union of their allowed cables (Hall's condition: the exact
    optimum of this fractional assignment is the largest such ratio)."""
    out, inn = collections.defaultdict(list), collections.defaultdict(list)
    for (a, z), k in pair_flows.items():
        d = dist[z][a]
        out[a].append((k, frozenset((u, i) for u, w in adj[a].items() if dist[z][u] == d - 1
                                    for i in range(w))))
        inn[z].append((k, frozenset((u, i) for u, w in adj[z].items() if dist[u][a] == d - 1
                                    for i in range(w))))
    best = 0.0
    for side in (out, inn):
        for sets in side.values():
            m = len(sets)
            if m > 12:
                sys.exit("bit_flows.py: more than 12 destinations per switch")
            for mask in range(1, 1 << m):
                flows, cables = 0, frozenset()
                for j in range(m):
                    if mask >> j & 1:
                        flows += sets[j][0]
                        cables |= sets[j][1]
                best = max(best, flows / len(cables))
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("fabric")
    ap.add_argument("order", choices=["natural", "port-major", "random"])
    ap.add_argument("pattern", choices=["complement", "bitrev", "bitrot", "shuffle", "transpose"])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--on", choices=["hosts", "switches"], default="hosts")
    ap.add_argument("--pairs")
    a = ap.parse_args()
    fab = read_fabric(a.fabric)
    ca_sw, adj = fab.ca_sw, fab.adj
    order = host_order(a.order, ca_sw, a.seed)
    flows = flows_of(ca_sw, order, a.pattern, a.on)
    if a.pairs:
        with open(a.pairs, "w") as o:
            o.write("# %s, host order %s (seed %d), %s on %s\n"
                    % (a.fabric, a.order, a.seed, a.pattern, a.on))
            o.writelines("%d %d\n" % fl for fl in flows)
    natural = set(flows_of(ca_sw, list(range(len(ca_sw))), a.pattern, "hosts"))
    same = set(flows) == natural
    pair_flows = collections.Counter((ca_sw[s], ca_sw[d]) for s, d in flows)
    local = sum(k for (x, y), k in pair_flows.items() if x == y)
    pair_flows = {p: k for p, k in pair_flows.items() if p[0] != p[1]}
    dests = collections.defaultdict(set)
    for x, y in pair_flows:
        dests[x].add(y)
    nd = [len(dests[s]) for s in range(len(adj)) if s in dests]
    dist = distances(adj)
    at_d = collections.Counter(dist[y][x] for (x, y) in pair_flows)
    mx = endpoint_load(adj, dist, pair_flows)
    ev = even_split_load(adj, dist, pair_flows)
    print("%s %s %s on %s: %d flows (%d within a switch)%s" % (
        os.path.basename(a.fabric), a.order, a.pattern, a.on, len(flows), local,
        ", the natural order's flows" if same else ""))
    print("  destination switches per source switch: min %d, mean %.2f, max %d"
          % (min(nd), sum(nd) / len(nd), max(nd)))
    print("  flows per switch pair: max %d; switch pairs by distance %s"
          % (max(pair_flows.values()), dict(sorted(at_d.items()))))
    print("  any minimal routing: at least %.2f flows on one first- or last-hop channel -> "
          "onset at most %.1f %%" % (mx, 100.0 / mx))
    print("  minimal next hops split evenly: %.2f flows on the busiest channel -> %.1f %%"
          % (ev, 100.0 / ev))


if __name__ == "__main__":
    main()
