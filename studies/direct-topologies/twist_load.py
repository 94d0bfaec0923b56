#!/usr/bin/env python3
"""Expected channel load of (Twisted) (Mixed) DOR on a FlatFly under uniform traffic.

Why: paper 003 §3.3's Twisted Mixed routings came out far below the paper's figures at full
scale (docs/history/direct-topologies-log.md, "Full scale: the FlatFly"). The twist goes to
coordinate d mod K of one dimension, and Mixed picks the order from d mod 4 (d: the
destination host's index in its switch), so the two choices are correlated. This counts, for
each directed link, the uniform traffic the deterministic routing puts on it (per unit of
injection per host, divided by the link's width); the busiest link bounds the saturation
throughput at 1 / load. Two readings of where the twist goes:
  order-last  the last dimension of the packet's order (engines/flatfly/adaptive_routings.hpp)
  dim-n       always the FlatFly's last dimension n, as §3.3 writes (x_1, ..., d mod K_n)
Usage: twist_load.py [--k 4,8,8,8] [--width 2,1,1,1] [--hosts 8]   (standard library only)
"""
import argparse
import itertools

# §3.3's four orders (dimensions from 0), the first one DOR's.
ORDERS = [[0, 1, 2, 3], [1, 3, 0, 2], [2, 0, 3, 1], [3, 2, 1, 0]]


def max_link_load(k, width, hosts, mixed, twist):
    n = len(k)
    switches = 1
    for x in k:
        switches *= x
    per_flow = 1.0 / switches  # one (source switch, destination switch, rank) flow
    worst = 0.0
    for a in itertools.product(*[range(x) for x in k]):
        for dim in range(n):
            for b in range(k[dim]):
                if b == a[dim]:
                    continue
                load = 0.0
                for rank in range(hosts):
                    order = ORDERS[rank % 4] if mixed else ORDERS[0]
                    td = None if twist is None else (order[-1] if twist == "order-last" else n - 1)
                    z = None if td is None else rank % k[td]
                    # The DOR hop a -> b in `dim`: count the (source, destination) switch
                    # pairs whose path takes it. Dimensions corrected before `dim` are the
                    # destination's (source free), later ones the twisted source's
                    # (destination free); the twist dimension's source coordinate is free but
                    # must have been turned into z.
                    pairs = 1
                    for j in range(n):
                        if order.index(j) < order.index(dim):
                            pairs *= k[j]
                        elif j == td:
                            if a[j] != z:
                                pairs = 0
                                break
                            pairs *= k[j] * (1 if j == dim else k[j])
                        elif j != dim:
                            pairs *= k[j]
                    load += pairs * per_flow
                    # The twist hop itself: every flow of this rank out of switch a.
                    if td == dim and b == z and a[dim] != z:
                        load += switches * per_flow
                worst = max(worst, load / width[dim])
    return worst


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--k", default="4,8,8,8")
    p.add_argument("--width", default="2,1,1,1")
    p.add_argument("--hosts", type=int, default=8)
    a = p.parse_args()
    k = [int(x) for x in a.k.split(",")]
    width = [int(x) for x in a.width.split(",")]
    if len(k) != 4 or len(width) != 4:
        p.error("the four orders of §3.3 need four dimensions")
    for name, mixed, twist in [
        ("DOR", False, None),
        ("Mixed DOR", True, None),
        ("Twisted DOR", False, "dim-n"),
        ("Twisted Mixed DOR, twist in the order's last dimension (ibrt)", True, "order-last"),
        ("Twisted Mixed DOR, twist in dimension n (§3.3 as written)", True, "dim-n"),
    ]:
        load = max_link_load(k, width, a.hosts, mixed, twist)
        print(f"{name}: busiest link {load:.2f} x the injection rate -> at most {100 / load:.1f} %")


if __name__ == "__main__":
    main()
