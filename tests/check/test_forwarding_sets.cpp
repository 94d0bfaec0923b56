// The forwarding-sets check (check/forwarding_sets.hpp): adaptive tables are judged under every
// choice a selection function could make — the fat tree's adaptive up phase and Distance Based
// routing pass with their hop bounds; a ring of clockwise-only candidates has a credit loop; a
// set that never delivers circles (livelock); an empty set strands packets.
#include "check/forwarding_sets.hpp"
#include "check/report.hpp"
#include "engines/engine.hpp"
#include "fabric/routing_function.hpp"
#include "generators/fat_tree.hpp"
#include "generators/hyperx.hpp"
#include "generators/torus.hpp"
#include "tests/generators/damaged.hpp"
#include "tests/sim/sim_fixtures.hpp"

#include <catch2/catch.hpp>

#include <memory>

using namespace ibrt;
using namespace ibrt::check;

TEST_CASE("the fat tree's adaptive up phase: every choice delivers within 2(n-1) hops") {
    const Fabric f = gen::kary_ntree(4, 3);
    EngineOptions opt;
    opt.params["adaptive_up"] = "true";
    const Routing r = make_engine("slid")->route(f, nullptr, opt);
    const ForwardingSetsReport x = check_forwarding_sets(f, r);
    CHECK(x.destinations == 64);
    CHECK(x.states > 0);
    CHECK(x.stuck == 0);
    CHECK(x.misrouted == 0);
    CHECK(x.livelocks == 0);
    CHECK(x.max_hops == 4);
    CHECK(x.deadlock.loops.empty());
    CHECK(forwarding_sets_ok(x));
    // The report's verdict line.
    const CheckReport rep = run_checks(f, r);
    CHECK(rep.forwarding_sets_checked);
    CHECK(!has_violations(rep));
}

TEST_CASE("Distance Based +E with deflection: no credit loop, no path beyond D + E hops") {
    gen::TorusParams tp;
    tp.k = {5, 4};
    const Fabric f = gen::torus(tp);
    for (int e : {0, 2, 3}) {
        EngineOptions opt;
        opt.params["distance_based"] = std::to_string(e);
        opt.params["deflection"] = "true";
        const Routing r = make_engine("torus")->route(f, nullptr, opt);
        const ForwardingSetsReport x = check_forwarding_sets(f, r);
        INFO("E " << e);
        CHECK(forwarding_sets_ok(x));
        CHECK(x.max_hops == unsigned(2 + 2 + e)); // diameter 4 (2 + 2) plus the extra hops
        CHECK(x.vls == unsigned(4 + e + 1));
    }
}

TEST_CASE("clockwise-only candidates on a ring: a credit loop, never delivering: a livelock") {
    auto x = test::ring4();
    auto rf = std::make_shared<RoutingFunction>(static_routing_function(x.f, x.r));
    x.r.forwarding_sets = rf;
    const ForwardingSetsReport loop = check_forwarding_sets(x.f, x.r);
    CHECK(loop.livelocks == 0);
    CHECK(loop.stuck == 0);
    REQUIRE(loop.deadlock.loops.size() == 1);
    CHECK(loop.deadlock.loops[0].cycle.size() == 4);
    CHECK(!forwarding_sets_ok(loop));

    // hA's LID goes clockwise even at A: its packets circle and are never delivered.
    auto circling = std::make_shared<RoutingFunction>(x.f, x.r.lids.max_lid(), 1, false);
    const Candidate cw{2, 0}, own{1, 0};
    for (NodeId s = 4; s < 8; ++s)
        for (Lid d = 1; d <= 4; ++d)
            circling->set_entry(s, 0, 0, d,
                                circling->intern({d == s - 3 && d != 1 ? &own : &cw, 1}));
    circling->compact();
    x.r.forwarding_sets = circling;
    const ForwardingSetsReport live = check_forwarding_sets(x.f, x.r);
    CHECK(live.livelocks == 1);
    CHECK(!forwarding_sets_ok(live));

    // No candidate for hB's LID at C: packets for it are stranded there.
    auto holes = std::make_shared<RoutingFunction>(x.f, x.r.lids.max_lid(), 1, false);
    for (NodeId s = 4; s < 8; ++s)
        for (Lid d = 1; d <= 4; ++d)
            if (!(s == 6 && d == 2))
                holes->set_entry(s, 0, 0, d, holes->intern({d == s - 3 ? &own : &cw, 1}));
    holes->compact();
    x.r.forwarding_sets = holes;
    const ForwardingSetsReport stuck = check_forwarding_sets(x.f, x.r);
    CHECK(stuck.stuck == 1);
    CHECK(!stuck.examples.empty());
    CHECK(!forwarding_sets_ok(stuck));
}

