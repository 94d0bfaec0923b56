#!/bin/sh
# Paper 004 (Gilabert, Gómez, López, Duato: the selection function in fat trees) under its own
# switch, studies/settings/paper-004.json: a VC chosen per hop (the first with a free buffer),
# two-packet input buffers per VC and a two-packet output buffer, 20-cycle routing, 8-cycle fly,
# 8 Kb packets, constant generation rate. That file is the one source of the model: each sweep
# spec takes it whole as its "sim" object and adds only what a figure varies (tree, pattern,
# VCs, loads) and the measurement (50 us warm-up, 200 us window, 100 us drain; seeds 1..SEEDS).
# Routing: adaptive up to the nearest common ancestors, deterministic down (slid's forwarding
# sets, engine option adaptive_up=true) under each selection function; beyond the paper, the
# static routings mlid and slid, and on the 4-ary 2- and 4-trees opensm's own ftree tables
# (captured under ibsim when opensm and ibsim are installed).
#
# Writes docs/results/selection-functions/<figure>.csv (one row per run), <figure>-mean.csv (per
# load, the seeds' mean and 95 % interval) and <figure>.svg; fig5.jsonl (link utilization at
# each function's saturation load, 4-ary 6-tree) with fig5-<selection>.svg; then the findings
# table and the tables of docs/results/selection-functions.md (selection-functions-summary.py
# --write).
# Usage: studies/selection-functions.sh [path/to/ibrt]   (SEEDS=3; JOBS: sweep's -j; WORK=dir
# keeps the sweep directories and resumes them)
set -eu
IBRT=${1:-ibrt}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$HERE/../docs/results/selection-functions
SETTING=$HERE/settings/paper-004.json
SEEDS=${SEEDS:-3}
PY=${IBRT_PYTHON:-/usr/bin/python3}
mkdir -p "$OUT"
WORK=${WORK:-$(mktemp -d)}
MEASURE='"warmup-us": 50, "measure-us": 200, "drain-us": 100'
LOADS='[0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]'
# The 4-ary 6-tree (4,096 nodes) costs about 9 s a run: fewer loads there.
LOADS_BIG='[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.0]'
PAPER="ff ssp sdp sop sadp cp mc rp"
EXTRA="two-choices least-loaded"

# routings K N SELECTIONS: the adaptive routings, the static ones, opensm's tables if captured.
routings() {
    for s in $3; do
        printf '{"label": "%s", "engine": "slid", "engine-opt": ["adaptive_up=true"], "selection": "%s"}, ' "$s" "$s"
    done
    printf '{"label": "mlid (static)", "engine": "mlid"}, {"label": "slid (static)", "engine": "slid"}'
    t="$WORK/osm-k$1n$2"
    [ -s "$t/opensm-lfts.dump" ] &&
        printf ', {"label": "opensm ftree (static)", "lfts": "%s", "guid2lid": "%s"}' \
            "$t/opensm-lfts.dump" "$t/guid2lid"
    return 0
}
# The fabric of a figure: the topology file opensm's tables were captured on, else generated.
fabric() { # fabric K N
    if [ -s "$WORK/osm-k$1n$2/opensm-lfts.dump" ]; then
        printf '{"file": "%s"}' "$WORK/k$1n$2.net"
    else
        printf '{"gen": ["kary-ntree", "--k", "%s", "--n", "%s"]}' "$1" "$2"
    fi
}
for n in 2 4; do
    "$IBRT" gen kary-ntree --k 4 --n $n -o "$WORK/k4n$n.net" >/dev/null 2>&1
    [ -s "$WORK/osm-k4n$n/opensm-lfts.dump" ] ||
        IBRT="$IBRT" bash "$HERE/opensm-ftree-tables.sh" "$WORK/k4n$n.net" "$WORK/osm-k4n$n" \
            >"$WORK/osm-k4n$n.log" 2>&1 ||
        echo "opensm's ftree tables for the 4-ary $n-tree not captured: $WORK/osm-k4n$n.log" >&2
done

