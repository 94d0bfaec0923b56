#!/usr/bin/env bash
# `ibrt sim` and `ibrt sweep` build one SimConfig the same way (issue 11): every option of
# `sim` is an option of `sweep` with the same default (only the output options differ), the
# same run through either gives the same numbers, and sim's JSON echoes the configuration
# that actually ran, with what the simulator resolved (DLID policy, credit delay, watchdog
# period, VLArb tables).
set -euo pipefail
: "${IBRT:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
S=${IBRT_SOURCE_DIR:?}
G=$S/tests/sim/golden/inputs

# Every sim option, with its default, is a sweep option with the same default.
opts() { "$IBRT" "$1" --help | grep -oE '^  (-[a-z],)?--[a-z0-9-]+(,--[a-z0-9-]+)*( [A-Z]+(=[^ ]*)?)?' |
    sed -E 's/^  //; s/^--engines,--engine/--engine/; s/^--load,--loads/--load/' | sort; }
opts sim >"$T/sim"
opts sweep >"$T/sweep"
# Output options are each command's own; the axes sweep varies take lists with their own defaults;
# sim's --config is a file of these options (a sweep's is its spec).
missing=$(comm -23 "$T/sim" "$T/sweep" | grep -vE '^(--json|--csv|--link-plot|--flows-csv|--link-timeseries|--timeseries-[a-z]* |--engine |--vls |--load |--config )' || true)
[[ -z "$missing" ]] || fail "sim options missing from sweep, or with another default: $missing"

# The same run through both: tables from files, non-default options.
ft=(--fabric "$S/test-fabrics/generated/ft-4-3.net" --lfts "$G/ft-4-3.opensm-lfts.dump"
    --guid2lid "$G/ft-4-3.guid2lid" --path-selection "$G/ft-4-3.path-selection")
model=(--vls 2 --sl spread --packet-bytes 128 --output-buffer-bytes 1024 --vlarb-low 0:2,1:1
    --warmup-us 5 --measure-us 20 --drain-us 20 --seed 9 --pattern hotspot --hot-node 3)
"$IBRT" sim "${ft[@]}" "${model[@]}" --load 0.4,0.7 --json -q >"$T/sim.json"
"$IBRT" sweep "${ft[@]}" "${model[@]}" --load 0.4,0.7 -q >"$T/sweep.csv"
# Defaults alone, an engine in-process.
ft42=(--fabric "$S/test-fabrics/generated/ft-4-2-lmc2.net")
"$IBRT" sim "${ft42[@]}" --engine mlid --load 0.5 --json -q >"$T/sim-default.json"
"$IBRT" sweep "${ft42[@]}" --engines mlid --load 0.5 -q >"$T/sweep-default.csv"
python3 - "$T" <<'PY' || fail "sim and sweep differ"
import csv, json, sys
t = sys.argv[1]
for sim, sweep in (("sim.json", "sweep.csv"), ("sim-default.json", "sweep-default.csv")):
    runs = json.load(open(f"{t}/{sim}"))["runs"]
    rows = list(csv.DictReader(open(f"{t}/{sweep}")))
    assert len(runs) == len(rows), (sim, len(runs), len(rows))
    for r, c in zip(runs, rows):
        assert float(c["load"]) == r["load"], (c["load"], r["load"])
        assert f'{r["accepted_fraction"]:.6f}' == c["accepted_fraction"], (sim, c, r)
        assert f'{r["latency_ns"]["mean"]:.3f}' == c["latency_mean_ns"], (sim, c, r)
        p = r["packets"]
        assert [p["generated"], p["delivered"], p["in_flight"]] == \
            [int(c["generated"]), int(c["delivered"]), int(c["in_flight"])], (sim, c, p)
        assert r["verdict"] == c["verdict"]
print("sim and sweep agree")
PY

# The JSON echoes what ran.
python3 - "$T/sim.json" "$T/sim-default.json" <<'PY' || fail "the JSON does not echo the configuration that ran"
import json, sys
c = json.load(open(sys.argv[1]))["config"]
assert c["vls"] == 2 and c["sl"] == "spread" and c["packet_bytes"] == 128, c
assert c["output_buffer_bytes"] == 1024 and c["pattern"] == "hotspot" and c["hot_node"] == 3, c
assert c["vlarb"]["low"] == [{"vl": 0, "weight": 2}, {"vl": 1, "weight": 1}], c["vlarb"]
assert c["dlid"] == "table", c["dlid"]          # the path selection was given
assert c["credit_delay_ns"] == c["fly_ns"] == 20, c  # default: the fly time
# 100 packet times of 128 bytes at 4x SDR (1 ns/byte) = 12.8 us, above the minimum
# 2 x (2 x 128 + 20 + 100 + 20) ns with output buffers.
assert c["deadlock_us"] == 12.8, c["deadlock_us"]
d = json.load(open(sys.argv[2]))
assert d["config"]["dlid"] == "table" and d["routing"]["engine"] == "mlid", d["routing"]
assert d["config"]["vlarb"] == {"high": [], "low": [{"vl": 0, "weight": 1}], "high_limit": 0}
assert d["config"]["deadlock_us"] == 25.6 and d["config"]["message_bytes"] == 256
PY
echo "PASS test_sim_sweep_options"
