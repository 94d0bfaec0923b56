#!/usr/bin/env bash
# `ibrt lids --study` routes shortest widest source-major unless told otherwise (issue 39: the
# order that brings paper 001's Table I within reach, docs/results/lid-assignment.md): the
# default's Table I is --sw-order source's, and destination-major's differs (it needs far fewer
# LIDs on these topologies). Needs IBRT.
set -euo pipefail
: "${IBRT:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL [test_lids_study_order]: $*" >&2; exit 1; }
for o in default source destination; do
    mkdir "$T/$o"
    args=()
    [[ $o == default ]] || args=(--sw-order "$o")
    "$IBRT" lids --study --study-part table1 --seeds 2 --study-switches 16 --study-machines 128 \
        --out "$T/$o" "${args[@]}" >/dev/null || fail "ibrt lids --study ${args[*]} failed"
done
cmp -s "$T/default/lids-table1.csv" "$T/source/lids-table1.csv" ||
    fail "the default order is not source-major:
$(diff "$T/default/lids-table1.csv" "$T/source/lids-table1.csv")"
! cmp -s "$T/source/lids-table1.csv" "$T/destination/lids-table1.csv" ||
    fail "source- and destination-major gave the same Table I: the order is not applied"
s=$(tail -1 "$T/source/lids-table1.csv" | cut -d, -f9)
d=$(tail -1 "$T/destination/lids-table1.csv" | cut -d, -f9)
awk -v s="$s" -v d="$d" 'BEGIN { exit !(s > d) }' ||
    fail "source-major color/L $s not above destination-major's $d"
echo "PASS [test_lids_study_order] color/L source-major $s, destination-major $d"
