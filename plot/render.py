# ibrt's one plotting path: draws an "ibrt-plot/1" spec (built by plot/plot.cpp, whose header
# describes every key) with Debian's matplotlib (python3-matplotlib).
#
#   python3 -c "$(cat plot/render.py)" SPEC.json
#
# ibrt embeds this file at build time (CMakeLists.txt, plot_script.hpp) and runs it with
# MPLBACKEND=Agg, so the installed tool needs no source tree and no display. The spec decides
# everything about the content (panels, curves, names, styles); this script only draws:
# panels on a grid, legends outside the axes, the settings every curve shares under the title,
# error bars where the spec has them, and one colour x marker x line style per style index.
# Same spec, same bytes: the SVG's ids come from a fixed hash salt and neither file carries a
# date. Exit 3 when matplotlib is missing (ibrt names the package), 1 on any other error.
import json
import math
import sys
import textwrap

try:
    import matplotlib
except ImportError as e:
    print(f"matplotlib is missing ({e})", file=sys.stderr)
    sys.exit(3)

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 (after the backend is chosen)

# Ten colours (matplotlib's tab10) and nine markers, coprime periods: the first 90 style
# indices differ in colour x marker, and any 8 consecutive ones (the curves of one split panel)
# in colour and in marker. Odd indices are dashed with open markers, so that a curve drawn
# over an identical one (two VL counts that change nothing) leaves the other's marks visible;
# from index 10 on the line styles are dash-dot and dotted.
COLOURS = plt.get_cmap("tab10").colors
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "<", "*"]
LINES = ["-", "--", "-.", ":"]
HATCHES = ["", "//", "\\\\", "xx", "..", "oo", "++", "--"]

PANEL_W, PANEL_H = 4.6, 3.2  # inches, the plot area of one panel
LEGEND_W = 2.6  # inches beside a panel for its own legend


