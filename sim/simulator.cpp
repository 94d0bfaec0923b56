// The simulator's entry point (sim/simulator.hpp): simulate() builds the network
// (sim/network.hpp: the model, its parts in network.cpp, vc_router.cpp, extended_switch.cpp,
// congestion_control.cpp, deadlock_detection.cpp) and runs it; the names of verdicts and
// policies, and the deadlock watchdog's shortest period.
#include "sim/simulator.hpp"

#include "sim/network.hpp"

namespace ibrt::sim {

using detail::credit_delay_of;
using detail::link_ps_per_byte;

std::string_view to_string(Verdict v) {
    switch (v) {
    case Verdict::Ok:
        return "ok";
    case Verdict::Deadlock:
        return "deadlock";
    case Verdict::DeliveredNothing:
        return "delivered-nothing";
    case Verdict::Stuck:
        return "stuck";
    case Verdict::NothingOffered:
        return "nothing-offered";
    }
    return "?";
}

std::string_view to_string(DlidPolicy p) {
    switch (p) {
    case DlidPolicy::Auto:
        return "auto";
    case DlidPolicy::Table:
        return "table";
    case DlidPolicy::Base:
        return "base";
    case DlidPolicy::Random:
        return "random";
    }
    return "?";
}

std::uint8_t max_ca_lmc(const Fabric& f, const Routing& r) {
    std::uint8_t lmc = 0;
    for (NodeId n : f.cas())
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p)
            if (const PortId id = f.port_id(n, p); r.lids.has_lid(id))
                lmc = std::max(lmc, r.lids.lmc(id));
    return lmc;
}

DlidPolicy resolve_dlid_policy(DlidPolicy p, const Fabric& f, const Routing& r) {
    if (p != DlidPolicy::Auto) return p;
    if (!r.dlid_choice.empty()) return DlidPolicy::Table;
    return max_ca_lmc(f, r) > 0 ? DlidPolicy::Random : DlidPolicy::Base;
}

VlArbConfig effective_vlarb(const SimConfig& cfg) {
    VlArbConfig a = cfg.vlarb;
    if (a.high.empty() && a.low.empty())
        for (std::uint32_t v = 0; v < cfg.num_vls; ++v) a.low.push_back({std::uint8_t(v), 1});
    return a;
}

bool failed(const SimResult& r) {
    return (r.verdict != Verdict::Ok && r.verdict != Verdict::NothingOffered) || r.dropped > 0 ||
           r.misdelivered > 0;
}

Time min_deadlock_period_ps(const Fabric& f, const SimConfig& cfg) {
    Time slow = 1;
    for (NodeId n = 0; n < f.num_nodes(); ++n)
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p)
            if (const Port& port = f.port(n, p); port.connected())
                slow = std::max<Time>(slow, link_ps_per_byte(port, cfg));
    const Time ser = Time(cfg.packet_bytes) * slow * (cfg.output_buffer_bytes > 0 ? 2 : 1);
    return 2 * (ser + cfg.fly_ps + cfg.routing_ps + credit_delay_of(cfg));
}

namespace {

// One run of `c`'s switch model (sim/switch_models.hpp): chosen here, once.
SimResult run_model(const Fabric& f, const Routing& r, const SimConfig& c, const FlatLft& flat,
                    const ProgressFn& progress) {
    using namespace detail;
    switch (switch_model_of(c)) {
    case SwitchModel::Ib:
        return Network<IbSwitch>(f, r, c, flat).run(progress);
    case SwitchModel::IbOutputBuffered:
        return Network<IbOutputBufferedSwitch>(f, r, c, flat).run(progress);
    case SwitchModel::VcRouter:
        return Network<VcRouter>(f, r, c, flat).run(progress);
    case SwitchModel::Paper004:
        return Network<Paper004Switch>(f, r, c, flat).run(progress);
    }
    throw std::logic_error("unknown switch model");
}

} // namespace

bool within_ci_target(const SimResult& r, double target) {
    const auto tight = [&](double half, double mean) { return half >= 0 && half <= target * mean; };
    return tight(r.accepted_fraction_ci95, r.accepted_fraction) &&
           tight(r.latency_mean_ci95_ns, r.latency_mean_ns);
}

SimResult simulate(const Fabric& f, const Routing& r, const SimConfig& cfg,
                   const ProgressFn& progress) {
    const FlatLft flat(f, r);
    SimConfig c = cfg;
    const Time max_window = cfg.max_measure_ps ? cfg.max_measure_ps : 32 * cfg.measure_ps;
    for (;;) {
        SimResult res = run_model(f, r, c, flat, progress);
        res.measure_ps = c.measure_ps;
        if (cfg.ci_target <= 0) return res;
        res.converged = within_ci_target(res, cfg.ci_target);
        // A verdict other than ok is the answer whatever the window; so is a window that cannot
        // double (trace replay has no window to speak of).
        if (*res.converged || res.verdict != Verdict::Ok || !cfg.trace.empty() ||
            c.measure_ps > max_window / 2)
            return res;
        c.measure_ps *= 2;
    }
}

} // namespace ibrt::sim
