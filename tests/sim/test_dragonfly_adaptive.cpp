// Paper 003 §3.5's Dragonfly routings (engines/dragonfly/adaptive_routings.hpp) in the
// simulator: at overload every routing delivers with no deadlock, drop or misdelivery on its 6
// VLs, Static and S keep their switch links to VLs 0-2, and the routings with D or G take their
// extra hops (VL 3: a second local hop after a global one, or a global hop out of an
// intermediate group); and G under the ugal selection in BookSim's VC router stays minimal at
// low load and goes through intermediate groups on bad-dragon traffic.
#include "engines/engine.hpp"
#include "sim/simulator.hpp"
#include "sim_fixtures.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace ibrt;
using namespace ibrt::sim;

TEST_CASE("Dragonfly G/S/I/D routings at overload: delivered, no deadlock") {
    const Fabric f = test::booksim_dragonfly(); // --balanced 2: a = 4, h = p = 2, 9 groups
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

TEST_CASE("ugal on the G routing in BookSim's router: minimal at low load, non-minimal on "
          "bad-dragon") {
    // docs/results/booksim-dragonfly.md's configuration, shorter: BookSim's dragonflynew k = 2,
    // one-flit packets, 256-packet buffers per VC, the VC router with BookSim's allocation.
    const Fabric f = test::booksim_dragonfly();
    EngineOptions opt;
    opt.params["adaptive"] = "g";
    const Routing r = make_engine("dragonfly")->route(f, nullptr, opt);
    SimConfig c = test::booksim_dragonfly_timing();
    c.num_vls = 6;
    c.selection = Selection::Ugal;
    // Uniform at 0.1: no minimal output ever holds 30 credits more than twice a non-minimal
    // one, so no packet takes a non-minimal global hop (the one hop on VL 3 with G).
    c.traffic.load = 0.1;
    SimResult x = simulate(f, r, c);
    CHECK(x.verdict == Verdict::Ok);
    CHECK(x.measured_unfinished == 0);
    CHECK(x.vl_util_mean[3] == 0);
    // bad-dragon at 0.3: every group's minimal traffic shares one global cable, which passes
    // one packet per two cycles on its one VC (8 hosts: 1/16 each); UGAL sends the rest
    // through intermediate groups (VL 3 carries their second global hop).
    c.traffic.pattern = Pattern::BadDragon;
    c.traffic.group_hosts = 8;
    c.traffic.load = 0.3;
    x = simulate(f, r, c);
    CHECK(x.verdict == Verdict::Ok);
    CHECK_FALSE(x.deadlock);
    CHECK(x.dropped == 0);
    CHECK(x.misdelivered == 0);
    CHECK(x.vl_util_mean[3] > 0);
    CHECK(x.accepted_fraction > 0.2);
}
