// The dragonfly engine (engines/dragonfly, paper 003 §3.5): Static routing on groups mapped from
// relabelled cabling reaches every (CA port, LID) pair with no credit loop on two VLs; missing
// global links are routed through an intermediate group on the same two VLs; what it cannot
// route it declines with the reason.
#include "../../mapping/relabel.hpp"
#include "../direct_checks.hpp"
#include "fabric/generators/dragonfly.hpp"
#include "fabric/generators/hyperx.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <random>

using namespace ibrt;

namespace {

Fabric dragonfly(int a, int h, int p) {
    gen::DragonflyParams d;
    d.a = a;
    d.h = h;
    d.p = p;
    return gen::dragonfly(d);
}

Routing route(const Fabric& f) {
    return test::route_with("dragonfly", f);
}

std::string refusal(const Fabric& f) {
    return test::refusal("dragonfly", f);
}

} // namespace

using test::clean;
using test::without;

TEST_CASE("dragonfly: Static routing is loop-free on two VLs, and only on two", "[dragonfly]") {
    const Fabric f = test::relabel(dragonfly(4, 2, 2), 3).fabric;
    const Routing r = route(f);
    clean(f, r);
    CHECK(r.data_vls == 2);
    CHECK(r.path_sls.empty());
    // All on VL 0: local, global, local around the groups closes a cycle.
    CHECK_FALSE(check::check_credit_loops(f, test::fold_vl(r, 1, 0)).loops.empty());
    // Paths are at most local, global, local.
    const check::ForwardingReport fw = check::check_forwarding(f, r);
    CHECK(fw.minimal.max_extra_hops <= 1); // §3.5 note 9: Static is not always minimal
}

TEST_CASE("dragonfly: missing global links go through an intermediate group, on two VLs",
          "[dragonfly]") {
    // Ports of (a, h, p) = (6, 3, 3): 1-3 CAs, 4-8 local, 9-11 global
    // (fabric/generators/dragonfly.hpp).
    const Fabric full = dragonfly(6, 3, 3);
    // Removable without a local hop in the intermediate group: these routers' links close
    // global cliques (the absolute cabling's), whose other members are the intermediates.
    for (const auto& [links, switches] :
         {std::pair<std::vector<std::string>, std::vector<std::string>>{{"sw-g0-0[9]"}, {}},
          {{"sw-g0-0[9]", "sw-g1-0[11]"}, {}}}) {
        const Fabric f = test::relabel(without(full, links, switches), 5).fabric;
        const Routing r = route(f);
        clean(f, r);
        CHECK(r.data_vls == 2);
        CHECK(r.path_sls.empty());
        const auto st = std::find_if(r.stats.begin(), r.stats.end(), [](auto& x) {
            return x.first == "group_pairs_via_intermediate";
        });
        REQUIRE(st != r.stats.end());
        CHECK(st->second == 2.0 * double(links.size())); // both directions of each pair
    }
}

TEST_CASE("dragonfly: what it cannot route is declined with the reason", "[dragonfly]") {
    CHECK_THAT(refusal(gen::hyperx({{3, 3}, {}, 1, 0})),
               Catch::StartsWith("dragonfly: the fabric is not a Dragonfly"));
    CHECK_THAT(refusal(without(dragonfly(4, 2, 2), {"sw-g0-0[3]"}, {})),
               Catch::Contains("are in one group but not cabled to each other"));
    // Groups 0 and 1 not joined, and every other group misses one of them: 0-2 to 0-4 and 1-5
    // to 1-8 are missing too.
    CHECK_THAT(refusal(without(dragonfly(4, 2, 1),
                               {"sw-g0-0[5]", "sw-g0-0[6]", "sw-g0-1[5]", "sw-g0-1[6]",
                                "sw-g1-2[5]", "sw-g1-2[6]", "sw-g1-3[5]", "sw-g1-3[6]"},
                               {})),
               Catch::Contains("are not joined, and no group is joined to both"));
}

