// The dragonfly-plus engine (issue 37): on relabelled Dragonfly+ fabrics, walked on its LFTs
// independently of the engine: base LIDs minimal on SL 0 (3 switches within a group, 4 between
// groups), alternative LIDs minimal or up-global-global-down on SL 1, every pair reached and no
// credit loop on 2 VLs; damaged fabrics routed within the ports' data VLs or declined naming
// them.
#include "../../mapping/relabel.hpp"
#include "../direct_checks.hpp"
#include "../lft_walk.hpp"
#include "fabric/end_ports.hpp"
#include "generators/dragonfly.hpp"
#include "generators/dragonfly_plus.hpp"
#include "tests/generators/damaged.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace ibrt;

namespace {

Fabric dragonfly_plus(int r, gen::GlobalArrangement arr, std::uint64_t seed, int groups = 0) {
    gen::DragonflyPlusParams p;
    p.leaves = p.spines = p.p = p.h = r;
    p.groups = groups;
    p.arrangement = arr;
    p.seed = seed;
    return test::relabel(gen::dragonfly_plus(p), seed + 7).fabric;
}

// Switches with CAs are the leaves (the generator's), the others spines.
bool is_leaf(const Fabric& f, NodeId sw) {
    for (PortNum q = 1; q <= f.node(sw).num_ports; ++q) {
        const Port& p = f.port(sw, q);
        if (p.connected() && !f.node(p.peer_node).is_switch()) return true;
    }
    return false;
}

} // namespace

TEST_CASE("dragonfly-plus: minimal base LIDs, up-global-global-down alternatives, 2 VLs",
          "[dragonfly-plus]") {
    for (auto arr : {gen::GlobalArrangement::Absolute, gen::GlobalArrangement::Random})
        for (int r : {2, 3, 4}) {
            INFO("balanced " << r << " arrangement " << int(arr));
            const Fabric f = dragonfly_plus(r, arr, std::uint64_t(r));
            const Routing rt = test::route_with("dragonfly-plus", f);
            CHECK(rt.lmc == 1);
            test::clean_within_data_vls(f, rt);
            CHECK(rt.data_vls == 2);
            CHECK(test::stat_of(rt, "paths_on_layers") == 0);
            // The arrangement decides which pairs of groups have an intermediate group at all;
            // LMC 1 gives half of those or more an alternative.
            const double possible = test::stat_of(rt, "group_pairs_with_an_intermediate");
            CHECK(possible > 0);
            CHECK(test::stat_of(rt, "group_pairs_with_alternative") >= 0.5 * possible);
            std::size_t base_walks = 0, sl1 = 0, longer = 0;
            for (NodeId src : f.cas()) {
                const PortId sp = first_end_port(f, src);
                for (NodeId dst : f.cas()) {
                    if (dst == src) continue;
                    const PortId dp = first_end_port(f, dst);
                    const Lid base = rt.lids.base(dp);
                    const test::Walk w = test::walk(f, rt, sp, base);
                    REQUIRE(w.reached);
                    ++base_walks;
                    CHECK(rt.path_sl(sp, base) == 0);
                    const NodeId a = f.port(sp).peer_node, b = f.port(dp).peer_node;
                    if (a == b)
                        CHECK(w.hops.size() == 1);
                    else
                        CHECK((w.hops.size() == 3 || w.hops.size() == 4));
                    for (const auto& h : w.hops) // the middle of a minimal path is spines
                        if (h.node != a && h.node != b) CHECK(!is_leaf(f, h.node));
                    const test::Walk alt = test::walk(f, rt, sp, Lid(base + 1));
                    REQUIRE(alt.reached);
                    const std::uint8_t sl = rt.path_sl(sp, Lid(base + 1));
                    if (alt.hops.size() == 5) {
                        ++longer;
                        CHECK(sl == 1);
                        for (std::size_t i = 1; i < 4; ++i) CHECK(!is_leaf(f, alt.hops[i].node));
                    } else {
                        CHECK(alt.hops.size() == w.hops.size());
                        CHECK(sl == 0);
                    }
                    sl1 += sl == 1;
                }
            }
            CHECK(base_walks > 0);
            CHECK(longer > 0);
            CHECK(sl1 == longer);
        }
}

