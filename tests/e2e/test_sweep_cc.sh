#!/usr/bin/env bash
# A reduced congestion-control settings sweep through `ibrt sweep` (issues 16 and 17): a hot
# spot with victims on a 32-host two-level fat tree (clos radix 8; the 648-port study of
# docs/results/congestion-control.md scaled down), CC off against a small grid of opensm.conf
# settings given as "cc" axes. With CC the contributors are throttled (BECNs, CCTI up) and the
# victims get more than without (a third of their offer), all of it with the best setting; the
# one-line form carries --opensm-conf and every --cc-option into its spec.
set -euo pipefail
: "${IBRT:?}"
T=$(mktemp -d)
trap "rm -rf $T" EXIT
fail() { echo "FAIL [test_sweep_cc]: $*" >&2; cat "$T/rows" >&2 2>/dev/null; exit 1; }
cd "$T"

# CA 4 L + p is host p of leaf L; slid routes traffic to host position p over spine p.
# Contributors: hosts 1 and 2 of leaves 1..3 to CA 0. Victims: host 3 of leaves 1..3, half
# their slots to host 0 of leaves 4..6 (over spine 0 too, sharing their leaf's uplink).
{
    for l in 1 2 3; do echo "$((4 * l + 1)) 0"; echo "$((4 * l + 2)) 0"; done
    for l in 1 2 3; do v=$((4 * l + 3)); echo "$v $v"; echo "$v $((4 * (l + 3)))"; done
} >hot.pairs
cat >base.conf <<'CONF'
congestion_control TRUE
cc_sw_cong_setting_control_map 0x15
cc_sw_cong_setting_victim_mask 0x0
cc_sw_cong_setting_packet_size 1
cc_ca_cong_setting_control_map 0x0001
cc_ca_cong_setting_ccti_increase 0 1
cc_cct 0:0,0:1,0:2,0:3,0:4,0:5,0:6,0:7,0:8,0:9,0:10,0:11,0:12,0:13,0:14,0:15,0:16
CONF
cat >cc.json <<'SPEC'
{
  "title": "cc e2e",
  "fabrics": [{"gen": "clos --radix 8 --levels 2"}],
  "routings": ["slid"],
  "patterns": ["pairs"],
  "sim": {"pairs-file": "hot.pairs", "opensm-conf": "base.conf", "buffer-bytes": 4096,
          "warmup-us": 500, "measure-us": 500, "drain-us": 20, "flow-stats": true},
  "cc": [{"congestion_control": "FALSE"},
         {"cc_sw_cong_setting_threshold": [1, 4],
          "cc_sw_cong_setting_marking_rate": 0,
          "cc_ca_cong_setting_ccti_timer 0": [10, 40]}],
  "loads": [1.0]
}
SPEC
# Run from elsewhere: the spec's relative files (pairs-file, opensm-conf) are the spec's.
(cd / && "$IBRT" sweep "$T/cc.json" -j 2 -q 2>"$T/sweep.err") || fail "sweep: $(tail -3 "$T/sweep.err")"
"$IBRT" sweep merge cc.out 2>/dev/null
[[ -s cc.out/flows.svg ]] || fail "no flows.svg"
# Column values by header name, one line per point: cc, fecn, ccti, victims' share, hot link.
awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) c[$i] = i; next }
    { printf "%s %s %s %.4f %.4f\n", ($c["\"congestion_control\""] == "" ? "base" : $c["\"congestion_control\""]), ($c["fecn_marked"] == "" ? 0 : $c["fecn_marked"]),
             ($c["peak_ccti"] == "" ? 0 : $c["peak_ccti"]), $c["victim_accepted"] / $c["victim_offered"],
             $c["hot_accepted"] }' cc.out/sweep.csv >rows
[[ $(wc -l <rows) == 5 ]] || fail "expected 5 points: $(cat rows)"
read -r off fecn ccti victims_off hot_off < <(head -1 rows)
[[ $off == '"FALSE"' && $fecn == 0 ]] || fail "baseline is not CC off: $(head -1 rows)"
awk -v v="$victims_off" 'BEGIN { exit !(v < 0.4) }' ||
    fail "victims get $victims_off of their offer without CC: no congestion tree to remove"
tail -n +2 rows | while read -r on fecn ccti victims hot; do
    [[ $on == base ]] || fail "a CC point sets congestion_control: $on"
    ((fecn > 0 && ccti > 0)) || fail "CC on but contributors not throttled: $fecn marks, CCTI $ccti"
    awk -v v="$victims" -v o="$victims_off" 'BEGIN { exit !(v > 1.3 * o) }' ||
        fail "with CC the victims get $victims of their offer (without: $victims_off)"
    awk -v h="$hot" 'BEGIN { exit !(h > 0.5) }' || fail "the hot link idles with CC: $hot"
done
# Some setting of the grid removes the congestion tree: its victims get what they offer.
awk 'NR > 1 && $4 > m { m = $4 } END { exit !(m > 0.95) }' rows ||
    fail "no CC setting gives the victims what they offer"

# The one-line form keeps every CC option.
"$IBRT" sweep --fat-tree 4,2 --opensm-conf base.conf \
    --cc-option 'cc_sw_cong_setting_threshold 8' --cc-option 'cc_ca_cong_setting_ccti_timer 0 10' \
    --print-spec >spec.txt 2>&1 || true
grep -q '"cc_sw_cong_setting_threshold": "8"' spec.txt || fail "one-line spec: $(cat spec.txt)"
grep -q '"cc_ca_cong_setting_ccti_timer 0": "10"' spec.txt || fail "one-line spec: $(cat spec.txt)"
grep -q "\"opensm-conf\": \"$T/base.conf\"" spec.txt || fail "one-line spec: $(cat spec.txt)"
echo "PASS [test_sweep_cc] in ${SECONDS}s"
