#!/usr/bin/env python3
"""Count the 4-cycles of one local and three global cables in a Dragonfly fabric file with
ibrt gen's labels ("sw-g<group>-<switch>"). Paper 003 §2.1's rectangle rule makes opposite
sides of such a cycle equivalent, putting a global cable in a group's class of local links:
the union-find mapping (§2.2, mapping/) then misreads the groups. `ibrt gen`'s wiring has none;
rewire.py's arrangements have thousands at full scale (docs/results/direct-topologies.md).
usage: four_cycles.py FABRIC.net"""
import re
import sys


def main():
    adj, cur = {}, None
    for ln in open(sys.argv[1]):
        m = re.match(r'Switch\s+\d+\s+"([^"]+)"', ln)
        if m:
            cur = m.group(1)
            adj.setdefault(cur, set())
            continue
        if ln.startswith("Ca"):
            cur = None
        m = re.match(r'\[\d+\]\S*\s+"(sw-[^"]+)"', ln)
        if m and cur:
            adj[cur].add(m.group(1))

    def group(s):
        return s.split("-")[1]

    glob = {s: {t for t in n if group(t) != group(s)} for s, n in adj.items()}
    count, example = 0, None
    for a, n in adj.items():
        for b in n:
            if group(a) != group(b) or a > b:
                continue  # each local cable once
            for x in glob[a]:
                for y in glob[b]:
                    if y in glob[x]:
                        count += 1
                        example = example or (a, x, y, b)
    print("%s: %d 4-cycles of one local and three global cables%s" %
          (sys.argv[1], count, ", e.g. %s - %s - %s - %s" % example if example else ""))


if __name__ == "__main__":
    main()
