// Test support for the direct-topology engines (flatfly, dragonfly, torus): route with
// parameters, judge the result with the checker library (every pair reached, no credit loop;
// for forwarding sets, every choice delivered),
// take a VL away, damage a fabric by name, and read a decline's reason.
#pragma once

#include "check/credit_loops.hpp"
#include "check/forwarding_sets.hpp"
#include "check/reachability.hpp"
#include "check/report.hpp"
#include "engines/engine.hpp"
#include "generators/failures.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace ibrt::test {

inline Routing route_with(const char* engine, const Fabric& f,
                          const std::vector<std::string>& params = {}) {
    const auto e = make_engine(engine);
    EngineOptions opt;
    for (const auto& p : params) e->set_param(opt, p);
    return e->route(f, nullptr, opt);
}

// Every (CA port, LID) pair reached and no credit loop; returns whether every path is minimal.
inline bool clean(const Fabric& f, const Routing& r) {
    const check::ForwardingReport fw = check::check_forwarding(f, r);
    CHECK(fw.reach.pairs > 0);
    CHECK(fw.reach.failures() == 0);
    CHECK(check::check_credit_loops(f, r).loops.empty());
    return fw.minimal.non_minimal == 0;
}

// A stat the engine reported; `missing` when it reported none of that name.
inline double stat_of(const Routing& r, const std::string& name, double missing = -1) {
    for (const auto& [k, v] : r.stats)
        if (k == name) return v;
    return missing;
}

// Every (CA port, LID) pair reached, switch LIDs included, and no credit loop under the
// engine's own SL2VL and path SLs, within the data VLs it asks for.
inline void clean_within_data_vls(const Fabric& f, const Routing& r) {
    const check::ForwardingReport fw = check::check_forwarding(f, r);
    CHECK(fw.reach.pairs > 0);
    CHECK(fw.reach.failures() == 0);
    const check::DeadlockReport dl = check::check_credit_loops(f, r);
    CHECK(dl.loops.empty());
    CHECK(dl.vl15_drops == 0);
    CHECK(dl.vls <= r.data_vls);
}

// The escape layer's promises (engines/common/escape_layer.hpp): its DLIDs on the escape SL
// from every CA, that SL on the escape VL at every switch port pair.
inline void escape_layer_sound(const Fabric& f, const Routing& r) {
    const auto esl = static_cast<std::uint8_t>(stat_of(r, "escape_sl"));
    const auto evl = static_cast<std::uint8_t>(stat_of(r, "escape_vl"));
    std::size_t on_escape = 0, split = 0, off_vl = 0;
    for (Lid l = 1; l <= r.lids.max_lid(); ++l) {
        if (r.lids.owner(l) == kNoPort) continue;
        std::size_t sources = 0, on_esl = 0;
        for (NodeId c : f.cas()) {
            if (!f.port(c, 1).connected()) continue;
            ++sources;
            on_esl += r.path_sl(f.port_id(c, 1), l) == esl;
        }
        on_escape += on_esl > 0;
        split += on_esl > 0 && on_esl != sources; // every source or none
    }
    CHECK(double(on_escape) == stat_of(r, "escape_dlids"));
    CHECK(split == 0);
    for (NodeId s : f.switches()) {
        const PortNum np = f.node(s).num_ports;
        for (PortNum in = 0; in <= np; ++in)
            for (PortNum out = 1; out <= np; ++out)
                off_vl += r.sl2vl.vl(s, np, in, out, esl, 8) != evl;
    }
    CHECK(off_vl == 0);
}

// The forwarding-sets check of an adaptive routing, with what it found printed on failure:
// under every choice a selection function may make, every destination is reached, nothing is
// stuck, misrouted or livelocked, and the extended channel dependency graph has no credit loop.
// The caller checks the hop budget and the VLs, which differ per routing.
inline check::ForwardingSetsReport sets_sound(const Fabric& f, const Routing& r) {
    REQUIRE(r.forwarding_sets);
    const check::ForwardingSetsReport x = check::check_forwarding_sets(f, r);
    std::string problems;
    for (const auto& e : x.examples) problems += e + "\n";
    INFO(problems);
    CHECK(check::forwarding_sets_ok(x));
    CHECK(x.destinations == f.cas().size());
    CHECK(x.stuck == 0);
    CHECK(x.misrouted == 0);
    CHECK(x.livelocks == 0);
    CHECK(x.deadlock.loops.empty());
    return x;
}

// The same routing with VL `from` folded into VL `to` in every SL2VL table.
inline Routing fold_vl(Routing r, std::uint8_t from, std::uint8_t to) {
    for (auto& tables : r.sl2vl.tables)
        for (auto& t : tables)
            for (auto& vl : t)
                if (vl == from) vl = to;
    return r;
}

inline Fabric without(const Fabric& f, std::vector<std::string> links,
                      std::vector<std::string> switches) {
    gen::FailureSpec spec;
    spec.link_names = std::move(links);
    spec.switch_names = std::move(switches);
    gen::FailureReport rep;
    return gen::inject_failures(f, spec, rep);
}

// The message of a decline, or "" when the engine accepts the fabric.
inline std::string refusal(const char* engine, const Fabric& f) {
    try {
        route_with(engine, f);
    } catch (const RoutingError& e) {
        return e.what();
    }
    return "";
}

} // namespace ibrt::test
