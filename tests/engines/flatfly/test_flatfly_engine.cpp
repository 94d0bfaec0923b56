// The flatfly engine (engines/flatfly, paper 003 §3.3-3.4): on HyperX, FlatFly and hypercube
// fabrics, mapped from relabelled cabling, every (CA port, LID) pair is reached, paths are
// minimal where nothing is missing, the engine's own SL2VL tables and path SLs leave no credit
// loop, and degraded fabrics get detours (VL 1) or another dimension order (another SL) only
// where needed; what is not a FlatFly is declined with the reason.
#include "../../mapping/relabel.hpp"
#include "../direct_checks.hpp"
#include "generators/fat_tree.hpp"
#include "generators/hyperx.hpp"
#include "generators/torus.hpp"
#include "tests/generators/damaged.hpp"

#include <catch2/catch.hpp>

#include <set>

using namespace ibrt;

namespace {

Routing route(const Fabric& f, const std::vector<std::string>& params = {}) {
    return test::route_with("flatfly", f, params);
}

std::string refusal(const Fabric& f) {
    return test::refusal("flatfly", f);
}

} // namespace

using test::clean;
using test::without;

TEST_CASE("flatfly: DOR on a pristine HyperX is minimal and loop-free on one VL", "[flatfly]") {
    const Fabric full = gen::hyperx({{3, 4, 5}, {1, 2, 1}, 2, 0});
    const Fabric f = test::relabel(full, 4).fabric;
    const Routing r = route(f);
    CHECK(clean(f, r));
    CHECK(r.data_vls == 1);
    CHECK(r.sl2vl.empty());
    CHECK(r.path_sls.empty());
    // Both cables of every doubled link carry traffic (destinations spread over them).
    std::set<std::pair<NodeId, PortNum>> used;
    for (NodeId s : f.switches())
        for (PortNum p : r.lft[s])
            if (p != kNoPath) used.insert({s, p});
    for (NodeId s : f.switches())
        for (PortNum p = 1; p <= f.node(s).num_ports; ++p) {
            const Port& q = f.port(s, p);
            if (q.connected() && f.node(q.peer_node).is_switch()) CHECK(used.count({s, p}));
        }
}

TEST_CASE("flatfly: a hypercube is routed by DOR", "[flatfly]") {
    const Fabric f = gen::hypercube(5, 1, 2);
    const Routing r = route(f);
    CHECK(clean(f, r));
    CHECK(r.data_vls == 1);
}

TEST_CASE("flatfly: a missing link is detoured within its dimension on VL 1", "[flatfly]") {
    const Fabric f = without(gen::hyperx({{5, 5}, {}, 2, 0}), {"sw-0.0[3]", "sw-2.3[7]"}, {});
    const Routing r = route(f);
    clean(f, r); // a detour is one hop longer than the shortest path
    CHECK(r.data_vls == 2);
    REQUIRE_FALSE(r.sl2vl.empty());
}

TEST_CASE("flatfly: with detours but one order, every SL maps to a VL the routes have",
          "[flatfly]") {
    // One dimension order and no layer: the SL is not a layer, so SLs 1..15 map as SL 0 does
    // (they once went to VL 1 + SL, i.e. VL 15 and 16 in the written SL2VL dump).
    const Fabric f =
        without(gen::hyperx({{4, 4, 4}, {}, 1, 0}), {"sw-0.0.0[4]", "sw-1.2.3[10]"}, {});
    const Routing r = route(f);
    REQUIRE(r.data_vls == 2);
    REQUIRE(r.path_sls.empty());
    REQUIRE_FALSE(r.sl2vl.empty());
    for (const auto& node : r.sl2vl.tables)
        for (const auto& table : node)
            for (std::size_t sl = 0; sl < table.size(); ++sl) {
                INFO("SL " << sl);
                CHECK(table[sl] < r.data_vls);
                CHECK(table[sl] == table[0]);
            }
}

TEST_CASE("flatfly: on a damaged HyperX the detours' VL is what keeps it loop-free", "[flatfly]") {
    // Many detours in a row of 8: all on VL 0, the second hops of some detours wait on the
    // first hops of others and close a cycle; on VL 1 they cannot.
    int loops_on_one_vl = 0, routed = 0;
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        gen::FailureSpec spec;
        spec.links = 0.12;
        spec.seed = seed;
        gen::FailureReport rep;
        const Fabric f = gen::inject_failures(gen::hyperx({{8, 8}, {}, 1, 0}), spec, rep);
        Routing r;
        try {
            r = route(f, {"orders=dor"});
        } catch (const RoutingError&) {
            continue;
        }
        ++routed;
        clean(f, r);
        CHECK(r.data_vls == 2);
        loops_on_one_vl += !check::check_credit_loops(f, test::fold_vl(r, 1, 0)).loops.empty();
    }
    CHECK(routed >= 3);
    CHECK(loops_on_one_vl > 0);
}

