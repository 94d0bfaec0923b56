#!/usr/bin/env bash
# `ibrt route` writes path-sl only while it stays under 256 MB unless --path-sl-file (issue 37,
# "outputs that fit on a disk"): a 4,160-host Dragonfly+ at LMC 1 has half its paths on SL 1,
# so the file would list every DLID of every host (~1 GB). It is left out with a notice, the
# other files stay, and `ibrt check` on the result says it cannot judge deadlock freedom (the
# SL2VL tables depend on the SL) instead of guessing. A small fabric still gets its path-sl.
set -euo pipefail
source "$(dirname "$0")/harness.sh"
e2e_init route_path_sl_size

"$IBRT" gen -q dragonfly-plus --balanced 8 --arrangement random -o big.net
e2e_expect_rc 0 "$IBRT" route --engine dragonfly-plus --fabric big.net --out big --no-load
grep -q "path-sl not written (1\.[0-9] GB" "$WORK/last.out" ||
    e2e_fail "no notice for the left-out path-sl: $(cat "$WORK/last.out")"
[[ ! -e big/path-sl ]] || e2e_fail "path-sl written although over 256 MB"
for f in opensm-lfts.dump guid2lid opensm-sl2vl.dump report.json; do
    [[ -s big/$f ]] || e2e_fail "big/$f missing"
done
e2e_expect_rc 3 "$IBRT" check -q --no-balance --fabric big.net --lfts big/opensm-lfts.dump \
    --guid2lid big/guid2lid --sl2vl big/opensm-sl2vl.dump

"$IBRT" gen -q dragonfly-plus --balanced 2 -o small.net
e2e_expect_rc 0 "$IBRT" route --engine dragonfly-plus --fabric small.net --out small
[[ -s small/path-sl ]] || e2e_fail "small/path-sl missing"
e2e_expect_rc 0 "$IBRT" check -q --no-balance --fabric small.net --lfts small/opensm-lfts.dump \
    --guid2lid small/guid2lid --sl2vl small/opensm-sl2vl.dump --path-sl small/path-sl
e2e_pass
