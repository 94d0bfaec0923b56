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
# Writes the CSV next to OUT_MD (one row per tree and routing) and rewrites OUT_MD's findings
# table and tables from it (studies/degraded-trees-summary.py --write: only the marked blocks;
# the rest of the page is hand-written), and prints them.
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

# The CSV (beside OUT_MD, or in $WORK for '-'), then the page's findings table and tables from it
# alone (studies/degraded-trees-summary.py, which also reads the committed CSV the same way).
OUT_CSV="$WORK/degraded-trees.csv"
[[ "$OUT_MD" == - ]] || OUT_CSV="${OUT_MD%.md}.csv"
python3 - "$ROWS" "$OUT_CSV" <<'PY'
import csv, json, sys
fields = ["tree", "gen", "cas", "components", "routing", "status", "reason", "lmc", "escape",
          "one_vl", "vls_used", "unreachable", "unreachable_ca", "credit_loops", "non_minimal",
          "max_load", "mean_load", "uniform_onset", "uniform_onset_spread", "uniform_max",
          "uniform_max_spread", "uniform_verdicts", "complement_onset", "complement_onset_spread",
          "complement_max", "complement_max_spread", "complement_verdicts"]
with open(sys.argv[2], "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for line in open(sys.argv[1]):
        w.writerow(json.loads(line))
PY
SUMMARY=(python3 "$ROOT/studies/degraded-trees-summary.py" --csv "$OUT_CSV")
"${SUMMARY[@]}"
if [[ "$OUT_MD" != - ]]; then
    # A new page starts from the committed one (its markers and hand-written sections).
    [[ -f "$OUT_MD" ]] || cp "$ROOT/docs/results/degraded-trees.md" "$OUT_MD"
    "${SUMMARY[@]}" --write --md "$OUT_MD"
    echo "wrote $OUT_MD and $OUT_CSV in ${SECONDS} s" >&2
fi
e2e_pass