TEST_CASE("flatfly: a missing switch is passed in another dimension order (another SL)",
          "[flatfly]") {
    const Fabric f = without(gen::hyperx({{4, 4}, {}, 1, 0}), {}, {"sw-1.1"});
    const Routing r = route(f);
    CHECK(clean(f, r));
    CHECK(r.data_vls == 2);
    CHECK_FALSE(r.path_sls.empty());
    // One order alone cannot pass it: those destinations go on the escape VL.
    const Routing dor = route(f, {"orders=dor"});
    test::clean_within_data_vls(f, dor);
    test::escape_layer_sound(f, dor);
    CHECK(test::stat_of(dor, "escape_dlids") > 0);
}

TEST_CASE("flatfly: a hypercube with a missing switch takes, per destination, an order that "
          "leads with the dimension toward the missing switch",
          "[flatfly]") {
    // sw-0.1.0.1.0's neighbour across each of the 5 dimensions is reached from every switch
    // only in an order that corrects that dimension first; the paper's orders and the
    // identity's reverse and rotations by one lead with dimensions 0, 1 and 4 only.
    const Fabric f = without(gen::hypercube(5, 1, 1), {}, {"sw-0.1.0.1.0"});
    const Routing r = route(f);
    CHECK(clean(f, r));
    CHECK(r.data_vls == 5);
    // The paper's four orders alone cannot: those destinations go on the escape VL.
    const Routing mixed = route(f, {"orders=mixed"});
    test::clean_within_data_vls(f, mixed);
    test::escape_layer_sound(f, mixed);
    CHECK(test::stat_of(mixed, "escape_dlids") > 0);
}

TEST_CASE("flatfly: Mixed DOR takes the order from the destination host's index", "[flatfly]") {
    const Fabric f = gen::hyperx({{2, 3, 2, 3}, {}, 4, 0});
    const Routing r = route(f, {"orders=mixed"});
    CHECK(clean(f, r));
    CHECK(r.data_vls == 4); // four orders, one VL each: nothing is missing
    std::set<int> sls;
    for (NodeId c : f.cas()) {
        const PortId p = f.port_id(c, 1);
        sls.insert(r.path_sl(f.port_id(f.cas()[0], 1), r.lids.base(p)));
    }
    CHECK(sls == std::set<int>{0, 1, 2, 3});
}

TEST_CASE("flatfly: what is not a FlatFly is declined with the reason", "[flatfly]") {
    CHECK_THAT(refusal(gen::fat_tree(4, 3)),
               Catch::StartsWith("flatfly: the fabric is not a FlatFly, HyperX or hypercube"));
    CHECK_THAT(refusal(gen::torus({{5, 6}, {}, 1, true, 0})), Catch::Contains("maps as a torus"));
}

namespace {
double stat(const Routing& r, std::string_view key) {
    for (const auto& [k, v] : r.stats)
        if (k == key) return v;
    FAIL("no stat " << key);
    return 0;
}
} // namespace

TEST_CASE("flatfly: a hypercube with missing links steps into a later dimension, on VL layers "
          "of its own",
          "[flatfly]") {
    // A dimension of two switches has no switch to detour through: with one DOR order and no
    // step aside, the ends of a missing link cannot reach each other.
    const Fabric one = without(gen::hypercube(3, 1, 1), {"sw-0.0.0[2]"}, {});
    const Routing dor = route(one, {"orders=dor"}); // the ends go on the escape VL instead
    test::clean_within_data_vls(one, dor);
    CHECK(test::stat_of(dor, "escaped_switches") == 2);
    const Routing r1 = route(one);
    clean(one, r1); // reachable, loop-free (a step aside is not minimal)
    CHECK(stat(r1, "cross_dimension_detours") > 0);
    CHECK(stat(r1, "detour_layers") == 1);
    // Random missing links on 6D hypercubes: reachable with no credit loop.
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        INFO("seed " << seed);
        const auto d = test::damaged(gen::hypercube(6, 1, 1), 8, 0, seed);
        const Fabric f = test::relabel(d.fabric, seed).fabric;
        const Routing r = route(f);
        clean(f, r);
        CHECK(stat(r, "detour_layers") >= 1);
        CHECK(r.data_vls == stat(r, "dimension_orders") + stat(r, "detour_layers"));
    }
}

TEST_CASE("flatfly: a hypercube missing a switch and links shares VL layers among its orders",
          "[flatfly]") {
    // An 8D hypercube missing a switch needs an order led by each of its 8 dimensions (8 VLs
    // with a VL per order); missing links then add detour layers past the ports' 8 VLs. Every
    // path outside the first order goes into the layers instead, where the orders share VLs.
    for (std::uint64_t seed = 1; seed <= 2; ++seed) {
        INFO("seed " << seed);
        const auto d = test::damaged(gen::hypercube(8, 1, 1), 8, 1, seed);
        const Fabric f = test::relabel(d.fabric, seed).fabric;
        const Routing r = route(f);
        clean(f, r);
        CHECK(stat(r, "orders_sharing_layers") == 1);
        CHECK(stat(r, "dimension_orders") > 1);
        CHECK(r.data_vls <= 8);
        CHECK(r.data_vls == 1 + stat(r, "detour_layers"));
    }
}
