// The adaptive FlatFly and hypercube routings of paper 003 §3.3-§3.4 on damaged fabrics (past
// the paper; engines/flatfly/adaptive_routings.hpp, row_detours.hpp, damaged_cube.hpp): with 5 %
// and 10 % of the cables failed (the degraded study's `--fail-links F --seed S
// --keep-connected`), under every choice a selection function may make every packet reaches
// its destination within the routing's hop budget, and the extended channel dependency graph
// is acyclic on the VLs the header promises (the forwarding-sets check), and folding the VLs
// the damaged rules add closes credit loops; where a row has no detour left, the routing
// declines naming distance_based.
#include "../direct_checks.hpp"
#include "check/forwarding_sets.hpp"
#include "check/report.hpp"
#include "fabric/routing_function.hpp"
#include "generators/hyperx.hpp"
#include "mapping/link_classes.hpp"
#include "mapping/map_fabric.hpp"
#include "tests/generators/damaged.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

using namespace ibrt;

namespace {

// Every choice delivers within `max_hops`, no credit loop in the extended CDG, on `vls` VLs
// at most; returns the check's report.
check::ForwardingSetsReport sound(const Fabric& f, const Routing& r, unsigned max_hops,
                                  unsigned vls) {
    const check::ForwardingSetsReport x = test::sets_sound(f, r);
    CHECK(x.max_hops <= max_hops);
    CHECK(x.vls <= vls);
    return x;
}

// The port of switch `a` cabled to switch `b`, as test::without names cables: "a[port]".
std::string cable(const Fabric& f, const std::string& a, const std::string& b) {
    for (NodeId s : f.switches()) {
        if (f.node(s).desc != a) continue;
        for (PortNum p = 1; p <= f.node(s).num_ports; ++p) {
            const Port& q = f.port(s, p);
            if (q.connected() && f.node(q.peer_node).desc == b)
                return a + "[" + std::to_string(p) + "]";
        }
    }
    FAIL("no cable " << a << " - " << b);
    return "";
}

} // namespace

TEST_CASE("damaged FlatFly: ADOR, Mixed ADOR, Mixed DOR, Twisted DOR and Twisted ADOR deliver "
          "every pair, no credit loop",
          "[flatfly]") {
    // 4x4x4, 2 hosts per switch (Mixed uses orders 0 and 1): budgets 2N = 6 (an extra or
    // detour hop per dimension), the Twisted ones 2N + 1 (and the twist); ADOR 2 VLs, Mixed 2
    // per order, Twisted 3 (the twist's dimension detours on a third).
    const struct {
        const char* name;
        unsigned vls, max_hops;
    } routings[] = {{"ador", 2, 6},
                    {"mixed-ador", 8, 6},
                    {"mixed-dor", 8, 6},
                    {"twisted-dor", 3, 7},
                    {"twisted-ador", 3, 7}};
    const Fabric full = gen::hyperx({{4, 4, 4}, {}, 2, 0});
    std::size_t routed = 0, detoured = 0;
    for (double fail : {0.05, 0.1})
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            const test::Damaged d = test::damaged(full, fail, 0, seed);
            REQUIRE_FALSE(d.report.removed_links.empty());
            for (const auto& rt : routings) {
                INFO(rt.name << ", " << fail << " failed, seed " << seed);
                const Routing r =
                    test::route_with("flatfly", d.fabric, {std::string("adaptive=") + rt.name});
                sound(d.fabric, r, rt.max_hops, rt.vls);
                ++routed;
                // Somewhere the direct cable is missing and only priority-1 hops are left.
                const RoutingFunction& rf = *r.forwarding_sets;
                bool only_detours = false;
                for (std::uint32_t s = 0; s < rf.num_sets() && !only_detours; ++s) {
                    const auto c = rf.set(s);
                    only_detours = !c.empty() && std::all_of(c.begin(), c.end(), [](auto x) {
                        return x.priority == 1;
                    });
                }
                detoured += only_detours;
            }
        }
    CHECK(routed == 30);
    CHECK(detoured == 30);
}

TEST_CASE("damaged FlatFly: on an intact FlatFly the damaged rules change nothing", "[flatfly]") {
    // Mixed DOR keeps one VL per order (4 in all) when nothing is missing.
    const Fabric f = gen::hyperx({{4, 4, 4}, {}, 4, 0});
    const Routing r = test::route_with("flatfly", f, {"adaptive=mixed-dor"});
    const auto x = sound(f, r, 3, 4);
    CHECK(x.max_hops == 3);
}

TEST_CASE("damaged FlatFly: a row with no detour left is declined, naming distance_based",
          "[flatfly]") {
    // In the row sw-0.0.0 .. sw-3.0.0, 0 loses its cables to 1 and 2, and 3 its cable to 1:
    // 0 -> 1 has neither the direct cable nor a switch cabled to both.
    const Fabric full = gen::hyperx({{4, 4, 4}, {}, 1, 0});
    const Fabric f =
        test::without(full,
                      {cable(full, "sw-0.0.0", "sw-1.0.0"), cable(full, "sw-0.0.0", "sw-2.0.0"),
                       cable(full, "sw-3.0.0", "sw-1.0.0")},
                      {});
    for (const char* name : {"ador", "mixed-ador", "mixed-dor"}) {
        INFO(name);
        try {
            test::route_with("flatfly", f, {std::string("adaptive=") + name});
            FAIL("routed");
        } catch (const RoutingError& e) {
            CHECK_THAT(e.what(), Catch::Contains("its cable and every detour through its row are "
                                                 "missing") &&
                                     Catch::Contains("use distance_based"));
        }
    }
    // The static engine's DOR still routes it (another dimension order); the Twisted Mixed
    // routings take no damaged fabric (they would need 3 VLs per order, 12).
    CHECK_NOTHROW(test::route_with("flatfly", f));
    CHECK_THROWS_WITH(test::route_with("flatfly", f, {"adaptive=twisted-mixed-ador"}),
                      Catch::Contains("needs a complete FlatFly"));
}

