// Every figure ibrt draws (issue 40): `ibrt sim --plot / --link-plot / --timeseries-plot`, the
// sweep's sweep.svg, saturation.svg and flows.svg, bench_map's robustness curves, and `ibrt
// plot`'s figures read from JSON (tools/figure_file.hpp, "ibrt-figure/1": a Figure as the
// study scripts of docs/results write it, so their figures follow these rules too). The C++ side
// decides what is drawn, as a JSON spec (plot_spec, a pure function the tests read); Debian's
// matplotlib draws it (plot/render.py, embedded at build time, run with python3 by render).
//
// A room of its own rather than a file in sim/: sim/ is the simulator on fabric/ alone, and
// plotting is output of the tools (and of a benchmark of mapping/), with a JSON dependency and
// a child process the simulator has no business with. Nothing here knows a fabric or a run:
// callers hand over curves named by their settings.
//
// The rules a figure follows (plot_spec):
//   - a setting whose value every curve shares is said once, under the title ("common"), not
//     in every legend entry;
//   - the settings in Figure::facets that vary make panels (a sweep: fabric x pattern);
//   - the other varying settings name the curves in the legend; while a panel would hold more
//     than `max_curves` (8) curves and the legend is named by more than one setting, the last
//     of them moves to the panels (a sweep: CC settings, then sim options, then VLs, so that
//     the routings stay side by side); a panel still too full is split into parts of at most
//     `max_curves`, "(1/3)" in their titles;
//   - a curve's style (colour, marker, line style; bar colour and hatch) follows its name, so
//     one name looks the same in every panel; legends sit outside the axes, one for the whole
//     figure when every panel names the same few curves;
//   - error bars where a curve has 95 % confidence half-widths (x_err, y_err);
//   - lines on a log y scale when Figure::log_y (latencies over orders of magnitude); values
//     that are not positive are no points there;
//   - bars: at most kMaxGroupsPerPanel (12) groups a panel; more are split over panels, each
//     with its own "groups".
//
// The spec, "ibrt-plot/1" (keys only ever added):
//   { "schema", "kind": "line"|"bar", "title", "common": [TEXT...], "x_label", "y_label",
//     "legend_title" (the settings legend entries name, ", "-joined), "shared_legend",
//     "log_y"? (true: y on a log scale; absent otherwise),
//     "groups": [TEXT...] (bars: every category along x),
//     "panels": [ {"title", "axes" (panels with one value share their axes' ranges: the parts
//                  of one split), "groups"? (bars: this panel's categories; "y" one per group),
//                  "curves": [ {"name", "style": INDEX, "x": [...] (lines), "y": [...],
//                               "x_err"?: [...], "y_err"?: [...]} ]} ],
//     "outputs": [ {"path", "format": "svg"|"png"} ] (added by render) }
// A value that is not finite is null: no point, no bar, no error bar.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ibrt::plot {

// One curve of a line plot, or one bar series of a grouped bar chart.
struct Curve {
    // What the curve is, as (setting, value) pairs: {"routing", "mlid"}, {"VLs", "2 VLs"}.
    // Values are shown alone, so each says what it is ("uniform traffic", not "uniform").
    // A setting a curve lacks counts as the value "".
    std::vector<std::pair<std::string, std::string>> settings;
    std::vector<double> x; // lines: drawn in this order; bars: unused
    std::vector<double> y; // bars: one value per Figure::groups entry
    // 95 % confidence half-widths, one per point (not finite or negative: none), or empty.
    std::vector<double> x_err, y_err;
};

enum class Kind { Line, Bar };

struct Figure {
    Kind kind = Kind::Line;
    std::string title, x_label, y_label;
    bool log_y = false;              // lines: y on a log scale
    std::vector<std::string> groups; // bars: the categories along x
    std::vector<std::string> facets; // settings that make panels whenever they vary
    std::vector<Curve> curves;
};

inline constexpr std::size_t kMaxCurvesPerPanel = 8;
inline constexpr std::size_t kMaxGroupsPerPanel = 12;

// The spec of `f` by the rules above; deterministic (same figure, same JSON).
nlohmann::ordered_json plot_spec(const Figure& f, std::size_t max_curves = kMaxCurvesPerPanel);

// What goes wrong outside ibrt's input: no python3, no matplotlib, the script failed, the file
// cannot be written. The message names the output file and the cause.
struct PlotError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// "svg" or "png" from the file name's extension; "" for anything else.
std::string plot_format(const std::string& path);

// Draws `spec` into each of `paths` (.svg or .png) with one run of the embedded render.py:
// `$IBRT_PYTHON` (default /usr/bin/python3, the interpreter Debian's python3-matplotlib is
// built for; a python3 earlier in PATH, a pyenv or a virtualenv, usually lacks it) with
// MPLBACKEND=Agg. Each file is written under a temporary name and renamed into place, so a
// reader sees the whole figure or the previous one. Throws PlotError.
void render(nlohmann::ordered_json spec, const std::vector<std::string>& paths);

// plot_spec, then render to one file.
void write_plot(const Figure& f, const std::string& path);

} // namespace ibrt::plot
