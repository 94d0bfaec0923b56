// Parsing of opensm's `event_plugin_options` string for the ibrt plugin. The string is shared
// by every loaded event plugin, so ibrt reads `key=value` tokens (separated by spaces or
// commas) that are unprefixed or prefixed `ibrt.`, and ignores tokens prefixed for another
// plugin (`other.key=value`). Documented in docs/deploy.md.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ibrt::osm {

struct PluginOptions {
    std::string report;              // report=PATH: JSON summary of every routing run
    std::uint64_t seed = 1;          // seed=N: engines' tie-breaking seed
    std::vector<std::string> errors; // problems found; each is logged, the option ignored
};

PluginOptions parse_plugin_options(std::string_view text);

} // namespace ibrt::osm
