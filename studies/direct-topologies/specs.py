#!/usr/bin/env python3
"""Paper 003's routing study (issue 15) as `ibrt sweep` specs: one spec per topology, full
scale (§1's 2,048 switches of 36 ports, 16,384 hosts) and reduced scale (<= 256 switches, for
`make check`). This file is the one place the routings are listed: ROUTINGS names each row of
paper 003 §4's table by the engine and options that build it. After changing it, rerun:

    python3 studies/direct-topologies/specs.py   # rewrites full/, reduced/, check/, degraded/

Written specs are committed; run.sh runs them (`run.sh full` is the paper's scale).
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# The bit permutations of §4 on 2^n hosts (Dally & Towles Table 3.2; `bitrot` is D&T's bit
# rotation, the paper's "Rotn") and uniform, in the paper's column order.
PATTERNS = ["uniform", "complement", "bitrev", "bitrot", "shuffle", "transpose"]

# Adaptive routings choose among their candidates by local congestion, minimal routes first
# (§3.1: high priority for minimal, low for non-minimal, a third level for deflection; the
# simulator's priority classes do that, `least-loaded` picks within the best class with room).
SELECTION = "least-loaded"


def engine_row(engine, *opts, adaptive=True):
    r = {"engine": engine}
    if opts:
        r["engine-opt"] = list(opts)
    if adaptive:
        r["selection"] = SELECTION
    return r


def distance_rows(engine):
    """§3.7 on every topology with VL hopping: Distance Based +E, E = 0..4; Deflection +E, 2..4."""
    rows = []
    for e in range(5):
        rows.append(("Distance Based" + (f" +{e}" if e else ""),
                     engine_row(engine, f"distance_based={e}"), {"extra_hops": e}))
    for e in range(2, 5):
        rows.append((f"Deflection +{e}", engine_row(engine, f"distance_based={e}", "deflection=true"),
                     {"extra_hops": e}))
    return rows


def flatfly_rows(engine="flatfly"):
    """§3.3: DOR is the static engine; the others its `adaptive=` forwarding sets."""
    rows = [("DOR", engine_row(engine, adaptive=False), {})]
    for label, opt in [("Mixed DOR", "mixed-dor"), ("Twisted DOR", "twisted-dor"),
                       ("Twisted Mixed DOR", "twisted-mixed-dor"), ("ADOR", "ador"),
                       ("Mixed ADOR", "mixed-ador"), ("Twisted ADOR", "twisted-ador"),
                       ("Twisted Mixed ADOR", "twisted-mixed-ador")]:
        rows.append((label, engine_row(engine, f"adaptive={opt}"), {}))
    return rows + distance_rows(engine)


def hypercube_rows():
    """§3.4: FlatFly's DOR and Mixed DOR, and the turn-model routings of the flatfly engine."""
    rows = [("DOR", engine_row("flatfly", adaptive=False), {}),
            ("Mixed DOR", engine_row("flatfly", "adaptive=mixed-dor"), {})]
    for label, opt in [("Negative First", "negative-first"),
                       ("ABO Negative First", "abo-negative-first"),
                       ("ABO Positive Last", "abo-positive-last")]:
        rows.append((label, engine_row("flatfly", f"adaptive={opt}"), {}))
    return rows


def dragonfly_rows():
    """§3.5: Static is the dragonfly engine's tables; the G/S/I/D family its `adaptive=`."""
    rows = [("Static", engine_row("dragonfly", adaptive=False), {})]
    for code in ["S", "D", "SD", "G", "GS", "GI", "GD", "GSI", "GID", "GSD", "GSID"]:
        rows.append((code, engine_row("dragonfly", f"adaptive={code.lower()}"), {}))
    return rows + distance_rows("dragonfly")


def slimfly_rows():
    """§3.6 (minimal) and §3.7; the slimfly engine's static minimal tables beside them."""
    return [("Static minimal (ibrt slimfly)", engine_row("slimfly", adaptive=False), {})] + \
        distance_rows("slimfly")


# topology: (the paper's table section, its rows as (label, routing, meta)).
ROUTINGS = {
    "torus-3d": ("Torus", [("DOR 3D", engine_row("torus", adaptive=False), {})]),
    "torus-4d": ("Torus", [("DOR 4D", engine_row("torus", adaptive=False), {})]),
    "flatfly": ("FlatFly", flatfly_rows()),
    "hypercube": ("Hypercube", hypercube_rows()),
    "dragonfly": ("Dragonfly", dragonfly_rows()),
    "sfxff-1": ("SF×FF-1", slimfly_rows()),
    "sfxff-2": ("SF×FF-2", slimfly_rows()),
}

