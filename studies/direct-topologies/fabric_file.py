"""What the study's analysis scripts (uniform_bound.py, wiring/bit_flows.py,
wiring/static_load.py) read of a fabric and of ibrt's traffic, in one place: the fabric file
as `ibrt gen` writes it (ibnetdiscover / ibsim format), ibrt's host orders
(sim/host_order.hpp) and its bit patterns (sim/traffic.hpp, Dally & Towles' definitions).
Switches and CAs are numbered in file order, which for `ibrt gen`'s files is ibrt's natural
host order. Standard library only."""
import collections
import re
import sys

M = (1 << 64) - 1


class Rng:  # fabric/rng.hpp: splitmix64-seeded xoshiro256**
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
            if r >= th:
                return r % n


def random_permutation(n, seed):  # fabric/permutations.cpp
    to = list(range(n))
    rng = Rng(seed ^ 0x7065726d75746521)
    for i in range(n - 1, 0, -1):
        j = rng.below(i)
        to[i], to[j] = to[j], to[i]
    return to


Fabric = collections.namedtuple("Fabric", "switches ca_sw adj")
# switches: names in file order; ca_sw: per CA (file order) its switch's index;
# adj: per switch {neighbour switch index: parallel cables}, neighbours in port order.


def read_fabric(path):
    kind, peers, order = {}, {}, []
    node = None
    for ln in open(path):
        m = re.match(r'(Ca|Switch)\s+\d+\s+"([^"]+)"', ln)
        if m:
            node = m.group(2)
            kind[node] = m.group(1)
            peers.setdefault(node, [])
            order.append(node)
            continue
        m = re.match(r'\[\d+\]\S*\s+"([^"]+)"', ln)
        if m and node is not None:
            peers[node].append(m.group(1))
    switches = [n for n in order if kind[n] == "Switch"]
    index = {s: i for i, s in enumerate(switches)}
    ca_sw = [index[peers[n][0]] for n in order if kind[n] == "Ca" and peers[n]]
    adj = [dict() for _ in switches]
    for s in switches:
        a = adj[index[s]]
        for p in peers[s]:
            if kind.get(p) == "Switch":
                a[index[p]] = a.get(index[p], 0) + 1
    return Fabric(switches, ca_sw, adj)


def host_order(name, ca_sw, seed):
    """order[i]: the CA that host index i names (sim/host_order.hpp)."""
    n = len(ca_sw)
    if name == "natural":
        return list(range(n))
    if name == "random":
        return random_permutation(n, seed ^ 0x686F73742D6F7264)
    if name == "port-major":  # a switch's first host, then its second, ...
        fill = collections.Counter()
        key = []
        for i, s in enumerate(ca_sw):
            key.append((fill[s], s, i))
            fill[s] += 1
        return [k[2] for k in sorted(key)]
    sys.exit("order must be natural, port-major or random")


def bit_pattern(name, b):
    """The destination index of source index s under a bit permutation of b bits."""
    n = 1 << b
    h = b // 2
    rotr = lambda s, k: ((s >> k) | (s << (b - k))) & (n - 1)
    return {
        "complement": lambda s: n - 1 - s,
        "bitrev": lambda s: int(format(s, "0%db" % b)[::-1], 2),
        "transpose": lambda s: rotr(s, h),
        "shuffle": lambda s: rotr(s, b - 1),
        "bitrot": lambda s: rotr(s, 1),
    }[name]
