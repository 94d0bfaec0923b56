// Parsing of opensm's `event_plugin_options` string for the ibrt plugin. The string is shared
// by every loaded event plugin, so each token (tokens are separated by spaces, tabs or commas)
// is either ibrt's, another plugin's, or a mistake, by these rules (docs/deploy.md):
//  - `ibrt.` in front claims the token for ibrt; what follows must be one of ibrt's forms;
//  - ibrt's forms: `key=value` (report, path_sl, seed) and `ENGINE.key=value` for an engine
//    ibrt registers (`mlid.paper_lids=true`), which the plugin checks against the engine's
//    parameter declarations;
//  - another plugin's: `PLUGIN.key=value` without `ibrt.` in front, where PLUGIN and key are
//    non-empty words of letters, digits, `_` and `-` (one dot before the `=`) and PLUGIN is
//    neither `ibrt` nor an engine name; ibrt leaves these alone;
//  - anything else (`=x`, `.=.`, `a.b.c=d`, `ibrt.nosuch.key=1`, `other.key` without a value)
//    is a mistake: an entry in `errors` naming the token, logged by the plugin; the token is
//    ignored. Nothing throws: the string comes from a configuration file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ibrt::osm {

struct PluginOptions {
    std::string report;     // report=PATH: JSON summary of every routing run
    std::string path_sl;    // path_sl=PATH: the SA's path SLs for every pair, after each routing
    std::uint64_t seed = 1; // seed=N: engines' tie-breaking seed
    // ENGINE.key=value tokens: (engine name, "key=value"), in the order given.
    std::vector<std::pair<std::string, std::string>> engine_params;
    std::vector<std::string> other_plugins; // tokens left to another plugin, as given
    std::vector<std::string> errors; // problems found; each is logged with what is used instead
};

// `engines`: the names whose prefix marks an engine parameter.
PluginOptions parse_plugin_options(std::string_view text,
                                   const std::vector<std::string>& engines = {});

} // namespace ibrt::osm
