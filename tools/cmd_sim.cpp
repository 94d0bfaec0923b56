// `ibrt sim`: the packet-level simulator (sim/simulator.hpp, docs/sim-model.md) on a real
// fabric and its real tables: an ibnetdiscover topology with the LFTs an SM dumped (LIDs from
// the topology's `lid` comments or guid2lid, optional SL2VL and path selection), or routed
// in-process by an engine. One run per offered load (--load takes a list), or a saturation
// search (--saturation). Prints a table; --csv, --json (schema "ibrt-sim/1") and --plot
// (latency vs accepted traffic, as in paper 000 Figs. 12-15; SVG or PNG drawn by matplotlib,
// plot/plot.hpp, as are --link-plot and --timeseries-plot).
// Every run ends with a verdict on progress (sim::Verdict: ok, deadlock, delivered-nothing,
// stuck, nothing-offered), printed in the summary and the JSON.
// Exit: 0 success, 1 when a run's verdict is not ok or it dropped or misdelivered packets,
// 2 bad input, 3 cannot judge (a run offered no packet, so examined nothing).
//
// JSON "ibrt-sim/1" (fields are only ever added; a run is sim/run_json.hpp's record, which
// every sweep point holds too, without the per-link and per-flow lists):
//   { "schema", "fabric", "routing": {"source": "lfts"|"engine", "engine"?, "lmc"},
//     "options": {OPTION: VALUE...} (the options set, as --config reads them back),
//     "config": {...every model parameter...},
//     "runs": [ { "load", "offered_fraction", "accepted_fraction", "accepted_fraction_ci95",
//                 "offered_bytes_per_ns", "accepted_bytes_per_ns",
//                 "latency_ns": {"mean","p50","p99","max","mean_ci95","network_mean",
//                                "network_mean_ci95","samples"},  (ci95: half-widths of the
//                                95 % intervals by batch means, -1 without; docs/sim-model.md)
//                 "packets": {"generated","delivered","dropped","misdelivered","in_flight",
//                             "measured_unfinished","throttled","peak_alive"},
//                 "throttled_fraction", "hops", "events", "end_ns",
//                 "utilization": {"mean","max","vl_mean":[...],
//                                 "links":[{"node","port","util","vl":[...]}]},
//                 "deadlock": null | {"at_ns", "cycle": [...]}, "saturated"?,
//                 "verdict": "ok"|"deadlock"|"delivered-nothing"|"stuck"|"nothing-offered",
//                 "last_hop_ns", "converged"?, "measure_us"? (--ci-target),
//                 "congestion_control"?: {"fecn_marked", "becn_sent", "becn_received",
//                                         "becn_dropped", "becn_in_flight", "becn_hops",
//                                         "becn_bytes_per_ns", "peak_flows", "peak_ccti"},
//                 "flows"?: [{"src", "dst", "offered_fraction", "accepted_fraction",
//                             "becns"}],
//                 "flow_summary"?: {"hot_destinations", "hot_flows", "hot_offered",
//                                   "hot_accepted", "hot_jain", "victim_flows",
//                                   "victim_offered", "victim_accepted", "victim_jain",
//                                   "victim_becns"} (sim/flow_summary.hpp),
//                 "drb"?: {"notifications", "paths_opened", "constrictions", "flows_freed",
//                          "alternative_packets", "peak_open_paths", "peak_flows"} } ],
//     "saturation"?: {"tolerance", "onset_load", "onset_accepted_fraction",
//                     "max_accepted_fraction", "max_accepted_load",
//                     "load", "accepted_fraction" (= the onset's, their ibrt-sim/1 names)} }
#include "cli/engine_cli.hpp"
#include "cli/option_checks.hpp"
#include "cli/progress.hpp"
#include "cli/sim_options.hpp"
#include "engines/engine.hpp"
#include "fabric/display_name.hpp"
#include "fabric/input_error.hpp"
#include "formats/ibnetdiscover.hpp"
#include "formats/routing_files.hpp"
#include "plot/plot.hpp"
#include "sim/config_notes.hpp"
#include "sim/run_json.hpp"
#include "sim/saturation.hpp"
#include "sim/simulator.hpp"
#include "tools/command.hpp"
#include "tools/sim_config_file.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <memory>
#include <optional>

