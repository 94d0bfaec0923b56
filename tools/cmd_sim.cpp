// `ibrt sim`: the packet-level simulator (sim/simulator.hpp, docs/sim-model.md) on a real
// fabric and its real tables: an ibnetdiscover topology with the LFTs an SM dumped (LIDs from
// the topology's `lid` comments or guid2lid, optional SL2VL and path selection), or routed
// in-process by an engine. One run per offered load (--load takes a list), or a saturation
// search (--saturation). Prints a table; --csv, --json (schema "ibrt-sim/1") and --plot
// (SVG latency vs accepted traffic, as in paper 000 Figs. 12-15).
// Exit: 0 success, 1 when a run deadlocked, dropped or misdelivered packets, 2 bad input.
//
// JSON "ibrt-sim/1" (fields are only ever added):
//   { "schema", "fabric", "routing": {"source": "lfts"|"engine", "engine"?, "lmc"},
//     "config": {...every model parameter...},
//     "runs": [ { "load", "offered_fraction", "accepted_fraction", "offered_bytes_per_ns",
//                 "accepted_bytes_per_ns", "latency_ns": {"mean","p50","p99","max","samples"},
//                 "packets": {"generated","delivered","dropped","misdelivered","in_flight",
//                             "measured_unfinished","throttled","peak_alive"},
//                 "throttled_fraction", "hops", "events", "end_ns",
//                 "utilization": {"mean","max","vl_mean":[...],
//                                 "links":[{"node","port","util","vl":[...]}]},
//                 "deadlock": null | {"at_ns", "cycle": [...]}, "saturated"? } ],
//     "saturation"?: {"load", "accepted_fraction", "max_accepted_fraction"} }
#include "engines/engine.hpp"
#include "fabric/guid2lid.hpp"
#include "fabric/input_error.hpp"
#include "fabric/routing_files.hpp"
#include "sim/saturation.hpp"
#include "sim/simulator.hpp"
#include "sim/svg_plot.hpp"
#include "tools/command.hpp"
#include "tools/engine_cli.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <memory>
#include <sstream>