def style(i):
    colour = COLOURS[i % len(COLOURS)]
    return {
        "color": colour,
        "marker": MARKERS[i % len(MARKERS)],
        "linestyle": LINES[i % 2 + 2 * ((i // len(COLOURS)) % 2)],
        "markerfacecolor": "none" if i % 2 else colour,
        "ecolor": (*colour[:3], 0.55),  # error bars lighter than the curve
    }


def num(v):
    return math.nan if v is None else float(v)


def wrap(text, width):
    return "\n".join(textwrap.wrap(text, width, break_long_words=False)) or text


def errors(curve, key, at):
    """The half-widths at the indices `at`, NaN where there is none; None when none at all
    (matplotlib 3.6 refuses error bars that are all NaN)."""
    if key not in curve:
        return None
    e = [num(curve[key][k]) if k < len(curve[key]) else math.nan for k in at]
    e = [v if math.isfinite(v) and v >= 0 else math.nan for v in e]
    return e if any(math.isfinite(v) for v in e) else None


def draw_line_panel(ax, panel, log_y):
    """Draws the curves; returns the lowest y value (an error bar may reach below it). On a log
    scale only positive values are points."""
    low = math.inf
    for c in panel["curves"]:
        at = [
            k
            for k, (x, y) in enumerate(zip(c["x"], c["y"]))
            if math.isfinite(num(x)) and math.isfinite(num(y)) and (not log_y or num(y) > 0)
        ]
        if not at:
            continue
        xs = [num(c["x"][k]) for k in at]
        ys = [num(c["y"][k]) for k in at]
        yerr, xerr = errors(c, "y_err", at), errors(c, "x_err", at)
        low = min(low, min(ys))
        s = style(c["style"])
        # Past ~25 points (a link-utilization or time-series curve) markers only every few.
        every = max(1, len(at) // 12) if len(at) > 25 else 1
        ax.errorbar(
            xs,
            ys,
            yerr=yerr,
            xerr=xerr,
            label=wrap(c["name"], 38),
            **s,
            markevery=(c["style"] % every, every),
            linewidth=1.4,
            markersize=5,
            markeredgewidth=1.1,
            elinewidth=0.8,
            capsize=2.5,
        )
    return low


def draw_bar_panel(ax, panel, groups):
    curves = panel["curves"]
    n = max(1, len(curves))
    width = 0.8 / n
    for j, c in enumerate(curves):
        s = style(c["style"])
        at = [g for g, v in enumerate(c["y"]) if g < len(groups) and math.isfinite(num(v))]
        ax.bar(
            [g - 0.4 + width * (j + 0.5) for g in at],
            [num(c["y"][g]) for g in at],
            width,
            yerr=errors(c, "y_err", at),
            label=wrap(c["name"], 38),
            color=s["color"],
            hatch=HATCHES[(c["style"] // len(COLOURS)) % len(HATCHES)],
            edgecolor="white",
            linewidth=0.4,
            error_kw={"elinewidth": 0.9, "capsize": 2.5},
        )
    ax.grid(False, axis="x")
    ax.set_axisbelow(True)
    ax.set_xticks(range(len(groups)))
    labels = [wrap(g, 20) for g in groups]
    ax.set_xticklabels(labels)
    # Names wider than their group (about 0.075 inch a character at 9 points): slanted, so
    # that neighbours do not overwrite each other.
    longest = max((len(line) for g in labels for line in g.split("\n")), default=0)
    if longest * 0.075 > ax.figure.get_figwidth() * ax.get_position().width / max(1, len(groups)):
        plt.setp(ax.get_xticklabels(), rotation=30, ha="right", rotation_mode="anchor")
    ax.set_xlim(-0.6, len(groups) - 0.4)


def figure(spec):
    """The figure of `spec`, drawn anew for each file: a figure saved once lays itself out
    again for the next file's resolution, so each file is the same whatever else is written."""
    matplotlib.rcParams.update(
        {
            "svg.hashsalt": "ibrt",  # stable ids in the SVG
            "svg.fonttype": "none",  # text stays text: searchable, editable, small
            "font.size": 9,
            "axes.titlesize": 9.5,
            "legend.fontsize": 8,
            "axes.grid": True,
            "grid.alpha": 0.3,
            "path.simplify": False,
        }
    )
    panels = spec["panels"] or [{"title": "", "curves": []}]
    shared = spec.get("shared_legend", False)
    with_legend = any(c["name"] for p in panels for c in p["curves"])
    per_panel_legend = with_legend and not shared
    n = len(panels)
    kind = spec.get("kind", "line")
    log_y = kind == "line" and spec.get("log_y", False)
    # At most 3 columns (2 with a legend beside each panel; bar charts, wide, 1), as few rows
    # as that allows, and in those rows the fewest columns: 4 panels are 2 x 2, 5 are 3 + 2.
    widest = min(n, 1 if kind == "bar" else 2 if per_panel_legend else 3)
    ncols = next(c for c in range(1, widest + 1) if math.ceil(n / c) == math.ceil(n / widest))
    nrows = math.ceil(n / ncols)
    panel_w = PANEL_W
    if kind == "bar":
        bars = max(len(p.get("groups", spec.get("groups", []))) * len(p["curves"]) for p in panels)
        panel_w = max(PANEL_W, 0.22 * bars + 1)
    fig_w = ncols * (panel_w + (LEGEND_W if per_panel_legend else 0)) + (
        LEGEND_W if with_legend and shared else 0
    )
    fig, axes = plt.subplots(
        nrows,
        ncols,
        figsize=(fig_w, nrows * PANEL_H + 0.9),
        squeeze=False,
        layout="constrained",
    )
    for k, ax in enumerate(axes.flat):
        if k >= n:
            ax.set_visible(False)
            continue
        p = panels[k]
        if kind == "bar":
            draw_bar_panel(ax, p, p.get("groups", spec.get("groups", [])))
        elif log_y:
            draw_line_panel(ax, p, True)
            ax.set_yscale("log")
        elif draw_line_panel(ax, p, False) >= 0:
            # Latencies, utilizations, fractions: from zero (a wide interval's lower end, of
            # two seeds say, may pass below it; the value cannot).
            ax.set_ylim(bottom=0)
        if p.get("title"):
            ax.set_title(wrap(p["title"], int(panel_w * 13)))
        # Labels on the outer panels only: the grid shares its axes' meaning.
        if k + ncols >= n:
            ax.set_xlabel(spec.get("x_label", ""))
        if k % ncols == 0:
            ax.set_ylabel(spec.get("y_label", ""))
        if per_panel_legend and ax.get_legend_handles_labels()[0]:
            ax.legend(
                loc="upper left",
                bbox_to_anchor=(1.02, 1.0),
                borderaxespad=0,
                title=spec.get("legend_title") or None,
                title_fontsize=8,
                frameon=False,
            )
    # The parts of one split panel on the same scales, so that their curves compare.
    for key in {p.get("axes", k) for k, p in enumerate(panels)}:
        same = [ax for k, ax in enumerate(axes.flat[:n]) if panels[k].get("axes", k) == key]
        for lim, get, put in (("x", "get_xlim", "set_xlim"), ("y", "get_ylim", "set_ylim")):
            if len(same) > 1 and not (kind == "bar" and lim == "x"):
                los, his = zip(*(getattr(ax, get)() for ax in same))
                for ax in same:
                    getattr(ax, put)(min(los), max(his))
    if with_legend and shared:
        # One legend for every panel: the same name has the same style everywhere.
        seen = {}
        for ax in axes.flat:
            for h, lab in zip(*ax.get_legend_handles_labels()):
                seen.setdefault(lab, h)
        fig.legend(
            list(seen.values()),
            list(seen.keys()),
            loc="upper left",
            bbox_to_anchor=(1.0, 1.0),
            title=spec.get("legend_title") or None,
            title_fontsize=8,
            frameon=False,
        )
    # The title, then what every curve shares, broken between settings, not inside one.
    width = int(fig_w * 12)
    lines = [wrap(spec.get("title", ""), width)] if spec.get("title") else []
    first = len(lines)
    for item in spec.get("common", []):
        if len(lines) > first and len(lines[-1]) + 5 + len(item) <= width:
            lines[-1] += "  ·  " + item
        else:
            lines.append(item)
    fig.suptitle("\n".join(lines), fontsize=10)
    return fig


def main(path):
    with open(path, encoding="utf-8") as f:
        spec = json.load(f)
    if spec.get("schema") != "ibrt-plot/1":
        raise SystemExit(f"{path}: not an ibrt-plot/1 spec")
    for out in spec["outputs"]:
        fig = figure(spec)
        fig.savefig(
            out["path"],
            format=out["format"],
            dpi=150,
            bbox_inches="tight",
            pad_inches=0.15,
            metadata={"Date": None} if out["format"] == "svg" else {"Software": "ibrt"},
        )
        plt.close(fig)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: render.py SPEC.json")
    main(sys.argv[1])
