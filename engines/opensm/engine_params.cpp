#include "engines/opensm/engine_params.hpp"

#include <algorithm>
#include <stdexcept>
#include <string_view>

namespace ibrt::osm {

namespace {

// Whether `set` holds `key` at a value meaning the declared default ("0", "no" and "false"
// are one flag value), compared through the engine's own reading of it.
bool is_default(const Engine& e, const EngineParam& p, const EngineOptions& set) {
    const EngineOptions none;
    switch (p.kind) {
    case EngineParam::Kind::Flag:
        return e.param_flag(set, p.key) == e.param_flag(none, p.key);
    case EngineParam::Kind::Integer:
        return e.param_int(set, p.key) == e.param_int(none, p.key);
    case EngineParam::Kind::Choice:
        return e.param_choice(set, p.key) == e.param_choice(none, p.key);
    }
    return false;
}

} // namespace

EngineParamsApplied
apply_engine_params(const Engine& engine,
                    const std::vector<std::pair<std::string, std::string>>& params,
                    EngineOptions& opt) {
    EngineParamsApplied out;
    for (const auto& [name, kv] : params) {
        if (name != engine.name()) continue;
        EngineOptions probe; // checked alone first, so `opt` only ever gets applicable ones
        try {
            engine.set_param(probe, kv);
        } catch (const std::invalid_argument& err) {
            out.errors.emplace_back(err.what());
            continue;
        }
        const std::string_view key = std::string_view(kv).substr(0, kv.find('='));
        const auto ps = engine.params();
        const auto p =
            std::find_if(ps.begin(), ps.end(), [&](const EngineParam& d) { return d.key == key; });
        if (p != ps.end() && !p->offline_only.empty()) {
            if (!is_default(engine, *p, probe))
                out.ignored.push_back("option '" + name + "." + kv +
                                      "' ignored: it takes effect only offline (ibrt route); " +
                                      std::string(p->offline_only));
            continue;
        }
        engine.set_param(opt, kv);
    }
    return out;
}

} // namespace ibrt::osm
