#!/usr/bin/env bash
# Every `ibrt gen` family, healthy and degraded (test-fabrics/generated/MANIFEST):
#   1. regenerating the instance gives the committed file byte for byte (determinism, and the
#      committed set is current);
#   2. ibsim loads it and a real `opensm -o` sweep (minhop) ends in SUBNET UP with rc 0;
#   3. ibnetdiscover's view of the simulated fabric equals the file (`ibrt diff`, exit 0), so
#      every cable of the generated, possibly degraded, fabric is consistent and reachable;
#      for an instance with pre-assigned LIDs (--lmc N), opensm run with LMC N keeps every one
#      of them (`ibrt diff --lids`).
# Finally a --report-json of a failure run lists exactly what was removed and dropped.
source "$(dirname "$0")/harness.sh"
e2e_init gen_families
set -f # manifest arguments such as leaf-0[5] are never globbed

dir="$IBRT_SOURCE_DIR/test-fabrics/generated"
count=0
while read -r name args; do
    [[ -z "$name" || "$name" == \#* ]] && continue
    # shellcheck disable=SC2086 # the manifest arguments are split on blanks on purpose
    e2e_expect_rc 0 "$IBRT" gen $args -q -o "$name.net"
    cmp -s "$name.net" "$dir/$name.net" ||
        e2e_fail "$name: regenerated file differs from $dir/$name.net (run make -C test-fabrics small)"
    osm_args=(-R minhop)
    diff_args=()
    if [[ " $args " =~ \ --lmc\ ([0-7])\  ]]; then
        osm_args+=(-l "${BASH_REMATCH[1]}")
        diff_args=(--lids)
    fi
    # The instances share GUIDs (one scheme), so opensm's cached LIDs of the previous fabric
    # must not leak into this one.
    rm -f "$WORK/osm/guid2lid"
    e2e_start_ibsim "$name.net"
    e2e_opensm "${osm_args[@]}"
    e2e_expect_engine minhop
    grep -q "SUBNET UP" "$WORK/osm/osm.log" || e2e_fail "$name: no SUBNET UP in the opensm log"
    e2e_diag ibnetdiscover >"$name.disc"
    e2e_expect_rc 0 "$IBRT" diff "${diff_args[@]}" "$name.net" "$name.disc"
    e2e_stop_ibsim
    echo "ok $name ${diff_args[*]}"
    count=$((count + 1))
done <"$dir/MANIFEST"
((count >= 20)) || e2e_fail "only $count manifest entries"

# The failure report names what went: SW<00,2> takes P(000) and P(001) with it.
e2e_expect_rc 0 "$IBRT" gen fat-tree -m 4 -n 3 --fail-switch 'SW<00,2>' \
    --fail-link 'SW<00,0>[1]' --report-json report.json -o degraded.net
grep -q '^ibrt gen: 2 CAs dropped (no cable left): P(000) P(001)$' "$WORK/last.out" ||
    e2e_fail "stderr summary: $(cat "$WORK/last.out")"
python3 - report.json <<'PY' || e2e_fail "report.json: $(cat report.json)"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["switches"] == 19 and r["cas"] == 14 and r["cables"] == 43, r
assert r["removed_switches"] == ["SW<00,2>"], r
assert r["removed_links"] == ["SW<00,0>[1] <-> SW<00,1>[3]"], r
assert r["dropped_cas"] == ["P(000)", "P(001)"], r
assert r["components"] == 1, r
PY
# Bad parameters are bad input (exit 2) with the reason.
e2e_expect_rc 2 "$IBRT" gen fat-tree -m 5 -n 2 -o bad.net
grep -q "the port count m must be even" "$WORK/last.out" || e2e_fail "$(cat "$WORK/last.out")"
e2e_pass