# `ibrt gen` arguments and switch-graph diameters. Full: §1's reference configuration, each
# 2,048 switches and 16,384 hosts. Reduced: <= 256 switches and 2^6..2^10 hosts (even bit
# counts, so transpose applies), each family's shape kept: see direct-topologies.md.
FABRICS = {
    "full": {
        "torus-3d": ("torus --k 8,16,16 --width 3,5,5 --cas 8", 20),
        "torus-4d": ("torus --k 4,8,8,8 --width 2,4,4,4 --cas 8", 14),
        "flatfly": ("hyperx --k 4,8,8,8 --width 2,1,1,1 --cas 8", 4),
        "hypercube": ("hypercube --dims 11 --width 2 --cas 8", 11),
        "dragonfly": ("dragonfly --a 16 --h 8 --p 8 --omit-one-global", 3),
        "sfxff-1": ("slimfly --q 4 --parallel 2 --ff 8,8 --cas 8", 4),
        "sfxff-2": ("slimfly --q 8 --ff 16 --cas 8", 3),
    },
    "reduced": {
        "torus-3d": ("torus --k 4,8,8 --cas 4", 10),
        "torus-4d": ("torus --k 4,4,4,4 --cas 4", 8),
        "flatfly": ("hyperx --k 4,4,4 --cas 4", 3),
        "hypercube": ("hypercube --dims 6 --cas 4", 6),
        "dragonfly": ("dragonfly --a 4 --h 2 --p 2 --omit-one-global", 3),
        "sfxff-1": ("slimfly --q 4 --parallel 2 --ff 4 --ff-width 2 --cas 8", 3),
        "sfxff-2": ("slimfly --q 4 --ff 8 --cas 4", 3),
    },
}

# The simulation of each point: a saturation search of 7 bisection steps over the offered
# load (resolution 1/128, the grid the paper's figures lie on: 11.7 % = 15/128), each run
# 20 µs of warm-up, 20 µs measured and 5 µs of drain, ibrt sim's switch otherwise (256-byte
# packets, 1 KB input buffer per VL and port). The warm-up must outlast the latency of the
# non-minimal routes near saturation (5 µs mean on the reduced FlatFly's complement): with 5 µs
# of warm-up Distance Based +3 accepted 0.25 of an offered 0.30 there, with 20 µs all of 0.40.
SATURATION = {"max": 1.0, "steps": 7, "tolerance": 0.05}
SIM = {"warmup-us": 20, "measure-us": 20, "drain-us": 5}

# `make check` (tests/e2e/test_direct_study.sh) runs check/*.json: the reduced specs with fewer
# rows on the FlatFly and on the two SF×FF (1,024 hosts each, ~85 s of CPU each in full) and
# fewer patterns on the SF×FF: 53 s of CPU in all. Their points are the reduced specs'
# points (same ids, same figures).
CHECK_ROWS = {
    "flatfly": {"DOR", "Mixed DOR", "Twisted DOR", "ADOR", "Mixed ADOR", "Distance Based",
                "Distance Based +1", "Distance Based +4"},
    "sfxff-1": {"Static minimal (ibrt slimfly)", "Distance Based", "Distance Based +1", "Deflection +2"},
    "sfxff-2": {"Static minimal (ibrt slimfly)", "Distance Based", "Distance Based +1", "Deflection +2"},
}
CHECK_PATTERNS = {"sfxff-1": ["uniform", "bitrev", "transpose"],
                  "sfxff-2": ["uniform", "bitrev", "transpose"]}


# Beyond the paper (issue 15): the reduced fabrics with 5 % and 10 % of their switch-to-switch
# cables failed (`ibrt gen ... --fail-links F --seed S --keep-connected`), beside the intact
# one, on the routings that route a damaged fabric. The adaptive families of §3.3-§3.5 are
# defined on complete fabrics; ADOR, Mixed DOR, Mixed ADOR, Twisted DOR and ADOR, the three
# turn models and the Dragonfly's letters have rules for missing cables (docs/engines/
# direct.md, "Damaged fabrics"), the Twisted Mixed routings decline (exit 2, naming
# distance_based), and GS and GSID
# decline the two 10 % Dragonfly seeds the mapping reads as missing a switch; the torus engine
# declines when a cut
# ring leaves no later dimension to detour through, which every seed tried does at 5 %
# (probe_degraded.py checks every routing, each seed, with `ibrt check --tables` and an
# overloaded `ibrt sim`). Each fabric's spec runs intact and damaged at one VL count, the one
# the damaged fabric's longer paths need (DEGRADED_DIAMETER: the largest switch-graph diameter
# of the failure seeds, measured by probe_degraded.py), so the columns differ only by the cables.
DEGRADED_FAILS = [0.05, 0.10]
DEGRADED_SEEDS = [1, 2, 3]
DEGRADED_DIAMETER = {"flatfly": 4, "hypercube": 6, "dragonfly": 5, "sfxff-1": 4, "sfxff-2": 4}
DEGRADED_ROWS = {
    "flatfly": {"DOR", "Distance Based", "Distance Based +1", "Distance Based +2", "Deflection +2",
                "ADOR", "Mixed DOR", "Mixed ADOR", "Twisted DOR", "Twisted ADOR"},
    "hypercube": {"DOR", "Negative First", "ABO Negative First", "ABO Positive Last"},
    "dragonfly": {"Static", "Distance Based", "Distance Based +1", "Distance Based +2",
                  "Deflection +2", "GS", "GSID"},
    "sfxff-1": {"Static minimal (ibrt slimfly)", "Distance Based", "Distance Based +1"},
    "sfxff-2": {"Static minimal (ibrt slimfly)", "Distance Based", "Distance Based +1"},
}
DEGRADED_PATTERNS = {"flatfly": ["uniform", "complement", "bitrev"],
                     "hypercube": ["uniform", "complement", "bitrev"],
                     "dragonfly": ["uniform", "complement", "bitrev"],
                     "sfxff-1": ["uniform", "bitrev"], "sfxff-2": ["uniform", "bitrev"]}