namespace {

// The global cables of a Dragonfly (a, h, p), each named by one end.
std::vector<std::string> global_links(int a, int h, int p) {
    std::vector<std::string> out;
    const int groups = a * h + 1;
    for (int g = 0; g < groups; ++g)
        for (int r = 0; r < a; ++r)
            for (int k = 0; k < h; ++k) {
                const int t = r * h + k, to = t < g ? t : t + 1;
                if (to > g) out.push_back(fmt::format("sw-g{}-{}[{}]", g, r, p + a + k));
            }
    return out;
}

double stat(const Routing& r, const char* name) {
    const auto st =
        std::find_if(r.stats.begin(), r.stats.end(), [&](auto& x) { return x.first == name; });
    REQUIRE(st != r.stats.end());
    return st->second;
}

} // namespace

TEST_CASE("dragonfly: single missing global links and a missing switch are all routed",
          "[dragonfly]") {
    const Fabric full = dragonfly(6, 3, 3);
    const std::vector<std::string> links = global_links(6, 3, 3);
    REQUIRE(links.size() == 19 * 18 / 2);
    std::size_t with_local_hop = 0, tried = 0;
    for (std::size_t k = 0; k < links.size(); k += 7, ++tried) {
        INFO(links[k]);
        const Fabric f = without(full, {links[k]}, {});
        const Routing r = route(f);
        clean(f, r);
        // The paths really take every VL the engine declares (the check's count).
        CHECK(std::popcount(check::check_credit_loops(f, r).vls_used) == int(r.data_vls));
        CHECK(stat(r, "group_pairs_via_intermediate") == 2.0);
        if (stat(r, "group_pairs_with_local_hop_detour") > 0) {
            ++with_local_hop; // a third VL, and the two detours on SL 1
            CHECK(r.data_vls == 3);
            CHECK(r.path_sls.max_sl() == 1);
        } else {
            CHECK(r.data_vls == 2);
            CHECK(r.path_sls.empty());
        }
    }
    // The absolute cabling joins groups in cliques of h + 1 routers: most links are not in one.
    CHECK(with_local_hop * 2 > tried);
    // A missing switch takes its 3 global links.
    const Fabric f = test::relabel(without(full, {}, {"sw-g2-4"}), 7).fabric;
    const Routing r = route(f);
    clean(f, r);
    CHECK(stat(r, "group_pairs_via_intermediate") == 6.0);
}

TEST_CASE("dragonfly: many missing global links: the detour SLs keep every path climbing the "
          "VL order",
          "[dragonfly]") {
    const Fabric full = dragonfly(4, 2, 1);
    const std::vector<std::string> all = global_links(4, 2, 1);
    std::size_t routed = 0, loops_without_sls = 0, max_sl = 0;
    for (std::uint64_t seed = 1; seed <= 120; ++seed) {
        std::mt19937_64 rng(seed);
        std::vector<std::string> links;
        for (const std::string& l : all)
            if (rng() % 4 == 0) links.push_back(l);
        INFO("seed " << seed << ": " << links.size() << " missing global links");
        const Fabric f = without(full, links, {});
        Routing r;
        try {
            r = route(f);
        } catch (const RoutingError& e) { // two groups can lose every common neighbour
            CHECK_THAT(e.what(), Catch::Contains("no group is joined to both"));
            continue;
        }
        ++routed;
        clean(f, r);
        CHECK(r.data_vls <= 3);
        max_sl = std::max<std::size_t>(max_sl, r.path_sls.max_sl());
        Routing sl0 = r; // every path on SL 0: the class rule alone
        sl0.path_sls = {};
        loops_without_sls += !check::check_credit_loops(f, sl0).loops.empty();
    }
    CHECK(routed >= 100);
    CHECK(loops_without_sls > 0);
    CHECK(max_sl >= 2); // detours chained through each other's groups take distinct SLs
}
