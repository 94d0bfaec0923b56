#!/usr/bin/env python3
"""Link utilization of one `ibrt sim --json` run on an m-port n-tree, by link class: injection
(CA -> leaf), each switch level up and down, ejection (leaf -> CA). Prints per class the number
of link directions, the mean and the max utilization, and max / mean.

  mlid-vs-slid-links.py FABRIC.net RUN.json [RUN.json ...]

FABRIC.net is the `ibrt gen fat-tree` topology the runs used (switch names SW<digits,level>,
level 0 the roots). Standard library only."""
import collections
import importlib.util
import json
import os
import re
import sys


def peers(net):
    """(node name, port) -> peer node name, from an ibnetdiscover file (mlid-vs-slid-paths.py's
    reader)."""
    spec = importlib.util.spec_from_file_location(
        "paths", os.path.join(os.path.dirname(os.path.abspath(__file__)), "mlid-vs-slid-paths.py"))
    paths = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(paths)
    return {k: peer for k, (peer, _) in paths.fabric(net)[0].items()}


def level(name):
    m = re.match(r"SW<[^,]*,(\d+)>", name)
    return int(m.group(1)) if m else None


def classify(node, peer):
    a, b = level(node), level(peer)
    if a is None:
        return "injection (CA -> leaf)"
    if b is None:
        return "ejection (leaf -> CA)"
    return f"up {a} -> {b}" if b < a else f"down {a} -> {b}"


def main(argv):
    p = peers(argv[0])
    for run in argv[1:]:
        d = json.load(open(run))
        r = d["runs"][0]
        groups = collections.defaultdict(list)
        for link in r["utilization"]["links"]:
            node = re.match(r"(?:switch|CA) '([^']+)'", link["node"]).group(1)
            groups[classify(node, p[(node, link["port"])])].append(link["util"])
        print(f"{run}: {d['routing']['engine']} LMC {d['routing']['lmc']}, {d['config']['vls']} VLs, "
              f"load {r['load']}, accepted {r['accepted_fraction']:.4f}")
        print("| links | directions | mean | max | max / mean |")
        print("|---|---|---|---|---|")
        order = sorted(groups, key=lambda g: (not g.startswith("inj"), not g.startswith("up"), g.startswith("ej"),
                                              g if g.startswith("up") else g[::-1]))
        for g in order:
            u = groups[g]
            mean = sum(u) / len(u)
            print(f"| {g} | {len(u)} | {mean:.3f} | {max(u):.3f} | {max(u) / mean:.3f} |")
        print()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