def vls_needed(rows, diameter):
    """8 VLs (§3: the common hardware value), more where a routing needs them: Distance Based
    +E keeps its hop budget in the VL, D + E at the source, so it needs diameter + E + 1 VLs
    (the paper's "mod 8" lets D + E = 8 wrap to VL 0 on the host link; ibrt keeps it whole,
    so on the switch-to-switch links these runs use VLs 0..7 as the paper's do)."""
    need = 8
    for _, _, meta in rows:
        if "extra_hops" in meta:
            need = max(need, diameter + meta["extra_hops"] + 1)
    return need


def spec_for(scale, topo, only=None, patterns=None):
    scale_name = {"full": "full scale", "reduced": "reduced scale",
                  "check": "reduced scale, make check's rows",
                  "degraded": "reduced scale, intact and with 5 % and 10 % of the cables failed"}
    section, rows = ROUTINGS[topo]
    gen, diameter = FABRICS["full" if scale == "full" else "reduced"][topo]
    fabrics = [{"gen": gen}]
    if scale == "degraded":
        diameter = DEGRADED_DIAMETER[topo]
        fabrics += [{"gen": f"{gen} --fail-links {f} --keep-connected",
                     "failure_seeds": DEGRADED_SEEDS} for f in DEGRADED_FAILS]
    # The VL count of the whole row list, so that a subset's points are the full spec's; the
    # degraded spec's own rows (its intact column is its own, at the damaged fabrics' VLs).
    vls = vls_needed(rows, diameter)
    rows = [r for r in rows if only is None or r[0] in only]
    if scale == "degraded":
        vls = vls_needed(rows, diameter)
    routings = []
    for label, r, _ in rows:
        r = dict(r, label=label)
        if vls > 8:
            r["data-vls"] = 15  # ports' VL capability: IBA's next step above 8
        routings.append(r)
    return {
        "title": f"paper 003 §4, {section} ({scale_name[scale]}: ibrt gen {gen})",
        "fabrics": fabrics,
        "routings": routings,
        "patterns": patterns or PATTERNS,
        "vls": [vls],
        "saturation": SATURATION,
        "sim": SIM,
        "seeds": [1],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=HERE, help="where full/ and reduced/ go (default: beside this file)")
    a = ap.parse_args()
    for scale in ["full", "reduced", "check", "degraded"]:
        d = os.path.join(a.out, scale)
        os.makedirs(d, exist_ok=True)
        for topo in ROUTINGS:
            only = patterns = None
            if scale == "check":
                only, patterns = CHECK_ROWS.get(topo), CHECK_PATTERNS.get(topo)
            elif scale == "degraded":
                if topo not in DEGRADED_ROWS:
                    continue
                only, patterns = DEGRADED_ROWS[topo], DEGRADED_PATTERNS[topo]
            with open(os.path.join(d, topo + ".json"), "w") as f:
                json.dump(spec_for(scale, topo, only, patterns), f, indent=1,
                          ensure_ascii=False)
                f.write("\n")
    # The same fabrics for scripts/compare-direct-engines.sh (opensm's engines, FABRICS=): the
    # topology as the tag, ibrt's static engine for it (its first routing without a selection).
    os.makedirs(os.path.join(a.out, "opensm"), exist_ok=True)
    for scale in ["full", "reduced"]:
        with open(os.path.join(a.out, "opensm", f"fabrics-{scale}.txt"), "w") as f:
            f.write(f"# written by specs.py: the study's {scale} fabrics for scripts/compare-direct-"
                    "engines.sh (FABRICS=): topology, ibrt's static engine, `ibrt gen` arguments\n")
            for topo in ROUTINGS:
                static = next(r for _, r, _ in ROUTINGS[topo][1] if "selection" not in r)
                f.write(f"{topo} {static['engine']} {FABRICS[scale][topo][0]}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
