// Engine selection and options on the command line; see engine_cli.hpp.
#include "cli/engine_cli.hpp"

#include "cli/option_checks.hpp"
#include "fabric/input_error.hpp"

#include <fmt/format.h>

#include <charconv>

namespace ibrt::cli {

void add_engine_cli(CLI::App& sub, EngineCli& a) {
    sub.add_option("--lmc", a.lmc,
                   "LMC 0..7, or auto: the engine chooses (mlid: enough LIDs for every up path, "
                   "capped at 7 and by the 49151 unicast LIDs)")
        ->default_val("auto")
        ->check(whole_in_or(0, 7, "auto"));
    sub.add_option("--engine-opt", a.opts,
                   "Engine parameter key=value (repeatable); the engines' parameters are listed "
                   "below")
        ->take_all();
    sub.add_option("--data-vls", a.data_vls,
                   "Data VLs of ports whose count the fabric file does not give (ibnetdiscover "
                   "dumps do not); an engine needing more declines")
        ->default_val(kDefaultDataVls)
        ->check(CLI::IsMember({1u, 2u, 4u, 8u, 15u}));
}

std::unique_ptr<Engine> make_engine_or_throw(const std::string& name) {
    if (auto e = make_engine(name)) return e;
    throw InputError(
        "--engine", 0,
        fmt::format("unknown engine '{}' (known: {})", name, fmt::join(engine_names(), ", ")));
}

EngineOptions engine_options(const Engine& e, const EngineCli& a, std::uint64_t seed) {
    EngineOptions opt;
    opt.seed = seed;
    opt.default_data_vls = a.data_vls;
    if (a.lmc != "auto") {
        int v = -1;
        const auto [p, ec] = std::from_chars(a.lmc.data(), a.lmc.data() + a.lmc.size(), v);
        if (ec != std::errc() || p != a.lmc.data() + a.lmc.size() || v < 0 || v > kMaxLmc)
            throw InputError("--lmc", 0, fmt::format("must be 0..7 or auto, got '{}'", a.lmc));
        opt.lmc = v;
    }
    for (const std::string& kv : a.opts) try {
            e.set_param(opt, kv);
        } catch (const std::invalid_argument& err) {
            throw InputError("--engine-opt", 0, err.what());
        }
    return opt;
}

std::string engine_params_help() {
    std::string s = "Engine parameters (--engine-opt key=value):";
    for (const std::string& name : engine_names()) {
        const auto e = make_engine(name);
        if (e->params().empty()) {
            s += fmt::format("\n  {}: none", name);
            continue;
        }
        for (const EngineParam& p : e->params())
            s += fmt::format("\n  {}: {} (default {}): {}", name, p.key, p.default_value, p.help);
    }
    return s;
}

} // namespace ibrt::cli
