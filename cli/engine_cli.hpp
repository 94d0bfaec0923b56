// How every subcommand that runs an engine (route, sim, sweep) names it and passes its
// options: one parser, so `--lmc`, `--engine-opt` and `--data-vls` mean the same everywhere.
#pragma once

#include "engines/engine.hpp"

#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <vector>

namespace ibrt::cli {

struct EngineCli {
    std::string lmc = "auto";
    std::vector<std::string> opts; // key=value, repeatable
    unsigned data_vls = kDefaultDataVls;
};

// Adds --lmc, --engine-opt and --data-vls to `sub`.
void add_engine_cli(CLI::App& sub, EngineCli& a);

// The engine `name` and its checked options. Throws InputError naming the option for an
// unknown engine, a bad --lmc, or an --engine-opt the engine does not declare.
std::unique_ptr<Engine> make_engine_or_throw(const std::string& name);
EngineOptions engine_options(const Engine& e, const EngineCli& a, std::uint64_t seed);

// Every engine's parameters with defaults and help, for --help footers.
std::string engine_params_help();

} // namespace ibrt::cli
