// Parsing of opensm's `event_plugin_options` string for the ibrt plugin. The string is shared
// by every loaded event plugin, so ibrt reads `key=value` tokens (separated by spaces or
// commas) that are unprefixed or prefixed `ibrt.`, and ignores tokens prefixed for another
// plugin (`other.key=value`). A token prefixed with an engine's name (`mlid.paper_lids=true`,
// or `ibrt.mlid.…`) is that engine's parameter; the plugin checks it against the engine's
// declaration. Documented in docs/deploy.md.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ibrt::osm {

struct PluginOptions {
    std::string report;     // report=PATH: JSON summary of every routing run
    std::string path_sl;    // path_sl=PATH: the SA's path SLs for every pair, at each SUBNET UP
    std::uint64_t seed = 1; // seed=N: engines' tie-breaking seed
    // ENGINE.key=value tokens: (engine name, "key=value"), in the order given.
    std::vector<std::pair<std::string, std::string>> engine_params;
    std::vector<std::string> errors; // problems found; each is logged with what is used instead
};

// `engines`: the names whose prefix marks an engine parameter.
PluginOptions parse_plugin_options(std::string_view text,
                                   const std::vector<std::string>& engines = {});

} // namespace ibrt::osm
