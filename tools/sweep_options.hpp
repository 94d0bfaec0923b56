// A sweep point's options as `ibrt sim` reads them (issue 11: one way to build a SimConfig):
// the point's "sim" and "routing" objects become `--option value` arguments parsed by the very
// CLI11 options `ibrt sim` registers (tools/sim_options.hpp), with the same checks and defaults.
#pragma once

#include "tools/sim_options.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace ibrt::tools {

// SimOptions of a point (its sim object, load/saturation); throws InputError naming the option.
SimOptions sweep_sim_options(const nlohmann::json& point);

struct SweepRouting {
    std::string engine; // "" = tables from files
    RoutingOptions options;
};
SweepRouting sweep_routing_options(const nlohmann::json& point);

} // namespace ibrt::tools
