#!/bin/sh
# Paper 004 (Gilabert, Gómez, López, Duato: the selection function in fat trees) with ibrt's
# extended switch: adaptive up phase to the nearest common ancestors, deterministic down phase
# (slid's forwarding sets, engine option adaptive_up=true), under each selection function; and,
# beyond the paper, the deployable static routings mlid (paper 000's path selection) and slid
# on the same figures, and on the 4-ary 2- and 4-trees opensm's own ftree tables (captured
# under ibsim by opensm-ftree-tables.sh when opensm and ibsim are installed; ibsim takes at most
# 256 switches). One `ibrt sweep` spec per figure; writes selection-functions/<fig>.csv
# and .svg next to this script, and the link utilization at saturation (Fig. 5) as
# selection-functions/fig5-<selection>.svg plus fig5.jsonl (one JSON object per line).
#
# Set-up (paper 004 §5.1) in ibrt's units, one cycle = 1 ns and one flit = 1 byte: 20-cycle
# routing and selection (--routing-ns 20), 8-cycle fly (--fly-ns 8), 1 flit per cycle
# (--ns-per-byte 1), 8 Kb packets (--packet-bytes 1024), input buffers of 2 packets per VC
# (--buffer-bytes 2048), 2-packet output buffers (--output-buffer-bytes 2048), constant
# generation rate (--injection constant). 3 VCs are 3 VLs with the SL spread over them.
# Usage: docs/results/selection-functions.sh [path/to/ibrt]   (WORK=dir keeps the sweep dirs and
# resumes them; OUT=dir writes the figures elsewhere)
set -eu
IBRT=${1:-ibrt}
OUT=${OUT:-$(dirname "$0")/selection-functions}
mkdir -p "$OUT"
WORK=${WORK:-$(mktemp -d)}
SIM='"ns-per-byte": 1, "fly-ns": 8, "routing-ns": 20, "packet-bytes": 1024,
     "buffer-bytes": 2048, "output-buffer-bytes": 2048, "injection": "constant",
     "warmup-us": 50, "measure-us": 200, "drain-us": 100'
LOADS='[0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]'
SELECTIONS="ff ssp sdp sop sadp cp mc rp two-choices least-loaded"
routings() { # routings K N
    for s in $SELECTIONS; do
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
        IBRT="$IBRT" bash "$(dirname "$0")/opensm-ftree-tables.sh" "$WORK/k4n$n.net" "$WORK/osm-k4n$n" \
            >"$WORK/osm-k4n$n.log" 2>&1 ||
        echo "opensm's ftree tables for the 4-ary $n-tree not captured: $WORK/osm-k4n$n.log" >&2
done
# figure NAME K N PATTERN VLS TITLE
figure() {
    name=$1 k=$2 n=$3 pattern=$4 vls=$5 title=$6
    spread=""
    [ "$vls" -gt 1 ] && spread=', "sl": "spread"'
    cat >"$WORK/$name.json" <<JSON
{"title": "$title",
 "fabrics": [$(fabric "$k" "$n")],
 "routings": [$(routings "$k" "$n")],
 "patterns": ["$pattern"], "vls": [$vls], "loads": $LOADS,
 "sim": {$SIM$spread}}
JSON
    "$IBRT" sweep "$WORK/$name.json" --out "$WORK/$name" -q || test $? -eq 1
    "$IBRT" sweep merge "$WORK/$name" >/dev/null 2>&1 || test $? -eq 1
    cp "$WORK/$name/sweep.csv" "$OUT/$name.csv"
    cp "$WORK/$name/sweep.svg" "$OUT/$name.svg"
}
figure fig3a-4ary2-uniform 4 2 uniform 1 "4-ary 2-tree, uniform, 1 VC (paper 004 Fig. 3a)"
figure fig3b-4ary4-uniform 4 4 uniform 1 "4-ary 4-tree, uniform, 1 VC (Fig. 3b)"
figure fig4a-4ary6-uniform 4 6 uniform 1 "4-ary 6-tree, uniform, 1 VC (Fig. 4a)"
figure fig4b-4ary6-uniform-3vc 4 6 uniform 3 "4-ary 6-tree, uniform, 3 VCs (Fig. 4b)"
figure fig6-4ary4-complement 4 4 complement 1 "4-ary 4-tree, complement, 1 VC (Fig. 6)"
figure 4ary6-complement 4 6 complement 1 "4-ary 6-tree, complement, 1 VC"
figure 8ary3-uniform 8 3 uniform 1 "8-ary 3-tree, uniform, 1 VC"
figure 8ary3-complement 8 3 complement 1 "8-ary 3-tree, complement, 1 VC"
figure 16ary2-uniform 16 2 uniform 1 "16-ary 2-tree, uniform, 1 VC"
figure 16ary2-complement 16 2 complement 1 "16-ary 2-tree, complement, 1 VC"

# Fig. 5: link utilization on the 4-ary 6-tree, uniform, each selection function at its own
# saturation load (the highest load of Fig. 4a it still accepts within 5 %).
"$IBRT" gen kary-ntree --k 4 --n 6 -o "$WORK/k46.net" >/dev/null 2>&1
: >"$OUT/fig5.jsonl"
for s in ff mc sadp; do
    load=$(awk -F, -v s="$s" 'NR > 1 && $3 == "\"" s "\"" && $9 >= 0.95 * $8 { l = $7 } END { print l }' \
        "$OUT/fig4a-4ary6-uniform.csv")
    # shellcheck disable=SC2086
    "$IBRT" sim --fabric "$WORK/k46.net" --engine slid --engine-opt adaptive_up=true --selection "$s" \
        --ns-per-byte 1 --fly-ns 8 --routing-ns 20 --packet-bytes 1024 --buffer-bytes 2048 \
        --output-buffer-bytes 2048 --injection constant --warmup-us 50 --measure-us 200 \
        --drain-us 100 --load "$load" --link-plot "$OUT/fig5-$s.svg" --json -q >"$WORK/fig5-$s.json" ||
        test $? -eq 1
    python3 - "$WORK/fig5-$s.json" "$s" "$load" >>"$OUT/fig5.jsonl" <<'PY'
import json, statistics, sys
run = json.load(open(sys.argv[1]))["runs"][0]
u = sorted((l["util"] for l in run["utilization"]["links"]), reverse=True)
print(json.dumps({"selection": sys.argv[2], "load": float(sys.argv[3]),
                  "accepted": run["accepted_fraction"], "links": len(u), "max": u[0],
                  "mean": statistics.mean(u), "stdev": statistics.pstdev(u),
                  "below_half": sum(x < 0.5 for x in u) / len(u)}))
PY
done
