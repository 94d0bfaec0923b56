#!/usr/bin/env python3
"""The channel load of paper 003 §3.5's Static Dragonfly routing (a local hop to the switch
with the global cable to the destination group, the global hop, a local hop to the
destination switch) under a bit pattern and a host order, on any Dragonfly fabric file with
ibrt gen's labels ("sw-g<group>-<switch>"): the most flows on one channel, so 1 / that is the
Static routing's saturation bound. No simulation: it says which channel a pattern overloads
(docs/results/direct-topologies.md, "Transpose and reversal on the Dragonfly"). PATTERN
uniform gives the expected load instead (each host spreads its injection rate over the N - 1
others; the host order does not matter): the most load on a local and on a global channel,
in units of one host's injection rate ("Full scale: the Dragonfly", Static on uniform).

The host orders are ibrt's (sim/host_order.hpp): natural, port-major, random (the same
bijection as `ibrt sim --host-order random --seed SEED`: xoshiro256** as in
fabric/generators/rng.hpp). With --pairs OUT it also writes the flows as an `ibrt sim
--pattern pairs` file (CA indices), which reproduces the pattern under that order.

usage: static_load.py FABRIC.net ORDER PATTERN [SEED] [--pairs OUT]"""
import collections
import re
import sys

M = (1 << 64) - 1
class Rng:  # fabric/generators/rng.hpp
    def __init__(self, seed):
        self.s = []
        for _ in range(4):
            seed = (seed + 0x9e3779b97f4a7c15) & M
            z = seed
            z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M
            z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M
            self.s.append(z ^ (z >> 31))
    def next(self):
        s = self.s
        rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & M
        r = (rotl((s[1] * 5) & M, 7) * 9) & M
        t = (s[1] << 17) & M
        s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45)
        return r
    def below(self, n):
        th = ((1 << 64) - n) % n
        while True:
            r = self.next()
            if r >= th: return r % n
def random_permutation(n, seed):  # fabric/permutations.cpp
    to = list(range(n)); rng = Rng(seed ^ 0x7065726d75746521)
    for i in range(n - 1, 0, -1):
        j = rng.below(i); to[i], to[j] = to[j], to[i]
    return to


def main():
    args = sys.argv[1:]
    pairs_out = None
    if "--pairs" in args:
        i = args.index("--pairs")
        pairs_out = args[i + 1]
        del args[i:i + 2]
    fab, order_name, pat = args[0], args[1], args[2]
    seed = int(args[3]) if len(args) > 3 else 1
    cas, ca_sw, owner = [], [], {}
    cur = None
    for ln in open(fab):
        m = re.match(r'(Ca|Switch)\s+\d+\s+"([^"]+)"', ln)
        if m:
            cur = m.group(2) if m.group(1) == "Switch" else None
            if m.group(1) == "Ca":
                cas.append(m.group(2))
            continue
        m = re.match(r'\[\d+\]\S*\s+"([^"]+)"', ln)
        if m and cur is None and cas and len(ca_sw) < len(cas):
            ca_sw.append(m.group(1))  # a CA's cable: its switch
        if m and cur:
            peer = m.group(1)
            if peer.startswith("sw-") and peer.split("-")[1] != cur.split("-")[1]:
                owner[(cur.split("-")[1], peer.split("-")[1])] = (cur, peer)
    n = len(cas)
    b = n.bit_length() - 1
    if 1 << b != n:
        sys.exit("static_load.py: %d CAs, not a power of two" % n)
    if order_name == "natural":
        order = list(range(n))
    elif order_name == "random":
        order = random_permutation(n, seed ^ 0x686F73742D6F7264)
    elif order_name == "port-major":
        rank, fill, key = {}, [], []
        for i in range(n):
            s = ca_sw[i]
            if s not in rank:
                rank[s] = len(fill)
                fill.append(0)
            key.append((fill[rank[s]], rank[s], i))
            fill[rank[s]] += 1
        order = [k[2] for k in sorted(key)]
    else:
        sys.exit("static_load.py: order must be natural, port-major or random")
    if pat == "uniform":
        return uniform_load(fab, n, ca_sw, owner)
    h = b // 2
    f = {
        "complement": lambda s: n - 1 - s,
        "bitrev": lambda s: int(format(s, "0%db" % b)[::-1], 2),
        "transpose": lambda s: ((s & ((1 << h) - 1)) << h) | (s >> h),
        "shuffle": lambda s: ((s << 1) | (s >> (b - 1))) & (n - 1),
        "bitrot": lambda s: (s >> 1) | ((s & 1) << (b - 1)),
    }[pat]
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
