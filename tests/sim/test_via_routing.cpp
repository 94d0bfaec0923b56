// Valiant and UGAL-L through an intermediate chosen at the source switch (sim/via_routing.hpp;
// BookSim's ugal_dragonflynew): the source switch's decision as BookSim makes it, every packet
// delivered on 4 VLs in both switch models, BookSim's 3-VL scheme's deadlock where its phase 0
// shares one VL, Valiant's longer paths, and the configurations refused.
#include "engines/engine.hpp"
#include "generators/fat_tree.hpp"
#include "sim/simulator.hpp"
#include "sim/via_routing.hpp"
#include "sim_fixtures.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace ibrt;
using namespace ibrt::sim;

namespace {

// BookSim's dragonflynew k = 2 routed minimally (the Static routing's LFTs), with each CA's
// switch and LID as the network gives them to ViaRouting.
struct SmallDragonfly {
    Fabric f = test::booksim_dragonfly();
    Routing r = make_engine("dragonfly")->route(f, nullptr, {});
    std::vector<NodeId> ca_switch;
    std::vector<Lid> ca_lid;
    SmallDragonfly() {
        for (const NodeId ca : f.cas()) {
            ca_switch.push_back(f.port(ca, 1).peer_node);
            ca_lid.push_back(r.lids.base(f.port_id(ca, 1)));
        }
    }
};

SimConfig booksim_timing() { // longer drain: every packet delivered at overload
    SimConfig c = test::booksim_dragonfly_timing();
    c.measure_ps = 8000 * kPsPerNs;
    c.drain_ps = 20000 * kPsPerNs;
    return c;
}

} // namespace

TEST_CASE("via: the source switch's decision (BookSim's ugal_dragonflynew)") {
    const SmallDragonfly d;
    const auto group = [&](NodeId sw) { // 4 switches a group, in generation order
        for (std::size_t i = 0; i < d.f.switches().size(); ++i)
            if (d.f.switches()[i] == sw) return i / 4;
        return std::size_t(99);
    };
    const NodeId src_sw = d.ca_switch[0];   // group 0
    const std::uint32_t far = 40, home = 5; // hosts of group 5 and of group 0
    REQUIRE(group(d.ca_switch[far]) == 5);
    REQUIRE(group(d.ca_switch[home]) == 0);
    const int draws = 4000;
    for (const Via mode : {Via::Valiant, Via::Ugal})
        for (const bool min_long : {false, true}) {
            INFO(to_string(mode) << (min_long ? ", minimal queue long" : ", queues empty"));
            ViaRouting via(d.f, d.r, mode, 4, 7, d.ca_switch, d.ca_lid);
            const PortNum min_port = d.r.out_port(src_sw, d.ca_lid[far]);
            const auto used = [&](PortNum o) { return min_long && o == min_port ? 1000 : 0; };
            int through = 0;
            for (int k = 0; k < draws; ++k) {
                Lid dlid = d.ca_lid[far];
                const ViaPacket s = via.start(src_sw, far, dlid, used);
                CHECK(s.dlid == d.ca_lid[far]);
                CHECK_FALSE(s.crossed);
                if (s.phase == 1) {
                    CHECK(dlid == d.ca_lid[far]); // minimal: the destination's own DLID
                    continue;
                }
                ++through;
                REQUIRE(s.phase == 0);
                CHECK(group(s.via) != 0); // never an intermediate at home
                CHECK(d.r.out_port(s.via, dlid) != kNoPath);
                bool host_of_via = false; // the DLID is a host of the intermediate switch
                for (std::size_t i = 0; i < d.ca_lid.size(); ++i)
                    host_of_via |= d.ca_lid[i] == dlid && d.ca_switch[i] == s.via;
                CHECK(host_of_via);
                if (mode == Via::Ugal) CHECK(d.r.out_port(src_sw, dlid) != min_port);
            }
            // Valiant: whenever the draw is outside the source's group (64 of 72 hosts). UGAL-L
            // only when 1 * 1000 > 2 * 0 + 30, i.e. when the intermediate's first hop is not
            // the minimal one (whose queue is long either way).
            int expected = 0;
            for (std::uint32_t i = 0; i < d.ca_lid.size(); ++i)
                expected += group(d.ca_switch[i]) != 0 &&
                            (mode == Via::Valiant ||
                             (min_long && d.r.out_port(src_sw, d.ca_lid[i]) != min_port));
            CHECK(double(through) / draws ==
                  Approx(double(expected) / double(d.ca_lid.size())).margin(0.03));
            // Within the group: minimal, past its dateline (BookSim's phase 2), no draw made.
            Lid dlid = d.ca_lid[home];
            const ViaPacket s = via.start(src_sw, home, dlid, used);
            CHECK(s.phase == 1);
            CHECK(s.crossed);
            CHECK(dlid == d.ca_lid[home]);
            // BookSim's VCs on 3 VLs: phase 0 on 0, phase 1 on 1 then 2; on 4 each phase its two.
            const ViaRouting three(d.f, d.r, mode, 3, 7, d.ca_switch, d.ca_lid);
            CHECK(three.vl({.phase = 0, .crossed = true}) == 0);
            CHECK(three.vl({.phase = 1, .crossed = false}) == 1);
            CHECK(three.vl({.phase = 1, .crossed = true}) == 2);
            CHECK(via.vl({.phase = 0, .crossed = true}) == 1);
            CHECK(via.vl({.phase = 1, .crossed = true}) == 3);
        }
}

