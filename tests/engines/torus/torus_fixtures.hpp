// Helpers shared by the torus engine's tests: route with it, its decline, its stats.
#pragma once

#include "../direct_checks.hpp"
#include "engines/engine.hpp"

#include <catch2/catch.hpp>

#include <string>

namespace ibrt::test {

inline Routing route_torus(const Fabric& f, EngineOptions opt = {}) {
    return make_engine("torus")->route(f, nullptr, opt);
}

// The message of the engine's decline, or "" when it routes the fabric.
inline std::string torus_refusal(const Fabric& f, EngineOptions opt = {}) {
    try {
        route_torus(f, opt);
    } catch (const RoutingError& e) {
        return e.what();
    }
    return "";
}

// A stat the engine reported; `missing` when it reported none of that name.
inline double torus_stat(const Routing& r, const std::string& name, double missing) {
    return stat_of(r, name, missing);
}

} // namespace ibrt::test
