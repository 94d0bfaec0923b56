#!/usr/bin/env python3
"""Where greedy and color/L lose on paper 001's Figs. 10-11 (issue 39): reads the per-destination
CSV of `ibrt lids --study-regular --dests-csv FILE` (every destination the repair changed) and
prints, per figure and number of broken links: the destinations touched per failure set, the
optimum's k (ILP) and how often it equals the largest clique (the lower bound), the share of
optima at a power of two (2, 4, 8: one configuration more doubles the LIDs), each heuristic's
misses (more LIDs than the optimum) by (optimum k -> heuristic k), and the misses at the
destination with the most re-routed paths of each failure set.

  lids-regular-dests.py FILE        Standard library only."""
import collections
import csv
import sys


def lids(k):
    return 1 << (k - 1).bit_length()


def main(path):
    rows = list(csv.DictReader(open(path)))
    groups = collections.defaultdict(list)
    for r in rows:
        groups[(r["figure"], int(r["broken_links"]))].append(r)
    for (fig, b), rs in sorted(groups.items()):
        sets = sorted({int(r["seed"]) for r in rs})
        k = [int(r["ilp_k"]) for r in rs]
        at_clique = sum(r["ilp_k"] == r["clique_bound"] for r in rs)
        pow2 = sum(x in (2, 4, 8, 16) for x in k)
        print(f"{fig} {b} broken: {len(rs) / len(sets):.1f} destinations touched per set ({len(sets)} sets); "
              f"optimum = largest clique at {at_clique} of {len(rs)}; optimum k "
              + ", ".join(f"{v}: {n}" for v, n in sorted(collections.Counter(k).items()))
              + f"; at 2, 4, 8 or 16: {100 * pow2 / len(rs):.0f} %")
        for h in ("greedy", "color_l"):
            miss = collections.Counter((int(r["ilp_k"]), int(r[h + "_k"])) for r in rs
                                       if lids(int(r[h + "_k"])) > lids(int(r["ilp_k"])))
            top = 0
            for s in sets:
                worst = max((r for r in rs if int(r["seed"]) == s), key=lambda r: int(r["repaired_paths"]))
                top += lids(int(worst[h + "_k"])) > lids(int(worst["ilp_k"]))
            print(f"  {h}: {sum(miss.values())} misses (" + ", ".join(f"{a} -> {c}: {n}" for (a, c), n in
                                                                  sorted(miss.items()))
                  + f"); at the most re-routed destination of the set: {top} of {len(sets)}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
