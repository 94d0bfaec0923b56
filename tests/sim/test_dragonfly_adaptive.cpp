// Paper 003 §3.5's Dragonfly routings (engines/dragonfly/adaptive_routings.hpp) in the
// simulator: at overload every routing delivers with no deadlock, drop or misdelivery on its 6
// VLs, Static and S keep their switch links to VLs 0-2, and the routings with D or G take their
// extra hops (VL 3: a second local hop after a global one, or a global hop out of an
// intermediate group).
#include "engines/engine.hpp"
#include "generators/dragonfly.hpp"
#include "sim/simulator.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace ibrt;
using namespace ibrt::sim;

TEST_CASE("Dragonfly G/S/I/D routings at overload: delivered, no deadlock") {
    gen::DragonflyParams d; // --balanced 2: a = 4, h = p = 2, 9 groups
    d.a = 4;
    d.h = 2;
    d.p = 2;
    const Fabric f = gen::dragonfly(d);
    SimConfig c;
    c.num_vls = 6;
    c.selection = Selection::LeastLoaded;
    c.traffic.load = 1.0;
    c.warmup_ps = 3000 * kPsPerNs;
    c.measure_ps = 10000 * kPsPerNs;
    c.drain_ps = 20000 * kPsPerNs;
    for (const char* name :
         {"static", "s", "d", "sd", "g", "gs", "gi", "gd", "gsi", "gid", "gsd", "gsid"}) {
        INFO(name);
        EngineOptions opt;
        opt.params["adaptive"] = name;
        const SimResult r = simulate(f, make_engine("dragonfly")->route(f, nullptr, opt), c);
        CHECK(r.verdict == Verdict::Ok);
        CHECK_FALSE(r.deadlock);
        CHECK(r.delivered > 0);
        CHECK(r.accepted_fraction > 0.1);
        CHECK(r.dropped == 0);
        CHECK(r.misdelivered == 0);
        // Hosts send on VL 4; switch links carry VL 3 only for a second local hop after a
        // global one (D, I) or a global hop out of an intermediate group (G), and VL 5 only
        // for a second local hop in a destination group entered from an intermediate one.
        const std::string s = name;
        if (s == "static" || s == "s") {
            CHECK(r.vl_util_mean[3] == 0);
            CHECK(r.vl_util_mean[5] == 0);
        } else if (s == "d" || s == "sd") {
            CHECK(r.vl_util_mean[3] > 0);
            CHECK(r.vl_util_mean[5] == 0);
        } else {
            CHECK(r.vl_util_mean[3] > 0);
        }
    }
}