TEST_CASE("damaged hypercube: Negative First and the ABO routings deliver every pair, no "
          "credit loop, one VL up per turn back to the first phase",
          "[flatfly]") {
    const Fabric full = gen::hypercube(6, 1, 1);
    std::size_t routed = 0, turned = 0;
    for (double fail : {0.05, 0.1})
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            const test::Damaged d = test::damaged(full, fail, 0, seed);
            REQUIRE_FALSE(d.report.removed_links.empty());
            for (const char* name : {"negative-first", "abo-negative-first", "abo-positive-last"}) {
                INFO(name << ", " << fail << " failed, seed " << seed);
                const Routing r =
                    test::route_with("flatfly", d.fabric, {std::string("adaptive=") + name});
                const auto x = sound(d.fabric, r, 12, 8);
                ++routed;
                turned += x.vls > 1;
            }
        }
    CHECK(routed == 18);
    CHECK(turned > 0); // some pair needs a turn back to the first phase, on a second VL
}

TEST_CASE("damaged hypercube: a node cut off from its only first-phase path takes a turn",
          "[flatfly]") {
    // 3-cube, coordinates from the mapping: from u = 100 to 000 Negative First has the one
    // negative hop only; without that cable the path goes up (positive) and down twice, on
    // VL 1 after the turn.
    const Fabric full = gen::hypercube(3, 1, 1);
    const mapping::SwitchLinks g = mapping::switch_links(full);
    const mapping::Shape shape = mapping::map_fabric(full, g, mapping::link_classes(g));
    std::uint32_t zero = 0, u = 0;
    while (shape.coord[zero] != std::vector<int>{0, 0, 0}) ++zero;
    while (shape.coord[u] != std::vector<int>{1, 0, 0}) ++u;
    const Fabric f = test::without(
        full, {cable(full, full.node(g.node[u]).desc, full.node(g.node[zero]).desc)}, {});
    const Routing r = test::route_with("flatfly", f, {"adaptive=negative-first"});
    const auto x = sound(f, r, 3, 2);
    CHECK(x.vls == 2);
    CHECK(x.max_hops == 3);
}

namespace {

// The same routing with VL `from` folded into VL `to` in every VL2VL table of its sets.
Routing fold_set_vl(const Routing& r, std::uint8_t from, std::uint8_t to) {
    auto rf = std::make_shared<RoutingFunction>(*r.forwarding_sets);
    for (auto& node : rf->vl2vl.tables)
        for (auto& t : node)
            for (auto& vl : t)
                if (vl == from) vl = to;
    Routing out = r;
    out.forwarding_sets = rf;
    return out;
}

} // namespace

TEST_CASE("damaged FlatFly and hypercube: the extra VLs are what keeps them deadlock-free",
          "[flatfly]") {
    // Folding the VL a rule adds back onto the one it would otherwise share closes credit
    // loops. The hypercube's turn VL onto VL 0: somewhere among the study's damaged 6-cubes.
    std::size_t cube_loops = 0;
    for (double fail : {0.05, 0.1})
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            const test::Damaged cube = test::damaged(gen::hypercube(6, 1, 1), fail, 0, seed);
            const Routing nf =
                test::route_with("flatfly", cube.fabric, {"adaptive=negative-first"});
            cube_loops += !check::check_forwarding_sets(cube.fabric, fold_set_vl(nf, 1, 0))
                               .deadlock.loops.empty();
        }
    CHECK(cube_loops > 0);
    // The Twisted routings' third VL onto VL 0 or onto VL 1 (the twists'): a row a, b, c, d
    // of the twist's dimension
    // without its diagonals a-c and b-d detours a -> b -> c, b -> c -> d, c -> d -> a and
    // d -> a -> b, whose hops wait on each other in a ring. Every dimension gets such a row,
    // so the twist's has one whichever the mapping makes last; 4 hosts per switch, so that
    // packets end their twist-dimension hop from every coordinate (the twist goes to d mod K).
    const Fabric full = gen::hyperx({{4, 4, 4}, {}, 4, 0});
    const Fabric f =
        test::without(full,
                      {cable(full, "sw-0.0.0", "sw-2.0.0"), cable(full, "sw-1.0.0", "sw-3.0.0"),
                       cable(full, "sw-0.0.0", "sw-0.2.0"), cable(full, "sw-0.1.0", "sw-0.3.0"),
                       cable(full, "sw-0.0.0", "sw-0.0.2"), cable(full, "sw-0.0.1", "sw-0.0.3")},
                      {});
    for (const char* name : {"twisted-dor", "twisted-ador"}) {
        INFO(name);
        const Routing r = test::route_with("flatfly", f, {std::string("adaptive=") + name});
        sound(f, r, 7, 3);
        CHECK_FALSE(check::check_forwarding_sets(f, fold_set_vl(r, 2, 0)).deadlock.loops.empty());
        CHECK_FALSE(check::check_forwarding_sets(f, fold_set_vl(r, 2, 1)).deadlock.loops.empty());
    }
}
