#!/usr/bin/env bash
# `ibrt sim --config FILE` (issue 38: an experiment is a file): a JSON file of `ibrt sim`
# options runs what the same options on the command line run, figure for figure; the command
# line wins over the file; file names are relative to the file; a sweep point's result file
# reruns that point to the sweep's figures; bad files exit 2 naming the file, line and key.
set -euo pipefail
: "${IBRT:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$T/exp"
cp "${IBRT_SOURCE_DIR:?}/test-fabrics/generated/ft-4-3.net" "$T/exp/"
cat >"$T/exp/run.json" <<'JSON'
{
  "fabric": "ft-4-3.net",
  "engine": "mlid",
  "load": [0.2, 0.6],
  "vls": 2,
  "sl": "spread",
  "pattern": "hotspot",
  "hot-fraction": 0.2,
  "warmup-us": 5,
  "measure-us": 10,
  "seed": 7,
  "output-buffer-bytes": 1024
}
JSON
flags=(--engine mlid --load 0.2,0.6 --vls 2 --sl spread --pattern hotspot --hot-fraction 0.2
    --warmup-us 5 --measure-us 10 --output-buffer-bytes 1024 -q --json)
(cd "$T" && "$IBRT" sim --config exp/run.json -q --json >file.json 2>/dev/null)
(cd "$T/exp" && "$IBRT" sim --fabric ft-4-3.net "${flags[@]}" --seed 7 >../line.json 2>/dev/null)
# The command line wins: --seed 8 over the file's 7.
(cd "$T" && "$IBRT" sim --config exp/run.json --seed 8 -q --json >seed8.json 2>/dev/null)
(cd "$T/exp" && "$IBRT" sim --fabric ft-4-3.net "${flags[@]}" --seed 8 >../line8.json 2>/dev/null)
python3 - "$T" <<'PY' || fail "a config file and the same command line differ"
import json, sys
d = sys.argv[1]
def runs(name):
    j = json.load(open(f"{d}/{name}"))
    return j["config"], [(r["accepted_fraction"], r["latency_ns"], r["packets"]) for r in j["runs"]]
for a, b in (("file.json", "line.json"), ("seed8.json", "line8.json")):
    ca, ra = runs(a)
    cb, rb = runs(b)
    assert ca == cb, (ca, cb)
    assert ra == rb, (a, ra, rb)
assert runs("file.json")[0]["seed"] == 7 and runs("seed8.json")[0]["seed"] == 8
assert runs("file.json")[1] != runs("seed8.json")[1], "the seed changed nothing"
assert len(runs("file.json")[1]) == 2
PY

# The JSON echoes the options set ("options"), which --config reads back to the same run.
python3 -c 'import json,sys; json.dump(json.load(open(sys.argv[1]))["options"], open(sys.argv[2], "w"))' \
    "$T/seed8.json" "$T/echo.json"
(cd "$T" && "$IBRT" sim --config echo.json -q --json >echoed.json 2>/dev/null)
python3 - "$T/seed8.json" "$T/echoed.json" <<'PY' || fail "the echoed options do not rerun the run"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["options"]["seed"] == 8 and a["options"]["vls"] == 2, a["options"]
assert a["options"] == b["options"] and a["config"] == b["config"], (a["options"], b["options"])
assert [r["packets"] for r in a["runs"]] == [r["packets"] for r in b["runs"]]
PY

# A sweep point reruns from its result file, from the spec's directory, to the same record.
cat >"$T/exp/spec.json" <<'JSON'
{"fabrics": [{"file": "ft-4-3.net"}], "routings": [{"engine": "mlid"}], "vls": [2],
 "loads": [0.4], "seeds": [5], "sim": {"measure-us": 10, "warmup-us": 5, "sl": "spread"},
 "cc": {"congestion_control": "TRUE", "cc_sw_cong_setting_threshold": 4}}
JSON
(cd "$T/exp" && "$IBRT" sweep spec.json -q >/dev/null 2>&1)
point=$(ls "$T"/exp/spec.out/points/*.json)
(cd "$T/exp" && "$IBRT" sim --config "$point" -q --json >../point.json 2>/dev/null)
python3 - "$point" "$T/point.json" <<'PY' || fail "a sweep point's rerun differs from the sweep"
import json, sys
s = json.load(open(sys.argv[1]))["runs"][0]
r = json.load(open(sys.argv[2]))
assert "congestion_control" in r["config"], "the point's cc lines were not applied"
x = r["runs"][0]
# One record (sim/run_json.hpp): the point's run is the rerun's, but the per-link list.
x["utilization"]["links"] = []
assert s == x, (s, x)
PY

# Bad files: exit 2, the file, the key's line and the problem.
bad() { # name, expected message, JSON
    printf '%s' "$3" >"$T/exp/$1.json"
    set +e
    msg=$("$IBRT" sim --config "$T/exp/$1.json" 2>&1 >/dev/null)
    rc=$?
    set -e
    [[ $rc == 2 ]] || fail "$1: exit $rc, not 2"
    grep -qF -- "$2" <<<"$msg" || fail "$1: message '$msg' lacks '$2'"
}
bad unknown '/exp/unknown.json:3: "engin": not an `ibrt sim` option' \
    $'{"fabric": "ft-4-3.net",\n "load": 0.5,\n "engin": "mlid"}'
bad range 'range.json:2: "load": --load' $'{"fabric": "ft-4-3.net", "engine": "mlid",\n "load": 2}'
bad output 'output.json:1: "csv": an output option' '{"fabric": "ft-4-3.net", "csv": true}'
bad flag 'flag.json:2: "vc-router": expected true or false' \
    $'{"fabric": "ft-4-3.net", "engine": "mlid",\n "vc-router": 1}'
bad syntax 'syntax.json:2: not JSON' $'{"fabric": "ft-4-3.net",\n "engine": }'
bad missing 'ft-4-3-missing.net' '{"fabric": "ft-4-3-missing.net", "engine": "mlid"}'
bad nofabric '--fabric: required' '{"engine": "mlid"}'
echo "PASS test_sim_config_file"
