#!/usr/bin/env bash
# The docs' examples run (issue 40: "every README/docs example executed by a test, so a doc
# cannot rot"). A command shown with a `$ ` prompt is an example. Its fenced block carries a
# marker on the line before the fence:
#   <!-- runs -->              the block's `$ ` commands are run here, in order, in a scratch
#                              directory that sees the source tree's test-fabrics/, tests/, docs/
#                              and scripts/, with `ibrt` the binary under test; each must exit 0;
#   <!-- runs: no, REASON -->  not run, and why (a benchmark, a cluster, BookSim, hours).
# A block with a `$ ibrt` line and no marker fails the test, so a new example is either run or
# says why not. README.md and docs/ (not docs/history/, the lab notes) are read.
set -euo pipefail
: "${IBRT:?}"
S=${IBRT_SOURCE_DIR:?}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/bin"
ln -s "$IBRT" "$T/bin/ibrt"
python3 - "$S" "$T" <<'PY'
import glob, os, re, subprocess, sys
src, tmp = sys.argv[1], sys.argv[2]
files = ["README.md"] + sorted(f for f in glob.glob("docs/**/*.md", root_dir=src, recursive=True)
                               if not f.startswith("docs/history/"))
problems, ran, skipped = [], 0, 0
for f in files:
    lines = open(os.path.join(src, f), encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].startswith("```"):
            i += 1
            continue
        start = i
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        body = lines[start + 1:j]
        i = j + 1
        if not any(re.match(r"\s*\$ ibrt\b", l) for l in body):
            continue
        where = f"{f}:{start + 1}"
        marker = lines[start - 1].strip() if start > 0 else ""
        m = re.fullmatch(r"<!-- runs(?:: no, (.+))? -->", marker)
        if not m:
            problems.append(f"{where}: an example ($ ibrt ...) without <!-- runs --> or "
                            "<!-- runs: no, REASON --> on the line before its block")
            continue
        if m.group(1):
            skipped += 1
            continue
        # The block's commands, continuation lines joined.
        cmds, cur = [], None
        for l in body:
            if cur is not None:
                cur += "\n" + l
            elif l.lstrip().startswith("$ "):
                cur = l.lstrip()[2:]
            else:
                continue
            if not cur.rstrip().endswith("\\"):
                cmds.append(cur)
                cur = None
        work = os.path.join(tmp, f"block{ran}")
        os.makedirs(work)
        for d in ("test-fabrics", "tests", "docs", "scripts"):
            os.symlink(os.path.join(src, d), os.path.join(work, d))
        env = dict(os.environ, PATH=os.path.join(tmp, "bin") + ":" + os.environ["PATH"])
        script = "set -euo pipefail\n" + "\n".join(cmds) + "\n"
        try:
            r = subprocess.run(["bash", "-c", script], cwd=work, env=env, capture_output=True,
                               text=True, timeout=300)
            if r.returncode != 0:
                problems.append(f"{where}: exited {r.returncode}:\n{script}{r.stderr[-2000:]}")
        except subprocess.TimeoutExpired:
            problems.append(f"{where}: still running after 300 s:\n{script}")
        ran += 1
for p in problems:
    print("FAIL:", p, file=sys.stderr)
print(f"doc examples: {ran} blocks run, {skipped} marked not run, {len(problems)} problems")
if ran == 0:
    print("FAIL: no example ran: the test examined nothing", file=sys.stderr)
    sys.exit(1)
sys.exit(1 if problems else 0)
PY
echo "PASS test_doc_examples"
