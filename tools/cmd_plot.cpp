// `ibrt plot FIGURE.json -o FILE [-o FILE...]`: draws a figure described in JSON through plot/,
// the one path every figure of ibrt takes (issue 40), into each file (SVG or PNG by the name).
// The study scripts (studies/congestion-control-drb.py, studies/cc-hysteresis.py) draw with it
// instead of writing SVG by hand.
//
// What it reads is the figure, "ibrt-figure/1" (tools/figure_file.hpp: title, labels, facets,
// curves named by their settings, x, y and error bars, kind), the input of plot::plot_spec, and
// not the "ibrt-plot/1" spec plot_spec makes of it. Why: the rules are in plot_spec (settings
// every curve shares lifted under the title, panels by the facets, at most 8 curves a panel,
// styles that follow names, error bars), and a figure from a script should follow them as
// ibrt's own do; a spec would be laid out by whoever wrote it. The spec stays the private
// interface between plot.cpp and render.py, free to change with them, and one input form means
// one validator: every value of a figure is checked here, with its file:line, so render.py
// never sees an input it refuses. A spec given anyway is refused with this reason.
#include "cli/option_checks.hpp"
#include "plot/plot.hpp"
#include "tools/command.hpp"
#include "tools/figure_file.hpp"

#include <memory>
#include <string>
#include <vector>

namespace ibrt::tools {
namespace {

const CommandRegistrar reg{{
    "plot",
    "Draw a figure described in JSON (\"ibrt-figure/1\") as SVG or PNG, by ibrt's plot rules",
    [](CLI::App& sub) -> std::function<int()> {
        auto file = std::make_shared<std::string>();
        auto outputs = std::make_shared<std::vector<std::string>>();
        sub.add_option("FIGURE", *file, "The figure, JSON (\"-\": standard input)")->required();
        sub.add_option("-o,--output", *outputs,
                       "A file to draw it into, .svg or .png (repeat for several)")
            ->required()
            ->allow_extra_args(false) // `-o a.svg FIGURE`: FIGURE is not a second output
            ->take_all()
            ->check(cli::plot_file());
        sub.footer(
            "The figure is JSON, {\"schema\": \"ibrt-figure/1\", \"kind\": \"line\" or \"bar\"\n"
            "(default line), \"title\", \"x_label\", \"y_label\" (text), \"log_y\" (lines: true\n"
            "for a log y scale), \"facets\": [SETTING...] (settings that make panels when\n"
            "they vary), \"groups\": [TEXT...] (bars: the categories along x),\n"
            "\"curves\": [{\"settings\": {SETTING: VALUE...}, \"x\": [...] (lines), \"y\": [...]\n"
            "(bars: one per group), \"x_err\", \"y_err\": [...]}]}; unknown keys are refused.\n"
            "Values are numbers or null (no value); x_err and y_err are 95 % half-widths,\n"
            "one per point. A setting's value is text that says what it is (\"IBA CC\",\n"
            "\"threshold 4\"); the settings' order counts. It is laid out as every ibrt figure\n"
            "is (plot/plot.hpp): settings every curve shares go under the title, the facets\n"
            "that vary make panels, the other settings name the curves, at most 8 curves a\n"
            "panel (the last setting of the legend moves to the panels first), one style per\n"
            "name in every panel. Drawn by Debian's matplotlib (python3-matplotlib;\n"
            "IBRT_PYTHON names another python3); the same figure gives the same bytes.\n"
            "Exit codes: 0 drawn, 2 bad input (the figure's file:line and JSON pointer, an\n"
            "output that is not .svg or .png or cannot be written) or no matplotlib.");
        return [file, outputs] {
            plot::render(plot::plot_spec(read_figure_file(*file)), *outputs);
            return kExitOk;
        };
    },
}};

} // namespace
} // namespace ibrt::tools
