#!/usr/bin/env python3
"""Channel load of DOR and Mixed DOR on a hypercube under paper 003's bit patterns.

Why: on the full-scale hypercube (11D, double links, 8 hosts per switch) our DOR has rotation
and shuffle the other way round from the paper's table (12.5 / 25.0 against 24.2 / 11.7),
and our Mixed DOR is above the paper on uniform and shuffle (docs/history/direct-topologies-log.md,
"Full scale: the hypercube"). A bit permutation is a fixed set of flows, one per host, so
counting the flows DOR puts on each link says which link saturates first: 1 / (most flows on
one link) bounds the onset. This counts them under the assumptions the paper leaves open:

  order    which switch bit DOR corrects first. ibrt's mapping numbers a hypercube's
           dimensions from the generator's last coordinate (`ibrt map`), and `ibrt gen` puts
           that coordinate in the host index's lowest switch bit, so ibrt's DOR corrects
           bit c first ("low"; c = log2 hosts per switch); "high" corrects bit b - 1 first;
  links    how a destination picks one of the L parallel cables: "lid" = the static flatfly
           engine's rule (engines/direct/neighbor_ports.hpp: cable lid mod L of the sorted
           ports; CA host h has LID h + 1, `ibrt route`'s guid2lid), so with L = 2 the
           destination's bit 0; "bit k" = by the destination's port bit k instead; "any" =
           the flows spread evenly over the L cables (adaptive choice among parallel cables,
           as ibrt's Mixed DOR offers them);
  mixed    Mixed DOR: the order picked by the destination host's index in its switch mod 4,
           among ibrt's four orders for N != 4 (engines/flatfly/adaptive_routings.cpp:
           identity, reverse, rotated left by one, rotated right by one), on top of `order`;
  swap     bit rotation and shuffle exchanged (the other reading of D&T's direction).

Hosts are numbered naturally (the switch's coordinates, then the host's port: switch bits on
top), as `ibrt sim --host-order natural`. Uniform traffic is not counted here: any minimal
routing puts rate 8 r / 2 on each direction of a dimension's L = 2 cables of a switch (half
the destinations differ in each bit), a bound of 50 % for every routing below.

Usage: cube_load.py [--dims 11] [--hosts 8] [--width 2]  (standard library only; ~10 s)
       cube_load.py --pairs OUT --pattern P [--order high] [--cable-bit K]  writes the flows
       of P as an `ibrt sim --pattern pairs` file of CA indices that makes ibrt's DOR behave
       as the options say: host h -> CA h with its switch bits reversed (--order high: the
       hypercube automorphism that maps ibrt's low-first DOR onto high-first DOR) and its
       port bits 0 and K exchanged (--cable-bit K: hosts of a switch are interchangeable,
       and the CA's bit 0 picks the cable, so the cable follows the host's bit K)
"""
import argparse
import collections


def patterns(b):
    n = 1 << b
    h = b // 2
    return {
        "complement": lambda s: n - 1 - s,
        "bitrev": lambda s: int(format(s, "0%db" % b)[::-1], 2),
        "bitrot": lambda s: (s >> 1) | ((s & 1) << (b - 1)),  # d_i = s_(i+1)
        "shuffle": lambda s: ((s << 1) | (s >> (b - 1))) & (n - 1),  # d_i = s_(i-1)
        "transpose": lambda s: ((s & ((1 << h) - 1)) << h) | (s >> h),
    }


def orders(dims, first, mixed):
    base = list(range(dims))
    if not mixed:
        out = [base]
    else:
        left = base[1:] + base[:1]
        right = base[-1:] + base[:-1]
        out = [base, base[::-1], left, right]
    if first == "high":  # the same orders with the dimensions numbered from the top bit
        out = [[dims - 1 - j for j in o] for o in out]
    return out


def most_flows(dims, c, width, pattern, first, links, mixed, swap, cable_bit=0):
    b = dims + c
    pats = patterns(b)
    if swap and pattern in ("bitrot", "shuffle"):
        pattern = "shuffle" if pattern == "bitrot" else "bitrot"
    f = pats[pattern]
    ords = orders(dims, first, mixed)
    load = collections.Counter()
    for s in range(1 << b):
        d = f(s)
        x, y = s >> c, d >> c
        order = ords[(d & ((1 << c) - 1)) % 4] if mixed else ords[0]
        cable = ((d >> cable_bit) + 1) % width if links == "lid" else 0
        for j in order:
            if (x ^ y) >> j & 1:
                load[(x, j, cable)] += 1
                x ^= 1 << j
    if not load:
        return 0.0
    worst = max(load.values())
    return worst / width if links == "any" else float(worst)


def relabel(h, dims, c, reverse, cable_bit):
    sw, port = h >> c, h & ((1 << c) - 1)
    if reverse:
        sw = int(format(sw, "0%db" % dims)[::-1], 2)
    if cable_bit:
        b0, bk = port & 1, (port >> cable_bit) & 1
        port = port & ~(1 | (1 << cable_bit)) | bk | (b0 << cable_bit)
    return (sw << c) | port


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dims", type=int, default=11)
    p.add_argument("--hosts", type=int, default=8, help="hosts per switch, a power of two")
    p.add_argument("--width", type=int, default=2, help="parallel cables per link")
    p.add_argument("--pairs", help="write the pattern's flows under --order as a pairs file")
    p.add_argument("--pattern", choices=sorted(patterns(2)))
    p.add_argument("--order", choices=["low", "high"], default="high")
    p.add_argument("--cable-bit", type=int, default=0, help="port bit that picks the cable")
    a = p.parse_args()
    c = a.hosts.bit_length() - 1
    if 1 << c != a.hosts:
        p.error("--hosts must be a power of two")
    if a.pairs:
        if not a.pattern:
            p.error("--pairs needs --pattern")
        if not 0 <= a.cable_bit < c:
            p.error("--cable-bit must name a port bit")
        f = patterns(a.dims + c)[a.pattern]
        with open(a.pairs, "w") as out:
            out.write("# %s on %dD hypercube, %d hosts per switch, DOR from the %s bit, "
                      "cable by port bit %d\n" % (a.pattern, a.dims, a.hosts, a.order,
                                                  a.cable_bit))
            for s in range(1 << (a.dims + c)):
                if f(s) != s:
                    m = [relabel(x, a.dims, c, a.order == "high", a.cable_bit) for x in (s, f(s))]
                    out.write("%d %d\n" % tuple(m))
        return
    rows = [
        ("DOR (static: cable by LID)", False, "lid", 0),
        ("DOR, cable by dest. port bit 2", False, "lid", 2),
        ("DOR, cables shared evenly", False, "any", 0),
        ("Mixed DOR (cables shared evenly)", True, "any", 0),
    ]
    pats = ["complement", "bitrev", "bitrot", "shuffle", "transpose"]
    print("most flows on one cable -> bound on the onset (%%), %dD, %d hosts per switch, L = %d"
          % (a.dims, a.hosts, a.width))
    print("%-34s %-5s %-4s " % ("routing", "first", "swap") + " ".join("%-16s" % x for x in pats))
    for name, mixed, links, cable_bit in rows:
        if cable_bit >= c:
            continue
        for first in ("low", "high"):
            for swap in (False, True):
                cells = []
                for pat in pats:
                    m = most_flows(a.dims, c, a.width, pat, first, links, mixed, swap, cable_bit)
                    cells.append("%-16s" % ("%g -> %.1f" % (m, 100.0 / m)))
                print("%-34s %-5s %-4s " % (name, first, "yes" if swap else "no") + " ".join(cells))


if __name__ == "__main__":
    main()
