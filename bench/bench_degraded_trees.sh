#!/usr/bin/env bash
# Degraded fat trees (issue 36), the larger property run: random trees x random failures x
# seeds through `ibrt route` and `ibrt check` for mlid, slid and separate, and ibdmchk on a
# sample of the LMC-0 (slid) routings. Prints the counts the issue asks for:
#   - connected trees (every switch and every remaining CA in one component, `ibrt gen`'s
#     report) and, among them, declines per engine (must be 0 with 2 data VLs, the default 8);
#   - `ibrt check` failures with the SLs and SL2VL the engine wrote (path-sl,
#     opensm-sl2vl.dump; must be 0): reachability, loops, credit loops (switch LIDs included);
#   - trees on which mlid / slid need the escape VL (`escape_dlids` in report.json);
#   - the disconnected trees, which every engine must decline (with its reason);
#   - ibdmchk on a sample of slid routings (every escape tree, every 4th other tree): with the
#     path SLs and SL2VL (`ibdmchk -c path-sl -d opensm-sl2vl.dump`) against
#     `ibrt check --end-ports-only` with the same files (ibdmchk scans CA-to-CA paths only),
#     and once more with every path on SL 0 (no -c/-d; `ibrt check --end-ports-only` without
#     them), where the two must agree on the credit loop too.
# Usage: bench/bench_degraded_trees.sh [IBRT]   (default build/ibrt)
# Environment: SEEDS (default 10: seeds 1..SEEDS per family and failure rate), JOBS (default 1:
# trees routed at once), KEEP=DIR keeps every tree and routing there.
# Exits 1 when a connected tree is declined, a check fails, a disconnected tree is routed or
# ibdmchk disagrees with `ibrt check`.
set -euo pipefail
IBRT=${1:-build/ibrt}
IBRT=$(cd "$(dirname "$IBRT")" && pwd)/$(basename "$IBRT")
[[ -x "$IBRT" ]] || { echo "bench_degraded_trees: no ibrt binary at $IBRT" >&2; exit 2; }
command -v ibdmchk >/dev/null || { echo "bench_degraded_trees: ibdmchk is not installed (Debian ibutils)" >&2; exit 2; }
if [[ -n "${KEEP:-}" ]]; then
    mkdir -p "$KEEP"
    T=$(cd "$KEEP" && pwd)
else
    T=$(mktemp -d)
    trap 'rm -rf "$T"' EXIT
fi
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s.%N)
rc=0
IBRT="$IBRT" T="$T" SEEDS="${SEEDS:-10}" JOBS="${JOBS:-1}" python3 - <<'PY' || rc=$?
import concurrent.futures as cf
import json, os, re, subprocess, sys

IBRT, T = os.environ["IBRT"], os.environ["T"]
SEEDS, JOBS = int(os.environ["SEEDS"]), int(os.environ["JOBS"])
FAMILIES = [
    "fat-tree -m 4 -n 3", "fat-tree -m 6 -n 3", "fat-tree -m 8 -n 3", "fat-tree -m 4 -n 4",
    "kary-ntree --k 2 --n 4", "kary-ntree --k 4 --n 3",
    "clos --radix 8 --levels 2", "clos --radix 12 --levels 2", "clos --radix 8 --levels 3",
    "pgft --m 4,4,2 --w 1,2,2 --p 1,1,2",
]
LINKS = [0.02, 0.05, 0.1, 0.16, 0.25]
SWITCHES = [0, 0.1]
ENGINES = ["mlid", "slid", "separate"]
cases = [(fam, fl, fs, seed) for fam in FAMILIES for fl in LINKS for fs in SWITCHES
         for seed in range(1, SEEDS + 1)]

def run(args, out=None):
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if out:
        open(out, "w").write(p.stdout)
    return p

def check(d, net, out, extra):
    p = run([IBRT, "check", "-q", "--json", "--no-balance", "--fabric", net,
             "--lfts", f"{d}/opensm-lfts.dump", "--guid2lid", f"{d}/guid2lid"] + extra, out)
    j = json.load(open(out)) if os.path.getsize(out) else {}
    c = j.get("checks", {})
    return p.returncode, c.get("reachability", {}).get("failures"), \
        (c.get("deadlock") or {}).get("credit_loops"), (c.get("deadlock") or {}).get("vls_used")

