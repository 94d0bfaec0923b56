// A sweep point's options through `ibrt sim`'s parser; see sweep_options.hpp.
#include "sweep/sweep_options.hpp"

#include "fabric/input_error.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <filesystem>

namespace ibrt::sweep {
namespace {

// {"packet-bytes": 32, "sl": "spread", "flag": true} -> parse of --packet-bytes=32 ...
void parse_object(CLI::App& app, const nlohmann::json& obj, const char* what,
                  std::initializer_list<std::string_view> skip = {}) {
    std::vector<std::string> args;
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        if (std::find(skip.begin(), skip.end(), it.key()) != skip.end()) continue;
        const auto& v = it.value();
        if (v.is_boolean()) {
            if (v.get<bool>()) args.push_back("--" + it.key());
        } else if (v.is_string() || v.is_number() || v.is_array()) {
            // A list here is a repeatable option's (engine-opt): the grid's lists are expanded.
            for (const std::string& s : option_strings(v, true))
                args.push_back("--" + it.key() + "=" + s);
        } else {
            throw InputError(what, 0,
                             fmt::format("\"{}\": expected a string, number or true", it.key()));
        }
    }
    std::reverse(args.begin(), args.end()); // CLI11 takes a vector last argument first
    try {
        app.parse(args);
    } catch (const CLI::ParseError& e) {
        throw InputError(what, 0, e.what());
    }
}

// The spec's file names relative to its directory, as `ibrt sim` run there would read them.
void resolve_files(nlohmann::json& sim, const std::string& base_dir) {
    for (const char* k : {"opensm-conf", "pairs-file"})
        if (sim.contains(k) && sim[k].is_string() && !base_dir.empty()) {
            const std::filesystem::path p = sim[k].get<std::string>();
            if (p.is_relative()) sim[k] = (std::filesystem::path(base_dir) / p).string();
        }
}

OptionKind option_kind(const CLI::App& app, const std::string& key) {
    if (key.empty() || key[0] == '-') return OptionKind::Unknown; // "--" + key is no option name
    const CLI::Option* o = app.get_option_no_throw("--" + key);
    if (!o || o == app.get_help_ptr()) return OptionKind::Unknown; // --help is no setting
    if (o->get_expected_max() == 0) return OptionKind::Flag;
    return o->get_items_expected_max() > 1 ? OptionKind::List : OptionKind::Value;
}

std::string option_problem(CLI::App& app, const std::string& key, const nlohmann::json& value) {
    try {
        parse_object(app, nlohmann::json{{key, value}}, key.c_str());
    } catch (const InputError& e) {
        return e.problem();
    }
    return {};
}

// An App with one command's options, registered once for the look-ups of option_kind (a spec
// asks for each of its keys) and only read afterwards.
template <class Options, void (*add)(CLI::App&, Options&)> const CLI::App& registered() {
    static Options o;
    static CLI::App app;
    static const bool once = (add(app, o), true);
    (void)once;
    return app;
}

} // namespace

OptionKind sim_option_kind(const std::string& key) {
    return option_kind(registered<cli::SimOptions, cli::add_sim_options>(), key);
}

OptionKind routing_option_kind(const std::string& key) {
    return option_kind(registered<cli::RoutingOptions, cli::add_routing_options>(), key);
}

std::string sim_option_problem(const std::string& key, const nlohmann::json& value,
                               const std::string& base_dir) {
    cli::SimOptions o;
    CLI::App app;
    cli::add_sim_options(app, o);
    nlohmann::json sim{{key, value}};
    resolve_files(sim, base_dir);
    return option_problem(app, key, sim[key]);
}

std::string routing_option_problem(const std::string& key, const nlohmann::json& value) {
    cli::RoutingOptions o;
    CLI::App app;
    cli::add_routing_options(app, o);
    return option_problem(app, key, value);
}

std::string cc_option_text(const nlohmann::json& v) {
    return v.is_object() ? v.at("value").get<std::string>() : v.get<std::string>();
}

std::string cc_option_label(const nlohmann::json& v) {
    return v.is_object() ? v.at("label").get<std::string>() : v.get<std::string>();
}

std::vector<std::string> option_strings(const nlohmann::json& v, bool repeatable) {
    const auto text = [](const nlohmann::json& x) {
        return x.is_string() ? x.get<std::string>() : x.dump();
    };
    if (!v.is_array()) return {text(v)};
    std::vector<std::string> out;
    for (const auto& x : v) out.push_back(text(x));
    if (repeatable || out.empty()) return out;
    std::string joined;
    for (const auto& s : out) joined += (joined.empty() ? "" : ",") + s;
    return {joined};
}

cli::SimOptions sweep_sim_options(const nlohmann::json& point, const std::string& base_dir) {
    cli::SimOptions o;
    CLI::App app;
    cli::add_sim_options(app, o);
    nlohmann::json sim = point.at("sim");
    resolve_files(sim, base_dir);
    parse_object(app, sim, "sim");
    // After the file: each line overrides it, as --cc-option does.
    if (point.contains("cc"))
        for (auto it = point["cc"].begin(); it != point["cc"].end(); ++it)
            o.cc_options.push_back(it.key() + " " + cc_option_text(it.value()));
    if (point.contains("saturation")) {
        const auto& s = point["saturation"];
        o.saturation = true;
        o.saturation_max = s.at("max").get<double>();
        o.saturation_steps = s.at("steps").get<int>();
        o.saturation_tolerance = s.at("tolerance").get<double>();
        if (!(o.saturation_max > 0 && o.saturation_max <= 1) || o.saturation_steps < 1 ||
            o.saturation_steps > 30 ||
            !(o.saturation_tolerance >= 0 && o.saturation_tolerance <= 0.5))
            throw InputError("saturation", 0,
                             "need 0 < max <= 1, 1 <= steps <= 30, "
                             "0 <= tolerance <= 0.5");
    }
    sim::SimConfig c = cli::make_sim_config(o);
    c.num_vls = std::uint8_t(point.at("vls").get<int>());
    cli::check_sim_config(c);
    return o;
}

SweepRouting sweep_routing_options(const nlohmann::json& point) {
    SweepRouting r;
    const auto& j = point.at("routing");
    if (j.contains("engine")) r.engine = j["engine"].get<std::string>();
    CLI::App app;
    cli::add_routing_options(app, r.options);
    // "selection" belongs to the routing (an adaptive routing is its forwarding sets and its
    // selection function); the expansion moves it into the point's sim options. "label" names
    // the routing's curve.
    parse_object(app, j, "routing", {"engine", "selection", "label"});
    if (!r.engine.empty()) cli::make_engine_or_throw(r.engine); // unknown engines are bad input now
    return r;
}

} // namespace ibrt::sweep
