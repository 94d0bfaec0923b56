#!/usr/bin/env python3
"""The channel load of paper 003 §3.5's Static Dragonfly routing (a local hop to the switch
with the global cable to the destination group, the global hop, a local hop to the
destination switch) under a bit pattern and a host order, on any Dragonfly fabric file with
ibrt gen's labels ("sw-g<group>-<switch>"): the most flows on one channel, so 1 / that is the
Static routing's saturation bound. No simulation: it says which channel a pattern overloads
(docs/results/direct-topologies.md, "Transpose and reversal on the Dragonfly"). PATTERN
uniform gives the expected load instead (each host spreads its injection rate over the N - 1
others; the host order does not matter): the most load on a local and on a global channel,
in units of one host's injection rate (docs/results/direct-topologies.md, "Full scale: the
Dragonfly"; docs/history/direct-topologies-log.md, "Static on uniform").

The host orders and bit patterns are ibrt's, as fabric_file.py reads them: natural,
port-major, random (the same bijection as `ibrt sim --host-order random --seed SEED`). With --pairs OUT it also writes the flows as an `ibrt sim
--pattern pairs` file (CA indices), which reproduces the pattern under that order.

usage: static_load.py FABRIC.net ORDER PATTERN [SEED] [--pairs OUT]"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from fabric_file import bit_pattern, host_order, read_fabric  # noqa: E402


def main():
    args = sys.argv[1:]
    pairs_out = None
    if "--pairs" in args:
        i = args.index("--pairs")
        pairs_out = args[i + 1]
        del args[i:i + 2]
    fab, order_name, pat = args[0], args[1], args[2]
    seed = int(args[3]) if len(args) > 3 else 1
    fabric = read_fabric(fab)
    names = fabric.switches
    ca_sw = [names[i] for i in fabric.ca_sw]
    group = lambda sw: sw.split("-")[1]
    owner = {}  # (group, group): the switch with the global cable and the one it lands on
    for i, a in enumerate(fabric.adj):
        for j in a:
            if group(names[i]) != group(names[j]):
                owner[(group(names[i]), group(names[j]))] = (names[i], names[j])
    n = len(ca_sw)
    b = n.bit_length() - 1
    if 1 << b != n:
        sys.exit("static_load.py: %d CAs, not a power of two" % n)
    order = host_order(order_name, fabric.ca_sw, seed)
    if pat == "uniform":
        return uniform_load(fab, n, ca_sw, owner)
    f = bit_pattern(pat, b)
    flows = [(order[s], order[f(s)]) for s in range(n) if f(s) != s]
    if pairs_out:
        with open(pairs_out, "w") as o:
            o.write("# %s, host order %s (seed %d), %s\n" % (fab, order_name, seed, pat))
            o.writelines("%d %d\n" % fl for fl in flows)
    load = collections.Counter()
    for s, d in flows:
        a, z = ca_sw[s], ca_sw[d]
        ga, gz = a.split("-")[1], z.split("-")[1]
        if a == z:
            continue
        if ga == gz:
            load[(a, z)] += 1
            continue
        o, land = owner[(ga, gz)]
        if o != a:
            load[(a, o)] += 1
        load[(o, land)] += 1
        if land != z:
            load[(land, z)] += 1
    glob = max([v for (x, y), v in load.items() if x.split("-")[1] != y.split("-")[1]] or [0])
    loc = max([v for (x, y), v in load.items() if x.split("-")[1] == y.split("-")[1]] or [0])
    mx = max(glob, loc)
    print("%s %s %s: most flows on a global channel %d, on a local one %d -> Static bound "
          "%.1f %%" % (fab, order_name, pat, glob, loc, 100.0 / mx))


def uniform_load(fab, n, ca_sw, owner):
    hosts = collections.Counter(ca_sw)
    sws = sorted(hosts)
    group = {s: s.split("-")[1] for s in sws}
    load = collections.Counter()
    for a in sws:
        for z in sws:
            if a == z:
                continue
            w = hosts[a] * hosts[z] / (n - 1)
            ga, gz = group[a], group[z]
            if ga == gz:
                load[(a, z)] += w
                continue
            o, land = owner[(ga, gz)]
            if o != a:
                load[(a, o)] += w
            load[(o, land)] += w
            if land != z:
                load[(land, z)] += w
    glob = [v for (x, y), v in load.items() if group[x] != group[y]]
    loc = [v for (x, y), v in load.items() if group[x] == group[y]]
    mx = max(glob + loc)
    print("%s uniform: expected load per host injection rate: global channels %.3f..%.3f "
          "(mean %.3f), local channels %.3f..%.3f (mean %.3f) -> Static bound %.1f %%"
          % (fab, min(glob), max(glob), sum(glob) / len(glob), min(loc), max(loc),
             sum(loc) / len(loc), 100.0 / mx))


if __name__ == "__main__":
    main()