def ibdmchk(d, out, extra):
    empty = f"{T}/empty.mcfdbs"
    open(empty, "a").close()
    try:
        p = subprocess.run(["ibdmchk", "-s", f"{d}/opensm-subnet.lst", "-f", f"{d}/opensm.fdbs",
                            "-m", empty] + extra, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, errors="replace", timeout=300)
        text = p.stdout  # ibdmchk 1.5.7 segfaults on exit: its summary lines count, not its rc
    except subprocess.TimeoutExpired:
        text = ""
    open(out, "w").write(text)
    m = re.search(r"^-I- Scanned:(\d+) CA to CA paths", text, re.M)
    fails = len(re.findall(r"^-E- Fail to find a path from:", text, re.M))
    loop = ("yes" if re.search(r"^Found credit loop on:", text, re.M) else
            "no" if re.search(r"^-I- no credit loops found", text, re.M) else "unknown")
    return (int(m.group(1)) if m else None), fails, loop

def one(i, case):
    fam, fl, fs, seed = case
    tag = f"t{i:04d}"
    net, rep = f"{T}/{tag}.net", f"{T}/{tag}.gen.json"
    gen = fam.split() + ["--fail-links", str(fl), "--seed", str(seed)]
    if fs:
        gen += ["--fail-switches", str(fs)]
    p = run([IBRT, "gen", "-q", "-o", net, "--report-json", rep] + gen)
    cmd = "ibrt gen " + " ".join(gen)
    if p.returncode != 0:
        return {"cmd": cmd, "gen_error": p.stderr.strip()}
    g = json.load(open(rep))
    res = {"cmd": cmd, "connected": g["components"] == 1, "cas": g["cas"], "engines": {}}
    for e in ENGINES:
        d = f"{T}/{tag}.{e}"
        p = run([IBRT, "route", "--engine", e, "--fabric", net, "--out", d, "--no-load",
                 "--no-path-selection"])
        r = {"rc": p.returncode}
        if p.returncode != 0:
            last = p.stderr.strip().splitlines()[-1] if p.stderr.strip() else ""
            r["reason"] = re.sub(r"^ibrt route: engine \S+ declined \S+: ", "", last)
            res["engines"][e] = r
            continue
        rep_j = json.load(open(f"{d}/report.json"))
        r["escape"] = int(rep_j.get("engine_stats", {}).get("escape_dlids", 0))
        r["lmc"] = rep_j["lmc"]
        extra = []
        if os.path.exists(f"{d}/path-sl"):
            extra += ["--path-sl", f"{d}/path-sl"]
        if os.path.exists(f"{d}/opensm-sl2vl.dump"):
            extra += ["--sl2vl", f"{d}/opensm-sl2vl.dump"]
        r["check"] = check(d, net, f"{d}.check.json", extra)
        res["engines"][e] = r
    s = res["engines"]["slid"]
    if s["rc"] == 0 and (s["escape"] > 0 or i % 4 == 0):
        d = f"{T}/{tag}.slid"
        psl = ["-c", f"{d}/path-sl"] if os.path.exists(f"{d}/path-sl") else []
        ib = {"with_sls": ibdmchk(d, f"{d}.ibdm", psl +
                                  (["-d", f"{d}/opensm-sl2vl.dump"]
                                   if os.path.exists(f"{d}/opensm-sl2vl.dump") else [])),
              "sl0": ibdmchk(d, f"{d}.sl0.ibdm", [])}
        extra = (["--path-sl", f"{d}/path-sl"] if psl else []) + (["--sl2vl", f"{d}/opensm-sl2vl.dump"]
                                                 if os.path.exists(f"{d}/opensm-sl2vl.dump") else [])
        ib["check_with_sls"] = check(d, net, f"{d}.ep.json", ["--end-ports-only"] + extra)
        ib["check_sl0"] = check(d, net, f"{d}.ep0.json", ["--end-ports-only"])
        res["ibdmchk"] = ib
    return res

with cf.ThreadPoolExecutor(max_workers=JOBS) as ex:
    results = list(ex.map(lambda a: one(*a), enumerate(cases)))

bad = []
gen_errors = [r for r in results if "gen_error" in r]
for r in gen_errors:
    bad.append(f"{r['cmd']}: ibrt gen failed: {r['gen_error']}")
trees = [r for r in results if "gen_error" not in r]
conn = [r for r in trees if r["connected"]]
disc = [r for r in trees if not r["connected"]]
print(f"trees: {len(trees)} ({len(FAMILIES)} families x fail-links {LINKS} x fail-switches "
      f"{SWITCHES} x seeds 1..{SEEDS}), {len(conn)} connected, {len(disc)} disconnected")
