// `ibrt gen`'s options and the fabric they describe: one parser of a generated fabric's
// arguments (family, parameters, failures with their --seed, link width/speed, LIDs), registered
// by `ibrt gen` (tools/cmd_gen.cpp) and read by generate_fabric, so a sweep spec's
// {"gen": ARGS} (issue 17) builds in memory the fabric `ibrt gen ARGS -o FILE` writes, without
// files in between.
#pragma once

#include "fabric/fabric.hpp"
#include "generators/dragonfly.hpp"
#include "generators/dragonfly_plus.hpp"
#include "generators/failures.hpp"
#include "generators/pgft.hpp"
#include "generators/random_graph.hpp"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace ibrt::cli {

struct GenOptions {
    std::string output = "-";
    std::string report_json;
    double fail_links = 0, fail_switches = 0;
    std::vector<std::string> fail_link, fail_switch;
    std::uint64_t seed = 1;
    bool keep_connected = false;
    bool assign_lids = false;
    int lmc = -1;
    int width = 4;
    std::string speed = "SDR";
    bool quiet = false;

    // Family parameters (each family reads its own).
    int m = 4, n = 3, k = 2;
    gen::ClosParams clos;
    std::string blocking = "1:1";
    gen::PgftParams pgft;
    std::vector<int> dims, widths;
    int cas = 1, dimensions = 3, radix = 0, parallel = 1;
    gen::DragonflyParams df;
    gen::DragonflyPlusParams dfp;
    int balanced = 0;
    bool omit_one_global = false;
    int q = 5;
    gen::RandomParams rnd;

    std::string family; // the subcommand given
};

// Registers on `gen` the options every family shares (output, failures, --seed, LIDs, link
// width and speed, report, quiet) and one subcommand per family with its parameters.
void add_gen_options(CLI::App& gen, GenOptions& o);

// The fabric the parsed options describe: the family, cable width/speed, failures, LIDs; what
// the failures removed goes to `report`. Throws gen::GenError for parameters the family refuses.
Fabric build_fabric(GenOptions& o, CLI::App& gen, gen::FailureReport& report);

// args as after `ibrt gen`, e.g. {"fat-tree", "-m", "4", "-n", "2", "--fail-links", "1"}.
// Throws InputError("gen", ...) for arguments `ibrt gen` refuses.
Fabric generate_fabric(const std::vector<std::string>& args);

} // namespace ibrt::cli
