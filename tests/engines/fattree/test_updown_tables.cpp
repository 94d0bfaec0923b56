// Fat-tree forwarding tables (engines/fattree/updown_tables.hpp) on degraded trees: up choices
// weighted by the up*/down* paths beyond each parent, so a subtree that lost most of its ways
// down is not sent an equal share of the LIDs.
#include "check/balance.hpp"
#include "engines/engine.hpp"
#include "generators/fat_tree.hpp"

#include "../direct_checks.hpp"
#include "../lft_walk.hpp"

#include <catch2/catch.hpp>

using namespace ibrt;

TEST_CASE("a middle switch with one top left gets a share of the LIDs to match") {
    // FT(8,3): SW<10,1> (pod 1, middle 0) keeps one of its four tops, SW<01,0>. Every top of
    // group 0 but SW<01,0> has thus lost its way into pod 1, so traffic into pod 1 has 13
    // cables from the tops, one of them SW<01,0> -> SW<10,1>. Equal shares per middle would
    // put a quarter of it (448 of 1,792 flows) on that one cable; shares by paths, 1/13.
    const Fabric f =
        test::without(gen::fat_tree(8, 3), {"SW<00,0>[2]", "SW<02,0>[2]", "SW<03,0>[2]"}, {});
    for (const char* engine : {"mlid", "slid"}) {
        INFO(engine);
        const Routing r = test::route_with(engine, f);
        const check::BalanceReport b = check::check_balance(f, r, check::TrafficPattern{});
        REQUIRE(b.unrouted == 0);
        const NodeId top = test::node_by_desc(f, "SW<01,0>");
        const NodeId mid = test::node_by_desc(f, "SW<10,1>");
        PortNum down = 0;
        for (PortNum p = 1; p <= f.node(top).num_ports; ++p)
            if (f.port(top, p).peer_node == mid) down = p;
        REQUIRE(down != 0);
        const double into_pod = 7 * 16 * 16; // CA pairs from the other 7 pods
        CHECK(b.load[f.port_id(top, down)] <= 2 * into_pod / 13);
        CHECK(b.links.max <= 2 * into_pod / 13);
    }
}