# figure NAME K N PATTERN VCS LOADS SELECTIONS TITLE: one sweep spec on the setting file
# (setting_spec.py), its results copied to $OUT.
figure() {
    name=$1 k=$2 n=$3 pattern=$4 vcs=$5 loads=$6 sels=$7 title=$8
    printf '{"title": "%s", "fabrics": [%s], "routings": [%s], "patterns": ["%s"], "vls": [%s],
             "loads": %s, "sim": {%s}}' "$title" "$(fabric "$k" "$n")" "$(routings "$k" "$n" "$sels")" \
        "$pattern" "$vcs" "$loads" "$MEASURE" |
        "$PY" "$HERE/setting_spec.py" "$SETTING" "$SEEDS" "$WORK/$name.json"
    # Exit 1 = some run failed its verdict (a saturated point may): the CSV says which.
    "$IBRT" sweep -q ${JOBS:+-j "$JOBS"} "$WORK/$name.json" --out "$WORK/$name" 2>"$WORK/$name.err" ||
        test $? -eq 1
    cp "$WORK/$name/sweep.csv" "$OUT/$name.csv"
    cp "$WORK/$name/sweep-mean.csv" "$OUT/$name-mean.csv"
    cp "$WORK/$name/sweep.svg" "$OUT/$name.svg"
}
# The paper's figures.
figure fig3a-4ary2-uniform 4 2 uniform 1 "$LOADS" "$PAPER $EXTRA" "4-ary 2-tree, uniform, 1 VC (paper 004 Fig. 3a)"
figure fig3b-4ary4-uniform 4 4 uniform 1 "$LOADS" "$PAPER $EXTRA" "4-ary 4-tree, uniform, 1 VC (Fig. 3b)"
figure fig6-4ary4-complement 4 4 complement 1 "$LOADS" "$PAPER $EXTRA" "4-ary 4-tree, complement, 1 VC (Fig. 6)"
figure fig4a-4ary6-uniform 4 6 uniform 1 "$LOADS_BIG" "$PAPER" "4-ary 6-tree, uniform, 1 VC (Fig. 4a)"
figure fig4b-4ary6-uniform-3vc 4 6 uniform 3 "$LOADS_BIG" "$PAPER" "4-ary 6-tree, uniform, 3 VCs (Fig. 4b)"
# Fig. 6's complement on the larger tree too: where the paper's degradation of SOP and SDP
# shows (on the 4-ary 4-tree they route complement almost without conflict).
figure 4ary6-complement 4 6 complement 1 "$LOADS_BIG" "$PAPER" "4-ary 6-tree, complement, 1 VC"
# The traffic the paper names without a figure (§5.2: hot spot, perfect shuffle, bit reversal;
# the hot node takes 10 % of the traffic, the paper does not say how much), and 3 VCs on the
# 4-ary 4-tree.
for p in hotspot shuffle bitrev; do
    figure "4ary4-$p" 4 4 $p 1 "$LOADS" "$PAPER" "4-ary 4-tree, $p, 1 VC"
done
figure 4ary4-uniform-3vc 4 4 uniform 3 "$LOADS" "$PAPER" "4-ary 4-tree, uniform, 3 VCs"
# The other tree sizes of §5.2 (2-, 4-, 8-, 16- and 32-ary trees), uniform traffic, 1 VC.
for kn in 2,8 4,3 4,5 8,2 8,3 16,2 32,2; do
    k=${kn%,*} n=${kn#*,}
    figure "${k}ary$n-uniform" "$k" "$n" uniform 1 "$LOADS" "$PAPER" "$k-ary $n-tree, uniform, 1 VC"
done

# Fig. 5: link utilization on the 4-ary 6-tree, uniform, 1 VC, for three selection functions,
# each at its own saturation load (the highest load of Fig. 4a whose mean accepted traffic is
# within 5 % of it), seed 1.
"$IBRT" gen kary-ntree --k 4 --n 6 -o "$WORK/k46.net" >/dev/null 2>&1
: >"$OUT/fig5.jsonl"
for s in ff mc sadp; do
    load=$("$PY" - "$OUT/fig4a-4ary6-uniform-mean.csv" "$s" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["routing"] == sys.argv[2]]
print(max(float(r["load"]) for r in rows if float(r["accepted_fraction_mean"]) >= 0.95 * float(r["load"])))
PY
)
    "$IBRT" sim --config "$SETTING" --fabric "$WORK/k46.net" --engine slid --engine-opt adaptive_up=true \
        --selection "$s" --warmup-us 50 --measure-us 200 --drain-us 100 --seed 1 --load "$load" \
        --link-plot "$OUT/fig5-$s.svg" --json -q >"$WORK/fig5-$s.json" || test $? -eq 1
    "$PY" - "$WORK/fig5-$s.json" "$s" "$load" >>"$OUT/fig5.jsonl" <<'PY'
import json, statistics, sys
run = json.load(open(sys.argv[1]))["runs"][0]
u = sorted((l["util"] for l in run["utilization"]["links"]), reverse=True)
print(json.dumps({"selection": sys.argv[2], "load": float(sys.argv[3]),
                  "accepted": run["accepted_fraction"], "links": len(u), "max": u[0],
                  "mean": statistics.mean(u), "stdev": statistics.pstdev(u),
                  "below_half": sum(x < 0.5 for x in u) / len(u)}))
PY
done
"$PY" "$HERE/selection-functions-summary.py" --write
