#!/usr/bin/env bash
# Issue 15, "opensm's own engines beside the paper's routings": the pipeline of
# docs/results/direct-topologies.md on the study's reduced Dragonfly (64 hosts). A running opensm
# routes it with lash and dor; compare-direct-engines.sh keeps their tables and the plugin's
# path_sl= file (held against the SA on sampled pairs); opensm_engines.py simulates them with
# the study's settings. lash's figures must be the committed ones exactly (same fabric, same
# opensm, same seed), dor's credit loop must be found, and lash must never deadlock.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/harness.sh"
e2e_init opensm_study
STUDY="$IBRT_SOURCE_DIR/studies/direct-topologies"          # scripts, inputs
RESULTS="$IBRT_SOURCE_DIR/docs/results/direct-topologies"   # committed results

grep dragonfly "$STUDY/opensm/fabrics-reduced.txt" >fabrics.txt
[[ -s fabrics.txt ]] || e2e_fail "no Dragonfly in opensm/fabrics-reduced.txt"
e2e_expect_rc 0 env FABRICS=fabrics.txt ENGINES="dor lash" PATTERNS=none TABLES=tables \
    bash "$IBRT_SOURCE_DIR/scripts/compare-direct-engines.sh" "$IBRT_BINARY_DIR" -
for f in fabric.net lash/opensm-lfts.dump lash/path.sl lash/check.json dor/opensm-sl2vl.dump; do
    [[ -s tables/dragonfly/$f ]] || e2e_fail "tables/dragonfly/$f missing"
done
# lash spreads the Dragonfly over 2 SLs; the file must say so (a file of SL 0 would not).
nsl=$(awk '/^0x/ {print $3}' tables/dragonfly/lash/path.sl | sort -u | wc -l)
((nsl == 2)) || e2e_fail "lash's path_sl= file has $nsl SLs, expected 2"

e2e_expect_rc 0 python3 "$STUDY/opensm_engines.py" run tables out --ibrt "$IBRT"
e2e_expect_rc 0 python3 "$STUDY/opensm_engines.py" table out
cp "$WORK/last.out" table.md
python3 - out "$RESULTS/opensm/reduced" <<'PY' || e2e_fail "opensm_engines.py results (above)"
import csv, sys
out, ref = sys.argv[1:]
checks = {r["routing"]: r for r in csv.DictReader(open(f"{out}/checks.tsv"), delimiter="\t")}
assert checks["opensm lash"]["credit loops"] == "0", checks
assert int(checks["opensm dor"]["credit loops"]) >= 1, checks
onset = lambda d: {(r["routing"], r["pattern"]): r["onset_load"]
                   for r in csv.DictReader(open(f"{d}/dragonfly/saturation.csv"))}
got, want = onset(out), onset(ref)
lash = {k: v for k, v in got.items() if k[0] == "opensm lash"}
assert len(lash) == 6, lash
for k, v in lash.items():
    assert v == want[k], f"{k}: {v}, committed {want[k]}"
dead = [r for r in csv.DictReader(open(f"{out}/dragonfly/sweep.csv"))
        if r["routing"] == "opensm lash" and r["verdict"] == "deadlock"]
assert not dead, dead
print("lash:", sorted(lash.items()))
PY
grep -q "| opensm lash | 2 | 2 | 0 | all |" table.md || e2e_fail "table row for lash: $(grep lash table.md)"
grep -q "best of the study's adaptive routings" table.md || e2e_fail "no adaptive row in the table"
e2e_pass
