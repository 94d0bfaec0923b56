#!/usr/bin/env bash
# Paper 003's routing study at reduced scale (issue 15): every spec of
# studies/direct-topologies/check (the reduced specs — seven topologies of <= 256
# switches, the six patterns of §4, a saturation search per point — with fewer rows on the
# FlatFly and the SF×FF and three patterns on the SF×FF; specs.py CHECK_ROWS) through
# `ibrt sweep` and `ibrt sweep merge`, then the orderings of the paper's table that hold at this
# scale, on the saturation onset (what the paper's figures are; compare.py). Which findings do
# not hold here, and the numbers: docs/results/direct-topologies.md.
set -euo pipefail
: "${IBRT:?}" "${IBRT_SOURCE_DIR:?}"
T=$(mktemp -d)
trap "rm -rf $T" EXIT
fail() { echo "FAIL [test_direct_study]: $*" >&2; exit 1; }
D=$IBRT_SOURCE_DIR/studies/direct-topologies          # the scripts and their inputs
R=$IBRT_SOURCE_DIR/docs/results/direct-topologies      # the results

# The committed specs are what specs.py writes.
python3 "$D/specs.py" --out "$T/specs"
for s in "$D"/full/*.json "$D"/reduced/*.json "$D"/check/*.json "$D"/degraded/*.json "$D"/opensm/fabrics-*.txt; do
    cmp -s "$s" "$T/specs/$(basename "$(dirname "$s")")/$(basename "$s")" ||
        fail "$s differs from what specs.py writes: rerun studies/direct-topologies/specs.py"
done

# Every full-scale cell more than 5 points from the paper's has a rule in gaps.tsv, and the
# ledger in the doc and full-results/comparison.md is what compare.py writes from them.
cp "$R.md" "$T/doc.md"
python3 "$D/compare.py" "$R/full-results" --scale full --check-gaps --doc "$T/doc.md" \
    --write-gaps "$T/doc.md" >"$T/comparison.md" || fail "the gaps ledger is incomplete (above)"
cmp -s "$T/doc.md" "$R.md" ||
    fail "direct-topologies.md's gaps ledger is stale: rerun compare.py --write-gaps"
cmp -s "$T/comparison.md" "$R/full-results/comparison.md" ||
    fail "full-results/comparison.md is stale: rerun compare.py full-results --scale full"

IBRT=$IBRT "$D/run.sh" check "$T/out" -- -j 2 2>"$T/run.err" || fail "run.sh: $(tail -5 "$T/run.err")"
grep -q "missing or failed" "$T/run.err" && fail "$(cat "$T/run.err")"
[[ -s $T/out/comparison.md ]] || fail "no comparison.md"

python3 - "$T/out" <<'PY' || fail "orderings (above)"
import csv, os, sys
root = sys.argv[1]
v = {}
for topo in os.listdir(root):
    p = os.path.join(root, topo, "saturation.csv")
    if os.path.exists(p):
        for r in csv.DictReader(open(p)):
            if r["onset_load"] == "":
                sys.exit(f"{topo} {r['routing']} {r['pattern']}: no figure (engine declined?)")
            v[(topo, r["routing"], r["pattern"])] = 100 * float(r["onset_load"])
topos = {t for t, _, _ in v}
if len(topos) != 7:
    sys.exit(f"expected the 7 topologies, have {sorted(topos)}")

def best(topo, pattern):
    return max(x for (t, _, p), x in v.items() if t == topo and p == pattern)

bad = 0
def expect(what, lhs, rhs, margin):
    """lhs >= rhs + margin (percentage points of the onset)."""
    global bad
    ok = lhs >= rhs + margin
    print(f"{'ok  ' if ok else 'FAIL'} {what}: {lhs:.1f} vs {rhs:.1f} (margin {margin})")
    bad += not ok

F, H, DF = "flatfly", "hypercube", "dragonfly"
DB = ["Distance Based", "Distance Based +1", "Distance Based +4"]  # the rows check/ runs
# §4: tori and hypercube are worst on uniform traffic; FlatFly beats them, even with DOR.
low = max(best(t, "uniform") for t in ("torus-3d", "torus-4d", H))
for t in (F, DF, "sfxff-1", "sfxff-2"):
    expect(f"{t} best on uniform above tori and hypercube", best(t, "uniform"), low, 10)
expect("FlatFly DOR on uniform above tori and hypercube", v[(F, "DOR", "uniform")], low, 5)
# FlatFly: Distance Based (+E) beats DOR on the bit patterns where DOR's single path is the
# bottleneck (paper: 9.4-15.6 against 1.6 on bitrev, 11.7-39.8 against 12.5 on rotation,
# 10.2-37.5 against 2.3 on transpose).
for r in DB:
    for p in ("bitrev", "bitrot", "transpose"):
        expect(f"FlatFly {r} above DOR on {p}", v[(F, r, p)], v[(F, "DOR", p)], 10)
# Adaptive above static: Mixed DOR and Distance Based on uniform (paper 89.8 and 93.8 against
# 81.3), ADOR and Mixed ADOR on complement (50.0 against 11.7); Dragonfly's Distance Based
# on uniform (82.0 and 61.7 against Static's 24.2).
for r in ("Mixed DOR", "Distance Based"):
    expect(f"FlatFly {r} above DOR on uniform", v[(F, r, "uniform")], v[(F, "DOR", "uniform")], 10)
for r in ("ADOR", "Mixed ADOR"):
    expect(f"FlatFly {r} above DOR on complement", v[(F, r, "complement")], v[(F, "DOR", "complement")], 10)
for r in ("Distance Based", "Distance Based +1"):
    expect(f"Dragonfly {r} above Static on uniform", v[(DF, r, "uniform")], v[(DF, "Static", "uniform")], 5)
# Twisted DOR's obligatory extra hop costs uniform traffic (paper 24.2 against DOR's 81.3).
expect("FlatFly DOR above Twisted DOR on uniform", v[(F, "DOR", "uniform")], v[(F, "Twisted DOR", "uniform")], 10)
# SF×FF: extra hops pay on the bit patterns (paper SF×FF-1: +1 39.1 against 11.7 on bitrev,
# Deflection +2 24.2 against 9.4 on transpose; SF×FF-2: Deflection +2 11.7 against 5.5), and
# Distance Based bounds any static minimal routing from above (footnote 11): it beats the
# slimfly engine's static minimal tables.
S1, S2 = "sfxff-1", "sfxff-2"
expect("SF×FF-1 Distance Based +1 above Distance Based on bitrev", v[(S1, "Distance Based +1", "bitrev")], v[(S1, "Distance Based", "bitrev")], 10)
expect("SF×FF-1 Deflection +2 above Distance Based on transpose", v[(S1, "Deflection +2", "transpose")], v[(S1, "Distance Based", "transpose")], 5)
for p in ("bitrev", "transpose"):
    expect(f"SF×FF-2 Deflection +2 above Distance Based on {p}", v[(S2, "Deflection +2", p)], v[(S2, "Distance Based", p)], 10)
for t in (S1, S2):
    for p in ("bitrev", "transpose"):
        expect(f"{t} Distance Based above static minimal on {p}", v[(t, "Distance Based", p)], v[(t, "Static minimal (ibrt slimfly)", p)], 10)
expect("SF×FF-1 Distance Based above static minimal on uniform", v[(S1, "Distance Based", "uniform")], v[(S1, "Static minimal (ibrt slimfly)", "uniform")], 10)
# Hypercube: the turn-model routings "perform really badly" (paper 2.3-5.5 against DOR's 24.2
# on uniform, 0.0 against 24.2 on complement).
for r in ("Negative First", "ABO Negative First", "ABO Positive Last"):
    expect(f"hypercube DOR above {r} on uniform", v[(H, "DOR", "uniform")], v[(H, r, "uniform")], 10)
    expect(f"hypercube DOR above {r} on complement", v[(H, "DOR", "complement")], v[(H, r, "complement")], 10)
# Dragonfly (§3.5): on complement every group sends to one other group over its single global
# link; an extra global hop (G) spreads it over intermediate groups, as the paper's GID does
# (5.5 -> 46.9); the letters without G leave that link the bottleneck.
for r in ("G", "GS", "GI", "GD", "GSI", "GID", "GSD", "GSID"):
    expect(f"Dragonfly {r} above Static on complement", v[(DF, r, "complement")], v[(DF, "Static", "complement")], 10)
for r in ("S", "D", "SD"):
    expect(f"Dragonfly GSID above {r} on complement", v[(DF, "GSID", "complement")], v[(DF, r, "complement")], 10)
sys.exit(1 if bad else 0)
PY
echo "PASS [test_direct_study] in ${SECONDS}s"
