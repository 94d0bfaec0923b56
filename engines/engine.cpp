// Engine::route and engine parameters: what every engine gets checked the same way.
#include "engines/engine.hpp"

#include "fabric/display_name.hpp"
#include "mapping/fat_tree_shape.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace ibrt {
namespace {

std::optional<bool> parse_flag(std::string_view v) {
    if (v == "1" || v == "true" || v == "yes" || v == "on") return true;
    if (v == "0" || v == "false" || v == "no" || v == "off") return false;
    return std::nullopt;
}

std::optional<std::int64_t> parse_int(std::string_view v) {
    std::int64_t x = 0;
    const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (ec != std::errc() || p != v.data() + v.size() || v.empty()) return std::nullopt;
    return x;
}

std::string accepted(const EngineParam& p) {
    switch (p.kind) {
    case EngineParam::Kind::Flag:
        return "true or false";
    case EngineParam::Kind::Integer:
        return fmt::format("an integer in {}..{}", p.min, p.max);
    case EngineParam::Kind::Choice:
        return fmt::format("one of {}", fmt::join(p.choices, ", "));
    }
    return {};
}

} // namespace

unsigned port_data_vls(const Fabric& f, PortId p, unsigned default_data_vls) {
    const unsigned v = f.port(p).data_vls;
    return v ? v : default_data_vls;
}

unsigned fewest_port_data_vls(const Fabric& f, unsigned default_data_vls) {
    unsigned fewest = 15;
    for (PortId p = 0; p < f.num_port_slots(); ++p)
        if (f.port(p).connected()) fewest = std::min(fewest, port_data_vls(f, p, default_data_vls));
    return fewest;
}

Routing Engine::route(const Fabric& f, const Lids* preassigned, const EngineOptions& opt) const {
    for (const auto& [key, value] : opt.params) { // set_param checked them; a caller may not have
        EngineOptions probe;
        set_param(probe, key + "=" + value);
    }
    Routing r;
    try {
        r = compute(f, preassigned, opt);
    } catch (const fattree::NotAFatTree& e) { // recognition refused the fabric: a decline
        throw RoutingError(e.what());
    }
    if (r.data_vls <= 1) return r; // VL0 is always there
    for (PortId p = 0; p < f.num_port_slots(); ++p) {
        const Port& port = f.port(p);
        if (!port.connected()) continue;
        const unsigned have = port_data_vls(f, p, opt.default_data_vls);
        if (have < r.data_vls)
            throw RoutingError(fmt::format(
                "{} needs {} data VLs but {} has {}{}", name(), r.data_vls,
                display_port(f, f.port_node(p), f.port_num(p)), have,
                port.data_vls ? "" : " (assumed: the fabric does not say; see --data-vls)"));
    }
    return r;
}

const EngineParam& Engine::param(std::string_view key) const {
    const auto ps = params();
    const auto it =
        std::find_if(ps.begin(), ps.end(), [&](const EngineParam& p) { return p.key == key; });
    if (it == ps.end()) {
        std::vector<std::string_view> keys;
        for (const EngineParam& p : ps) keys.push_back(p.key);
        throw std::invalid_argument(
            keys.empty() ? fmt::format("engine {} has no options (got '{}')", name(), key)
                         : fmt::format("engine {} has no option '{}' (options: {})", name(), key,
                                       fmt::join(keys, ", ")));
    }
    return *it;
}

void Engine::set_param(EngineOptions& opt, std::string_view kv) const {
    const auto eq = kv.find('=');
    if (eq == std::string_view::npos || eq == 0)
        throw std::invalid_argument(fmt::format("engine option '{}' is not key=value", kv));
    const std::string_view key = kv.substr(0, eq), value = kv.substr(eq + 1);
    const EngineParam& p = param(key);
    bool ok = false;
    switch (p.kind) {
    case EngineParam::Kind::Flag:
        ok = parse_flag(value).has_value();
        break;
    case EngineParam::Kind::Integer: {
        const auto x = parse_int(value);
        ok = x && *x >= p.min && *x <= p.max;
        break;
    }
    case EngineParam::Kind::Choice:
        ok = std::find(p.choices.begin(), p.choices.end(), value) != p.choices.end();
        break;
    }
    if (!ok)
        throw std::invalid_argument(
            fmt::format("engine {} option {}: '{}' is not {}", name(), key, value, accepted(p)));
    opt.params[std::string(key)] = std::string(value);
}

std::string_view Engine::param_value(const EngineOptions& opt, std::string_view key) const {
    const EngineParam& p = param(key);
    const auto it = opt.params.find(key);
    return it == opt.params.end() ? p.default_value : std::string_view(it->second);
}

bool Engine::param_flag(const EngineOptions& opt, std::string_view key) const {
    return parse_flag(param_value(opt, key)).value_or(false);
}

std::int64_t Engine::param_int(const EngineOptions& opt, std::string_view key) const {
    return parse_int(param_value(opt, key)).value_or(0);
}

std::string_view Engine::param_choice(const EngineOptions& opt, std::string_view key) const {
    return param_value(opt, key);
}

} // namespace ibrt
