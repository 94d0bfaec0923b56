#!/usr/bin/env bash
# studies/settings (issue 39): each paper's model setting is an `ibrt sim --config` file that
# runs as it stands, on a fat tree, and what ran is what the file says (the JSON's "options"
# echo holds every key of the file with its value).
set -euo pipefail
: "${IBRT:?}" "${IBRT_SOURCE_DIR:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL [test_paper_settings]: $*" >&2; exit 1; }
"$IBRT" gen kary-ntree --k 4 --n 2 -o "$T/ft.net" >/dev/null 2>&1
n=0
for f in "$IBRT_SOURCE_DIR"/studies/settings/paper-*.json; do
    "$IBRT" sim --config "$f" --fabric "$T/ft.net" --engine slid --vls 3 --load 0.3 \
        --warmup-us 2 --measure-us 10 --drain-us 10 --json -q >"$T/run.json" 2>"$T/err" ||
        fail "$(basename "$f"): $(cat "$T/err")"
    python3 - "$f" "$T/run.json" <<'PY' || fail "$(basename "$f"): the run is not the file's setting"
import json, sys
want = json.load(open(sys.argv[1]))
run = json.load(open(sys.argv[2]))
got = run["options"]
for k, v in want.items():
    assert k in got, (k, sorted(got))
    g = got[k]
    assert g == v or str(g) == str(v) or (isinstance(v, (int, float)) and float(g) == float(v)), (k, v, g)
assert run["runs"][0]["verdict"] == "ok", run["runs"][0]["verdict"]
PY
    n=$((n + 1))
done
((n >= 3)) || fail "only $n settings files"
echo "PASS [test_paper_settings] $n settings in ${SECONDS}s"