print()
print("| engine | connected trees routed | declined (connected) | check failures | "
      "trees on the escape VL | escape DLIDs (sum) | disconnected trees declined |")
print("|---|---|---|---|---|---|---|")
for e in ENGINES:
    routed = [r for r in conn if r["engines"][e]["rc"] == 0]
    declined = [r for r in conn if r["engines"][e]["rc"] != 0]
    failed = [r for r in trees if r["engines"][e]["rc"] == 0 and
              (r["engines"][e]["check"][0] != 0 or r["engines"][e]["check"][1] or
               r["engines"][e]["check"][2])]
    esc = [r for r in routed if r["engines"][e].get("escape", 0) > 0]
    disc_declined = [r for r in disc if r["engines"][e]["rc"] != 0]
    print(f"| {e} | {len(routed)} | {len(declined)} | {len(failed)} | {len(esc)} | "
          f"{sum(r['engines'][e].get('escape', 0) for r in routed)} | "
          f"{len(disc_declined)} of {len(disc)} |")
    for r in declined:
        bad.append(f"{e} declined a connected tree: `{r['cmd']}`: {r['engines'][e].get('reason')}")
    for r in failed:
        bad.append(f"{e}: ibrt check {r['engines'][e]['check']} (rc, unreachable, credit loops, "
                   f"VLs) on `{r['cmd']}`")
    for r in disc:
        if r["engines"][e]["rc"] == 0:
            bad.append(f"{e} routed a disconnected tree: `{r['cmd']}`")
vls = {}
for r in conn:
    for e in ("mlid", "slid"):
        x = r["engines"][e]
        if x["rc"] == 0:
            v = x["check"][3]
            vls[(e, v)] = vls.get((e, v), 0) + 1
print()
print("VLs the credit-loop check found in use: " + ", ".join(
    f"{e} {v} VL{'s' if v != 1 else ''}: {n} trees" for (e, v), n in sorted(vls.items())))
reasons = {}
for r in disc:
    for e in ENGINES:
        x = r["engines"][e]
        if x["rc"] != 0:
            key = re.sub(r"'[^']*'|\(GUID [^)]*\)|\d+", "#", x.get("reason", ""))
            reasons.setdefault(key, 0)
            reasons[key] += 1
if reasons:
    print("Reasons given for the disconnected trees (numbers and names as #):")
    for k, n in sorted(reasons.items(), key=lambda kv: -kv[1]):
        print(f"  {n} x {k}")
sample = [r for r in trees if "ibdmchk" in r]
agree_sl, agree_sl0, loops_sl0, paths = 0, 0, 0, 0
for r in sample:
    ib = r["ibdmchk"]
    n = r["cas"] * (r["cas"] - 1)
    p1, f1, l1 = ib["with_sls"]
    p0, f0, l0 = ib["sl0"]
    c1, c0 = ib["check_with_sls"], ib["check_sl0"]
    ok1 = p1 == n and f1 == 0 and l1 == "no" and c1[0] == 0 and c1[2] == 0
    ok0 = p0 == n and f0 == 0 and l0 in ("yes", "no") and (l0 == "yes") == bool(c0[2])
    agree_sl += ok1
    agree_sl0 += ok0
    loops_sl0 += l0 == "yes"
    paths += p1 or 0
    if not ok1:
        bad.append(f"ibdmchk with the SLs: paths {p1}/{n}, failures {f1}, loop {l1}; ibrt check "
                   f"{c1} on slid of `{r['cmd']}`")
    if not ok0:
        bad.append(f"ibdmchk on SL 0: paths {p0}/{n}, failures {f0}, loop {l0}; ibrt check "
                   f"{c0} on slid of `{r['cmd']}`")
esc_sample = sum(1 for r in sample if r["engines"]["slid"].get("escape", 0) > 0)
print()
print(f"ibdmchk on {len(sample)} slid routings ({esc_sample} on the escape VL), {paths} CA-to-CA "
      f"paths: with the path SLs and SL2VL, {agree_sl} clean in both ibdmchk and `ibrt check "
      f"--end-ports-only`; every path on SL 0, {agree_sl0} agree on the credit-loop verdict "
      f"({loops_sl0} with a loop among the CA-to-CA paths)")
if bad:
    print()
    print("PROBLEMS:")
    for b in bad:
        print("  " + b)
    sys.exit(1)
PY
echo "wall time: $(printf '%.0f' "$(echo "$(date +%s.%N) - $start" | bc -l)") s, load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$rc"
