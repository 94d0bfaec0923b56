// Paper 003 §3.5's Dragonfly routings (engines/dragonfly/adaptive_routings.hpp) in the
// simulator: at overload every routing delivers with no deadlock, drop or misdelivery on its 6
// VLs, Static keeps to VLs 0-2 (source local, global, destination local), and the routings
// with G take their extra global hop (VL 3 carries the hops out of intermediate groups).
#include "engines/engine.hpp"
#include "fabric/generators/dragonfly.hpp"
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
        const std::string s = name;
        if (s == "static") {
            CHECK(r.vl_util_mean[3] + r.vl_util_mean[4] + r.vl_util_mean[5] == 0);
        } else if (s[0] == 'g') {
            CHECK(r.vl_util_mean[3] > 0);
            CHECK(r.vl_util_mean[4] > 0);
        }
    }
}
