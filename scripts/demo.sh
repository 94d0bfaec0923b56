#!/usr/bin/env bash
# `make demo`: ibrt's main job on a bundled fabric, FT(8,3) (paper 000's 8-port 3-tree:
# 128 hosts, 80 switches), end to end:
#   1. what the topology file contains (`ibrt info`);
#   2. multiple-LID fat-tree routing computed offline (`ibrt route --engine mlid`);
#   3. the tables validated (`ibrt check`: reachability, minimality, credit loops, balance);
#   4. the same engine loaded into the real opensm 3.3.23 as a plugin, sweeping a simulated
#      fabric (ibsim), with the tables read back from the switches, checked, and compared
#      with the offline result.
set -euo pipefail
IBRT=$(cd "$(dirname "${1:-build/ibrt}")" && pwd)/$(basename "${1:-build/ibrt}")
SRC=$(cd "$(dirname "$0")/.." && pwd)
FABRIC="$SRC/test-fabrics/generated/ft-8-3.net"
export IBRT IBRT_SOURCE_DIR="$SRC" IBRT_BINARY_DIR=$(dirname "$IBRT")

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

source "$SRC/tests/e2e/harness.sh"
e2e_init demo
source "$SRC/tests/e2e/plugin_lib.sh"

step "1. ibrt info $(basename "$FABRIC")"
"$IBRT" info "$FABRIC"

step "2. ibrt route --engine mlid (offline)"
"$IBRT" route --engine mlid --fabric "$FABRIC" --out offline
ls offline

step "3. ibrt check on the offline tables"
"$IBRT" check --fabric "$FABRIC" --lfts offline/opensm-lfts.dump --guid2lid offline/guid2lid \
    --path-selection offline/path-selection

lmc=$(sed -n 's/.*"lmc": *\([0-9]*\).*/\1/p' offline/report.json | head -n 1)
step "4. real opensm + libibrt.so under ibsim (routing_engine mlid,updn, lmc $lmc)"
plugin_conf
e2e_start_ibsim "$FABRIC"
e2e_opensm -F "$WORK/ibrt.conf" -R mlid,updn -l "$lmc"
grep -hoE "ibrt plugin loaded.*|ibrt mlid: routed.*|mlid tables configured on all switches" "$WORK/osm/osm.log"
e2e_diag ibnetdiscover >switches.net
e2e_diag dump_fts >switches.fts
echo "read back $(grep -c '^0x' switches.fts) LFT entries from $(grep -c '^Unicast lids' switches.fts) switches with dump_fts"
"$IBRT" check --fabric switches.net --lfts switches.fts --no-balance
"$IBRT" route --engine mlid --fabric switches.net --lids-from-fabric --no-path-selection --out same-lids >/dev/null
echo -n "offline mlid on opensm's LIDs vs the switches: "
"$IBRT" diff --lfts same-lids/opensm-lfts.dump switches.fts
