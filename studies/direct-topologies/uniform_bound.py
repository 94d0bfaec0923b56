#!/usr/bin/env python3
"""Channel-load bounds of uniform traffic on any fabric file: what the network could carry.

Why: the topology-agnostic routings (paper 003 §3.7, Distance Based +E and Deflection +E) get
76.6 % on the full-scale FlatFly, 66–70 % on SF×FF-1 and 52–57 % on SF×FF-2 under uniform
traffic, for every E, where the paper has 80–96 % (docs/history/direct-topologies-log.md,
"Uniform below the paper and flat in E, measured"). Before blaming the switch model, this
says what the cables allow. Every host sends to each of the N - 1 others at rate 1 / (N - 1)
of its injection bandwidth; a packet crossing D switch-to-switch cables loads D of them.

- average: the C directed cables carry N * mean(D) in all, so the busiest carries at least
  N * mean(D) / C, and no routing (minimal or not: extra hops only add load) saturates above
  C / (N * mean(D)). Host links cap it at 1.
- even split: the load when every switch splits what it forwards toward a destination
  switch evenly over all its cables to switches one hop nearer (Distance Based's high-priority
  candidates, each taken alike): the busiest cable's load, so 1 / that is where this oblivious
  minimal routing saturates. Flow is conserved hop by hop, so this is exact, not sampled.
- one shortest path: the load of the traffic whose shortest path, as a chain of switches, is
  forced up to that cable (each switch before it has one nearer neighbour). Every minimal
  routing puts it there (spread alike over parallel cables), so 1 / the busiest cable's bounds
  every minimal routing, adaptive or not. Weak where paths are many (a product); tight on a
  Slim Fly, where most pairs have one.

On a product such as SF×FF, run it on a factor alone too (`ibrt gen slimfly --q 4 --parallel 2
--cas 8`): a path crosses at least the factor's distance in the factor's cables, whose
per-cable load is the factor's times (h'/(N-1)) / (h/(M-1)) (h' hosts per factor node and N
hosts in the product, h and M in the factor run alone: 0.996 for SF×FF-1, 0.999 for SF×FF-2),
so its lines bound the product more tightly.

Loads are in units of one host's injection rate; parallel cables count one each.
usage: uniform_bound.py FABRIC.net   (ibnetdiscover / ibsim format as `ibrt gen` writes it;
standard library only; about 3 minutes for 2,048 switches)
"""
import sys

from fabric_file import read_fabric


def bounds(adj, hosts):
    n = len(adj)
    N = sum(hosts)
    cables = sum(c for a in adj for _, c in a)
    rate = 1.0 / (N - 1)  # per ordered host pair
    load = [dict.fromkeys((v for v, _ in a), 0.0) for a in adj]  # per cable of (u, v)
    forced = [dict.fromkeys((v for v, _ in a), 0.0) for a in adj]
    hop_sum = 0.0
    for t in range(n):
        if not hosts[t]:
            continue
        dist = [-1] * n
        dist[t] = 0
        order = [t]
        for u in order:  # BFS; `order` ends sorted by distance
            du = dist[u] + 1
            for v, _ in adj[u]:
                if dist[v] < 0:
                    dist[v] = du
                    order.append(v)
        if len(order) != n:
            sys.exit("uniform_bound.py: the switches are not connected")
        inflow = [0.0] * n
        finflow = [0.0] * n
        for u in reversed(order):
            if u == t:
                break
            f = inflow[u] + hosts[u] * hosts[t] * rate
            hop_sum += hosts[u] * hosts[t] * rate * dist[u]
            near = [(v, c) for v, c in adj[u] if dist[v] == dist[u] - 1]
            share = f / sum(c for _, c in near)
            lu = load[u]
            for v, c in near:
                lu[v] += share  # per cable of the bundle
                inflow[v] += share * c
            if len(near) == 1:
                v, c = near[0]
                ff = finflow[u] + hosts[u] * hosts[t] * rate
                forced[u][v] += ff / c
                finflow[v] += ff
    worst = max(x for lu in load for x in lu.values())
    must = max(x for fu in forced for x in fu.values())
    mean_hops = hop_sum / N  # per unit injection per host: the mean distance of a packet
    return N, cables, mean_hops, worst, must


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    fab = read_fabric(sys.argv[1])
    hosts = [0] * len(fab.switches)
    for s in fab.ca_sw:
        hosts[s] += 1
    N, cables, mean_hops, worst, must = bounds([sorted(a.items()) for a in fab.adj], hosts)
    avg = N * mean_hops / cables
    print(f"{len(fab.switches)} switches, {N} hosts, {cables} directed switch-to-switch cables")
    print(f"mean switch hops of a uniform packet: {mean_hops:.4f}")
    print(f"average cable load {avg:.4f} -> any routing saturates at or below "
          f"{100 * min(1.0, 1 / avg):.1f} %")
    print(f"even split over minimal next hops: busiest cable {worst:.4f} -> "
          f"{100 * min(1.0, 1 / worst):.1f} %")
    print(f"one shortest path: busiest cable {must:.4f} -> every minimal routing saturates at "
          f"or below {100 * min(1.0, 1 / must) if must else 100.0:.1f} %")


if __name__ == "__main__":
    main()
