// `ibrt sweep`: the latency / accepted-traffic curves of paper 000 §5.2 (Figs. 12-15) for one
// fabric and one traffic pattern: every engine x VL count x offered load, simulated with the
// same model options as `ibrt sim` (docs/sim-model.md). Writes one CSV row per run and an SVG
// with one curve per (engine, VLs). docs/results/mlid-vs-slid.sh drives it for the study.
// Exit: 0 success, 1 when a run deadlocked, dropped or misdelivered packets, 2 bad input.
#include "engines/engine.hpp"
#include "fabric/generators/fat_tree.hpp"
#include "fabric/input_error.hpp"
#include "fabric/routing_files.hpp"
#include "sim/simulator.hpp"
#include "sim/svg_plot.hpp"
#include "tools/command.hpp"
#include "tools/engine_cli.hpp"

#include <fmt/core.h>

#include <cmath>
#include <fstream>
#include <memory>
#include <sstream>

namespace ibrt::tools {
namespace {

struct SweepArgs {
    std::string fabric, fat_tree, engines = "mlid,slid", vls = "1,2,4", loads, pattern = "uniform";
    std::string injection = "bernoulli", csv, plot, title, sl = "spread";
    double hot_fraction = 0.1;
    std::uint32_t hot_node = 0, packet_bytes = 32, buffer_bytes = 32, credit_unit = 32;
    std::uint32_t source_queue = 256;
    double fly_ns = 20, routing_ns = 100, ns_per_byte = 4;
    double warmup_us = 20, measure_us = 50, drain_us = 50;
    std::uint64_t seed = 1;
    bool quiet = false;
};

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    std::string item;
    while (std::getline(in, item, ',')) out.push_back(item);
    return out;
}

double number(const std::string& s, const char* what) {
    try {
        std::size_t used = 0;
        const double v = std::stod(s, &used);
        if (used == s.size() && v >= 0) return v;
    } catch (const std::exception&) {
    }
    throw InputError(what, 0, fmt::format("expected a number >= 0, got '{}'", s));
}

sim::Time ps(double ns) {
    return sim::Time(std::llround(ns * 1000.0));
}

int run_sweep(const SweepArgs& a) {
    if (a.fabric.empty() == a.fat_tree.empty()) {
        fmt::print(stderr, "ibrt sweep: give exactly one of --fabric or --fat-tree\n");
        return kExitBadInput;
    }
    Fabric f;
    std::string name = a.fabric;
    if (!a.fat_tree.empty()) {
        const auto mn = split(a.fat_tree);
        if (mn.size() != 2) throw InputError("--fat-tree", 0, "expected M,N");
        const int m = int(number(mn[0], "--fat-tree")), n = int(number(mn[1], "--fat-tree"));
        if (m < 2 || m % 2 || n < 1 || n > 6)
            throw InputError("--fat-tree", 0, "need even M >= 2, 1 <= N <= 6");
        f = gen::fat_tree(m, n);
        name = fmt::format("FT({},{})", m, n);
    } else {
        f = load_topology(a.fabric);
    }
    sim::SimConfig base;
    const auto pat = sim::parse_pattern(a.pattern);
    if (!pat) throw InputError("--pattern", 0, fmt::format("unknown pattern '{}'", a.pattern));
    base.traffic.pattern = *pat;
    const auto inj = sim::parse_injection(a.injection);
    if (!inj)
        throw InputError("--injection", 0, fmt::format("unknown injection '{}'", a.injection));
    base.traffic.injection = *inj;
    base.traffic.hot_fraction = a.hot_fraction;
    base.traffic.hot_node = a.hot_node;
    base.packet_bytes = a.packet_bytes;
    base.buffer_bytes = a.buffer_bytes;
    base.credit_unit = a.credit_unit;
    base.fly_ps = ps(a.fly_ns);
    base.routing_ps = ps(a.routing_ns);
    base.ps_per_byte = ps(a.ns_per_byte);
    base.warmup_ps = ps(a.warmup_us * 1000);
    base.measure_ps = ps(a.measure_us * 1000);
    base.drain_ps = ps(a.drain_us * 1000);
    base.seed = a.seed;
    base.source_queue_packets = a.source_queue;
    if (a.sl == "spread")
        base.sl = sim::SlPolicy::Spread;
    else if (a.sl == "path")
        base.sl = sim::SlPolicy::Path;
    else
        throw InputError("--sl", 0, fmt::format("expected path or spread, got '{}'", a.sl));
    std::vector<double> loads;
    for (const auto& s : split(a.loads)) loads.push_back(number(s, "--loads"));
    if (loads.empty()) throw InputError("--loads", 0, "no load given");
    std::vector<int> vls;
    for (const auto& s : split(a.vls)) {
        const double v = number(s, "--vls");
        if (v < 1 || v > 15 || v != std::floor(v))
            throw InputError("--vls", 0, "VL counts are 1..15");
        vls.push_back(int(v));
    }

    std::ofstream csv;
    if (!a.csv.empty()) {
        csv.open(a.csv, std::ios::binary);
        if (!csv) throw InputError(a.csv, 0, "cannot create file");
        csv << "fabric,pattern,engine,vls,load,offered_fraction,accepted_fraction,"
               "accepted_bytes_per_ns,latency_mean_ns,latency_p50_ns,latency_p99_ns,"
               "latency_max_ns,link_util_max,generated,delivered,dropped,in_flight,"
               "measured_unfinished,deadlock\n";
    }
    std::vector<sim::PlotSeries> series;
    bool violations = false;
    for (const auto& en : split(a.engines)) {
        const auto engine = make_engine_or_throw(en);
        Routing r;
        try {
            r = engine->route(f, nullptr, {});
        } catch (const RoutingError& e) {
            fmt::print(stderr, "ibrt sweep: engine {} declined {}: {}\n", en, name, e.what());
            return kExitBadInput;
        }
        for (int v : vls) {
            sim::PlotSeries s{fmt::format("{} {} VL{}", en, v, v > 1 ? "s" : ""), {}};
            for (double load : loads) {
                sim::SimConfig c = base;
                c.num_vls = std::uint8_t(v);
                c.traffic.load = load;
                if (!a.quiet)
                    progress(fmt::format("ibrt sweep: {} {} {} VLs load {}", name, en, v, load));
                sim::SimResult x;
                try {
                    x = sim::simulate(f, r, c);
                } catch (const std::invalid_argument& e) {
                    fmt::print(stderr, "ibrt sweep: {}\n", e.what());
                    return kExitBadInput;
                }
                violations |= x.deadlock || x.dropped || x.misdelivered;
                if (x.latency_samples)
                    s.points.push_back({x.accepted_bytes_per_ns, x.latency_mean_ns});
                const std::string row = fmt::format(
                    "\"{}\",{},{},{},{},{:.6f},{:.6f},{:.6f},{:.1f},{:.1f},{:.1f},{:.1f},{:.4f},"
                    "{},{},{},{},{},{}\n",
                    name, a.pattern, en, v, load, x.offered_fraction, x.accepted_fraction,
                    x.accepted_bytes_per_ns, x.latency_mean_ns, x.latency_p50_ns, x.latency_p99_ns,
                    x.latency_max_ns, x.link_util_max, x.generated, x.delivered, x.dropped,
                    x.in_flight, x.measured_unfinished, x.deadlock ? 1 : 0);
                if (csv.is_open())
                    csv << row;
                else
                    fmt::print("{}", row);
            }
            series.push_back(std::move(s));
        }
    }
    if (!a.quiet) progress("");
    if (!a.plot.empty()) {
        std::ofstream o(a.plot, std::ios::binary);
        if (!o) throw InputError(a.plot, 0, "cannot create file");
        o << sim::line_plot_svg(
            series, a.title.empty() ? fmt::format("{}, {} traffic", name, a.pattern) : a.title,
            "accepted traffic (bytes/ns/node)", "average latency (ns)");
    }
    return violations ? kExitViolations : kExitOk;
}

const CommandRegistrar reg{{
    "sweep",
    "Latency vs accepted traffic curves for several engines and VL counts (paper 000 §5)",
    [](CLI::App& sub) -> std::function<int()> {
        auto a = std::make_shared<SweepArgs>();
        sub.add_option("--fabric", a->fabric,
                       "Topology: ibnetdiscover / ibsim net, or opensm-subnet.lst");
        sub.add_option("--fat-tree", a->fat_tree, "Or generate FT(M,N): M,N");
        sub.add_option("--engines", a->engines, "Engines, comma-separated")
            ->default_val("mlid,slid");
        sub.add_option("--vls", a->vls, "VL counts, comma-separated")->default_val("1,2,4");
        sub.add_option("--loads", a->loads, "Offered loads, comma-separated")->required();
        sub.add_option("--pattern", a->pattern, "Traffic: " + sim::pattern_names())
            ->default_val("uniform");
        sub.add_option("--injection", a->injection, "bernoulli or constant")
            ->default_val("bernoulli");
        sub.add_option("--hot-fraction", a->hot_fraction, "hotspot share")->default_val(0.1);
        sub.add_option("--hot-node", a->hot_node, "hotspot CA index")->default_val(0);
        sub.add_option("--sl", a->sl, "spread (SL uniform over the VLs) or path")
            ->default_val("spread");
        sub.add_option("--packet-bytes", a->packet_bytes, "Packet size")->default_val(32);
        sub.add_option("--buffer-bytes", a->buffer_bytes, "Buffer per VL")->default_val(32);
        sub.add_option("--credit-unit", a->credit_unit, "Bytes per credit")->default_val(32);
        sub.add_option("--fly-ns", a->fly_ns, "Fly time")->default_val(20);
        sub.add_option("--routing-ns", a->routing_ns, "Routing delay")->default_val(100);
        sub.add_option("--ns-per-byte", a->ns_per_byte, "Serialization per byte")->default_val(4);
        sub.add_option("--warmup-us", a->warmup_us, "Warm-up")->default_val(20);
        sub.add_option("--measure-us", a->measure_us, "Measurement window")->default_val(50);
        sub.add_option("--drain-us", a->drain_us, "Longest drain")->default_val(50);
        sub.add_option("--seed", a->seed, "Seed")->default_val(1);
        sub.add_option("--source-queue", a->source_queue,
                       "Packets a source queue holds; messages beyond are offered but throttled "
                       "(0 = unbounded)")
            ->default_val(256);
        sub.add_option("--csv", a->csv, "CSV file (default: rows on stdout)");
        sub.add_option("--plot", a->plot, "SVG file: latency against accepted traffic");
        sub.add_option("--title", a->title, "Plot title");
        sub.add_flag("-q,--quiet", a->quiet, "No progress line");
        sub.footer("Defaults are paper 000 §5.2's set-up: 20 ns fly, 100 ns routing, 4 ns/byte, "
                   "32-byte packets\nand 32-byte buffers per VL.");
        return [a] { return run_sweep(*a); };
    },
}};

} // namespace
} // namespace ibrt::tools
