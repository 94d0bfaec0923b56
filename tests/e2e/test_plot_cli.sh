#!/usr/bin/env bash
# `ibrt plot` end to end: a figure (tools/figure_file.hpp, "ibrt-figure/1") as the study
# scripts of docs/results write it, drawn as SVG and PNG in one run, from a file and from
# standard input, the same bytes each time, laid out by plot_spec's rules (the shared setting
# under the title, 10 curves in two panels); and the exit codes: 0 drawn, 2 bad input (the
# figure's file:line, tests/e2e/test_bad_input_cli.sh has the rest) and 2 with the package named
# when the python3 cannot plot, no file written. (The bytes against plot::write_plot of the same
# Figure: tests/tools/test_figure_file.cpp.)
set -euo pipefail
: "${IBRT:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

python3 - "$T/fig.json" <<'PY'
import json, sys
curves = [{"settings": {"scheme": f"scheme {k}", "traffic": "perfect shuffle"},
           "x": [0.1, 0.2, 0.3], "y": [1 + k, 2 + k, None if k == 3 else 30 * (k + 1)]}
          for k in range(10)]
json.dump({"schema": "ibrt-figure/1", "title": "8x8 torus: latency", "x_label": "offered load",
           "y_label": "mean latency (us)", "log_y": True, "curves": curves},
          open(sys.argv[1], "w"), indent=1)
PY
"$IBRT" plot "$T/fig.json" -o "$T/a.svg" -o "$T/a.png" >"$T/out" 2>"$T/err" ||
    fail "exit $?: $(cat "$T/err")"
[[ ! -s "$T/out" && ! -s "$T/err" ]] || fail "printed something: $(cat "$T/out" "$T/err")"
grep -q "</svg>" "$T/a.svg" || fail "not an SVG"
head -c 8 "$T/a.png" | od -An -tx1 | grep -q "89 50 4e 47 0d 0a 1a 0a" || fail "not a PNG"
# The rules: "perfect shuffle" is said once, under the title; 10 curves make two panels of 5.
grep -q "perfect shuffle" "$T/a.svg" || fail "the shared setting is not under the title"
grep -q "(1/2)" "$T/a.svg" && grep -q "(2/2)" "$T/a.svg" || fail "10 curves are not two panels"
"$IBRT" plot -o "$T/b.svg" - <"$T/fig.json" || fail "standard input: exit $?"
cmp -s "$T/a.svg" "$T/b.svg" || fail "the same figure drew different bytes"

# A python3 that cannot plot: exit 2, the file and the package named, nothing written.
rc=0
IBRT_PYTHON="$T/no-python" "$IBRT" plot "$T/fig.json" -o "$T/c.svg" 2>"$T/err" || rc=$?
[[ $rc == 2 ]] || fail "a python3 that cannot plot: exit $rc, not 2"
grep -q "cannot write $T/c.svg: cannot run $T/no-python: No such file or directory (install python3-matplotlib" "$T/err" ||
    fail "message: $(cat "$T/err")"
[[ ! -e "$T/c.svg" ]] || fail "a plot file without a plot"

# Bad input: exit 2 with the file and line.
printf '{"schema": "ibrt-figure/1",\n "kind": "pie", "curves": []}\n' >"$T/bad.json"
rc=0
"$IBRT" plot "$T/bad.json" -o "$T/d.svg" 2>"$T/err" || rc=$?
[[ $rc == 2 ]] || fail "bad figure: exit $rc, not 2"
grep -q "^ibrt: $T/bad.json:2: /kind: expected \"line\" or \"bar\", got \"pie\"" "$T/err" ||
    fail "bad figure: $(cat "$T/err")"
echo "PASS test_plot_cli"
