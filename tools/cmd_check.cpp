// `ibrt check`: the CI validator for unicast routing tables (check/report.hpp). Reads a
// topology (ibnetdiscover or opensm-subnet.lst), LFTs (opensm-lfts.dump, opensm.fdbs or
// dump_fts/ibroute output), LIDs from the topology or a guid2lid file, and optionally SL2VL
// tables, path SLs and path selection (formats/routing_files.hpp); prints a human summary, JSON
// (--json, schema in docs/check.md) and/or JUnit XML.
// Exit: 0 clean, 1 violations, 2 bad input, 3 cannot judge (see docs/check.md); the JSON and
// JUnit reports are written for each, bad input included.
#include "check/report.hpp"
#include "cli/option_checks.hpp"
#include "cli/progress.hpp"
#include "fabric/end_ports.hpp"
#include "fabric/input_error.hpp"
#include "formats/routing_files.hpp"
#include "tools/command.hpp"

#include <fmt/core.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <stdexcept>

namespace ibrt::tools {
namespace {

struct CheckArgs {
    std::string fabric, lfts, sl2vl, guid2lid, path_selection, path_sl, tables, junit;
    std::string pattern = "all-to-all";
    std::uint64_t seed = 1;
    bool json = false, strict = false, no_deadlock = false, no_balance = false, quiet = false,
         end_ports_only = false;
    std::size_t max_examples = 10;
    int assume_sl = -1; // --assume-sl: every path on this SL
};

Routing load_routing(const Fabric& f, const CheckArgs& a) {
    return load_routing_files(
        f, {a.fabric, a.lfts, a.guid2lid, a.sl2vl, a.path_selection, a.path_sl, a.tables});
}

int run(const CheckArgs& a) {
    check::CheckOptions opt;
    try {
        opt.pattern = check::parse_pattern(a.pattern, a.seed);
    } catch (const std::invalid_argument& e) {
        throw InputError("--pattern", 0, e.what());
    }
    opt.strict = a.strict;
    opt.max_examples = a.max_examples;
    opt.deadlock = !a.no_deadlock;
    opt.balance = !a.no_balance;
    // Tables read from files carry no path SLs: with SL-dependent SL2VL tables the credit-loop
    // check then cannot judge (run_checks decides whether the SL matters at all).
    opt.path_sls_known = a.assume_sl >= 0 || !a.path_sl.empty();
    opt.dlid_use = a.path_selection.empty() ? check::DlidUse::Spread : check::DlidUse::Selection;
    if (!a.quiet)
        opt.progress = [](const std::string& phase, double x) {
            cli::progress(fmt::format("ibrt check: {} {:.0f}%", phase, x * 100));
        };

    const Fabric f = load_topology(a.fabric);
    Routing r = load_routing(f, a);
    if (a.end_ports_only) { // switches' LIDs no longer destinations: their LFT entries are ignored
        Lids kept(f);
        for (PortId p : all_end_ports(f, &r.lids)) kept.assign(p, r.lids.base(p), r.lids.lmc(p));
        r.lids = std::move(kept);
    }
    if (a.assume_sl >= 0)
        r.path_sls = PathSlTable::by_dlid(std::vector<std::uint8_t>(
            std::size_t(r.lids.max_lid()) + 1, std::uint8_t(a.assume_sl)));
    check::CheckReport rep;
    try {
        rep = check::run_checks(f, r, opt);
    } catch (const std::invalid_argument& e) { // a permutation that does not apply to this fabric
        throw InputError("--pattern", 0, e.what());
    }
    if (!a.quiet) cli::progress("");

    if (a.json)
        std::cout << check::to_json(f, rep).dump(2) << '\n';
    else
        check::write_text(std::cout, f, rep);
    if (!a.junit.empty()) {
        std::ofstream out(a.junit);
        if (!out) throw InputError(a.junit, 0, "cannot write the JUnit file");
        check::write_junit(out, f, rep);
    }
    return check::has_violations(rep) ? kExitViolations
           : check::cannot_judge(rep) ? kExitCannotJudge
                                      : kExitOk;
}

const CommandRegistrar reg{{
    "check",
    "Validate routing tables: reachability, minimality, credit loops, link balance",
    [](CLI::App& sub) -> std::function<int()> {
        auto a = std::make_shared<CheckArgs>();
        sub.add_option("--fabric", a->fabric,
                       "Topology: ibnetdiscover / ibsim net, or opensm-subnet.lst (by content)")
            ->required()
            ->check(cli::input_file());
        sub.add_option("--lfts", a->lfts,
                       "LFTs: opensm-lfts.dump, opensm.fdbs or dump_fts/ibroute output")
            ->required()
            ->check(cli::input_file());
        sub.add_option("--guid2lid", a->guid2lid,
                       "LIDs from opensm's guid2lid file (default: the topology's `lid` "
                       "comments)")
            ->check(cli::input_file());
        sub.add_option("--sl2vl", a->sl2vl,
                       "SL2VL tables from opensm-sl2vl.dump (default: SL s on VL s, what the "
                       "switches keep when opensm runs without QoS; ibdmchk assumes it too)")
            ->check(cli::input_file());
        sub.add_option("--path-sl", a->path_sl,
                       "Path SLs, `0x<source node GUID> <DLID> <SL>` per line (ibdmchk -c; "
                       "written by `ibrt route`, `ibrt sa-path-sls`), for the credit-loop check; "
                       "unlisted pairs are SL 0, or unknown in a file marked partial")
            ->check(cli::input_file());
        sub.add_flag("--end-ports-only", a->end_ports_only,
                     "Judge only the paths to end ports (CA/router ports: host traffic), not to "
                     "switches' management LIDs; with a path-SL file from `ibrt sa-path-sls "
                     "--to-end-ports`, whose unlisted paths to switches would be taken as SL 0");
        sub.add_option("--assume-sl", a->assume_sl,
                       "Every path uses this SL: what opensm's single-SL engines (ftree, updn, "
                       "minhop, dor) give without a QoS policy that sets SLs (then 0). Without "
                       "it or path SLs, SL-dependent SL2VL tables make deadlock freedom "
                       "'cannot judge' (exit 3)")
            ->check(CLI::Range(0, 15));
        sub.add_option("--tables", a->tables,
                       "Forwarding sets of the extended switch (written by `ibrt route`): also "
                       "check that every candidate choice reaches the destination, that no "
                       "packet can circle, and that the extended channel dependency graph has "
                       "no cycle")
            ->check(cli::input_file());
        sub.add_option("--path-selection", a->path_selection,
                       "DLID per (source, destination) for the balance check (default: spread "
                       "over all 2^LMC LIDs)")
            ->check(cli::input_file());
        sub.add_option("--pattern", a->pattern,
                       "Extra traffic pattern for the balance check, besides all-to-all, by "
                       "`ibrt sim --pattern`'s names: shift/K (or rotation/K), random (or "
                       "randperm), complement, bitrev, transpose, shuffle, bitrot, tornado")
            ->capture_default_str();
        sub.add_option("--seed", a->seed, "Seed of the random permutation")
            ->capture_default_str()
            ->check(cli::whole_in(0, cli::kMax<std::uint64_t>));
        sub.add_flag("--json", a->json, "Print the report as JSON (schema ibrt-check/1)");
        sub.add_option("--junit", a->junit, "Also write a JUnit XML report to FILE")
            ->check(cli::output_file());
        sub.add_flag("--strict", a->strict, "Non-minimal paths are violations too");
        sub.add_option("--max-examples", a->max_examples, "Failures reported in full per check")
            ->capture_default_str()
            ->check(cli::whole_in(0, cli::kMax<std::uint32_t>));
        sub.add_flag("--no-deadlock", a->no_deadlock, "Skip the credit-loop check");
        sub.add_flag("--no-balance", a->no_balance, "Skip the balance check");
        sub.add_flag("-q,--quiet", a->quiet, "No progress on stderr");
        sub.footer("Exit codes: 0 clean, 1 violations (unreachable pairs, CA ports without a LID, "
                   "loops, credit loops, SL2VL drops, a check that examined nothing; non-minimal "
                   "paths with --strict), 2 bad input (including a truncated or partial LFT "
                   "dump), 3 cannot judge: SL2VL tables that map SLs to different VLs without "
                   "the path SLs (opensm's dfsssp/lash/torus-2QoS), or paths a partial path-SL "
                   "file gives no SL and no credit loop among the others (see docs/check.md).\n"
                   "--json and --junit are written for every exit code, bad input included.");
        return [a] { return run(*a); };
    },
    // Bad input still gets its reports, naming the problem (JSON on stdout, JUnit's <error>).
    [](const CLI::App& sub, const std::string& message) {
        const CLI::Option* junit = sub.get_option_no_throw("--junit");
        if (junit && !junit->results().empty()) {
            std::ofstream out(junit->results().back());
            if (out)
                check::write_junit_bad_input(out, message);
            else
                fmt::print(stderr, "ibrt check: cannot write the JUnit file {}\n",
                           junit->results().back());
        }
        const CLI::Option* json = sub.get_option_no_throw("--json");
        if (json && json->count() > 0) std::cout << check::bad_input_json(message).dump(2) << '\n';
    },
}};

} // namespace
} // namespace ibrt::tools
