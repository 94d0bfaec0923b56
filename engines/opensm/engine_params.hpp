// The plugin's ENGINE.key=value options (plugin_options.hpp) applied to one engine. Apart from
// plugin.cpp so it is unit-tested without opensm.
//  - a parameter the engine does not declare, or a bad value: an error, and the engine then
//    declines every routing run (opensm uses the next engine), so a misspelt option never
//    silently changes how the fabric is routed;
//  - a parameter declared offline only (EngineParam::offline_only, e.g. mlid.paper_lids): it
//    cannot take effect inside opensm, so it is not applied and is reported as ignored, with
//    the declaration's reason; the engine still routes. Its default value, what happens
//    inside opensm anyway, is neither.
#pragma once

#include "engines/engine.hpp"

#include <string>
#include <utility>
#include <vector>

namespace ibrt::osm {

struct EngineParamsApplied {
    std::vector<std::string> ignored; // offline-only parameters: log each; the engine routes
    std::vector<std::string> errors;  // bad parameters: log each; the engine declines
};

// Applies the entries of `params` (engine name, "key=value") that name `engine` to `opt`.
EngineParamsApplied
apply_engine_params(const Engine& engine,
                    const std::vector<std::pair<std::string, std::string>>& params,
                    EngineOptions& opt);

} // namespace ibrt::osm
