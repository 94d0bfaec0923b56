// The JSON rendering of a check report, schema "ibrt-check/1" (documented in docs/check.md).
// Keys are only ever added within a schema version; ports are IB port numbers and GUIDs are
// "0x%016x" strings so that the output can be joined with ibnetdiscover/opensm dumps.
#include "check/report.hpp"
#include "fabric/display_name.hpp"

#include <bit>

namespace ibrt::check {

namespace {

using json = nlohmann::ordered_json;

json node_ref(const Fabric& f, NodeId n) {
    return {{"node", display_name(f, n)}, {"guid", guid_hex(f.node(n).guid)}};
}

json link_json(const Fabric& f, PortId port) {
    json j = node_ref(f, f.port_node(port));
    j["port"] = f.port_num(port);
    const Port& p = f.port(port);
    if (p.connected()) {
        j["peer_node"] = display_name(f, p.peer_node);
        j["peer_guid"] = guid_hex(f.node(p.peer_node).guid);
        j["peer_port"] = p.peer_port;
    }
    return j;
}

json example_json(const Fabric& f, const PathExample& e, bool with_hops) {
    json j;
    j["dlid"] = e.dlid;
    j["source"] = node_ref(f, f.port_node(e.src));
    j["source"]["port"] = f.port_num(e.src);
    j["outcome"] = outcome_key(e.trace.outcome);
    json path = json::array();
    for (const Hop& h : e.trace.hops) {
        json hop = node_ref(f, h.node);
        hop["in_port"] = h.in_port;
        hop["out_port"] = h.out_port == kNoPath ? json(nullptr) : json(h.out_port);
        path.push_back(std::move(hop));
    }
    j["path"] = std::move(path);
    j["text"] = format_trace(f, e.trace);
    if (with_hops) {
        j["hops"] = e.hops;
        j["min_hops"] = e.min_hops;
    }
    return j;
}

json stats_json(const LoadStats& s) {
    return {{"links", s.links}, {"max", s.max},       {"min", s.min},
            {"mean", s.mean},   {"stddev", s.stddev}, {"spread", s.spread}};
}

} // namespace

json bad_input_json(const std::string& message) {
    json j;
    j["schema"] = "ibrt-check/1";
    j["verdict"] = "bad input";
    j["exit_code"] = 2;
    j["error"] = message;
    return j;
}

json to_json(const Fabric& f, const CheckReport& rep) {
    json j;
    j["schema"] = "ibrt-check/1";
    const bool bad = has_violations(rep), unsure = cannot_judge(rep);
    j["verdict"] = bad ? "violations" : unsure ? "cannot judge" : "clean";
    j["exit_code"] = bad ? 1 : unsure ? 3 : 0;
    j["strict"] = rep.strict;
    j["fabric"] = {{"switches", rep.switches},
                   {"cas", rep.cas},
                   {"end_ports", rep.endpoints},
                   {"lids", rep.lids}};
    const auto v = verdicts(f, rep);
    auto verdict = [&](const std::string& name) -> const CheckVerdict* {
        for (const auto& c : v)
            if (c.name == name) return &c;
        return nullptr;
    };
    auto passed = [&](const std::string& name) {
        const CheckVerdict* c = verdict(name);
        return !c || c->passed;
    };
    json checks;
    {
        const auto& re = rep.forwarding.reach;
        json r;
        r["passed"] = passed("reachability");
        r["pairs"] = re.pairs;
        r["dlids"] = re.dlids;
        r["failures"] = re.failures();
        r["dlids_with_failures"] = re.dlids_with_failures;
        json by = json::object();
        for (int k = 1; k < kNumWalkOutcomes; ++k)
            by[std::string(outcome_key(static_cast<WalkOutcome>(k)))] = re.by_outcome[k];
        r["by_outcome"] = std::move(by);
        r["examples"] = json::array();
        for (const auto& e : re.examples) r["examples"].push_back(example_json(f, e, false));
        checks["reachability"] = std::move(r);
    }
    {
        const auto& m = rep.forwarding.minimal;
        json r;
        r["passed"] = passed("minimality");
        r["pairs"] = m.pairs;
        r["non_minimal"] = m.non_minimal;
        r["max_extra_hops"] = m.max_extra_hops;
        r["examples"] = json::array();
        for (const auto& e : m.examples) r["examples"].push_back(example_json(f, e, true));
        checks["minimality"] = std::move(r);
    }
    if (!rep.path_sls_known) {
        const CheckVerdict* dv = verdict("deadlock");
        checks["deadlock"] = {{"passed", nullptr}, {"judged", false}, {"reason", dv->summary}};
    } else if (rep.deadlock_checked) {
        const auto& d = rep.deadlock;
        const CheckVerdict* dv = verdict("deadlock");
        json r;
        r["passed"] = dv->judged ? json(dv->passed) : json(nullptr);
        r["judged"] = dv->judged;
        if (!dv->judged) r["reason"] = dv->summary;
        r["assumptions"] = rep.deadlock_assumptions;
        r["unknown_sl_pairs"] = d.unknown_sl_pairs;
        r["vls"] = d.vls;
        r["vls_used"] = std::popcount(d.vls_used);
        r["channels"] = d.channels;
        r["dependencies"] = d.dependencies;
        r["vl15_drops"] = d.vl15_drops;
        r["credit_loops"] = d.loops.size();
        r["loops"] = json::array();
        for (const graph::CreditLoop& l : d.loops) {
            json cyc = json::array();
            for (const graph::Channel& c : l.cycle) {
                json ch = link_json(f, c.port);
                ch["vl"] = c.vl;
                cyc.push_back(std::move(ch));
            }
            r["loops"].push_back({{"component_channels", l.component_channels}, {"cycle", cyc}});
        }
        checks["deadlock"] = std::move(r);
    }
    if (rep.forwarding_sets_checked) {
        const ForwardingSetsReport& x = rep.forwarding_sets;
        json r;
        r["passed"] = forwarding_sets_ok(x);
        r["destinations"] = x.destinations;
        r["states"] = x.states;
        r["stuck"] = x.stuck;
        r["misrouted"] = x.misrouted;
        r["livelocks"] = x.livelocks;
        r["max_hops"] = x.max_hops;
        r["vls"] = x.deadlock.vls;
        r["channels"] = x.deadlock.channels;
        r["dependencies"] = x.deadlock.dependencies;
        r["credit_loops"] = x.deadlock.loops.size();
        r["examples"] = x.examples;
        checks["forwarding_sets"] = std::move(r);
    }
    json bal = json::array();
    for (const BalanceReport& b : rep.balance) {
        json r;
        r["pattern"] = b.pattern;
        r["flows"] = b.flows;
        r["unrouted"] = b.unrouted;
        r["selection_fallbacks"] = b.selection_fallbacks;
        r["links"] = stats_json(b.links);
        r["levels"] = json::array();
        for (const LevelLoad& l : b.levels) {
            json s = stats_json(l.stats);
            s["from_level"] = l.from_level;
            s["to_level"] = l.to_level;
            r["levels"].push_back(std::move(s));
        }
        r["hottest"] = json::array();
        for (const LinkLoad& h : b.hottest) {
            json x = link_json(f, h.port);
            x["load"] = h.load;
            r["hottest"].push_back(std::move(x));
        }
        const LidUsage& u = b.lid_usage;
        r["lid_usage"] = {{"destinations", u.destinations},
                          {"destinations_by_lids_used", u.by_lids_used},
                          {"min_sources_per_lid", u.min_sources_per_lid},
                          {"max_sources_per_lid", u.max_sources_per_lid},
                          {"mean_sources_per_lid", u.mean_sources_per_lid}};
        bal.push_back(std::move(r));
    }
    checks["balance"] = std::move(bal);
    j["checks"] = std::move(checks);
    return j;
}

} // namespace ibrt::check
