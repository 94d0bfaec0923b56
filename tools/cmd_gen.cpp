// `ibrt gen FAMILY [params] -o FILE`: topology generators (generators/) and failure
// injection, written in the ibnetdiscover format that ibsim loads (a CA first, so the
// simulated SM runs from a host). Families: FT(m,n) of paper 000 §3, k-ary n-trees of paper
// 004 §2, deployed Clos and PGFT/XGFT, HyperX/hypercube, torus/mesh, Dragonfly and Slim Fly of
// paper 003 §1, Dragonfly+ (Shpiner et al.), random irregular fabrics of paper 001 §VI. Same
// parameters and seed, same file. The options and the fabric they describe are
// cli/gen_options.hpp's, shared with sweep specs' generated fabrics.
#include "cli/gen_options.hpp"
#include "formats/ibnetdiscover.hpp"
#include "generators/failures.hpp"
#include "generators/gen_builder.hpp"
#include "tools/command.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>

namespace ibrt::tools {
namespace {

nlohmann::json report_json(const cli::GenOptions& o, const Fabric& f, const gen::FailureReport& r) {
    nlohmann::json j;
    j["family"] = o.family;
    j["seed"] = o.seed;
    j["switches"] = f.switches().size();
    j["cas"] = f.cas().size();
    j["cables"] = f.num_links();
    j["components"] = r.components;
    j["removed_links"] = r.removed_links;
    j["removed_switches"] = r.removed_switches;
    j["dropped_cas"] = r.dropped_cas;
    return j;
}

void print_list(const char* what, const std::vector<std::string>& names) {
    if (names.empty()) return;
    fmt::print(stderr, "ibrt gen: {} {}:", names.size(), what);
    const std::size_t shown = std::min<std::size_t>(names.size(), 20);
    for (std::size_t i = 0; i < shown; ++i) fmt::print(stderr, " {}", names[i]);
    if (shown < names.size()) fmt::print(stderr, " ... and {} more", names.size() - shown);
    fmt::print(stderr, "\n");
}

int run(cli::GenOptions& o, CLI::App& gen) {
    try {
        gen::FailureReport report;
        const Fabric f = cli::build_fabric(o, gen, report);

        IbnetdiscoverWriteOptions wopt;
        wopt.ca_first = true;
        wopt.lid_comments = true;
        if (o.output == "-")
            write_ibnetdiscover(std::cout, f, wopt);
        else
            write_ibnetdiscover_file(o.output, f, wopt);

        if (!o.quiet) {
            fmt::print(stderr, "ibrt gen: {}: {} switches, {} CAs, {} cables -> {}\n", o.family,
                       f.switches().size(), f.cas().size(), f.num_links(),
                       o.output == "-" ? "stdout" : o.output);
            print_list("cables removed", report.removed_links);
            print_list("switches removed", report.removed_switches);
            print_list("CAs dropped (no cable left)", report.dropped_cas);
            if (report.components > 1)
                fmt::print(stderr, "ibrt gen: warning: the fabric has {} connected components\n",
                           report.components);
        }
        if (!o.report_json.empty()) {
            const std::string text = report_json(o, f, report).dump(2) + "\n";
            if (o.report_json == "-") {
                std::cout << text;
            } else {
                std::ofstream out(o.report_json);
                out << text;
                if (!out) throw gen::GenError("cannot write " + o.report_json);
            }
        }
        return kExitOk;
    } catch (const gen::GenError& e) {
        fmt::print(stderr, "ibrt gen: {}\n", e.what());
        return kExitBadInput;
    }
}

const CommandRegistrar reg{Command{
    "gen",
    "Generate a topology (fat trees, Clos/PGFT, HyperX, tori, Dragonfly, Dragonfly+, Slim Fly, "
    "random) "
    "with optional failures, in ibnetdiscover format",
    [](CLI::App& sub) -> std::function<int()> {
        auto o = std::make_shared<cli::GenOptions>();
        sub.require_subcommand(1);
        sub.footer(
            "Examples:\n"
            "  ibrt gen fat-tree --ports 4 --levels 3 -o ft4-3.net\n"
            "  ibrt gen clos --radix 36 --levels 2 --blocking 2:1 -o clos36.net\n"
            "  ibrt gen pgft --m 4,4 --w 1,2 --p 1,2 -o pgft.net\n"
            "  ibrt gen dragonfly --balanced 2 --omit-one-global -o df.net\n"
            "  ibrt gen dragonfly-plus --balanced 4 --groups 8 -o dfplus.net\n"
            "  ibrt gen slimfly --q 5 -o sf5.net\n"
            "  ibrt gen slimfly --q 4 --parallel 2 --ff 8,8 --cas 8 -o sfxff1.net   (SF x FF-1)\n"
            "  ibrt gen random --switches 16 --degree 4 --cas 64 --seed 7 -o rnd.net\n"
            "  ibrt gen fat-tree -m 8 -n 3 --fail-links 0.05 --seed 3 --report-json r.json -o "
            "d.net\n"
            "GUIDs: switch s -> 0x0020000000000000 + ((s+1) << 8); CA c -> 0x0010000000000000 + "
            "((c+1) << 8), port p GUID = node GUID + p.\n"
            "Exit codes: 0 written, 2 bad input.");
        cli::add_gen_options(sub, *o);
        CLI::App* gen_app = &sub;
        return [o, gen_app] { return run(*o, *gen_app); };
    }}};

} // namespace
} // namespace ibrt::tools