TEST_CASE("dragonfly-plus: without LMC no alternative and no path SL", "[dragonfly-plus]") {
    const Fabric f = dragonfly_plus(3, gen::GlobalArrangement::Circulant, 1);
    EngineOptions opt;
    opt.lmc = 0;
    const Routing r = make_engine("dragonfly-plus")->route(f, nullptr, opt);
    CHECK(r.lmc == 0);
    CHECK(r.path_sls.empty()); // the SA keeps the QoS policy's SLs
    test::clean_within_data_vls(f, r);
    // Paths to a spine's own LID that turn at a leaf take VL 1.
    CHECK(test::stat_of(r, "paths_turning_to_a_spine") > 0);
    CHECK(r.data_vls == 2);
}

TEST_CASE("dragonfly-plus: more LIDs, more pairs of groups with an alternative",
          "[dragonfly-plus]") {
    const Fabric f = dragonfly_plus(4, gen::GlobalArrangement::Random, 1);
    double last = 0;
    for (int lmc : {1, 2, 3}) {
        EngineOptions opt;
        opt.lmc = lmc;
        const Routing r = make_engine("dragonfly-plus")->route(f, nullptr, opt);
        const double got = test::stat_of(r, "group_pairs_with_alternative");
        CHECK(got >= last);
        last = got;
        if (lmc == 3) CHECK(got >= 0.9 * test::stat_of(r, "group_pairs_with_an_intermediate"));
        test::clean_within_data_vls(f, r);
        CHECK(r.data_vls == 2);
        // Any group joined to both as an intermediate: every pair of groups, on layers.
        opt.params["intermediates"] = "any";
        const Routing any = make_engine("dragonfly-plus")->route(f, nullptr, opt);
        test::clean_within_data_vls(f, any);
        CHECK(test::stat_of(any, "group_pairs_with_an_intermediate") == 17 * 16);
        CHECK(test::stat_of(any, "group_pairs_with_alternative") >= got);
        if (lmc == 3) CHECK(test::stat_of(any, "group_pairs_with_alternative") == 17 * 16);
        CHECK(test::stat_of(any, "paths_on_layers") > 0);
    }
}

TEST_CASE("dragonfly-plus: damaged fabrics routed within the data VLs", "[dragonfly-plus]") {
    int routed = 0, layered = 0;
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        INFO("seed " << seed);
        gen::DragonflyPlusParams p;
        p.leaves = p.spines = p.p = p.h = 4;
        p.arrangement =
            seed % 2 ? gen::GlobalArrangement::Relative : gen::GlobalArrangement::Random;
        p.seed = seed;
        const Fabric f =
            test::relabel(test::damaged(gen::dragonfly_plus(p), 0.10, 0.05, seed).fabric,
                          seed + 100)
                .fabric;
        const Routing r = test::route_with("dragonfly-plus", f);
        ++routed;
        test::clean_within_data_vls(f, r);
        layered += test::stat_of(r, "vl_layers") > 0;
        CHECK(r.data_vls == 1 + std::max(1.0, test::stat_of(r, "vl_layers")));
        // Ports with fewer data VLs than it takes: declined, naming them.
        EngineOptions fewer;
        fewer.default_data_vls = r.data_vls - 1;
        std::string why;
        try {
            make_engine("dragonfly-plus")->route(f, nullptr, fewer);
        } catch (const RoutingError& e) {
            why = e.what();
        }
        CHECK(why.find(std::to_string(r.data_vls - 1) + " data VLs") != std::string::npos);
    }
    CHECK(routed == 12);
    CHECK(layered >= 6);
}

TEST_CASE("dragonfly-plus: declines what is not a Dragonfly+", "[dragonfly-plus]") {
    gen::DragonflyParams df;
    std::string why;
    try {
        test::route_with("dragonfly-plus", gen::dragonfly(df));
    } catch (const RoutingError& e) {
        why = e.what();
    }
    CHECK(why == "dragonfly-plus: the fabric is not a Dragonfly+ (it maps as a dragonfly)");
}
