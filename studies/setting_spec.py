#!/usr/bin/env python3
"""A study's sweep spec on its paper's setting (issue 39): one place that merges them.

  setting_spec.py SETTING SEEDS OUT.json   reads the study's spec (JSON) on standard input

The spec's "sim" object holds the study's own keys (measurement windows, what a figure varies);
the setting file (studies/settings/paper-NNN.json) is taken whole under them, so the model is
the paper's and nothing else. A key the setting already sets is refused, unless the study's
value is a list: an axis of a diagnostic that varies the setting on purpose. "seeds" becomes
1..SEEDS. Standard library only."""
import json
import os
import sys


def main(argv):
    setting, seeds, out = argv
    spec = json.load(sys.stdin)
    sim = json.load(open(setting))
    own = spec.get("sim", {})
    clash = sorted(k for k in set(own) & set(sim) if not isinstance(own[k], list))
    if clash:
        sys.exit(f"setting_spec.py: {os.path.basename(setting)} already sets {clash}")
    sim.update(own)
    spec["sim"] = sim
    spec["seeds"] = list(range(1, int(seeds) + 1))
    with open(out, "w") as f:
        json.dump(spec, f, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
