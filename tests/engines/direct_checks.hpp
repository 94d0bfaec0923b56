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
#include "fabric/generators/failures.hpp"

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
