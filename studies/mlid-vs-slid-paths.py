#!/usr/bin/env python3
"""Path diversity and link sharing of a routing on an m-port n-tree, from `ibrt route`'s files:
every (source, destination) pair's path is traced through the LFTs with the DLID the path
selection gives it (the base LID where it gives none), and per link class it prints how many
distinct sources use an up link and how many distinct destinations a down link serves (1 on
every link of a class: no two flows of different sources, or to different destinations,
meet there), and per destination how many roots its traffic comes down from.

  mlid-vs-slid-paths.py FABRIC.net ROUTE_DIR [ROUTE_DIR ...]

ROUTE_DIR is `ibrt route --engine E --fabric FABRIC.net --out ROUTE_DIR`. Standard library only."""
import collections
import re
import sys


def fabric(net):
    """Node names, CA port GUIDs -> name, (node, port) -> (peer, peer port)."""
    links, ca_guid, node = {}, {}, None
    for line in open(net):
        m = re.match(r'^(Switch|Ca)\s+\d+\s+"([^"]+)"', line)
        if m:
            node = m.group(2)
            continue
        m = re.match(r'^\[(\d+)\](?:\(([0-9a-fA-F]+)\))?\s+"([^"]+)"\[(\d+)\]', line)
        if m and node:
            links[(node, int(m.group(1)))] = (m.group(3), int(m.group(4)))
            if m.group(2):
                ca_guid[int(m.group(2), 16)] = node
    return links, ca_guid


def level(name):
    m = re.match(r"SW<[^,]*,(\d+)>", name)
    return int(m.group(1)) if m else None


def routes(d, ca_guid):
    lft, sw = {}, None
    for line in open(f"{d}/opensm-lfts.dump"):
        m = re.match(r"Unicast lids .* \('([^']+)'\):", line)
        if m:
            sw = m.group(1)
            lft[sw] = {}
            continue
        m = re.match(r"0x([0-9a-fA-F]+)\s+(\d+)", line)
        if m and sw:
            lft[sw][int(m.group(1), 16)] = int(m.group(2))
    base = {}
    for line in open(f"{d}/guid2lid"):
        f = line.split()
        if len(f) == 3 and int(f[0], 16) in ca_guid:
            base[ca_guid[int(f[0], 16)]] = int(f[1], 16)
    sel = {}
    try:
        for line in open(f"{d}/path-selection"):
            if line.startswith("#"):
                continue
            s, t, dlid = line.split()
            sel[(ca_guid[int(s, 16)], ca_guid[int(t, 16)])] = int(dlid)
    except FileNotFoundError:
        pass
    return lft, base, sel


def main(argv):
    links, ca_guid = fabric(argv[0])
    cas = sorted(ca_guid.values())
    for d in argv[1:]:
        lft, base, sel = routes(d, ca_guid)
        users = collections.defaultdict(set)  # (class, link) -> sources (up) or destinations (down)
        roots = collections.defaultdict(set)  # destination -> roots its traffic passes
        for s in cas:
            for t in cas:
                if s == t:
                    continue
                dlid = sel.get((s, t), base[t])
                node, _ = links[(s, 1)]
                top = None
                for _ in range(64):
                    if node == t:
                        break
                    port = lft[node][dlid]
                    peer, _ = links[(node, port)]
                    a, b = level(node), level(peer)
                    if b is not None and b < a:
                        users[(f"up {a} -> {b}", node, port)].add(s)
                    elif b is not None:
                        users[(f"down {a} -> {b}", node, port)].add(t)
                    if a == 0:
                        top = node
                    node = peer
                else:
                    sys.exit(f"{d}: {s} -> {t}: no way to the destination")
                if top:
                    roots[t].add(top)
        print(f"{d}:")
        print("| links | directions used | distinct sources (up) or destinations (down) per link: mean | max |")
        print("|---|---|---|---|")
        per = collections.defaultdict(list)
        for (cls, _, _), who in users.items():
            per[cls].append(len(who))
        for cls in sorted(per, key=lambda c: (c.startswith("down"), c if c.startswith("up") else c[::-1])):
            n = per[cls]
            print(f"| {cls} | {len(n)} | {sum(n) / len(n):.2f} | {max(n)} |")
        r = [len(x) for x in roots.values()]
        print(f"roots a destination's traffic comes down from: min {min(r)}, mean {sum(r) / len(r):.2f}, "
              f"max {max(r)} (of {len({n for n in lft if level(n) == 0})} roots)\n")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