namespace ibrt::tools {
namespace {

struct SimArgs {
    std::string fabric, lfts, engine, sl2vl, guid2lid, path_selection, path_sl;
    EngineCli ecli;
    std::string pattern = "uniform", injection = "bernoulli", dlid = "table", sl = "path";
    std::string loads = "0.5", vlarb_high, vlarb_low, plot, json_file;
    double hot_fraction = 0.1;
    std::uint32_t hot_node = 0;
    int shift = -1;
    std::uint32_t packet_bytes = 256, message_bytes = 0, buffer_bytes = 1024, credit_unit = 64;
    std::uint32_t source_queue = 256, output_buffer_bytes = 0;
    int vls = 1, speedup = 1, vlarb_limit = 0, steps = 7;
    double fly_ns = 20, routing_ns = 100, ns_per_byte = 0, credit_delay_ns = -1;
    double warmup_us = 10, measure_us = 50, drain_us = 50, deadlock_us = 0, sat_hi = 1.0;
    double tolerance = 0.05;
    std::uint64_t seed = 1;
    bool csv = false, json = false, saturation = false, quiet = false;
};

sim::Time ps_of(double ns, const char* what) {
    if (!(ns >= 0) || ns > 1e12) throw InputError(what, 0, fmt::format("bad time {}", ns));
    return sim::Time(std::llround(ns * 1000.0));
}

std::vector<sim::VlArbEntry> parse_vlarb(const std::string& s, const char* what) {
    // "vl:weight,vl:weight,..."
    std::vector<sim::VlArbEntry> out;
    std::stringstream in(s);
    std::string item;
    while (std::getline(in, item, ',')) {
        const auto colon = item.find(':');
        int vl = -1, w = -1;
        try {
            if (colon != std::string::npos) {
                vl = std::stoi(item.substr(0, colon));
                w = std::stoi(item.substr(colon + 1));
            }
        } catch (const std::exception&) {
            vl = -1;
        }
        if (vl < 0 || vl > 14 || w < 0 || w > 255)
            throw InputError(what, 0,
                             fmt::format("expected VL:WEIGHT (VL 0..14, weight 0..255), "
                                         "got '{}'",
                                         item));
        out.push_back({std::uint8_t(vl), std::uint8_t(w)});
    }
    return out;
}

std::vector<double> parse_loads(const std::string& s) {
    std::vector<double> out;
    std::stringstream in(s);
    std::string item;
    while (std::getline(in, item, ',')) {
        double v = -1;
        try {
            std::size_t used = 0;
            v = std::stod(item, &used);
            if (used != item.size()) v = -1;
        } catch (const std::exception&) {
            v = -1;
        }
        if (!(v >= 0) || v > 100)
            throw InputError("--load", 0, fmt::format("expected loads >= 0, got '{}'", item));
        out.push_back(v);
    }
    if (out.empty()) throw InputError("--load", 0, "no load given");
    return out;
}

sim::SimConfig make_config(const SimArgs& a) {
    sim::SimConfig c;
    c.fly_ps = ps_of(a.fly_ns, "--fly-ns");
    c.routing_ps = ps_of(a.routing_ns, "--routing-ns");
    c.ps_per_byte = ps_of(a.ns_per_byte, "--ns-per-byte");
    if (a.ns_per_byte > 0 && c.ps_per_byte == 0)
        throw InputError("--ns-per-byte", 0, "below the 1 ps resolution");
    if (a.credit_delay_ns >= 0) c.credit_delay_ps = ps_of(a.credit_delay_ns, "--credit-delay-ns");
    c.buffer_bytes = a.buffer_bytes;
    c.source_queue_packets = a.source_queue;
    c.output_buffer_bytes = a.output_buffer_bytes;
    c.credit_unit = a.credit_unit;
    if (a.vls < 1 || a.vls > 15) throw InputError("--vls", 0, "must be 1..15");
    c.num_vls = std::uint8_t(a.vls);
    if (a.speedup < 1 || a.speedup > 255) throw InputError("--speedup", 0, "must be 1..255");
    c.speedup = std::uint8_t(a.speedup);
    if (!a.vlarb_high.empty()) c.vlarb.high = parse_vlarb(a.vlarb_high, "--vlarb-high");
    if (!a.vlarb_low.empty()) c.vlarb.low = parse_vlarb(a.vlarb_low, "--vlarb-low");
    if (a.vlarb_limit < 0 || a.vlarb_limit > 255)
        throw InputError("--vlarb-high-limit", 0, "must be 0..255");
    c.vlarb.high_limit = std::uint8_t(a.vlarb_limit);

    const auto p = sim::parse_pattern(a.pattern);
    if (!p)
        throw InputError(
            "--pattern", 0,
            fmt::format("unknown pattern '{}' (known: {})", a.pattern, sim::pattern_names()));
    c.traffic.pattern = *p;
    const auto inj = sim::parse_injection(a.injection);
    if (!inj)
        throw InputError("--injection", 0,
                         fmt::format("unknown injection '{}' (bernoulli, constant)", a.injection));
    c.traffic.injection = *inj;
    c.traffic.hot_fraction = a.hot_fraction;
    c.traffic.hot_node = a.hot_node;
    if (a.shift >= 0) c.traffic.shift = std::uint32_t(a.shift);
    c.packet_bytes = a.packet_bytes;
    c.message_bytes = a.message_bytes;
    if (a.dlid == "table")
        c.dlid = sim::DlidPolicy::Table;
    else if (a.dlid == "base")
        c.dlid = sim::DlidPolicy::Base;
    else if (a.dlid == "random")
        c.dlid = sim::DlidPolicy::Random;
    else
        throw InputError("--dlid", 0,
                         fmt::format("expected table, base or random, got '{}'", a.dlid));
    if (a.sl == "path")
        c.sl = sim::SlPolicy::Path;
    else if (a.sl == "spread")
        c.sl = sim::SlPolicy::Spread;
    else
        throw InputError("--sl", 0, fmt::format("expected path or spread, got '{}'", a.sl));
    c.warmup_ps = ps_of(a.warmup_us * 1000, "--warmup-us");
    c.measure_ps = ps_of(a.measure_us * 1000, "--measure-us");
    c.drain_ps = ps_of(a.drain_us * 1000, "--drain-us");
    c.deadlock_ps = ps_of(a.deadlock_us * 1000, "--deadlock-us");
    c.seed = a.seed;
    return c;
}

std::string node_name(const Fabric& f, NodeId n) {
    const Node& x = f.node(n);
    return !x.desc.empty() ? x.desc : !x.id.empty() ? x.id : fmt::format("node {}", n);
}

nlohmann::ordered_json run_json(const Fabric& f, double load, const sim::SimResult& r) {
    using J = nlohmann::ordered_json;
    J links = J::array();
    for (const auto& u : r.links)
        links.push_back({{"node", node_name(f, f.port_node(u.port))},
                         {"port", f.port_num(u.port)},
                         {"util", u.utilization},
                         {"vl", u.vl_utilization}});
    J j = {{"load", load},
           {"offered_fraction", r.offered_fraction},
           {"accepted_fraction", r.accepted_fraction},
           {"offered_bytes_per_ns", r.offered_bytes_per_ns},
           {"accepted_bytes_per_ns", r.accepted_bytes_per_ns},
           {"latency_ns",
            {{"mean", r.latency_mean_ns},
             {"p50", r.latency_p50_ns},
             {"p99", r.latency_p99_ns},
             {"max", r.latency_max_ns},
             {"samples", r.latency_samples}}},
           {"packets",
            {{"generated", r.generated},
             {"delivered", r.delivered},
             {"dropped", r.dropped},
             {"misdelivered", r.misdelivered},
             {"in_flight", r.in_flight},
             {"measured_unfinished", r.measured_unfinished},
             {"throttled", r.throttled},
             {"peak_alive", r.peak_packets}}},
           {"throttled_fraction", r.throttled_fraction},
           {"hops", r.hops},
           {"events", r.events},
           {"end_ns", double(r.end_ps) / 1000.0},
           {"utilization",
            {{"mean", r.link_util_mean},
             {"max", r.link_util_max},
             {"vl_mean", r.vl_util_mean},
             {"links", links}}}};
    if (r.deadlock)
        j["deadlock"] = {{"at_ns", double(r.deadlock_at_ps) / 1000.0}, {"cycle", r.deadlock_cycle}};
    else
        j["deadlock"] = nullptr;
    return j;
}

int run_sim(const SimArgs& a) {
    if (a.lfts.empty() == a.engine.empty()) {
        fmt::print(stderr, "ibrt sim: give exactly one of --lfts or --engine\n");
        return kExitBadInput;
    }
    const sim::SimConfig base_cfg = make_config(a);
    const std::vector<double> loads = parse_loads(a.loads);
    const Fabric f = load_topology(a.fabric);
    Routing r;
    if (!a.engine.empty()) {
        const auto engine = make_engine_or_throw(a.engine);
        const EngineOptions opt = engine_options(*engine, a.ecli, 1);
        std::optional<Lids> pre;
        if (!a.guid2lid.empty()) pre = bind_guid2lid(read_guid2lid_file(a.guid2lid), f, a.guid2lid);
        try {
            r = engine->route(f, pre ? &*pre : nullptr, opt);
        } catch (const RoutingError& e) {
            fmt::print(stderr, "ibrt sim: engine {} declined {}: {}\n", a.engine, a.fabric,
                       e.what());
            return kExitBadInput;
        }
    }
    const RoutingFiles files{a.fabric, a.lfts, a.guid2lid, a.sl2vl, a.path_selection, a.path_sl};
    if (!a.engine.empty())
        load_routing_extras(f, files, r);
    else
        r = load_routing_files(f, files);

    sim::ProgressFn prog;
    if (!a.quiet)
        prog = [](sim::Time now, sim::Time end) {
            progress(fmt::format("ibrt sim: {:.1f} of {:.1f} us simulated", double(now) / 1e6,
                                 double(end) / 1e6));
        };

    struct Row {
        double load;
        sim::SimResult res;
        std::optional<bool> saturated;
    };
    std::vector<Row> rows;
    std::optional<sim::Saturation> sat;
    try {
        if (a.saturation) {
            sat = sim::find_saturation(f, r, base_cfg, a.sat_hi, a.steps, a.tolerance, prog);
            for (auto& p : sat->runs) rows.push_back({p.load, std::move(p.result), p.saturated});
            std::sort(rows.begin(), rows.end(),
                      [](const Row& x, const Row& y) { return x.load < y.load; });
        } else {
            for (double load : loads) {
                sim::SimConfig c = base_cfg;
                c.traffic.load = load;
                rows.push_back({load, sim::simulate(f, r, c, nullptr, nullptr, nullptr, prog), {}});
            }
        }
    } catch (const std::invalid_argument& e) {
        fmt::print(stderr, "ibrt sim: {}\n", e.what());
        return kExitBadInput;
    }
    if (!a.quiet) progress("");

    bool violations = false;
    for (const auto& row : rows)
        violations |= row.res.deadlock || row.res.dropped > 0 || row.res.misdelivered > 0;

    const std::string routing_name = a.engine.empty() ? "lfts" : a.engine;
    if (a.json) {
        using J = nlohmann::ordered_json;
        J j;
        j["schema"] = "ibrt-sim/1";
        j["fabric"] = a.fabric;
        j["routing"] = {{"source", a.engine.empty() ? "lfts" : "engine"}, {"lmc", r.lmc}};
        if (!a.engine.empty()) j["routing"]["engine"] = a.engine;
        j["config"] = {{"pattern", a.pattern},
                       {"injection", a.injection},
                       {"packet_bytes", a.packet_bytes},
                       {"message_bytes", a.message_bytes ? a.message_bytes : a.packet_bytes},
                       {"buffer_bytes", a.buffer_bytes},
                       {"source_queue_packets", a.source_queue},
                       {"output_buffer_bytes", a.output_buffer_bytes},
                       {"credit_unit", a.credit_unit},
                       {"vls", a.vls},
                       {"speedup", a.speedup},
                       {"fly_ns", a.fly_ns},
                       {"routing_ns", a.routing_ns},
                       {"ns_per_byte", a.ns_per_byte},
                       {"dlid", a.dlid},
                       {"sl", a.sl},
                       {"warmup_us", a.warmup_us},
                       {"measure_us", a.measure_us},
                       {"drain_us", a.drain_us},
                       {"seed", a.seed}};
        J runs = J::array();
        for (const auto& row : rows) {
            J x = run_json(f, row.load, row.res);
            if (row.saturated) x["saturated"] = *row.saturated;
            runs.push_back(std::move(x));
        }
        j["runs"] = std::move(runs);
        if (sat)
            j["saturation"] = {{"load", sat->load},
                               {"accepted_fraction", sat->accepted},
                               {"max_accepted_fraction", sat->max_accepted}};
        fmt::print("{}\n", j.dump(2));
    } else if (a.csv) {
        fmt::print("load,offered_fraction,accepted_fraction,accepted_bytes_per_ns,latency_mean_ns,"
                   "latency_p50_ns,latency_p99_ns,latency_max_ns,link_util_mean,link_util_max,"
                   "generated,delivered,dropped,in_flight,deadlock\n");
        for (const auto& row : rows) {
            const auto& x = row.res;
            fmt::print(
                "{},{:.6f},{:.6f},{:.6f},{:.3f},{:.3f},{:.3f},{:.3f},{:.6f},{:.6f},{},{},{},{}"
                ",{}\n",
                row.load, x.offered_fraction, x.accepted_fraction, x.accepted_bytes_per_ns,
                x.latency_mean_ns, x.latency_p50_ns, x.latency_p99_ns, x.latency_max_ns,
                x.link_util_mean, x.link_util_max, x.generated, x.delivered, x.dropped, x.in_flight,
                x.deadlock ? 1 : 0);
        }
    } else {
        fmt::print("{} on {} ({} CAs, {} switches), {} traffic, {} injection, {} B packets, "
                   "{} VL(s)\n",
                   routing_name, a.fabric, f.cas().size(), f.switches().size(), a.pattern,
                   a.injection, a.packet_bytes, a.vls);
        fmt::print("{:>6} {:>8} {:>8} {:>9} {:>9} {:>9} {:>9} {:>9} {:>6} {:>6}  {}\n", "load",
                   "offered", "accepted", "B/ns/node", "lat mean", "lat p50", "lat p99", "lat max",
                   "util", "max", "notes");
        for (const auto& row : rows) {
            const auto& x = row.res;
            std::string notes;
            if (row.saturated && *row.saturated) notes += "saturated ";
            if (x.deadlock)
                notes += fmt::format("DEADLOCK at {:.1f} us ", double(x.deadlock_at_ps) / 1e6);
            if (x.dropped) notes += fmt::format("{} dropped ", x.dropped);
            if (x.misdelivered) notes += fmt::format("{} misdelivered ", x.misdelivered);
            fmt::print("{:>6.3f} {:>8.4f} {:>8.4f} {:>9.4f} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.1f} "
                       "{:>6.3f} {:>6.3f}  {}\n",
                       row.load, x.offered_fraction, x.accepted_fraction, x.accepted_bytes_per_ns,
                       x.latency_mean_ns, x.latency_p50_ns, x.latency_p99_ns, x.latency_max_ns,
                       x.link_util_mean, x.link_util_max, notes);
            if (x.deadlock && !x.deadlock_cycle.empty()) {
                std::string cyc;
                for (const auto& b : x.deadlock_cycle) cyc += b + " -> ";
                fmt::print("       blocked cycle: {}{}\n", cyc, x.deadlock_cycle.front());
            }
        }
        if (sat)
            fmt::print("saturation: offered load {:.4f}, accepted {:.4f} of link bandwidth "
                       "(max accepted {:.4f})\n",
                       sat->load, sat->accepted, sat->max_accepted);
    }
    if (!a.plot.empty()) {
        sim::PlotSeries s{fmt::format("{} {}", routing_name, a.pattern), {}};
        for (const auto& row : rows)
            if (row.res.latency_samples)
                s.points.push_back({row.res.accepted_bytes_per_ns, row.res.latency_mean_ns});
        std::ofstream o(a.plot, std::ios::binary);
        if (!o) throw InputError(a.plot, 0, "cannot create file");
        o << sim::line_plot_svg({s}, fmt::format("{} on {}", routing_name, a.fabric),
                                "accepted traffic (bytes/ns/node)", "average latency (ns)");
    }
    return violations ? kExitViolations : kExitOk;
}

const CommandRegistrar reg{{
    "sim",
    "Simulate packets on a fabric with its real forwarding tables (throughput, latency)",
    [](CLI::App& sub) -> std::function<int()> {
        auto a = std::make_shared<SimArgs>();
        sub.add_option("--fabric", a->fabric,
                       "Topology: ibnetdiscover / ibsim net, or opensm-subnet.lst (by content)")
            ->required();
        sub.add_option("--lfts", a->lfts,
                       "LFTs: opensm-lfts.dump, opensm.fdbs or ibroute/dump_fts output");
        sub.add_option("--engine", a->engine, "Route in-process instead: mlid, slid, separate");
        add_engine_cli(sub, a->ecli);
        sub.add_option("--guid2lid", a->guid2lid,
                       "LIDs from opensm's guid2lid (default: the topology's `lid` comments)");
        sub.add_option("--sl2vl", a->sl2vl, "SL2VL tables: opensm-sl2vl.dump");
        sub.add_option("--path-sl", a->path_sl,
                       "Path SLs (ibdmchk -c format, written by `ibrt route`) for --sl path; "
                       "replaces an engine's");
        sub.add_option("--path-selection", a->path_selection,
                       "DLID per source/destination (written by `ibrt route`)");

        auto* t = "Traffic";
        sub.add_option("--pattern", a->pattern, "One of: " + sim::pattern_names())
            ->default_val("uniform")
            ->group(t);
        sub.add_option("--load", a->loads,
                       "Offered load(s), fraction of the link bandwidth; a list runs each")
            ->default_val("0.5")
            ->group(t);
        sub.add_option("--injection", a->injection, "bernoulli or constant")
            ->default_val("bernoulli")
            ->group(t);
        sub.add_option("--hot-fraction", a->hot_fraction, "hotspot: share sent to the hot node")
            ->default_val(0.1)
            ->group(t);
        sub.add_option("--hot-node", a->hot_node, "hotspot: CA index of the hot node")
            ->default_val(0)
            ->group(t);
        sub.add_option("--shift", a->shift, "rotation: destination = source + shift (default N/2)")
            ->group(t);
        sub.add_option("--packet-bytes", a->packet_bytes, "Packet size")
            ->default_val(256)
            ->group(t);
        sub.add_option("--message-bytes", a->message_bytes,
                       "Message size, split into packets (default one packet)")
            ->group(t);
        sub.add_option("--dlid", a->dlid,
                       "DLID choice: table (path selection, else base LID), base, random (LMC)")
            ->default_val("table")
            ->group(t);
        sub.add_option("--sl", a->sl, "SL: path (routing's path SL) or spread (uniform over VLs)")
            ->default_val("path")
            ->group(t);

        auto* m = "Model";
        sub.add_option("--vls", a->vls, "Data VLs")->default_val(1)->group(m);
        sub.add_option("--buffer-bytes", a->buffer_bytes, "Input buffer per VL per port")
            ->default_val(1024)
            ->group(m);
        sub.add_option("--output-buffer-bytes", a->output_buffer_bytes,
                       "Output buffer per VL per switch port (0 = none: the crossbar feeds the "
                       "link)")
            ->default_val(0)
            ->group(m);
        sub.add_option("--source-queue", a->source_queue,
                       "Packets a source queue holds; messages beyond are offered but throttled "
                       "(0 = unbounded)")
            ->default_val(256)
            ->group(m);
        sub.add_option("--credit-unit", a->credit_unit, "Bytes per flow-control credit")
            ->default_val(64)
            ->group(m);
        sub.add_option("--fly-ns", a->fly_ns, "Link propagation time")->default_val(20)->group(m);
        sub.add_option("--routing-ns", a->routing_ns, "Switch routing/lookup delay")
            ->default_val(100)
            ->group(m);
        sub.add_option("--ns-per-byte", a->ns_per_byte,
                       "Serialization time per byte on every link (default: width x speed)")
            ->group(m);
        sub.add_option("--credit-delay-ns", a->credit_delay_ns,
                       "Credit return time (default: the fly time)")
            ->group(m);
        sub.add_option("--speedup", a->speedup, "Packets an input port feeds at once")
            ->default_val(1)
            ->group(m);
        sub.add_option("--vlarb-high", a->vlarb_high, "High-priority VLArb table VL:W,VL:W,...")
            ->group(m);
        sub.add_option("--vlarb-low", a->vlarb_low,
                       "Low-priority VLArb table (default every VL weight 1)")
            ->group(m);
        sub.add_option("--vlarb-high-limit", a->vlarb_limit,
                       "LimitOfHighPriority, 4 KB units (255 = unlimited)")
            ->group(m);

        auto* w = "Measurement";
        sub.add_option("--warmup-us", a->warmup_us, "Warm-up")->default_val(10)->group(w);
        sub.add_option("--measure-us", a->measure_us, "Measurement window")
            ->default_val(50)
            ->group(w);
        sub.add_option("--drain-us", a->drain_us, "Longest drain after the window")
            ->default_val(50)
            ->group(w);
        sub.add_option("--deadlock-us", a->deadlock_us,
                       "No hop for this long with packets inside = deadlock (default 100 "
                       "packet times)")
            ->group(w);
        sub.add_option("--seed", a->seed, "Random seed")->default_val(1)->group(w);
        sub.add_flag("--saturation", a->saturation,
                     "Find the saturation load by bisection instead of --load")
            ->group(w);
        sub.add_option("--saturation-max", a->sat_hi, "Upper load of the search")
            ->default_val(1.0)
            ->group(w);
        sub.add_option("--saturation-steps", a->steps, "Bisection steps")->default_val(7)->group(w);
        sub.add_option("--saturation-tolerance", a->tolerance,
                       "Saturated when accepted < (1 - tolerance) x offered")
            ->default_val(0.05)
            ->group(w);

        auto* o = "Output";
        auto* csv = sub.add_flag("--csv", a->csv, "CSV table on stdout")->group(o);
        sub.add_flag("--json", a->json, "JSON on stdout (schema ibrt-sim/1)")
            ->excludes(csv)
            ->group(o);
        sub.add_option("--plot", a->plot, "SVG: average latency against accepted traffic")
            ->group(o);
        sub.add_flag("-q,--quiet", a->quiet, "No progress line on stderr")->group(o);
        sub.footer("Examples:\n"
                   "  ibrt sim --fabric ft.topo --engine mlid --pattern hotspot --load "
                   "0.1,0.2,0.3 --plot lat.svg\n"
                   "  ibrt sim --fabric net --lfts opensm-lfts.dump --guid2lid guid2lid "
                   "--saturation\n"
                   "Exit: 0 ok, 1 a run deadlocked, dropped or misdelivered packets, 2 bad "
                   "input.\nThe model is described in docs/sim-model.md.");
        return [a] { return run_sim(*a); };
    },
}};

} // namespace
} // namespace ibrt::tools
