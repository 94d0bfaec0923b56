// A figure as JSON, "ibrt-figure/1": `ibrt plot`'s input (tools/cmd_plot.cpp). It is a
// plot::Figure (plot/plot.hpp) key for key, the input of plot_spec, so that a figure drawn
// outside the tool (the study scripts of docs/results) is laid out by the same rules as ibrt's
// own: common settings under the title, panels by the facets, at most 8 curves a panel, styles
// by name, error bars.
//
//   { "schema": "ibrt-figure/1",                      required
//     "kind": "line" | "bar",                         default "line"
//     "title", "x_label", "y_label": TEXT,            default ""
//     "log_y": true | false,                          lines: y on a log scale (default false;
//                                                     values not above 0 are then no points)
//     "facets": [SETTING...],                         settings that make panels when they vary
//     "groups": [TEXT...],                            bars (required): the categories along x
//     "curves": [                                     at least one
//       { "settings": {SETTING: VALUE...},            what the curve is, values as TEXT that
//                                                     says what it is ("IBA CC", "threshold 4");
//                                                     the order counts: legend names join the
//                                                     values in it, and the last varying setting
//                                                     is the first to move to the panels
//         "x": [NUMBER|null...],                      lines (required): as many as y
//         "y": [NUMBER|null...],                      lines: the points; bars: one per group
//         "x_err", "y_err": [NUMBER|null...] } ] }    optional 95 % half-widths, one per y
//                                                     (bars: y_err only)
// null is no value: no point, no bar, no error bar; so is a negative half-width. JSON has no
// NaN: Python's json.dump writes one as `NaN`, which is not JSON and refused (write None).
// Unknown keys are refused, so a misspelt one is not silently ignored; the schema only ever
// gains keys.
#pragma once

#include "plot/plot.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace ibrt::tools {

// `f` as an "ibrt-figure/1" document (not finite values as null); parse_figure of its dump is
// `f` again, so both draw the same bytes.
nlohmann::ordered_json figure_json(const plot::Figure& f);

// The figure in `text`, every value checked. Throws InputError naming `file`, the line and
// the value's JSON pointer (`fig.json:12: /curves/1/y/3: expected a number or null, got "a"`),
// for JSON syntax and a key given twice too.
plot::Figure parse_figure(const std::string& text, const std::string& file);

// The figure in the file `path` ("-": standard input; a regular file, as every input:
// formats/input_file.hpp).
plot::Figure read_figure_file(const std::string& path);

} // namespace ibrt::tools
