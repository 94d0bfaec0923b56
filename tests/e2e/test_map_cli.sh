#!/usr/bin/env bash
# `ibrt map` end to end: the shapes of generated direct topologies in text and JSON (a Slim Fly
# too), a damaged
# HyperX with its missing switches and links named, and the exit codes (0 mapped, 1 none of
# the families with the reason, 2 bad input).
set -euo pipefail
: "${IBRT:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$IBRT" gen -q -o "$T/hx.net" hyperx --k 8,4,8 --width 1,2,1 --cas 2
"$IBRT" map "$T/hx.net" > "$T/out" || fail "hyperx exit $?"
grep -qx "family: flatfly" "$T/out" || fail "family: $(cat "$T/out")"
grep -qx "dimensions: N = 3, K = 4 x 8 x 8, L = 2,1,1" "$T/out" || fail "dims: $(cat "$T/out")"
grep -qx "CAs per switch (C): 2" "$T/out" || fail "C"

"$IBRT" gen -q -o "$T/t.net" torus --k 5,6,7
"$IBRT" map --json "$T/t.net" > "$T/t.json"
python3 - "$T/t.json" <<'PY' || fail "torus JSON"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["schema"] == "ibrt-map/1" and j["family"] == "torus", j["family"]
assert [(d["k"], d["ring"]) for d in j["dimensions"]] == [(5, True), (6, True), (7, True)]
assert len(j["coordinates"]) == 210 and not j["missing_links"] and not j["missing_switches"]
PY

"$IBRT" gen -q -o "$T/df.net" dragonfly --balanced 2
"$IBRT" map "$T/df.net" > "$T/out"
grep -qx "groups: 9 of K = 4 switches, G = 2 global links per switch" "$T/out" ||
    fail "dragonfly: $(cat "$T/out")"

# A Slim Fly with a failed switch: q, and the missing switch by its (t, x, y), in JSON.
"$IBRT" gen -q -o "$T/sf.net" --fail-switch sw-1.2.0 slimfly --q 5 --cas 1
"$IBRT" map "$T/sf.net" > "$T/out" || fail "slimfly exit $?"
grep -qx "family: slimfly" "$T/out" || fail "slimfly: $(cat "$T/out")"
grep -q "^MMS graph: q = 5, 2 subgraphs of 5 columns of 5 switches" "$T/out" || fail "q: $(cat "$T/out")"
"$IBRT" map --json "$T/sf.net" > "$T/sf.json"
python3 - "$T/sf.json" <<'PY' || fail "slimfly JSON"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["family"] == "slimfly" and j["q"] == 5 and j["switches"] == 49, j
assert len(j["missing_switches"]) == 1 and not j["missing_links"], j["missing_switches"]
assert all(len(c["coord"]) == 3 for c in j["coordinates"])
PY

# One switch and one cable removed by name: both reported, by coordinates and by name.
"$IBRT" gen -q -o "$T/d.net" --fail-switch sw-1.1.1 --fail-link 'sw-0.0.0[3]' hyperx --k 3,3,3
"$IBRT" map "$T/d.net" > "$T/out"
grep -qx "missing switches: 1" "$T/out" || fail "missing switch: $(cat "$T/out")"
grep -qx "missing links: 1" "$T/out" || fail "missing link: $(cat "$T/out")"
grep -q "sw-0.0.0" "$T/out" || fail "missing link not named"

set +e
"$IBRT" gen -q -o "$T/ft.net" fat-tree -m 4 -n 3
"$IBRT" map "$T/ft.net" > "$T/out"
rc1=$?
"$IBRT" map "$T/nosuch.net" 2> "$T/err"
rc2=$?
set -e
[[ $rc1 == 1 ]] || fail "fat tree exit $rc1"
grep -q "^why: " "$T/out" || fail "no reason for the fat tree"
[[ $rc2 == 2 ]] || fail "missing file exit $rc2"
echo ok
