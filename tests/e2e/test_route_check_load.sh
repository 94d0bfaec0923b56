#!/usr/bin/env bash
# One all-to-all link load: `ibrt route`'s report.json link_load and `ibrt check`'s balance on
# the tables `ibrt route` wrote (LFTs, guid2lid, path selection) are the same figures. The
# cases are those where the two used to differ: a dual-port HCA (route counted one port per
# CA, check every end port), preassigned LMC 1 LIDs without path selection (slid), and the
# separate engine on an irregular fabric. No simulator needed.
set -euo pipefail
: "${IBRT:?}"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ibrt-route-check-load.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL [route_check_load]: $*" >&2; exit 1; }

# Two leaves, two spines; `dual` is cabled to both leaves, `late` only on its port 2.
cat >"$WORK/dual.net" <<'NET'
Switch 6 "L0"
[1] "h0"[1]
[2] "dual"[1]
[5] "S0"[1]
[6] "S1"[1]

Switch 6 "L1"
[1] "late"[2]
[2] "dual"[2]
[3] "h3"[1]
[5] "S0"[2]
[6] "S1"[2]

Switch 2 "S0"
[1] "L0"[5]
[2] "L1"[5]

Switch 2 "S1"
[1] "L0"[6]
[2] "L1"[6]

Hca 1 "h0"
[1] "L0"[1]

Hca 2 "dual"
[1] "L0"[2]
[2] "L1"[2]

Hca 2 "late"
[2] "L1"[1]

Hca 1 "h3"
[1] "L1"[3]
NET
"$IBRT" gen -q --lmc 1 -o "$WORK/ft43l.net" fat-tree -m 4 -n 3
"$IBRT" gen -q -o "$WORK/rnd.net" random --switches 8 --degree 3 --cas 16 --seed 3

agree() { # NAME FABRIC ROUTE-ARGS...
    local name=$1 fabric=$2
    shift 2
    local out="$WORK/$name"
    "$IBRT" route --fabric "$fabric" --out "$out" "$@" >/dev/null 2>&1 ||
        fail "$name: ibrt route failed"
    "$IBRT" check -q --fabric "$fabric" --lfts "$out/opensm-lfts.dump" \
        --guid2lid "$out/guid2lid" --path-selection "$out/path-selection" --json \
        >"$out/check.json" || fail "$name: ibrt check failed"
    python3 - "$out/report.json" "$out/check.json" "$name" <<'PY' || fail "$name disagrees"
import json, sys
route = json.load(open(sys.argv[1]))["link_load"]
bal = json.load(open(sys.argv[2]))["checks"]["balance"][0]
assert bal["pattern"] == route["pattern"] == "all-to-all", (route, bal)
for key in ("links", "max", "min", "mean"):
    assert abs(route[key] - bal["links"][key]) < 1e-9, (sys.argv[3], key, route, bal["links"])
assert abs(route["max_over_mean"] - bal["links"]["spread"]) < 1e-9, (route, bal["links"])
assert route["unrouted"] == bal["unrouted"], (route, bal)
assert route["max"] > 0
PY
}

agree dual-mlid "$WORK/dual.net" --engine mlid
agree dual-separate "$WORK/dual.net" --engine separate
agree slid-lmc1 "$WORK/ft43l.net" --engine slid --lids-from-fabric
agree random-separate "$WORK/rnd.net" --engine separate
echo "PASS route_check_load"