namespace ibrt::tools {
namespace {

struct SimArgs {
    std::string fabric, config, engine, loads = "0.5", plot, link_plot, flows_csv;
    std::string series_csv, series_plot;
    double series_us = 10;
    int series_links = 8;
    int vls = 1;
    cli::SimOptions sim;
    cli::RoutingOptions routing;
    bool csv = false, json = false, quiet = false;
    nlohmann::ordered_json options; // the options set, for the JSON (set_sim_options)
};

// Why a run failed, in a few words.
std::string failure_text(const sim::SimResult& r) {
    std::string s;
    if (r.verdict != sim::Verdict::Ok) s = std::string(sim::to_string(r.verdict));
    if (r.dropped) s += (s.empty() ? "" : ", ") + fmt::format("{} dropped", r.dropped);
    if (r.misdelivered)
        s += (s.empty() ? "" : ", ") + fmt::format("{} misdelivered", r.misdelivered);
    return s;
}

// What a plot's curves share: said once, under its title (plot/plot.hpp).
using PlotSettings = std::vector<std::pair<std::string, std::string>>;
PlotSettings plot_settings(const SimArgs& a, const sim::SimConfig& c, const Routing& r) {
    PlotSettings s{{"pattern", fmt::format("{} traffic", sim::to_string(c.traffic.pattern))},
                   {"injection", fmt::format("{} injection", sim::to_string(c.traffic.injection))},
                   {"packet", fmt::format("{} B packets", c.packet_bytes)},
                   {"VLs", fmt::format("{} VL{}", a.vls, a.vls > 1 ? "s" : "")}};
    if (r.forwarding_sets)
        s.emplace_back("selection", fmt::format("{} selection", sim::to_string(c.selection)));
    return s;
}

struct SeriesRun {
    double load;
    const sim::LinkSeries* series;
};

template <class Rows> std::vector<SeriesRun> rows_series(const Rows& rows) {
    std::vector<SeriesRun> out;
    for (const auto& row : rows) out.push_back({row.load, &row.res.link_series});
    return out;
}

// --link-timeseries / --timeseries-plot: each cabled port's bytes and busy fraction per
// interval (paper 002 Fig. 10: per-link throughput over time), and the busiest links' curves.
void write_series(const Fabric& f, const SimArgs& a, const std::vector<SeriesRun>& runs,
                  const std::string& routing_name, const PlotSettings& settings) {
    const auto link_name = [&](PortId p) {
        return fmt::format("{}[{}]", display_name(f, f.port_node(p)), f.port_num(p));
    };
    if (!a.series_csv.empty()) {
        std::ofstream o(a.series_csv, std::ios::binary);
        if (!o) throw InputError(a.series_csv, 0, "cannot create file");
        o << "load,t_us,link,to,bytes,utilization\n";
        const auto quoted = [](const std::string& t) {
            std::string q = "\"";
            for (char ch : t) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
            return q + "\"";
        };
        for (const auto& run : runs) {
            const sim::LinkSeries& ls = *run.series;
            const std::size_t n = ls.ports.size();
            std::vector<std::string> from(n), to(n);
            for (std::size_t i = 0; i < n; ++i) {
                from[i] = quoted(link_name(ls.ports[i]));
                const Port& p = f.port(ls.ports[i]);
                to[i] = quoted(link_name(f.port_id(p.peer_node, p.peer_port)));
            }
            const double step = double(ls.step_ps);
            for (std::size_t k = 0; k < ls.intervals(); ++k)
                for (std::size_t i = 0; i < n; ++i) {
                    const sim::Time busy = ls.busy_ps[k * n + i];
                    o << fmt::format("{},{:g},{},{},{:.0f},{:.6f}\n", run.load,
                                     double(k) * step / 1e6, from[i], to[i],
                                     double(busy) / double(ls.ps_per_byte[i]), double(busy) / step);
                }
        }
    }
    if (!a.series_plot.empty() && !runs.empty()) {
        // The last load's busiest links between switches (over the whole run), one curve each.
        const sim::LinkSeries& ls = *runs.back().series;
        const std::size_t n = ls.ports.size();
        std::vector<std::pair<sim::Time, std::size_t>> total;
        for (std::size_t i = 0; i < n; ++i) {
            const Port& p = f.port(ls.ports[i]);
            if (!f.node(f.port_node(ls.ports[i])).is_switch() || !f.node(p.peer_node).is_switch())
                continue;
            sim::Time t = 0;
            for (std::size_t k = 0; k < ls.intervals(); ++k) t += ls.busy_ps[k * n + i];
            total.push_back({t, i});
        }
        std::stable_sort(total.begin(), total.end(),
                         [](const auto& x, const auto& y) { return x.first > y.first; });
        plot::Figure fig;
        fig.title = fmt::format("{} on {}: the busiest switch-to-switch links over time (load {})",
                                routing_name, a.fabric, runs.back().load);
        fig.x_label = "time (us)";
        fig.y_label = fmt::format("utilization per {:g} us interval", a.series_us);
        for (std::size_t j = 0; j < total.size() && j < std::size_t(a.series_links); ++j) {
            const std::size_t i = total[j].second;
            plot::Curve c{settings, {}, {}, {}, {}};
            c.settings.emplace_back("link", link_name(ls.ports[i]));
            for (std::size_t k = 0; k < ls.intervals(); ++k) {
                c.x.push_back((double(k) + 0.5) * double(ls.step_ps) / 1e6);
                c.y.push_back(double(ls.busy_ps[k * n + i]) / double(ls.step_ps));
            }
            fig.curves.push_back(std::move(c));
        }
        plot::write_plot(fig, a.series_plot);
    }
}

int run_sim(const SimArgs& a) {
    if (a.fabric.empty()) throw InputError("--fabric", 0, "required (or \"fabric\" in --config)");
    if (a.routing.lfts.empty() == a.engine.empty()) {
        fmt::print(stderr, "ibrt sim: give exactly one of --lfts or --engine\n");
        return kExitBadInput;
    }
    sim::SimConfig base_cfg = cli::make_sim_config(a.sim);
    if (!a.flows_csv.empty()) base_cfg.flow_stats = true;
    if (a.vls < 1 || a.vls > 15) throw InputError("--vls", 0, "must be 1..15");
    base_cfg.num_vls = std::uint8_t(a.vls);
    if (!a.series_csv.empty() || !a.series_plot.empty()) {
        if (!(a.series_us > 0)) throw InputError("--timeseries-us", 0, "must be positive");
        base_cfg.link_series_ps = sim::Time(std::llround(a.series_us * 1e6));
    }
    cli::check_sim_config(base_cfg);
    const std::vector<double> loads = cli::parse_loads(a.loads, "--load");
    const Fabric f = load_topology(a.fabric);
    Routing r;
    try {
        r = cli::load_sim_routing(f, a.fabric, a.routing, a.engine);
        cli::apply_drb_paths(f, a.sim, r, unsigned(a.vls), "ibrt sim");
    } catch (const RoutingError& e) {
        fmt::print(stderr, "ibrt sim: engine {} declined {}: {}\n", a.engine, a.fabric, e.what());
        return kExitBadInput;
    }

    for (const std::string& note : sim::config_notes(f, r, base_cfg))
        fmt::print(stderr, "ibrt sim: {}\n", note);

    sim::ProgressFn prog;
    if (!a.quiet)
        prog = [](sim::Time now, sim::Time end) {
            cli::progress(fmt::format("ibrt sim: {:.1f} of {:.1f} us simulated", double(now) / 1e6,
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
        if (a.sim.saturation) {
            sat = sim::find_saturation(f, r, base_cfg, a.sim.saturation_max, a.sim.saturation_steps,
                                       a.sim.saturation_tolerance, prog);
            for (auto& p : sat->runs) rows.push_back({p.load, std::move(p.result), p.saturated});
            std::sort(rows.begin(), rows.end(),
                      [](const Row& x, const Row& y) { return x.load < y.load; });
        } else {
            for (double load : loads) {
                sim::SimConfig c = base_cfg;
                c.traffic.load = load;
                rows.push_back({load, sim::simulate(f, r, c, prog), {}});
            }
        }
    } catch (const std::invalid_argument& e) {
        fmt::print(stderr, "ibrt sim: {}\n", e.what());
        return kExitBadInput;
    }
    if (!a.quiet) cli::progress("");

    bool violations = false, unjudged = false;
    for (const auto& row : rows) {
        violations |= sim::failed(row.res);
        unjudged |= row.res.verdict == sim::Verdict::NothingOffered;
        // Statistics, not a verdict on the fabric: said, not an exit code.
        if (row.res.converged && !*row.res.converged) {
            const auto ci = [](double mean, double half) {
                return half < 0 ? fmt::format("{:.4g} (no interval: fewer than 2 batches)", mean)
                                : fmt::format("{:.4g} +- {:.2g} ({:.2g} %)", mean, half,
                                              mean > 0 ? 100 * half / mean : 0.0);
            };
            fmt::print(stderr,
                       "ibrt sim: load {:g}: did not converge to {:g} % by a window of {:g} us: "
                       "accepted {}, mean latency (ns) {}\n",
                       row.load, a.sim.ci_target * 100, double(row.res.measure_ps) / 1e6,
                       ci(row.res.accepted_fraction, row.res.accepted_fraction_ci95),
                       ci(row.res.latency_mean_ns, row.res.latency_mean_ci95_ns));
        }
    }

    const std::string routing_name = a.engine.empty() ? "lfts" : a.engine;
    if (a.json) {
        using J = nlohmann::ordered_json;
        J j;
        j["schema"] = "ibrt-sim/1";
        j["fabric"] = a.fabric;
        j["routing"] = {{"source", a.engine.empty() ? "lfts" : "engine"}, {"lmc", r.lmc}};
        if (!a.engine.empty()) j["routing"]["engine"] = a.engine;
        for (const auto& [key, file] : {std::pair{"lfts", &a.routing.lfts},
                                        {"guid2lid", &a.routing.guid2lid},
                                        {"sl2vl", &a.routing.sl2vl},
                                        {"path_selection", &a.routing.path_selection},
                                        {"tables", &a.routing.tables}})
            if (!file->empty()) j["routing"][key] = *file;
        // The run as `--config` reads it back.
        j["options"] = a.options;
        // Every run has the same configuration but its load.
        j["config"] = cli::sim_config_json(base_cfg, rows.front().res);
        J runs = J::array();
        for (const auto& row : rows) {
            J x = sim::run_json(f, row.load, row.res, sim::RunDetail::Full);
            if (row.saturated) x["saturated"] = *row.saturated;
            runs.push_back(std::move(x));
        }
        j["runs"] = std::move(runs);
        // "load" and "accepted_fraction" are the ibrt-sim/1 names of the onset, kept.
        if (sat)
            j["saturation"] = {{"tolerance", sat->tolerance},
                               {"onset_load", sat->onset_load},
                               {"onset_accepted_fraction", sat->onset_accepted},
                               {"max_accepted_fraction", sat->max_accepted},
                               {"max_accepted_load", sat->max_accepted_load},
                               {"load", sat->onset_load},
                               {"accepted_fraction", sat->onset_accepted}};
        fmt::print("{}\n", j.dump(2));
    } else if (a.csv) { // the runs' records as CSV (sim/run_json.hpp, as a sweep's sweep.csv)
        std::vector<nlohmann::json> records;
        for (const auto& row : rows)
            records.push_back(nlohmann::json::parse(
                sim::run_json(f, row.load, row.res, sim::RunDetail::Sweep).dump()));
        const sim::RunCsvColumns cols = sim::RunCsvColumns::of(records);
        fmt::print("{}\n", sim::run_csv_header(cols));
        for (const auto& x : records) fmt::print("{}\n", sim::run_csv_row(x, cols));
    } else {
        fmt::print("{} on {} ({} CAs, {} switches), {} traffic, {} injection, {} B packets, "
                   "{} VL(s){}\n",
                   routing_name, a.fabric, f.cas().size(), f.switches().size(),
                   sim::to_string(base_cfg.traffic.pattern),
                   sim::to_string(base_cfg.traffic.injection), base_cfg.packet_bytes, a.vls,
                   r.forwarding_sets ? fmt::format(", forwarding sets, selection {}",
                                                   sim::to_string(base_cfg.selection))
                                     : std::string());
        fmt::print("{:>6} {:>8} {:>8} {:>9} {:>9} {:>9} {:>9} {:>9} {:>6} {:>6}  {}\n", "load",
                   "offered", "accepted", "B/ns/node", "lat mean", "lat p50", "lat p99", "lat max",
                   "util", "max", "notes");
        for (const auto& row : rows) {
            const auto& x = row.res;
            std::string notes;
            if (row.saturated && *row.saturated) notes += "saturated ";
            if (x.deadlock) {
                notes += fmt::format("DEADLOCK at {:.1f} us", double(x.deadlock_at_ps) / 1e6);
                if (x.deadlock_at_ps > x.end_ps)
                    notes += " (after the run, seen without new traffic)";
                else if (x.last_hop_ps + x.deadlock_period_ps <= x.deadlock_at_ps)
                    notes += fmt::format(" (no packet moved since {:.1f} us)",
                                         double(x.last_hop_ps) / 1e6);
                notes += " ";
            }
            if (x.verdict == sim::Verdict::DeliveredNothing) notes += "DELIVERED NOTHING ";
            if (x.verdict == sim::Verdict::NothingOffered) notes += "NOTHING OFFERED ";
            if (x.verdict == sim::Verdict::Stuck)
                notes += fmt::format("STUCK: {} packets, none moved since {:.1f} us ", x.in_flight,
                                     double(x.last_hop_ps) / 1e6);
            if (x.dropped) notes += fmt::format("{} dropped ", x.dropped);
            if (x.misdelivered) notes += fmt::format("{} misdelivered ", x.misdelivered);
            if (x.converged) // --ci-target: the window the figures are from
                notes += fmt::format("{}window {:g} us ", *x.converged ? "" : "NOT CONVERGED, ",
                                     double(x.measure_ps) / 1e6);
            fmt::print("{:>6.3f} {:>8.4f} {:>8.4f} {:>9.4f} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.1f} "
                       "{:>6.3f} {:>6.3f}  {}\n",
                       row.load, x.offered_fraction, x.accepted_fraction, x.accepted_bytes_per_ns,
                       x.latency_mean_ns, x.latency_p50_ns, x.latency_p99_ns, x.latency_max_ns,
                       x.link_util_mean, x.link_util_max, notes);
            if (x.cc)
                fmt::print("       congestion control: {} FECN marks, BECNs {} sent, {} "
                           "received, {} dropped; peak CCTI {}, peak flows {}\n",
                           x.cc_stats.fecn_marked, x.cc_stats.becn_sent, x.cc_stats.becn_received,
                           x.cc_stats.becn_dropped, x.cc_stats.peak_ccti, x.cc_stats.peak_flows);
            if (x.drb)
                fmt::print("       DRB: {} paths opened, {} constrictions, {} packets on "
                           "alternative paths; peak {} open paths per flow, peak {} flows\n",
                           x.drb_stats.paths_opened, x.drb_stats.constrictions,
                           x.drb_stats.alternative_packets, x.drb_stats.peak_open_paths,
                           x.drb_stats.peak_flows);
            if (x.deadlock && !x.deadlock_cycle.empty()) {
                std::string cyc;
                for (const auto& b : x.deadlock_cycle) cyc += b + " => "; // as ibrt check
                fmt::print("       blocked cycle: {}{}\n", cyc, x.deadlock_cycle.front());
            }
        }
        if (sat) {
            fmt::print("saturation throughput (maximum accepted rate): {:.4f} of link bandwidth, "
                       "at offered load {:.4f}\n",
                       sat->max_accepted, sat->max_accepted_load);
            fmt::print("saturation onset (highest load accepted within {:g} % of offered): "
                       "offered {:.4f}, accepted {:.4f}\n",
                       sat->tolerance * 100, sat->onset_load, sat->onset_accepted);
        }
        std::string failures;
        for (const auto& row : rows)
            if (sim::failed(row.res))
                failures += fmt::format("{}load {:.3f}: {}", failures.empty() ? "" : "; ", row.load,
                                        failure_text(row.res));
        std::string empty;
        for (const auto& row : rows)
            if (row.res.verdict == sim::Verdict::NothingOffered)
                empty += fmt::format("{}{:.3f}", empty.empty() ? "" : ", ", row.load);
        if (!failures.empty())
            fmt::print("verdict: FAIL ({})\n", failures);
        else if (!empty.empty())
            fmt::print("verdict: cannot judge (no packet offered at load {}: nothing was "
                       "examined)\n",
                       empty);
        else
            fmt::print("verdict: ok\n");
    }
    if (!a.flows_csv.empty()) {
        std::ofstream o(a.flows_csv, std::ios::binary);
        if (!o) throw InputError(a.flows_csv, 0, "cannot create file");
        o << "load,src,dst,offered_fraction,accepted_fraction,becns\n";
        // Node descriptions may hold commas or quotes: CSV-quoted.
        const std::vector<std::string> names =
            rows.empty() ? std::vector<std::string>{}
                         : sim::endpoint_names(f, rows.front().res.endpoints);
        const auto field = [&](std::uint32_t ca) {
            std::string t = "\"";
            for (char ch : names[ca]) t += ch == '"' ? std::string("\"\"") : std::string(1, ch);
            return t + "\"";
        };
        for (const auto& row : rows)
            for (const auto& x : row.res.flows)
                o << fmt::format("{},{},{},{:.6f},{:.6f},{}\n", row.load, field(x.src),
                                 field(x.dst), x.offered_fraction, x.accepted_fraction, x.becns);
    }
    const PlotSettings settings = plot_settings(a, base_cfg, r);
    if (!a.series_csv.empty() || !a.series_plot.empty())
        write_series(f, a, rows_series(rows), routing_name, settings);
    if (!a.plot.empty()) {
        // Paper 000 Figs. 12-15, with each run's 95 % intervals (batch means) as error bars.
        plot::Figure fig;
        fig.title =
            fmt::format("{} on {}: latency against accepted traffic", routing_name, a.fabric);
        fig.x_label = "accepted traffic (bytes/ns/node)";
        fig.y_label = "average latency (ns)";
        plot::Curve c{settings, {}, {}, {}, {}};
        for (const auto& row : rows) {
            const sim::SimResult& x = row.res;
            if (!x.latency_samples) continue;
            c.x.push_back(x.accepted_bytes_per_ns);
            c.y.push_back(x.latency_mean_ns);
            c.y_err.push_back(x.latency_mean_ci95_ns);
            c.x_err.push_back(x.accepted_fraction_ci95 >= 0 && x.accepted_fraction > 0
                                  ? x.accepted_fraction_ci95 * x.accepted_bytes_per_ns /
                                        x.accepted_fraction
                                  : -1);
        }
        fig.curves.push_back(std::move(c));
        plot::write_plot(fig, a.plot);
    }
    if (!a.link_plot.empty()) {
        // Paper 004 Fig. 5: how evenly a routing loads the links, each run's utilizations from
        // the busiest link to the idlest.
        plot::Figure fig;
        fig.title = fmt::format("{} on {}: link utilization", routing_name, a.fabric);
        fig.x_label = "links, busiest to idlest (fraction of links)";
        fig.y_label = "utilization";
        for (const auto& row : rows) {
            plot::Curve c{settings, {}, {}, {}, {}};
            c.settings.emplace_back("load", fmt::format("load {}", row.load));
            std::vector<double> u;
            for (const auto& l : row.res.links) u.push_back(l.utilization);
            std::sort(u.begin(), u.end(), std::greater<>());
            // At most 1,001 points, evenly spaced over the ranks (a 4-ary 6-tree has 49,152
            // links; the curve is what matters, and the files stay small).
            const std::size_t n = u.size(), steps = std::min<std::size_t>(n ? n - 1 : 0, 1000);
            for (std::size_t k = 0; k <= steps && n; ++k) {
                const std::size_t i = steps ? k * (n - 1) / steps : 0;
                c.x.push_back(double(i) / double(std::max<std::size_t>(n - 1, 1)));
                c.y.push_back(u[i]);
            }
            fig.curves.push_back(std::move(c));
        }
        plot::write_plot(fig, a.link_plot);
    }
    return violations ? kExitViolations : unjudged ? kExitCannotJudge : kExitOk;
}

const CommandRegistrar reg{{
    "sim",
    "Simulate packets on a fabric with its real forwarding tables (throughput, latency)",
    [](CLI::App& sub) -> std::function<int()> {
        auto a = std::make_shared<SimArgs>();
        sub.add_option("--fabric", a->fabric,
                       "Topology: ibnetdiscover / ibsim net, or opensm-subnet.lst (required, here "
                       "or in --config)");
        sub.add_option("--config", a->config,
                       "The experiment as a JSON file: {OPTION: VALUE} with these options' names "
                       "(a sweep spec's \"sim\" keys), or a sweep point (OUT/points/ID.json); "
                       "the command line wins; file names relative to the file");
        sub.add_option("--engine", a->engine,
                       "Route in-process instead: mlid, slid, separate, torus, flatfly, dragonfly, "
                       "slimfly, dragonfly-plus");
        cli::add_routing_options(sub, a->routing);
        sub.add_option("--load", a->loads,
                       "Offered load(s), fraction of the link bandwidth; a list runs each")
            ->default_val("0.5")
            ->check(cli::reals_in(0, 1))
            ->group(std::string(cli::kSimOptionGroups[0]));
        sub.add_option("--vls", a->vls, cli::kVlsHelp)
            ->default_val(1)
            ->check(cli::whole_in(1, 15))
            ->group(std::string(cli::kSimOptionGroups[1]));
        cli::add_sim_options(sub, a->sim);

        auto* o = "Output";
        auto* csv = sub.add_flag("--csv", a->csv, "CSV table on stdout")->group(o);
        sub.add_flag("--json", a->json, "JSON on stdout (schema ibrt-sim/1)")
            ->excludes(csv)
            ->group(o);
        sub.add_option("--plot", a->plot,
                       "SVG or PNG (by the name): average latency against accepted traffic, "
                       "with 95 % intervals as error bars")
            ->check(cli::plot_file())
            ->group(o);
        sub.add_option("--link-plot", a->link_plot,
                       "SVG or PNG: every link's utilization in the window, busiest first, one "
                       "curve per load (how evenly the routing spreads the traffic)")
            ->check(cli::plot_file())
            ->group(o);
        sub.add_option("--flows-csv", a->flows_csv,
                       "CSV: each (source, destination) pair's offered and accepted traffic and "
                       "the BECNs its source received, per load (implies --flow-stats)")
            ->check(cli::output_file())
            ->group(o);
        sub.add_option("--link-timeseries", a->series_csv,
                       "CSV: every link's bytes and busy fraction per --timeseries-us interval, "
                       "from time 0 to the end of each run (paper 002 Fig. 10)")
            ->check(cli::output_file())
            ->group(o);
        sub.add_option("--timeseries-us", a->series_us,
                       "Interval of --link-timeseries and --timeseries-plot")
            ->default_val(10)
            ->check(cli::real_above(0, cli::kMaxSimUs))
            ->group(o);
        sub.add_option("--timeseries-plot", a->series_plot,
                       "SVG or PNG: the busiest switch-to-switch links' utilization per interval "
                       "over time (the last load)")
            ->check(cli::plot_file())
            ->group(o);
        sub.add_option("--timeseries-links", a->series_links, "Links drawn by --timeseries-plot")
            ->default_val(8)
            ->check(cli::whole_in(1, 64))
            ->group(o);
        sub.add_flag("-q,--quiet", a->quiet, "No progress line on stderr")->group(o);
        sub.footer("Examples:\n"
                   "  ibrt sim --fabric ft.topo --engine mlid --pattern hotspot --load "
                   "0.1,0.2,0.3 --plot lat.svg\n"
                   "  ibrt sim --fabric net --lfts opensm-lfts.dump --guid2lid guid2lid "
                   "--saturation\n"
                   "Every run ends with a verdict on progress: ok, deadlock (with the cycle of "
                   "buffers),\ndelivered-nothing, stuck (packets inside, none moved for a "
                   "watchdog period), or\nnothing-offered (no packet generated, e.g. --load 0).\n"
                   "Plots (--plot, --link-plot, --timeseries-plot) are SVG or PNG by the file "
                   "name, drawn by\nmatplotlib (Debian's python3-matplotlib) with /usr/bin/python3 "
                   "or $IBRT_PYTHON.\n"
                   "Exit: 0 ok, 1 a run failed its verdict or dropped or misdelivered packets, 2 "
                   "bad\ninput, 3 cannot judge (a run offered nothing). The model is described "
                   "in docs/sim-model.md.\n\n" +
                   cli::engine_params_help());
        return [a, &sub] {
            if (!a->config.empty()) apply_sim_config_file(sub, a->config);
            if (a->json) a->options = set_sim_options(sub);
            return run_sim(*a);
        };
    },
}};

} // namespace
} // namespace ibrt::tools
