// A sweep point's options as `ibrt sim` reads them (issue 11: one way to build a SimConfig):
// the point's "sim" and "routing" objects become `--option value` arguments parsed by the very
// CLI11 options `ibrt sim` registers (tools/sim_options.hpp), with the same checks and defaults.
#pragma once

#include "tools/sim_options.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace ibrt::tools {

// SimOptions of a point (its sim object, its "cc" lines, load/saturation); throws InputError
// naming the option. Relative file names of the sim object (opensm-conf, pairs-file) are
// relative to `base_dir` (the spec's directory).
SimOptions sweep_sim_options(const nlohmann::json& point, const std::string& base_dir = "");

// A point's "cc" value (a string, or {"label", "value"}): the rest of its opensm.conf line,
// and how legends and CSV columns name it (the label, else the text).
std::string cc_option_text(const nlohmann::json& v);
std::string cc_option_label(const nlohmann::json& v);

struct SweepRouting {
    std::string engine; // "" = tables from files
    RoutingOptions options;
};
SweepRouting sweep_routing_options(const nlohmann::json& point);

} // namespace ibrt::tools
