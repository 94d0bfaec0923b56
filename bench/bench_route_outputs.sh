#!/usr/bin/env bash
# What `ibrt route` writes at 16,384 hosts (issue 37, "Outputs sized for 16k hosts"): the
# HyperX 4x8x8x8 and the Dragonfly K=16 G=8 C=8 of paper 003 (2,048 switches, 18,432 LIDs),
# routed by flatfly and dragonfly with every default, then with --fdbs --lft-comments (every
# file at full size, for ibdmchk and human readers). Prints, per run, the wall time of the whole
# command (reading the fabric, mapping, routing, the all-to-all link load, writing), its peak
# RSS, and every file's size from report.json's "files". Targets: <= 1 GB and <= 10 s with the
# defaults.
# Usage: bench/bench_route_outputs.sh [IBRT]   (default build/ibrt). Needs ~5 GB in TMPDIR.
set -euo pipefail
IBRT=${1:-build/ibrt}
[[ -x "$IBRT" ]] || { echo "bench_route_outputs: no ibrt binary at $IBRT" >&2; exit 2; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$IBRT" gen -q -o "$T/hx.net" hyperx --k 4,8,8,8 --cas 8
"$IBRT" gen -q -o "$T/df.net" dragonfly --a 16 --h 8 --p 8 --omit-one-global
status=0
for run in "hx flatfly" "df dragonfly" "hx flatfly --fdbs --lft-comments" \
    "df dragonfly --fdbs --lft-comments"; do
    set -- $run
    net=$1 engine=$2
    shift 2
    rm -rf "$T/out"
    /usr/bin/time -f '%e %M' -o "$T/time" "$IBRT" route --engine "$engine" --fabric "$T/$net.net" \
        "$@" --out "$T/out" >/dev/null 2>"$T/err"
    read -r wall rss <"$T/time"
    python3 - "$T/out/report.json" "$net $engine${*:+ $*}" "$wall" "$rss" "$#" <<'PY' || status=1
import json, sys
rep, name, wall, rss, extra = json.load(open(sys.argv[1])), sys.argv[2], float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
files = rep["files"]
total = sum(files.values())
print(f"{name:40s} wall {wall:5.2f} s  route {rep['route_time_ms'] / 1e3:5.2f} s  peak RSS {rss / 1024:5.0f} MB  "
      f"total {total / 1e6:7.1f} MB  " + "  ".join(f"{k} {v / 1e6:.1f}" for k, v in files.items()))
if not extra and (total > 1e9 or wall > 10):
    print(f"  over the target (1 GB, 10 s)")
    sys.exit(1)
PY
done
exit $status
