#!/usr/bin/env bash
# Degraded fat trees (issue 36, "Quality kept"): ibrt's mlid, slid and separate against opensm
# 3.3.23's own updn and minhop tables, captured under ibsim (tests/e2e/harness.sh), on fat trees
# with failed cables and switches, issue 19's reproducer among them.
#
# Per tree (`ibrt gen ... --fail-links/--fail-switches --seed`):
#  - `ibrt route --engine E` for mlid, slid, separate: routed or declined (the reason), LMC, the
#    destinations put on the escape VL (`escape_dlids`); mlid and slid once more with
#    `--data-vls 1` where they used the escape VL, to record that they then decline;
#  - one ibsim; `opensm -o -l 0` with `-R updn` (roots found by opensm itself), `-R updn -a
#    ROOTS` (a root GUID file naming the tree's top-level switches, taken from the intact tree)
#    and `-R minhop`; the log says which engine configured the switches (updn falls back to
#    minhop silently when it finds no roots);
#  - `ibrt check --json` on each routing: ibrt's with its --path-sl, --sl2vl and
#    --path-selection, opensm's with --assume-sl 0 (no QoS: every path on SL 0, SL 0 -> VL 0):
#    unreachable (CA, LID) pairs, the CA-to-CA ones alone (--end-ports-only), credit loops, VLs
#    used, all-to-all link load (links.max, flows per directed link);
#  - `ibrt sim --saturation` under uniform and bit-complement traffic (the model of
#    opensm-tables-sim.sh: 256-byte packets, 1 KB input buffers per VL, 10 us warm-up, 40 us
#    window, 6 bisection steps), seeds 1, 2 and 3 averaged, with --vls = the VLs the routing
#    uses.
# Writes OUT_MD (the generated part; a hand-written part from `## Method` on survives a re-run)
# and the CSV next to it (one row per tree and routing), and prints the generated Markdown.
#
# Usage: studies/degraded-trees.sh [BUILD_DIR] [OUT_MD]
#   BUILD_DIR  default build (needs BUILD_DIR/ibrt)
#   OUT_MD     default docs/results/degraded-trees.md ('-' = stdout only, no CSV)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
OUT_MD=${2:-$ROOT/docs/results/degraded-trees.md}
[[ "$OUT_MD" == - || "$OUT_MD" == /* ]] || OUT_MD="$PWD/$OUT_MD"
export IBRT="$BUILD/ibrt" IBRT_BINARY_DIR="$BUILD" IBRT_SOURCE_DIR="$ROOT"
command -v python3 >/dev/null || { echo "python3 is needed to read the JSON reports" >&2; exit 2; }
CMDLINE="studies/degraded-trees.sh${*:+ $*}"

# shellcheck source=tests/e2e/harness.sh
source "$ROOT/tests/e2e/harness.sh"
e2e_init degraded_trees
ROWS="$WORK/rows.jsonl"
: >"$ROWS"

SIM=(--source-queue 0 --packet-bytes 256 --buffer-bytes 1024 --warmup-us 10 --measure-us 40
    --drain-us 40 --saturation --saturation-steps 6 --json -q)
SEEDS=(1 2 3)

# top_switches NET: GUIDs of the switches farthest in hops from the switches with CAs.
top_switches() {
    python3 - "$1" <<'PY'
import re, sys
from collections import deque
guid, kind, nbrs, cur, last = {}, {}, {}, None, None
for line in open(sys.argv[1]):
    m = re.match(r'^switchguid=(0x[0-9a-fA-F]+)', line)
    if m:
        last = m.group(1)
        continue
    m = re.match(r'^(Switch|Ca|Rt)\s+\d+\s+"([^"]*)"', line)
    if m:
        cur = m.group(2)
        kind[cur], nbrs[cur] = m.group(1), []
        if m.group(1) == "Switch":
            guid[cur] = last
        continue
    m = re.match(r'^\[\d+\][^"]*"([^"]*)"', line)
    if m and cur:
        nbrs[cur].append(m.group(1))
sw = [n for n in kind if kind[n] == "Switch"]
dist = {n: 0 for n in sw if any(kind.get(p) == "Ca" for p in nbrs[n])}
q = deque(dist)
while q:
    s = q.popleft()
    for t in nbrs[s]:
        if kind.get(t) == "Switch" and t not in dist:
            dist[t] = dist[s] + 1
            q.append(t)
top = max(dist.values())
print("\n".join(guid[n] for n in sw if dist.get(n) == top))
PY
}

# measure TAG NET LFTS GUID2LID VLS [check/sim args...]: ibrt check (full, and end ports only)
# and the two saturation searches, into $TAG.*.json.
measure() {
    local tag=$1 net=$2 lfts=$3 g2l=$4 vls=$5 rc
    shift 5
    rc=0
    "$IBRT" check -q --json --fabric "$net" --lfts "$lfts" --guid2lid "$g2l" "$@" >"$tag.check.json" || rc=$?
    ((rc <= 1)) || e2e_fail "$tag: ibrt check exited $rc"
    rc=0
    "$IBRT" check -q --json --no-balance --end-ports-only --fabric "$net" --lfts "$lfts" \
        --guid2lid "$g2l" "$@" >"$tag.check-ep.json" || rc=$?
    ((rc <= 1)) || e2e_fail "$tag: ibrt check --end-ports-only exited $rc"
    local sim_args=() a skip=0 # the same files, less --assume-sl (the sim takes the SLs given)
    for a in "$@"; do
        if ((skip)); then skip=0; continue; fi
        if [[ "$a" == --assume-sl ]]; then skip=1; continue; fi
        sim_args+=("$a")
    done
    local pattern seed
    for pattern in uniform complement; do
        for seed in "${SEEDS[@]}"; do
            rc=0
            "$IBRT" sim --fabric "$net" --lfts "$lfts" --guid2lid "$g2l" --vls "$vls" "${sim_args[@]}" \
                --pattern "$pattern" --seed "$seed" "${SIM[@]}" >"$tag.$pattern.s$seed.json" 2>"$tag.err" || rc=$?
            ((rc <= 1)) || e2e_fail "$tag: ibrt sim --pattern $pattern --seed $seed exited $rc: $(cat "$tag.err")"
        done
    done
}

# row TREE GEN ROUTING STATUS [TAG] [key=value...]: one JSON line into $ROWS, with the figures
# of TAG's check and sim reports when TAG is given.
row() {
    SEEDS="${SEEDS[*]}" python3 - "$@" >>"$ROWS" <<'PY'
import json, os, sys
tree, gen, routing, status = sys.argv[1:5]
tag = sys.argv[5] if len(sys.argv) > 5 and "=" not in sys.argv[5] else ""
r = {"tree": tree, "gen": gen, "routing": routing, "status": status}
for kv in sys.argv[5 + bool(tag):]:
    k, v = kv.split("=", 1)
    r[k] = v
if tag:
    c = json.load(open(tag + ".check.json"))["checks"]
    ep = json.load(open(tag + ".check-ep.json"))["checks"]
    d = c.get("deadlock") or {}
    r.update(unreachable=c["reachability"]["failures"],
             unreachable_ca=ep["reachability"]["failures"],
             credit_loops=d.get("credit_loops"), vls_used=d.get("vls_used"),
             non_minimal=c["minimality"]["non_minimal"],
             max_load=c["balance"][0]["links"]["max"], mean_load=c["balance"][0]["links"]["mean"])
    for p in ("uniform", "complement"):
        onset, mx, verdicts = [], [], set()
        for seed in os.environ["SEEDS"].split():
            s = json.load(open(f"{tag}.{p}.s{seed}.json"))
            onset.append(s["saturation"]["onset_load"])
            mx.append(s["saturation"]["max_accepted_fraction"])
            verdicts |= {x.get("verdict", "?") for x in s["runs"]}
        r[p + "_onset"] = sum(onset) / len(onset)
        r[p + "_onset_spread"] = max(onset) - min(onset)
        r[p + "_max"] = sum(mx) / len(mx)
        r[p + "_max_spread"] = max(mx) - min(mx)
        r[p + "_verdicts"] = "/".join(sorted(verdicts))
print(json.dumps(r))
PY
}

# tree NAME GEN-ARGS...: everything above for one tree.
tree() {
    local name=$1
    shift
    local gen="$*" net="$WORK/$name.net" t0=$SECONDS
    "$IBRT" gen -q -o "$net" --report-json "$WORK/$name.gen.json" "$@"
    local comps cas
    comps=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["components"])' "$WORK/$name.gen.json")
    cas=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cas"])' "$WORK/$name.gen.json")
    local e out rc
    for e in mlid slid separate; do
        out="$WORK/$name.$e"
        rc=0
        "$IBRT" route --engine "$e" --fabric "$net" --out "$out" >"$out.log" 2>&1 || rc=$?
        if ((rc != 0)); then
            ((rc == 2)) || e2e_fail "$name: ibrt route --engine $e exited $rc: $(cat "$out.log")"
            row "$name" "$gen" "$e" declined cas="$cas" components="$comps" \
                reason="$(grep -o 'declined [^ ]*: .*' "$out.log" | sed 's/^declined [^ ]*: //' | head -n 1)"
            continue
        fi
        local escape lmc vls extra=()
        escape=$(python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1])).get("engine_stats", {}).get("escape_dlids", 0)))' "$out/report.json")
        lmc=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["lmc"])' "$out/report.json")
        [[ -e "$out/path-sl" ]] && extra+=(--path-sl "$out/path-sl")
        [[ -e "$out/opensm-sl2vl.dump" ]] && extra+=(--sl2vl "$out/opensm-sl2vl.dump")
        vls=1
        ((escape == 0)) || vls=2
        measure "$out" "$net" "$out/opensm-lfts.dump" "$out/guid2lid" "$vls" "${extra[@]}" \
            --path-selection "$out/path-selection"
        local one_vl=
        if ((escape > 0)); then
            rc=0
            "$IBRT" route --engine "$e" --fabric "$net" --data-vls 1 --out "$out.1vl" >"$out.1vl.log" 2>&1 || rc=$?
            if ((rc == 2)); then one_vl=declined; else one_vl="rc $rc"; fi
        fi
        row "$name" "$gen" "$e" routed "$out" cas="$cas" components="$comps" lmc="$lmc" \
            escape="$escape" one_vl="$one_vl"
    done
    if ((comps != 1)); then
        for e in updn "updn -a top" minhop; do
            row "$name" "$gen" "opensm $e" "not run (disconnected)" cas="$cas" components="$comps"
        done
        echo "done: $name (disconnected) in $((SECONDS - t0)) s" >&2
        return
    fi
    # The root GUID file: the top level of the intact tree, less the switches that failed.
    local intact=() skip=0 a
    for a in "$@"; do
        if ((skip)); then skip=0; continue; fi
        case $a in --fail-links | --fail-switches | --seed) skip=1 ;; *) intact+=("$a") ;; esac
    done
    "$IBRT" gen -q -o "$WORK/$name.intact.net" "${intact[@]}"
    top_switches "$WORK/$name.intact.net" | grep -i -x -F -f - <(grep -o '^switchguid=0x[0-9a-fA-F]*' "$net" | sed 's/^switchguid=//') \
        >"$WORK/$name.roots" || true
    e2e_start_ibsim "$net"
    local label args ran
    for label in updn "updn -a top" minhop; do
        case $label in
            updn) args=(-R updn) ;;
            "updn -a top") args=(-R updn -a "$WORK/$name.roots") ;;
            minhop) args=(-R minhop) ;;
        esac
        rm -f "$WORK/osm/guid2lid"
        e2e_opensm -l 0 "${args[@]}"
        ran=$(sed -n 's/.*: \([a-z0-9_]*\) tables configured on all switches.*/\1/p' "$WORK/osm/osm.log" | tail -n 1)
        [[ -n "$ran" ]] || e2e_fail "$name: opensm ${args[*]}: no engine configured the switches"
        out="$WORK/$name.osm-${label// /_}"
        cp -r "$WORK/osm" "$out"
        if [[ "$ran" != "${args[1]}" ]]; then
            row "$name" "$gen" "opensm $label" "fell back to $ran" cas="$cas" components="$comps" \
                reason="$(grep -E "${args[1]}[:_]" "$out/osm.log" | grep -v 'tables configured' | sed 's/^.* -> //' | head -n 1)"
            continue
        fi
        measure "$out" "$net" "$out/opensm-lfts.dump" "$out/guid2lid" 1 --assume-sl 0
        row "$name" "$gen" "opensm $label" routed "$out" cas="$cas" components="$comps" lmc=0 escape=0
    done
    e2e_stop_ibsim
    echo "done: $name in $((SECONDS - t0)) s (total ${SECONDS} s)" >&2
}

n=0
for fam in "fat-tree -m 6 -n 3" "fat-tree -m 8 -n 3" "clos --radix 8 --levels 3" "kary-ntree --k 4 --n 3"; do
    # shellcheck disable=SC2086 # the family is split into its words on purpose
    tree "t$((n++))" $fam
    for fail in "--fail-links 0.05" "--fail-links 0.1" "--fail-links 0.16" "--fail-switches 0.1" \
        "--fail-links 0.05 --fail-switches 0.05"; do
        for seed in 1 2; do
            # shellcheck disable=SC2086
            tree "t$((n++))" $fam $fail --seed "$seed"
        done
    done
done
tree "t$((n++))" clos --radix 8 --levels 3 --fail-links 0.159 --seed 579307 # issue 19's reproducer

OUT_CSV=
[[ "$OUT_MD" == - ]] || OUT_CSV="${OUT_MD%.md}.csv"
python3 - "$ROWS" "$WORK/generated.md" "$OUT_CSV" "$CMDLINE" "$SECONDS" <<'PY'
import csv, json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
out_md, out_csv, cmdline, secs = sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
ROUTINGS = ["mlid", "slid", "separate", "opensm updn", "opensm updn -a top", "opensm minhop"]
SHORT = {"mlid": "mlid", "slid": "slid", "separate": "separate", "opensm updn": "updn",
         "opensm updn -a top": "updn -a", "opensm minhop": "minhop"}
trees = []
for r in rows:
    if r["tree"] not in [t["tree"] for t in trees]:
        trees.append({"tree": r["tree"], "gen": r["gen"], "cas": r.get("cas"),
                      "components": r.get("components")})
by = {(r["tree"], r["routing"]): r for r in rows}
fields = ["tree", "gen", "cas", "components", "routing", "status", "reason", "lmc", "escape",
          "one_vl", "vls_used", "unreachable", "unreachable_ca", "credit_loops", "non_minimal",
          "max_load", "mean_load", "uniform_onset", "uniform_onset_spread", "uniform_max",
          "uniform_max_spread", "uniform_verdicts", "complement_onset", "complement_onset_spread",
          "complement_max", "complement_max_spread", "complement_verdicts"]
if out_csv:
    with open(out_csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow(r)

def ok(r):  # routed by the engine asked, every CA pair reachable, no credit loop
    return r and r["status"] == "routed" and r["unreachable_ca"] == 0 and r["credit_loops"] == 0

def gen_short(g):
    return "`" + g + "`"

conn = [t for t in trees if str(t["components"]) == "1"]
degr = [t for t in conn if "--fail" in t["gen"]]
L = []
def p(s=""):
    L.append(s)

# ---- findings
def count(pred, ts):
    return sum(1 for t in ts if pred(t))
find = []
for e in ("mlid", "slid", "separate"):
    routed = [t for t in degr if by[(t["tree"], e)]["status"] == "routed"]
    esc = [t for t in routed if int(by[(t["tree"], e)].get("escape") or 0) > 0]
    find.append((f"{e} routes every connected degraded tree",
                 f"{len(routed)} of {len(degr)}" + (f", {len(esc)} with the escape VL" if e != "separate" else ", 1 VL"),
                 "yes" if len(routed) == len(degr) else "no"))
clean = {e: [t for t in conn if ok(by[(t["tree"], e)]) and by[(t["tree"], e)]["unreachable"] == 0]
         for e in ("mlid", "slid", "separate")}
routed_all = {e: [t for t in conn if by[(t["tree"], e)]["status"] == "routed"] for e in clean}
find.append(("`ibrt check` clean (every (CA, LID) pair reachable, no credit loop) with the SLs and SL2VL the engine wrote",
             ", ".join(f"{e} {len(clean[e])} of {len(routed_all[e])}" for e in clean),
             "yes" if all(len(clean[e]) == len(routed_all[e]) for e in clean) else "no"))
esc_trees = [t for t in conn if int(by[(t["tree"], "mlid")].get("escape") or 0) > 0]
vl2 = [t for t in esc_trees if by[(t["tree"], "mlid")]["vls_used"] == 2]
nov = [t for t in conn if int(by[(t["tree"], "mlid")].get("escape") or 0) == 0 and by[(t["tree"], "mlid")]["vls_used"] == 1]
find.append(("VLs used: 2 where the escape VL is needed, 1 elsewhere (mlid)",
             f"{len(vl2)} trees on 2 VLs, {len(nov)} on 1", "yes" if len(vl2) == len(esc_trees) and len(vl2) + len(nov) == len(conn) else "no"))
dec1 = [t for t in esc_trees if all(by[(t["tree"], e)].get("one_vl") == "declined" for e in ("mlid", "slid"))]
find.append(("with one data VL (`--data-vls 1`) mlid and slid decline the trees that need the escape VL",
             f"{len(dec1)} of {len(esc_trees)}", "yes" if len(dec1) == len(esc_trees) else "no"))
u_auto = [t for t in degr if by[(t["tree"], "opensm updn")]["status"] == "routed"]
u_fb = [t for t in degr if by[(t["tree"], "opensm updn")]["status"].startswith("fell back")]
find.append(("opensm `-R updn` (its own root detection) routes the degraded trees",
             f"{len(u_auto)} of {len(degr)}; falls back to minhop on {len(u_fb)}", "yes" if not u_fb else "no"))
u_top = [t for t in degr if by[(t["tree"], "opensm updn -a top")]["status"] == "routed"]
u_sw = [t for t in u_top if by[(t["tree"], "opensm updn -a top")]["unreachable"] > 0]
u_ca = [t for t in u_top if by[(t["tree"], "opensm updn -a top")]["unreachable_ca"] > 0]
find.append(("opensm `-R updn -a <top switches>` reaches every (CA, LID) pair",
             f"routes {len(u_top)} of {len(degr)}; CA pairs unreachable on {len(u_ca)}, some switch LIDs unreachable on {len(u_sw)}",
             "yes" if not u_sw and not u_ca else "no"))
mh_loop = [t for t in degr if by[(t["tree"], "opensm minhop")].get("credit_loops")]
mh_sim = [t for t in degr if "deadlock" in (by[(t["tree"], "opensm minhop")].get("uniform_verdicts", "") +
                                            by[(t["tree"], "opensm minhop")].get("complement_verdicts", ""))]
find.append(("opensm minhop (what updn falls back to) is free of credit loops (SL 0)",
             f"credit loops on {len(mh_loop)} of {len(degr)} trees; the simulator deadlocked on {len(mh_sim)}",
             "yes" if not mh_loop else "no"))

def compare(e, ref, key, better_low, label, fmt):
    both = [t for t in degr if ok(by[(t["tree"], e)]) and ok(by[(t["tree"], ref)])]
    diffs = []
    for t in both:
        a, b = by[(t["tree"], e)][key], by[(t["tree"], ref)][key]
        d = (a / b if b else 1.0) if better_low else a - b
        diffs.append((d, t))
    if better_low:
        worse = [(d, t) for d, t in diffs if d > 1 + 1e-9]
        worst = max(diffs, key=lambda x: x[0]) if diffs else None
        best = min(diffs, key=lambda x: x[0]) if diffs else None
        cell = f"{len(both) - len(worse)} of {len(both)} trees; {SHORT[e]}/{SHORT[ref]} from {best[0]:.2f} to {worst[0]:.2f}" if diffs else "no tree both route"
    else:
        worse = [(d, t) for d, t in diffs if d < -1e-9]
        worst = min(diffs, key=lambda x: x[0]) if diffs else None
        best = max(diffs, key=lambda x: x[0]) if diffs else None
        cell = f"{len(both) - len(worse)} of {len(both)} trees; difference from {worst[0]:+.3f} to {best[0]:+.3f}" if diffs else "no tree both route"
    holds = "yes" if diffs and not worse else ("no: " + ", ".join(f"{t['tree']} ({fmt(d)})" for d, t in sorted(worse, key=lambda x: x[0], reverse=better_low)) if worse else "n/a")
    return (label, cell, holds)

for ref in ("opensm updn -a top", "opensm updn"):
    nm = "updn -a top" if ref.endswith("top") else "updn (own roots)"
    find.append(compare("mlid", ref, "max_load", True, f"mlid's max link load ≤ {nm}'s on the degraded trees both route", lambda d: f"×{d:.2f}"))
    find.append(compare("mlid", ref, "uniform_max", False, f"mlid's max accepted uniform traffic ≥ {nm}'s", lambda d: f"{d:+.3f}"))
    find.append(compare("mlid", ref, "complement_max", False, f"mlid's max accepted bit-complement traffic ≥ {nm}'s", lambda d: f"{d:+.3f}"))
    find.append(compare("mlid", ref, "uniform_onset", False, f"mlid's uniform saturation onset ≥ {nm}'s", lambda d: f"{d:+.3f}"))
    find.append(compare("mlid", ref, "complement_onset", False, f"mlid's bit-complement saturation onset ≥ {nm}'s", lambda d: f"{d:+.3f}"))
find.append(compare("slid", "opensm updn -a top", "max_load", True, "slid's max link load ≤ updn -a top's", lambda d: f"×{d:.2f}"))
find.append(compare("slid", "opensm updn -a top", "uniform_max", False, "slid's max accepted uniform traffic ≥ updn -a top's", lambda d: f"{d:+.3f}"))
find.append(compare("separate", "opensm updn -a top", "max_load", True, "separate's max link load ≤ updn -a top's", lambda d: f"×{d:.2f}"))
find.append(compare("separate", "opensm updn -a top", "uniform_max", False, "separate's max accepted uniform traffic ≥ updn -a top's", lambda d: f"{d:+.3f}"))
find.append(compare("mlid", "opensm minhop", "max_load", True, "mlid's max link load ≤ minhop's (where minhop has no credit loop)", lambda d: f"×{d:.2f}"))
find.append(compare("mlid", "opensm minhop", "uniform_max", False, "mlid's max accepted uniform traffic ≥ minhop's (same trees)", lambda d: f"{d:+.3f}"))
find.append(compare("mlid", "opensm minhop", "complement_max", False, "mlid's max accepted bit-complement traffic ≥ minhop's (same trees)", lambda d: f"{d:+.3f}"))
find.append(compare("mlid", "separate", "max_load", True, "mlid's max link load ≤ separate's", lambda d: f"×{d:.2f}"))
spreads = sorted(r[k] for r in rows if r["status"] == "routed" for k in
                 ("uniform_onset_spread", "uniform_max_spread", "complement_onset_spread", "complement_max_spread"))
def pct(q):
    return spreads[min(len(spreads) - 1, int(q * len(spreads)))] if spreads else 0.0

p("# Degraded fat trees: ibrt's engines against opensm's updn and minhop (issue 36)")
p()
p(f"Generated by `{cmdline}` ({secs / 60:.1f} min on 2 shared cores) with opensm "
  "3.3.23 under ibsim. "
  f"{len(trees)} trees: {sum(1 for t in trees if '--fail' not in t['gen'])} intact, {len(degr)} degraded and connected"
  + (f", {len(trees) - len(conn)} disconnected" if len(conn) < len(trees) else "") + ". "
  "Findings are over the degraded connected trees; \"both route\" means the engine asked "
  "configured the switches, every CA pair is reachable and there is no credit loop. "
  "Saturation figures are the mean of 3 simulator seeds; the spread (largest minus smallest "
  f"of the 3) of one figure is {pct(0.5):.3f} at the median, {pct(0.9):.3f} at the 90th percentile "
  f"and {spreads[-1] if spreads else 0:.3f} at most, which is the noise to read a small "
  "difference against.")
p()
p("| finding | ibrt | holds? |")
p("|---|---|---|")
for f_, c, h in find:
    p(f"| {f_} | {c} | {h} |")
p()

# ---- full tables
def cell_status(r):
    s = r["status"]
    if s == "routed":
        bits = []
        if r.get("escape") not in (None, "", "0", 0):
            bits.append(f"esc {r['escape']}")
        bits.append(f"{r['vls_used']} VL" + ("s" if r["vls_used"] != 1 else ""))
        if r["unreachable_ca"]:
            bits.append(f"**{r['unreachable_ca']} CA pairs unreachable**")
        if r["unreachable"] and r["unreachable"] != r["unreachable_ca"]:
            bits.append(f"{r['unreachable'] - r['unreachable_ca']} (CA, switch) unreachable")
        if r["credit_loops"]:
            bits.append(f"**{r['credit_loops']} credit loop{'s' if r['credit_loops'] != 1 else ''}**")
        sims = {v for k in ("uniform_verdicts", "complement_verdicts") for v in r[k].split("/")} - {"ok"}
        if sims:
            bits.append("sim: " + "/".join(sorted(sims)))
        return ", ".join(bits)
    if s.startswith("fell back"):
        return s.replace("fell back to ", "→ ")
    if s == "declined":
        return "declined"
    return "—"

p("## Trees and verdicts")
p()
p("`esc N`: destination LIDs on the escape VL; `→ minhop`: opensm fell back; "
  "`(CA, switch) unreachable`: (CA, switch LID) pairs without an LFT entry on the way.")
p()
p("| tree | `ibrt gen` | CAs | " + " | ".join(SHORT[r] for r in ROUTINGS) + " |")
p("|---|---|---|" + "---|" * len(ROUTINGS))
for t in trees:
    p(f"| {t['tree']} | {gen_short(t['gen'])} | {t['cas']} | " +
      " | ".join(cell_status(by[(t['tree'], r)]) for r in ROUTINGS) + " |")
p()

def metric_table(title, key, fmt, note):
    p(f"## {title}")
    p()
    if note:
        p(note)
        p()
    p("| tree | " + " | ".join(SHORT[r] for r in ROUTINGS) + " |")
    p("|---|" + "---|" * len(ROUTINGS))
    for t in conn:
        cells = []
        for r in ROUTINGS:
            x = by[(t["tree"], r)]
            if x["status"] != "routed":
                cells.append("—")
                continue
            v = fmt(x[key]) if not isinstance(key, tuple) else " / ".join(fmt(x[k]) for k in key)
            if x.get("credit_loops") or x.get("unreachable_ca"):
                v += "*"
            cells.append(v)
        p(f"| {t['tree']} | " + " | ".join(cells) + " |")
    p()

metric_table("Maximum link load, all-to-all", "max_load", lambda v: f"{v:.0f}",
             "Flows per directed link (`ibrt check`, `links.max`): ibrt's engines with their "
             "own path selection, opensm's at LMC 0. `*`: the routing has a credit loop or "
             "unreachable CA pairs. `—`: not routed by that engine.")
metric_table("Saturation, uniform traffic", ("uniform_onset", "uniform_max"), lambda v: f"{v:.3f}",
             "Onset (highest offered load accepted within 5 %) / maximum accepted, fractions "
             "of the link bandwidth per node.")
metric_table("Saturation, bit-complement traffic", ("complement_onset", "complement_max"),
             lambda v: f"{v:.3f}", "As above, `--pattern complement`.")
decl = [r for r in rows if r["status"] == "declined"]
if decl:
    p("## Declines")
    p()
    for r in decl:
        p(f"- {r['tree']} `{r['gen']}`, {r['routing']}: {r['reason']}")
    p()
fb = [r for r in rows if r["status"].startswith("fell back")]
if fb:
    p("## opensm fallbacks")
    p()
    for r in fb:
        p(f"- {r['tree']}, `-R {r['routing'].replace('opensm ', '')}`: {r['status']} (`{r.get('reason', '')}`)")
    p()
open(out_md, "w").write("\n".join(L))
PY
cat "$WORK/generated.md"
if [[ "$OUT_MD" != - ]]; then
    cp "$WORK/generated.md" "$WORK/result.md"
    # The hand-written part (from `## Method` on) survives a re-run.
    if [[ -f "$OUT_MD" ]] && grep -q '^## Method' "$OUT_MD"; then
        sed -n '/^## Method/,$p' "$OUT_MD" >>"$WORK/result.md"
    fi
    cp "$WORK/result.md" "$OUT_MD"
    echo "wrote $OUT_MD and $OUT_CSV in ${SECONDS} s" >&2
fi
e2e_pass
