#!/usr/bin/env python3
"""Summarises the comparison with BookSim2 on fat trees (issue 14) into
docs/results/booksim-agreement.md's findings table, BookSim's figures as the reference.

  booksim-agreement-summary.py              print the findings block and the per-cell tables
  booksim-agreement-summary.py --findings   the findings block alone (what the md holds between
                                            <!-- findings:begin --> and <!-- findings:end -->)
  booksim-agreement-summary.py --write      rewrite the md's findings block and per-cell tables
  --dir DIR                                 read the CSVs from DIR (default: docs/results)

The CSVs: booksim-agreement.csv, every cell (`nca`, `anca` chosen at the head, `anca` chosen
when sent; zero-load latency in cycles, saturation in flits per node per cycle), as
studies/booksim-agreement.sh writes it with CSV=FILE (ibrt's columns rerun 2026-12-07; BookSim's
typed from its 2026-11-26 run, which printed Markdown); the page's per-cell tables are made
from it here (tables());
booksim-agreement-binding.csv, the binding-point runs (4-ary 4-tree, uniform, 2 and 4 VCs);
booksim-agreement-speed.csv, the speed measurement (wall seconds, three alternated pairs; and
instructions per delivered packet and per packet-hop, callgrind). Standard library only."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from findings import REF_LEGEND, apart, diffs, listed, main, read_csv, status, table  # noqa: E402

RESULTS = os.path.join(HERE, "..", "docs", "results")
MD = os.path.join(RESULTS, "booksim-agreement.md")
SAT, LAT, SPEED = 0.05, 0.02, 30  # issue 14: saturation ±0.05, zero-load latency ±2 %, 30× BookSim's speed
STALE = "Is it the staleness of the occupancy? Measured"
SPEED_MD = "Speed on the same work"


def load(d):
    cells = read_csv(os.path.join(d, "booksim-agreement.csv"))
    binding = {(r["side"], r["routing"], r["binding"], int(r["vcs"])): float(r["saturation"])
               for r in read_csv(os.path.join(d, "booksim-agreement-binding.csv"))}
    speed = {r["measurement"]: r for r in read_csv(os.path.join(d, "booksim-agreement-speed.csv"))}
    return cells, binding, speed


def name(r):
    return f"{r['tree'].split('-tree')[0].replace('-ary ', '×')} {r['pattern'].replace('bit-complement', 'bitcomp')} {r['vcs']}"


def cases(cells, routing, select_at, ref, ours):
    return [(name(r), float(r[ref]), float(r[ours])) for r in cells
            if r["routing"] == routing and r["select_at"] == select_at and r[ref] and r[ours]]


def latency_row(cells, routing):
    z = cases(cells, routing, "head", "booksim_latency", "ibrt_vc_latency")
    bad = apart(z, LAT, relative=True)
    worst = max(z, key=lambda c: abs(c[2] / c[1] - 1))
    return (f"`{routing}`: zero-load latency within ±{100 * LAT:.0f} % of BookSim's, VC-router mode (issue 14)",
            f"{min(c[1] for c in z):.2f}-{max(c[1] for c in z):.2f} cycles, {len(z)} cells",
            f"largest difference {100 * abs(worst[2] / worst[1] - 1):.2f} % ({worst[0]}: {worst[1]:.2f} / {worst[2]:.2f}); "
            f"beyond ±{100 * LAT:.0f} %: {listed(c[0] for c in bad)}", status(bad))


def findings(data):
    cells, b, speed = data
    rows = [latency_row(cells, "nca")]
    s = cases(cells, "nca", "head", "booksim_saturation", "ibrt_vc_saturation")
    bad = apart(s, SAT)
    rows.append((f"`nca`: saturation within ±{SAT} of BookSim's in every cell, VC-router mode with BookSim's router",
                 f"{min(c[1] for c in s):.3f}-{max(c[1] for c in s):.3f}, {len(s)} cells",
                 f"ibrt − BookSim: {diffs(s)}; beyond ±{SAT}: {listed(c[0] for c in bad)}", status(bad)))
    rows.append(latency_row(cells, "anca"))
    # anca: ibrt chooses at the head by default; a cell is accounted for when ibrt choosing where
    # BookSim does (--select-at sent, its lookahead binding point) brings it within ±SAT.
    head = cases(cells, "anca", "head", "booksim_saturation", "ibrt_vc_saturation")
    sent = cases(cells, "anca", "sent", "booksim_saturation", "ibrt_vc_saturation")
    still = apart(sent, SAT)
    rows.append((f"`anca`: saturation within ±{SAT} of BookSim's in every cell",
                 f"{min(c[1] for c in head):.3f}-{max(c[1] for c in head):.3f}, {len(head)} cells",
                 f"chosen at the head (ibrt's default), ibrt − BookSim: {diffs(head)}; beyond ±{SAT}: "
                 f"{len(apart(head, SAT))} of {len(head)}. Chosen when sent (`--select-at sent`, BookSim's binding "
                 f"point): {diffs(sent)}; still beyond ±{SAT}: {listed(c[0] for c in still)}",
                 status(apart(head, SAT), explained=lambda c: c[0] not in {x[0] for x in still}), STALE))
    # The staleness: binding the choice when the packet is sent turns anca below the blind draw.
    ref = [(f"{v} VCs", b[("booksim", "anca", "lookahead", v)] - b[("booksim", "nca", "lookahead", v)],
            b[("ibrt", "anca", "sent", v)] - b[("ibrt", "oblivious", "head", v)]) for v in (2, 4)]
    at_head = [b[("ibrt", "anca", "head", v)] - b[("ibrt", "oblivious", "head", v)] for v in (2, 4)]
    rows.append(("Choosing on occupancy read when the packet is sent (BookSim's lookahead) puts `anca` below the "
                 "blind draw (`nca`): 4×4 uniform",
                 "BookSim `anca` − `nca`: " + ", ".join(f"{c[0]} {c[1]:+.3f}" for c in ref).replace("-", "−"),
                 "ibrt `anca --select-at sent` − `oblivious`: " + ", ".join(f"{c[0]} {c[2]:+.3f}" for c in ref).replace("-", "−")
                 + "; chosen at the head: " + ", ".join(f"{x:+.3f}" for x in at_head)
                 + f"; more than {SAT} short of BookSim's: {listed(c[0] for c in apart(ref, SAT))}",
                 status([c for c in ref if c[2] >= 0], size_ok=not apart(ref, SAT))))
    both = [(f"`{r}` {v} VCs", b[("booksim", r, "head-rd1", v)], b[("ibrt", "oblivious" if r == "nca" else r, "head-rd1", v)])
            for r in ("anca", "nca") for v in (2, 4)]
    rows.append((f"Both routing at the head (BookSim's `routing_delay = 1`, ibrt with that pipeline): `anca` within "
                 f"±{SAT}, 4×4 uniform", ", ".join(f"{c[0]} {c[1]:.3f}" for c in both[:2]),
                 f"{', '.join(f'{c[0]} {c[2]:.3f}' for c in both[:2])}; ibrt − BookSim: {diffs(both[:2])} "
                 f"(`nca` the same way: {diffs(both[2:])})", status(apart(both[:2], SAT))))
    ratio = float(speed["booksim_over_ibrt_wall"]["median"])
    ins = [float(speed[f"{s}_instructions_per_packet"]["median"]) for s in ("booksim", "ibrt")]
    hop, queue = (float(speed[f"ibrt_{k}instructions_per_packet_hop"]["median"]) for k in ("", "event_queue_"))
    need = hop * ratio / SPEED  # instructions per packet-hop at which ibrt would be SPEED× at its pace
    rows.append((f"ibrt {SPEED}× faster than BookSim on the same work (issue 14)", f"BookSim {speed['booksim_wall_s']['median']} s "
                 f"wall (median of 3); {ins[0]:,.0f} instructions per delivered packet",
                 f"{speed['ibrt_wall_s']['median']} s: {ratio:.1f}× (median of the pairs' ratios); {ins[1]:,.0f} "
                 f"instructions per packet ({ins[0] / ins[1]:.1f}× fewer), {hop:,.0f} per packet-hop; {SPEED}× at ibrt's "
                 f"pace needs about {need:.0f} per packet-hop, below what its event queue alone spends ({queue:.0f})",
                 status([ratio] if ratio < SPEED else [], explained=lambda c: need < queue), SPEED_MD))
    legend = (REF_LEGEND + " Saturation: BookSim's highest accepted rate over offered 0.5, 0.7, 0.9 (flits per node "
              "per cycle), ibrt's the same (over offered 0.9 alone for some cells, as the page says); VC-router "
              "mode (`--sl path --vc-router --vc-release sent --vc-alloc-gap-ns 1.024 --vc-input-first`); one run "
              "per cell. Cells: tree (4×4 the 4-ary 4-tree, 8×3 "
              "the 8-ary 3-tree), pattern, VCs.")
    return table(rows, "ibrt's figure", legend, ref_header="reference (BookSim2)")


def tables(data):
    """The page's per-cell tables, from booksim-agreement.csv: `nca`, `anca` chosen at the head,
    and `anca` chosen when sent beside it (a missing figure is —)."""
    cells = data[0]

    def of(routing, select_at):
        return [r for r in cells if r["routing"] == routing and r["select_at"] == select_at]

    def fig(x):
        return x if x else "—"

    def diff(a, b):
        return f"{float(b) - float(a):+.3f}".replace("-", "−") if a and b else "—"

    def main_table(rows):
        out = ["| tree | pattern | VCs | zero-load latency: BookSim / ibrt VC-router / ibrt IB | saturation: "
               "BookSim / **ibrt VC-router** / ibrt IB | VC-router − BookSim |", "|---|---|---|---|---|---|"]
        for r in rows:
            out.append(f"| {r['tree']} | {r['pattern']} | {r['vcs']} | {fig(r['booksim_latency'])} / "
                       f"{fig(r['ibrt_vc_latency'])} / {fig(r['ibrt_ib_latency'])} | {fig(r['booksim_saturation'])} / "
                       f"**{fig(r['ibrt_vc_saturation'])}** / {fig(r['ibrt_ib_saturation'])} | "
                       f"{diff(r['booksim_saturation'], r['ibrt_vc_saturation'])} |")
        return "\n".join(out) + "\n"

    head = {(r["tree"], r["pattern"], r["vcs"]): r for r in of("anca", "head")}
    sent = ["| tree | pattern | VCs | BookSim | ibrt `--select-at sent` (head) | difference (at head) |",
            "|---|---|---|---|---|---|"]
    for r in of("anca", "sent"):
        h = head[(r["tree"], r["pattern"], r["vcs"])]
        sent.append(f"| {r['tree']} | {r['pattern']} | {r['vcs']} | {fig(r['booksim_saturation'])} | "
                    f"{fig(r['ibrt_vc_saturation'])} ({fig(h['ibrt_vc_saturation'])}) | "
                    f"{diff(r['booksim_saturation'], r['ibrt_vc_saturation'])} "
                    f"({diff(h['booksim_saturation'], h['ibrt_vc_saturation'])}) |")
    return {"cells-nca": main_table(of("nca", "head")), "cells-anca": main_table(of("anca", "head")),
            "cells-anca-sent": "\n".join(sent) + "\n"}


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], MD, RESULTS, load, findings, tables))
