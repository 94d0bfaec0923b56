#!/usr/bin/env python3
"""Rewire the global cables of an `ibrt gen dragonfly --omit-one-global` fabric (G = a*h
groups, one global port per group left free), keeping its CAs, local cables and labels, so
that the Dragonfly's transpose and reversal cells can be measured under other global wirings
(docs/results/direct-topologies.md, "Transpose and reversal on the Dragonfly").

ibrt gen's "absolute" arrangement: group g's global index t (switch t div h, global port
t mod h) goes to group (t < g ? t : t + 1). The two others:
  relative     index t goes to group (g + t + 1) mod G and lands on that group's index
               G - 2 - t; t = G - 1 is the free one (a circulant);
  round-robin  as absolute, but index t sits on switch t mod a, global port t div a.
Ports: 1..p CAs, p+1..p+a-1 local, p+a..p+a+h-1 global (generators/dragonfly.hpp).

usage: rewire.py IN.net A H P relative|round-robin OUT.net"""
import re
import sys


def main():
    src, a, h, p, kind, out = sys.argv[1], *map(int, sys.argv[2:5]), sys.argv[5], sys.argv[6]
    G, fg = a * h, p + a
    if kind not in ("relative", "round-robin"):
        sys.exit("rewire.py: arrangement must be relative or round-robin")

    def cables(g, r):  # (global port, peer group, peer switch, peer port) of switch r of g
        for k in range(h):
            if kind == "relative":
                t = r * h + k
                if t == G - 1:
                    continue
                d, t2 = (g + t + 1) % G, G - 2 - t
                yield fg + k, d, t2 // h, fg + t2 % h
            else:
                t = k * a + r
                if t >= G - 1:
                    continue
                d = t if t < g else t + 1
                t2 = g if g < d else g - 1
                yield fg + k, d, t2 % a, fg + t2 // a

    res, cur = [], None
    for ln in open(src).read().split("\n"):
        m = re.match(r'Switch\s+\d+\s+"sw-g(\d+)-(\d+)"', ln)
        if m:
            cur = (int(m.group(1)), int(m.group(2)))
            res.append(ln)
            continue
        if ln.startswith("Ca"):
            cur = None
        pm = re.match(r"\[(\d+)\]", ln)
        if cur is not None and pm and int(pm.group(1)) >= fg:
            continue  # a global cable of the old arrangement
        if cur is not None and ln == "":
            for port, d, r2, port2 in cables(*cur):
                name = "sw-g%d-%d" % (d, r2)
                res.append('[%d]\t"%s"[%d]\t\t# "%s" lid 0 4xSDR' % (port, name, port2, name))
            cur = None
        res.append(ln)
    open(out, "w").write("\n".join(res))


if __name__ == "__main__":
    main()
