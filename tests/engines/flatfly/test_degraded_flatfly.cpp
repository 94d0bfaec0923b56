// The flatfly engine's escape VL (issue 37): degraded HyperX fabrics it used to decline (no
// dimension order with one detour per dimension reaches a destination from every switch) are
// routed, those destinations on Up*/Down* with an SL and a VL of their own after the orders'
// and the detour layers' (engines/common/escape_layer.hpp); where the ports have fewer VLs
// than that takes, on one order and the escape VL. Every routed fabric passes the check
// library with the engine's path SLs and SL2VL; the engine declines only when the ports have
// too few data VLs even for that, saying how many it needs.
#include "../../mapping/relabel.hpp"
#include "../direct_checks.hpp"
#include "generators/hyperx.hpp"
#include "tests/generators/damaged.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <string>

using namespace ibrt;

namespace {

Fabric hyperx444() {
    gen::HyperXParams p;
    p.k = {4, 4, 4};
    p.cas_per_switch = 2;
    return gen::hyperx(p);
}

} // namespace

TEST_CASE("flatfly: degraded 4x4x4 HyperX fabrics are routed, the unreachable on the escape VL",
          "[flatfly]") {
    // Issue 37's fabric: 5 % of the switches and 10 % of the cables out. Before the escape VL
    // the engine declined every one of seeds 1-8 ("no dimension-order path with one detour per
    // dimension ... in any of its dimension orders").
    int routed = 0, with_escape = 0;
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        INFO("seed " << seed);
        // Shuffled node order, GUIDs, names and port numbers: the mapping sees only cables.
        const Fabric f =
            test::relabel(test::damaged(hyperx444(), 0.10, 0.05, seed).fabric, seed + 100).fabric;
        const Routing r = test::route_with("flatfly", f);
        ++routed;
        test::clean_within_data_vls(f, r);
        if (test::stat_of(r, "escape_dlids", 0) > 0) {
            ++with_escape;
            test::escape_layer_sound(f, r);
            CHECK(test::stat_of(r, "escaped_switches") > 0);
            // Ports with 4 data VLs: one dimension order and the escape VL for the rest, when
            // the orders took more; with 2, declined, saying how many that plan needs.
            EngineOptions four;
            four.default_data_vls = 4;
            const Routing r4 = make_engine("flatfly")->route(f, nullptr, four);
            test::clean_within_data_vls(f, r4);
            test::escape_layer_sound(f, r4);
            CHECK(r4.data_vls <= 4);
            CHECK(test::stat_of(r4, "one_order_for_the_vls", 0) == (r.data_vls > 4 ? 1 : 0));
            EngineOptions two;
            two.default_data_vls = 2;
            std::string why;
            try {
                make_engine("flatfly")->route(f, nullptr, two);
            } catch (const RoutingError& e) {
                why = e.what();
            }
            CHECK(why.find(fmt::format("needs {} data VLs but", r4.data_vls)) != std::string::npos);
        }
    }
    CHECK(routed == 12);
    CHECK(with_escape >= 8);
}

TEST_CASE("flatfly: an intact or mildly damaged HyperX needs no escape VL", "[flatfly]") {
    const Fabric intact = hyperx444();
    CHECK(test::stat_of(test::route_with("flatfly", intact), "escape_dlids", 0) == 0);
    const Fabric one_link = test::damaged(intact, 1, 0, 3).fabric;
    const Routing r = test::route_with("flatfly", one_link);
    test::clean_within_data_vls(one_link, r);
    CHECK(test::stat_of(r, "escape_dlids", 0) == 0);
    CHECK(r.data_vls <= 2);
}
