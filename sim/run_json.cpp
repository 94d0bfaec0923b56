#include "sim/run_json.hpp"

#include "fabric/display_name.hpp"
#include "sim/flow_summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <optional>

namespace ibrt::sim {

std::vector<std::string> endpoint_names(const Fabric& f, const std::vector<PortId>& endpoints) {
    std::vector<std::uint32_t> per_node(f.num_nodes(), 0);
    for (PortId p : endpoints) ++per_node[f.port_node(p)];
    std::vector<std::string> out;
    out.reserve(endpoints.size());
    for (PortId p : endpoints) {
        const NodeId n = f.port_node(p);
        out.push_back(per_node[n] > 1 ? display_port(f, n, f.port_num(p)) : display_name(f, n));
    }
    return out;
}

nlohmann::ordered_json run_json(const Fabric& f, double load, const SimResult& r,
                                RunDetail detail) {
    using J = nlohmann::ordered_json;
    J links = J::array();
    if (detail == RunDetail::Full)
        for (const auto& u : r.links)
            links.push_back({{"node", display_name(f, f.port_node(u.port))},
                             {"port", f.port_num(u.port)},
                             {"util", u.utilization},
                             {"vl", u.vl_utilization}});
    J j = {{"load", load},
           {"offered_fraction", r.offered_fraction},
           {"accepted_fraction", r.accepted_fraction},
           {"accepted_fraction_ci95", r.accepted_fraction_ci95},
           {"offered_bytes_per_ns", r.offered_bytes_per_ns},
           {"accepted_bytes_per_ns", r.accepted_bytes_per_ns},
           {"latency_ns",
            {{"mean", r.latency_mean_ns},
             {"p50", r.latency_p50_ns},
             {"p99", r.latency_p99_ns},
             {"max", r.latency_max_ns},
             {"mean_ci95", r.latency_mean_ci95_ns},
             {"network_mean", r.network_latency_mean_ns},
             {"network_mean_ci95", r.network_latency_mean_ci95_ns},
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
    j["verdict"] = to_string(r.verdict);
    j["last_hop_ns"] = double(r.last_hop_ps) / 1000.0;
    if (r.converged) {
        j["converged"] = *r.converged;
        j["measure_us"] = double(r.measure_ps) / 1e6;
    }
    if (r.cc) {
        const CcStats& c = r.cc_stats;
        j["congestion_control"] = {{"fecn_marked", c.fecn_marked},
                                   {"becn_sent", c.becn_sent},
                                   {"becn_received", c.becn_received},
                                   {"becn_dropped", c.becn_dropped},
                                   {"becn_in_flight", c.becn_in_flight},
                                   {"becn_hops", c.becn_hops},
                                   {"becn_bytes_per_ns", c.becn_bytes_per_ns},
                                   {"peak_flows", c.peak_flows},
                                   {"peak_ccti", c.peak_ccti}};
    }
    if (r.drb) {
        const DrbStats& d = r.drb_stats;
        j["drb"] = {{"notifications", d.notifications},
                    {"paths_opened", d.paths_opened},
                    {"constrictions", d.constrictions},
                    {"flows_freed", d.flows_freed},
                    {"alternative_packets", d.alternative_packets},
                    {"peak_open_paths", d.peak_open_paths},
                    {"peak_flows", d.peak_flows}};
    }
    if (!r.flows.empty()) {
        const FlowSummary s = summarize_flows(r.flows);
        const auto index = [](const std::optional<double>& v) { return v ? J(*v) : J(); };
        j["flow_summary"] = {
            {"hot_destinations", s.hot_destinations}, {"hot_flows", s.hot_flows},
            {"hot_offered", s.hot_offered},           {"hot_accepted", s.hot_accepted},
            {"hot_jain", index(s.hot_jain)},          {"victim_flows", s.victim_flows},
            {"victim_offered", s.victim_offered},     {"victim_accepted", s.victim_accepted},
            {"victim_jain", index(s.victim_jain)},    {"victim_becns", s.victim_becns}};
    }
    if (detail == RunDetail::Full && !r.flows.empty()) {
        const std::vector<std::string> name = endpoint_names(f, r.endpoints);
        J flows = J::array();
        for (const auto& x : r.flows)
            flows.push_back({{"src", name[x.src]},
                             {"dst", name[x.dst]},
                             {"offered_fraction", x.offered_fraction},
                             {"accepted_fraction", x.accepted_fraction},
                             {"becns", x.becns}});
        j["flows"] = std::move(flows);
    }
    return j;
}

namespace {

constexpr const char* kCc = "fecn_marked,becn_sent,becn_received,becn_dropped,peak_ccti";
constexpr const char* kDrb =
    "drb_paths_opened,drb_constrictions,drb_peak_open_paths,drb_peak_flows";
constexpr const char* kFlows = "hot_destinations,hot_flows,hot_offered,hot_accepted,hot_jain,"
                               "victim_flows,victim_offered,victim_accepted,victim_jain,"
                               "victim_becns";

std::size_t commas(const char* s) {
    return std::size_t(std::count(s, s + std::strlen(s), ','));
}

} // namespace

std::string run_csv_header(const RunCsvColumns& c) {
    return fmt::format("load,offered_fraction,accepted_fraction,accepted_bytes_per_ns,"
                       "latency_mean_ns,latency_p50_ns,latency_p99_ns,latency_max_ns,"
                       "link_util_mean,link_util_max,generated,delivered,dropped,in_flight,"
                       "deadlock,verdict{}{}{}{}{}{}",
                       c.cc ? std::string(",") + kCc : "", c.drb ? std::string(",") + kDrb : "",
                       ",accepted_fraction_ci95,latency_mean_ci95_ns,network_latency_mean_ns,"
                       "network_latency_mean_ci95_ns",
                       ",measured_unfinished", c.flows ? std::string(",") + kFlows : "",
                       c.stop ? ",converged,measure_us" : "");
}

std::string run_csv_row(const nlohmann::json& x, const RunCsvColumns& c) {
    const auto& lat = x["latency_ns"];
    const auto& pk = x["packets"];
    const auto& u = x["utilization"];
    std::string row = fmt::format(
        "{},{:.6f},{:.6f},{:.6f},{:.3f},{:.3f},{:.3f},{:.3f},{:.6f},{:.6f},{},{},{},{},{},{}",
        x["load"].dump(), x["offered_fraction"].get<double>(), x["accepted_fraction"].get<double>(),
        x["accepted_bytes_per_ns"].get<double>(), lat["mean"].get<double>(),
        lat["p50"].get<double>(), lat["p99"].get<double>(), lat["max"].get<double>(),
        u["mean"].get<double>(), u["max"].get<double>(), pk["generated"].dump(),
        pk["delivered"].dump(), pk["dropped"].dump(), pk["in_flight"].dump(),
        x["deadlock"].is_null() ? 0 : 1, x["verdict"].get<std::string>());
    if (c.cc) {
        if (x.contains("congestion_control")) {
            const auto& k = x["congestion_control"];
            row += fmt::format(",{},{},{},{},{}", k["fecn_marked"].dump(), k["becn_sent"].dump(),
                               k["becn_received"].dump(), k["becn_dropped"].dump(),
                               k["peak_ccti"].dump());
        } else {
            row += std::string(commas(kCc) + 1, ',');
        }
    }
    if (c.drb) {
        if (x.contains("drb")) {
            const auto& d = x["drb"];
            row += fmt::format(",{},{},{},{}", d["paths_opened"].dump(), d["constrictions"].dump(),
                               d["peak_open_paths"].dump(), d["peak_flows"].dump());
        } else {
            row += std::string(commas(kDrb) + 1, ',');
        }
    }
    row += fmt::format(",{:.6f},{:.3f},{:.3f},{:.3f},{}", x["accepted_fraction_ci95"].get<double>(),
                       lat["mean_ci95"].get<double>(), lat["network_mean"].get<double>(),
                       lat["network_mean_ci95"].get<double>(), pk["measured_unfinished"].dump());
    if (c.flows) {
        if (x.contains("flow_summary")) {
            const auto& f = x["flow_summary"];
            // An index that cannot be judged (no flow got anything) is an empty cell.
            const auto index = [](const nlohmann::json& v) {
                return v.is_number() ? fmt::format("{:.6f}", v.get<double>()) : std::string();
            };
            row += fmt::format(
                ",{},{},{:.6f},{:.6f},{},{},{:.6f},{:.6f},{},{}", f["hot_destinations"].dump(),
                f["hot_flows"].dump(), f["hot_offered"].get<double>(),
                f["hot_accepted"].get<double>(), index(f["hot_jain"]), f["victim_flows"].dump(),
                f["victim_offered"].get<double>(), f["victim_accepted"].get<double>(),
                index(f["victim_jain"]), f["victim_becns"].dump());
        } else {
            row += std::string(commas(kFlows) + 1, ',');
        }
    }
    if (c.stop)
        row += x.contains("converged") ? fmt::format(",{},{}", x["converged"].get<bool>() ? 1 : 0,
                                                     x["measure_us"].dump())
                                       : std::string(",,");
    return row;
}

std::string run_csv_empty(const RunCsvColumns& c) {
    const std::string h = run_csv_header(c);
    return std::string(std::size_t(std::count(h.begin(), h.end(), ',')), ',');
}

} // namespace ibrt::sim
