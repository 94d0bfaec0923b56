// Fuzz target for the VL arbitration options of `ibrt sim` and sweeps (--vlarb-high,
// --vlarb-low: cli::parse_vlarb; --vlarb-high-limit: its range check): the input's first
// three lines are the three values, parsed by the very CLI11 options `ibrt sim` registers and
// turned into a SimConfig (8 data VLs) and checked as a run would. Any input must be taken or
// refused as bad input (CLI::ParseError, ibrt::InputError naming the option or "options"). A
// table taken must be what was written, item by item: only digits, ':' and ',' (std::stoi
// once took "1x:2" for 1:2), each VL:WEIGHT within 0..14 and 0..255, and read back the same
// from its canonical form; else abort.
#include "cli/sim_options.hpp"
#include "fabric/input_error.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

void check_table(const std::string& text, const std::vector<ibrt::sim::VlArbEntry>& t) {
    if (text.find_first_not_of("0123456789:,") != std::string::npos) std::abort();
    if (std::count(text.begin(), text.end(), ',') + 1 != std::int64_t(t.size())) std::abort();
    std::string canonical;
    for (const auto& e : t) {
        if (e.vl > 14) std::abort();
        canonical +=
            (canonical.empty() ? "" : ",") + std::to_string(e.vl) + ":" + std::to_string(e.weight);
    }
    try {
        const auto back = ibrt::cli::parse_vlarb(canonical, "w");
        if (back.size() != t.size()) std::abort();
        for (std::size_t i = 0; i < t.size(); ++i)
            if (back[i].vl != t[i].vl || back[i].weight != t[i].weight) std::abort();
    } catch (const ibrt::InputError&) {
        std::abort(); // the canonical form must read back
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ibrt;
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::vector<std::string> v(3);
    for (std::size_t pos = 0, i = 0; pos <= text.size() && i < 3; ++i) {
        const std::size_t nl = std::min(text.find('\n', pos), text.size());
        v[i] = text.substr(pos, nl - pos);
        pos = nl + 1;
    }
    // The parser alone, as make_sim_config calls it.
    try {
        const auto t = cli::parse_vlarb(v[0], "--vlarb-high");
        if (v[0].empty()) {
            if (!t.empty()) std::abort(); // "" is no table: the default
        } else {
            check_table(v[0], t);
        }
    } catch (const InputError& e) {
        if (e.file() != "--vlarb-high") std::abort();
    }
    // The command line: CLI11 and its range checks, then the configuration.
    cli::SimOptions o;
    CLI::App app;
    cli::add_sim_options(app, o);
    std::vector<std::string> args;
    if (!v[0].empty()) args.push_back("--vlarb-high=" + v[0]);
    if (!v[1].empty()) args.push_back("--vlarb-low=" + v[1]);
    if (!v[2].empty()) args.push_back("--vlarb-high-limit=" + v[2]);
    std::reverse(args.begin(), args.end()); // CLI11 takes a vector last argument first
    try {
        app.parse(args);
    } catch (const CLI::ParseError&) {
        return 0;
    }
    sim::SimConfig c;
    try {
        c = cli::make_sim_config(o);
        c.num_vls = 8;
        cli::check_sim_config(c);
    } catch (const InputError& e) {
        if (e.file() != "--vlarb-high" && e.file() != "--vlarb-low" &&
            e.file() != "--vlarb-high-limit" && e.file() != "options")
            std::abort();
        return 0;
    }
    if (!v[0].empty()) check_table(v[0], c.vlarb.high);
    if (!v[1].empty()) check_table(v[1], c.vlarb.low);
    // The limit as the range check read it (strtoull: 0x and leading-0 octal allowed).
    if (!v[2].empty() && c.vlarb.high_limit != std::strtoull(v[2].c_str(), nullptr, 0))
        std::abort();
    return 0;
}