TEST_CASE("via on 4 VLs: every packet delivered at overload, in the IB switch and the VC "
          "router, and Valiant's paths are the longer") {
    const SmallDragonfly d;
    for (const bool vc_router : {false, true})
        for (const Pattern pat : {Pattern::Uniform, Pattern::BadDragon}) {
            const auto run = [&](Via via, double load) {
                SimConfig c = booksim_timing();
                c.vc_router = vc_router;
                c.num_vls = 4;
                c.via = via;
                c.traffic.pattern = pat;
                c.traffic.group_hosts = 8;
                c.traffic.load = load;
                return simulate(d.f, d.r, c);
            };
            for (const Via via : {Via::Valiant, Via::Ugal}) {
                INFO((vc_router ? "VC router, " : "IB switch, ")
                     << to_string(pat) << ", " << to_string(via));
                const SimResult x = run(via, 0.9);
                CHECK(x.verdict == Verdict::Ok);
                CHECK(x.dropped == 0);
                CHECK(x.misdelivered == 0);
                CHECK(x.accepted_fraction > 0.1);
            }
            INFO((vc_router ? "VC router, " : "IB switch, ") << to_string(pat));
            // At low load UGAL-L stays minimal (no queue is 30 credits long), Valiant leaves
            // every packet bound for another group through an intermediate: more hops each.
            const SimResult none = run(Via::None, 0.05), ugal = run(Via::Ugal, 0.05),
                            val = run(Via::Valiant, 0.05);
            const auto hops = [](const SimResult& x) { return double(x.hops) / x.delivered; };
            CHECK(hops(ugal) == Approx(hops(none)).epsilon(0.001));
            CHECK(hops(val) > hops(none) + 1.0);
        }
}

TEST_CASE("via on 3 VLs is BookSim's scheme: Valiant's phase 0 on one VL deadlocks") {
    // The paths toward the intermediate take local, global and local hops on VL 0, which chain
    // across groups into a cycle; the watchdog names it, every channel on VL 0.
    const SmallDragonfly d;
    SimConfig c = booksim_timing();
    c.vc_router = true;
    c.num_vls = 3;
    c.via = Via::Valiant;
    c.traffic.load = 0.5;
    const SimResult x = simulate(d.f, d.r, c);
    REQUIRE(x.verdict == Verdict::Deadlock);
    REQUIRE(!x.deadlock_cycle.empty());
    for (const std::string& ch : x.deadlock_cycle) CHECK(ch.ends_with("VL 0"));
    // The same load on 4 VLs (a dateline per phase) runs.
    c.num_vls = 4;
    CHECK(simulate(d.f, d.r, c).verdict == Verdict::Ok);
}

TEST_CASE("via: what it refuses") {
    const SmallDragonfly d;
    SimConfig c;
    c.via = Via::Ugal;
    c.num_vls = 2;
    CHECK_THROWS_WITH(simulate(d.f, d.r, c), Catch::Contains("needs 3 VLs"));
    c.num_vls = 4;
    const Fabric tree = gen::fat_tree(4, 2);
    CHECK_THROWS_WITH(simulate(tree, make_engine("mlid")->route(tree, nullptr, {}), c),
                      Catch::Contains("does not map as a Dragonfly"));
    EngineOptions opt;
    opt.params["adaptive"] = "g";
    CHECK_THROWS_WITH(simulate(d.f, make_engine("dragonfly")->route(d.f, nullptr, opt), c),
                      Catch::Contains("forwarding sets"));
    CHECK(parse_via("ugal") == Via::Ugal);
    CHECK(parse_via("valiant") == Via::Valiant);
    CHECK(parse_via("none") == Via::None);
    CHECK_FALSE(parse_via("ugal-g"));
}