TEST_CASE("adaptive_links: every parallel cable to the LFT's next switch, the static path kept") {
    gen::TorusParams tp;
    tp.k = {4, 4};
    tp.width = {2, 2};
    const Fabric f = gen::torus(tp);
    EngineOptions opt;
    opt.params["adaptive_links"] = "true";
    const Routing r = make_engine("torus")->route(f, nullptr, opt);
    const RoutingFunction& rf = *r.forwarding_sets;
    std::size_t pairs = 0;
    for (NodeId sw : f.switches())
        for (Lid d = 1; d <= r.lids.max_lid(); ++d) {
            const PortNum p = r.out_port(sw, d);
            if (p == kNoPath || p == 0 || !f.node(f.port(sw, p).peer_node).is_switch()) continue;
            const auto s = rf.set(rf.lookup(sw, 0, 1, d));
            REQUIRE(s.size() == 2); // width 2: both cables to that neighbour
            CHECK(s[0].port == p);
            CHECK(f.port(sw, s[1].port).peer_node == f.port(sw, p).peer_node);
            ++pairs;
        }
    CHECK(pairs > 0);
    // Static SL2VL and the static switch-level paths: the check finds what the LFT check finds.
    const ForwardingSetsReport x = check_forwarding_sets(f, r);
    CHECK(forwarding_sets_ok(x));
    EngineOptions both = opt;
    both.params["distance_based"] = "1";
    CHECK_THROWS_WITH(make_engine("torus")->route(f, nullptr, both),
                      Catch::Contains("distance_based and adaptive_links are two routings"));
}

TEST_CASE("FlatFly ADOR, Mixed and Twisted (A)DOR: every choice delivers, no credit loop") {
    gen::HyperXParams hp;
    hp.k = {4, 3, 3};
    hp.cas_per_switch = 2;
    const Fabric f = gen::hyperx(hp);
    const struct {
        const char* name;
        unsigned vls, max_hops;
    } cases[] = {{"ador", 2, 6},
                 {"mixed-dor", 4, 3},
                 {"mixed-ador", 8, 6},
                 {"twisted-dor", 2, 4},
                 {"twisted-ador", 2, 6},
                 {"twisted-mixed-dor", 8, 4},
                 {"twisted-mixed-ador", 8, 6}};
    for (const auto& c : cases) {
        EngineOptions opt;
        opt.params["adaptive"] = c.name;
        const Routing r = make_engine("flatfly")->route(f, nullptr, opt);
        const ForwardingSetsReport x = check_forwarding_sets(f, r);
        INFO(c.name);
        CHECK(forwarding_sets_ok(x));
        CHECK(x.max_hops == c.max_hops); // ADOR: one extra hop per dimension; twisted: one
        CHECK(x.vls <= c.vls);
    }
    // Mixed: the source's SL is the destination host's index within its switch mod 4.
    EngineOptions opt;
    opt.params["adaptive"] = "mixed-dor";
    const Routing r = make_engine("flatfly")->route(f, nullptr, opt);
    const NodeId sw = f.switches()[0];
    std::uint32_t host = 0;
    for (PortNum p = 1; p <= f.node(sw).num_ports; ++p) {
        const Port& port = f.port(sw, p);
        if (!port.connected() || f.node(port.peer_node).is_switch()) continue;
        const Lid d = r.lids.base(f.port_id(port.peer_node, port.peer_port));
        CHECK(r.forwarding_sets->source_sls.sl(f.port_id(f.switches()[1], 0), d) == host++ % 4);
    }
    // A damaged FlatFly: ADOR gets round the missing cable (its extra hop), and the check
    // passes it; the Twisted Mixed routings decline, with the way out named.
    EngineOptions o2;
    o2.params["adaptive"] = "ador";
    const auto d = test::damaged(f, 1, 0, 3);
    CHECK(check::forwarding_sets_ok(check::check_forwarding_sets(
        d.fabric, make_engine("flatfly")->route(d.fabric, nullptr, o2))));
    o2.params["adaptive"] = "twisted-mixed-ador";
    CHECK_THROWS_WITH(make_engine("flatfly")->route(d.fabric, nullptr, o2),
                      Catch::Contains("use distance_based for damaged fabrics"));
}

TEST_CASE("hypercube turn-model routings: deadlock-free on one VL, as the check shows") {
    const Fabric f = gen::hypercube(5, 1, 2);
    for (const char* a : {"negative-first", "abo-negative-first", "abo-positive-last"}) {
        EngineOptions opt;
        opt.params["adaptive"] = a;
        const Routing r = make_engine("flatfly")->route(f, nullptr, opt);
        const ForwardingSetsReport x = check_forwarding_sets(f, r);
        INFO(a);
        CHECK(forwarding_sets_ok(x));
        CHECK(x.vls == 1);
        CHECK(x.max_hops == 5); // minimal: at most one hop per dimension
    }
    // Not a hypercube: declined.
    gen::HyperXParams hp;
    hp.k = {3, 3};
    EngineOptions opt;
    opt.params["adaptive"] = "negative-first";
    CHECK_THROWS_WITH(make_engine("flatfly")->route(gen::hyperx(hp), nullptr, opt),
                      Catch::Contains("for hypercubes"));
}
