"""What every study's summary script shares (issue 39): an estimate with its 95 % interval, the
one rule by which two estimates differ, the one rule that turns the cases of a finding into its
status, the findings table, and the rewriting of a result page's generated blocks.

A status is one of: holds (every case as the paper says), shape only (no case against it, but
some within the intervals or short of the paper's size), explained gap (cases against it, and a
measurement on the page says why), unexplained (cases against it, or none significantly in its
direction). Standard library only."""
import csv
import math
import re
import sys

STATUSES = ("holds", "shape only", "explained gap", "unexplained")
# Student's t, 97.5 % quantile, by degrees of freedom.
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228,
        15: 2.131, 31: 2.040}


class Est:
    """A mean over the seeds and the half-width of its 95 % interval."""

    def __init__(self, v, ci):
        self.v, self.ci = v, ci

    def fmt(self, digits=4):
        return f"{self.v:.{digits}f} ± {self.ci:.{digits}f}"


def ratio(a, b):
    r = a.v / b.v
    return Est(r, r * math.hypot(a.ci / a.v, b.ci / b.v))


def cmp(a, b):
    """+1 / -1 when a is above / below b by more than the two intervals combined, else 0."""
    d, w = a.v - b.v, math.hypot(a.ci, b.ci)
    return 1 if d > w else -1 if d < -w else 0


def over_seeds(values):
    """Mean and 95 % interval (Student's t) of one figure over the seeds' runs."""
    n = len(values)
    m = sum(values) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in values) / (n - 1)) if n > 1 else 0.0
    return Est(m, T975[n - 1] * sd / math.sqrt(n) if n > 1 else 0.0)


def status(failing, weak=(), explained=lambda c: False, size_ok=True, n=None):
    """failing: cases significantly against the paper; weak: cases within the intervals where it
    says higher or lower (a tie); size_ok: its size ("much", a factor) where it gives one; n: the
    cases. With no case significantly in the paper's direction (every one a tie) the finding is
    not seen: a gap."""
    if not failing and n is not None and len(weak) == n:
        failing = list(weak)
    if failing:
        return "explained gap" if all(explained(c) for c in failing) else "unexplained"
    return "holds" if size_ok and not weak else "shape only"


def listed(cases, fmt=str):
    return ", ".join(fmt(c) for c in cases) or "none"


def read_mean(path):
    """An `ibrt sweep` sweep-mean.csv: {(routing, pattern, vls): {load: (accepted fraction,
    mean latency in ns)}} as estimates over the seeds."""
    out = {}
    for r in csv.DictReader(open(path)):
        cell = out.setdefault((r["routing"], r["pattern"], int(r["vls"])), {})
        cell[float(r["load"])] = (Est(float(r["accepted_fraction_mean"]), float(r["accepted_fraction_ci95"])),
                                  Est(float(r["latency_mean_ns_mean"]), float(r["latency_mean_ns_ci95"])))
    return out


def verdicts(paths):
    """What the runs behind the sweep-mean.csv files PATHS ended with, in one sentence: a mean
    over seeds hides a run that deadlocked or stopped moving, so every table says."""
    runs = not_ok = 0
    for path in paths:
        for r in csv.DictReader(open(path)):
            runs += int(r["seeds"])
            not_ok += int(r["runs_not_ok"] or 0)
    if not_ok == 0:
        return f"All {runs} runs ended with the verdict ok."
    return (f"{not_ok} of the {runs} runs ended with a verdict other than ok (deadlock, stuck or "
            "delivered nothing): they are in the means; the per-run CSVs name them.")


def anchor(heading):
    """The link target a Markdown renderer (GitHub's rule) gives a heading: lower case, spaces
    to hyphens, every other character but letters, digits, '-' and '_' dropped."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def table(rows, ibrt_header, legend, runs=None, ref_header="paper's figure"):
    """The findings table: rows of (finding, paper's figure, ibrt's figure, status[, measured]);
    measured, the heading of the page's section with the measurements tried for a gap, becomes a
    link in the status cell (tests/e2e/test_findings_tables.sh requires one on every explained
    gap and unexplained row, and a command in its section); runs, the sweep-mean.csv files
    behind the table, adds their verdicts (verdicts()); ref_header names the second column where
    the reference is not a paper (another simulator, opensm's engines, the IBA spec)"""
    for r in rows:
        assert r[3] in STATUSES, r

    def cell(r):
        return f"**{r[3]}**" + (f", [measured](#{anchor(r[4])})" if len(r) > 4 and r[4] else "")

    out = [f"| finding | {ref_header} | {ibrt_header} | status |", "|---|---|---|---|"]
    out += [f"| {r[0]} | {r[1]} | {r[2]} | {cell(r)} |" for r in rows]
    counts = ", ".join(f"{sum(r[3] == s for r in rows)} {s}" for s in STATUSES)
    out += ["", f"{len(rows)} findings: {counts}" + (f". {verdicts(runs)}" if runs else "."), "", legend]
    return "\n".join(out) + "\n"


def replace(text, name, block):
    """text with the lines between <!-- NAME:begin --> and <!-- NAME:end --> replaced by block."""
    begin, end = f"<!-- {name}:begin -->\n", f"<!-- {name}:end -->"
    i, j = text.index(begin) + len(begin), text.index(end)
    return text[:i] + block + text[j:]


def main(argv, md, results_dir, load, findings, tables=None):
    """The summaries' one command line. load(DIR) reads the committed CSVs of DIR (results_dir,
    or --dir DIR); findings(data) and tables(data) make the marked blocks of md: "findings", and
    "tables" or, where tables returns a dict, one block per key (tables None: a page whose
    detail tables its study's script writes has the findings block alone).
      (no option)   print both blocks
      --findings    print the findings block alone (what md holds between its markers)
      --write       rewrite both blocks of md
      --md PATH     the page to rewrite, for md (a copy, to test that md is current)"""
    d = argv[argv.index("--dir") + 1] if "--dir" in argv else results_dir
    md = argv[argv.index("--md") + 1] if "--md" in argv else md
    data = load(d)
    f = findings(data)
    if "--findings" in argv:
        sys.stdout.write(f)
        return 0
    t = tables(data) if tables else {}
    if isinstance(t, str):
        t = {"tables": t}
    if "--write" in argv:
        with open(md, encoding="utf-8") as fh:
            text = replace(fh.read(), "findings", f)
        for name, block in t.items():
            text = replace(text, name, block)
        with open(md, "w", encoding="utf-8") as fh:
            fh.write(text)
        return 0
    sys.stdout.write(f + "".join(t.values()))
    return 0


# The comparisons against a reference tool (BookSim2, opensm's engines; issue 41): a finding's
# cases are (name, reference's figure, ibrt's figure), read from the committed CSVs.
def read_csv(path):
    """The rows of a committed CSV as dicts."""
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def apart(cases, tol, relative=False):
    """The cases whose ibrt figure is more than tol from the reference's (tol a fraction of the
    reference's figure when relative)."""
    return [c for c in cases if abs(c[2] - c[1]) > tol * (abs(c[1]) if relative else 1) + 1e-12]


def diffs(cases, fmt="{:+.3f}"):
    """'name +0.012, ...': ibrt − reference for each case."""
    return ", ".join(f"{c[0]} {fmt.format(c[2] - c[1]).replace('-', '−')}" for c in cases)


REF_LEGEND = ("Status: **holds** (every case as the page says), **shape only** (none against it, but "
              "short of the size the page gives), **explained gap** (cases against it, and the section "
              "linked measures why), **unexplained** (cases against it that no measurement on this page "
              "accounts for; the section linked says what was tried and what is missing).")
