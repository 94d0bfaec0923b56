#!/usr/bin/env bash
# `ibrt sim` from the command line (issue 6): the same routing simulated in-process
# (--engine) and replayed from the files `ibrt route` writes (--lfts/--guid2lid/
# --path-selection) gives identical results for the same seed; every run conserves packets
# (generated = delivered + dropped + in flight); the plots are an SVG and a PNG (matplotlib,
# plot/plot.hpp); a python3 that cannot plot is named with the file it did not write, exit 2;
# bad input exits 2.
set -euo pipefail
: "${IBRT:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
F="${IBRT_SOURCE_DIR:?}/test-fabrics/generated/ft-8-3.net"

"$IBRT" route --engine mlid --fabric "$F" --out "$T/r" >/dev/null
common=(--fabric "$F" --load 0.2,0.5,0.9 --seed 7 --json)
"$IBRT" sim "${common[@]}" --engine mlid >"$T/engine.json" 2>/dev/null
"$IBRT" sim "${common[@]}" --lfts "$T/r/opensm-lfts.dump" --guid2lid "$T/r/guid2lid" \
    --path-selection "$T/r/path-selection" --plot "$T/curve.svg" >"$T/files.json" 2>/dev/null

python3 - "$T/engine.json" "$T/files.json" <<'PY' || fail "results differ or packets are not conserved"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert len(a["runs"]) == 3, "three loads"
for ra, rb in zip(a["runs"], b["runs"]):
    for r in (ra, rb):
        p = r["packets"]
        assert p["generated"] == p["delivered"] + p["dropped"] + p["in_flight"], p
        assert p["misdelivered"] == 0 and p["dropped"] == 0, p
    assert ra["packets"] == rb["packets"], (ra["packets"], rb["packets"])
    assert ra["latency_ns"] == rb["latency_ns"]
    assert ra["accepted_bytes_per_ns"] == rb["accepted_bytes_per_ns"]
print("identical runs:", [r["accepted_fraction"] for r in a["runs"]])
PY
head -c 300 "$T/curve.svg" | grep -q "<svg" || fail "plot is not an SVG"
"$IBRT" sim --fabric "$F" --engine mlid --load 0.2,0.5 --measure-us 5 -q --link-plot "$T/links.png" \
    --timeseries-plot "$T/series.svg" >/dev/null
[[ $(head -c 8 "$T/links.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] ||
    fail "--link-plot is not a PNG"
grep -q "</svg>" "$T/series.svg" || fail "--timeseries-plot is not an SVG"
rc=0
IBRT_PYTHON="$T/no-python" "$IBRT" sim --fabric "$F" --engine mlid --load 0.2 --measure-us 2 -q \
    --plot "$T/nothing.png" >/dev/null 2>"$T/err" || rc=$?
[[ $rc == 2 ]] || fail "a python3 that cannot plot: exit $rc, not 2"
grep -q "cannot write $T/nothing.png: cannot run $T/no-python: No such file or directory (install python3-matplotlib" "$T/err" ||
    fail "no clear message for a missing python3: $(cat "$T/err")"
[[ ! -e "$T/nothing.png" ]] || fail "a plot file without a plot"

set +e
"$IBRT" sim --fabric "$F" --engine mlid --load 0.5 --pattern nosuch >/dev/null 2>&1
rc1=$?
"$IBRT" sim --fabric "$T/missing.net" --engine mlid >/dev/null 2>&1
rc2=$?
set -e
[[ $rc1 == 2 && $rc2 == 2 ]] || fail "bad input exit codes $rc1 $rc2"
echo "PASS test_sim_cli"
