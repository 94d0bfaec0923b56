// Link loads worked out by hand on the two-level tree (see fixtures.hpp for its routes).
#include "check/balance.hpp"
#include "check/traffic.hpp"
#include "fixtures.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>

using namespace ibrt;
using namespace ibrt::check;
using namespace ibrt::test;

namespace {
double load(const Routed& x, const BalanceReport& b, NodeId n, PortNum p) {
    return b.load[x.f.port_id(n, p)];
}
} // namespace

TEST_CASE("all-to-all on the d-mod-k tree loads every switch link with 2 flows") {
    const Routed x = two_level_tree();
    const BalanceReport b = check_balance(x.f, x.r, TrafficPattern{});
    CHECK(b.pattern == "all-to-all");
    CHECK(b.flows == 12);
    CHECK(b.unrouted == 0);
    // Each leaf's two CAs send to each remote CA over one spine: 2 flows per up and down link.
    for (auto [n, p] :
         {std::pair{L0, 3}, {L0, 4}, {L1, 3}, {L1, 4}, {S0, 1}, {S0, 2}, {S1, 1}, {S1, 2}})
        CHECK(load(x, b, n, static_cast<PortNum>(p)) == 2);
    CHECK(b.links.links == 8);
    CHECK(b.links.max == 2);
    CHECK(b.links.mean == 2);
    CHECK(b.links.stddev == 0);
    CHECK(b.links.spread == 1);
    REQUIRE(b.levels.size() == 2);
    CHECK(b.levels[0].from_level == 1);
    CHECK(b.levels[0].to_level == 2);
    CHECK(b.levels[0].stats.links == 4);
    CHECK(b.levels[1].from_level == 2);
    CHECK(b.levels[1].to_level == 1);
    CHECK(b.lid_usage.destinations == 4);
    CHECK(b.lid_usage.by_lids_used == std::vector<std::uint64_t>{0, 4});
    CHECK(b.lid_usage.min_sources_per_lid == 3);
    CHECK(b.lid_usage.max_sources_per_lid == 3);
}

TEST_CASE("all-to-all with every route over S0: max 4, mean 2, stddev 2") {
    Routed x = two_level_tree();
    x.r.lft[L0][4] = 3; // h3 over S0 too
    x.r.lft[L1][2] = 3; // h1 over S0 too
    const BalanceReport b = check_balance(x.f, x.r, TrafficPattern{});
    CHECK(load(x, b, L0, 3) == 4);
    CHECK(load(x, b, S0, 2) == 4);
    CHECK(load(x, b, L1, 3) == 4);
    CHECK(load(x, b, S0, 1) == 4);
    CHECK(load(x, b, L0, 4) == 0);
    CHECK(load(x, b, S1, 2) == 0);
    CHECK(b.links.max == 4);
    CHECK(b.links.mean == 2);
    CHECK(b.links.stddev == 2);
    CHECK(b.links.spread == 2);
    REQUIRE(b.hottest.size() == 4);                 // unloaded links are not listed
    CHECK(b.hottest[0].port == x.f.port_id(L0, 3)); // ties broken by port slot
    CHECK(b.hottest[0].load == 4);
    CHECK(b.hottest[3].port == x.f.port_id(S0, 2));
}

TEST_CASE("shift/1 sends h0->h1, h1->h2, h2->h3, h3->h0") {
    const Routed x = two_level_tree();
    const BalanceReport b = check_balance(x.f, x.r, parse_pattern("shift/1", 0));
    CHECK(b.pattern == "shift/1");
    CHECK(b.flows == 4);
    CHECK(load(x, b, L0, 3) == 1); // h1 -> h2 over S0
    CHECK(load(x, b, S0, 2) == 1);
    CHECK(load(x, b, L1, 3) == 1); // h3 -> h0 over S0
    CHECK(load(x, b, S0, 1) == 1);
    CHECK(load(x, b, L0, 4) == 0);
    CHECK(b.links.max == 1);
    CHECK(b.links.mean == 0.5);
    CHECK(b.links.stddev == 0.5);
    CHECK(b.links.spread == 2);
    CHECK(b.lid_usage.by_lids_used == std::vector<std::uint64_t>{0, 4});
}

TEST_CASE("LMC 1 without path selection spreads each flow over both LIDs") {
    const Routed x = two_level_tree(1);
    const BalanceReport b = check_balance(x.f, x.r, TrafficPattern{}, DlidUse::Spread);
    CHECK(b.flows == 12);
    // Half of each cross-leaf flow goes over each spine: 4 flows x 1/2 per link.
    CHECK(load(x, b, L0, 3) == 2);
    CHECK(load(x, b, L0, 4) == 2);
    CHECK(load(x, b, S1, 2) == 2);
    CHECK(b.links.stddev == 0);
    CHECK(b.lid_usage.by_lids_used == std::vector<std::uint64_t>{0, 0, 4});
    CHECK(b.lid_usage.mean_sources_per_lid == 3);
}

TEST_CASE("LMC 1 with path selection of the base LID puts everything over S0") {
    Routed x = two_level_tree(1);
    const std::size_t n = x.f.cas().size();
    x.r.dlid_choice.assign(n * n, 0);
    for (std::size_t s = 0; s < n; ++s)
        for (std::size_t d = 0; d < n; ++d)
            x.r.dlid_choice[s * n + d] = x.r.lids.base(x.f.port_id(x.f.cas()[d], 1));
    const BalanceReport b = check_balance(x.f, x.r, TrafficPattern{});
    CHECK(b.selection_fallbacks == 0);
    CHECK(load(x, b, L0, 3) == 4);
    CHECK(load(x, b, L0, 4) == 0);
    CHECK(b.links.max == 4);
    CHECK(b.links.spread == 2);
    // One of each destination's two LIDs carries its 3 sources, the other none.
    CHECK(b.lid_usage.by_lids_used == std::vector<std::uint64_t>{0, 4});
    CHECK(b.lid_usage.min_sources_per_lid == 0);
    CHECK(b.lid_usage.max_sources_per_lid == 3);
    CHECK(b.lid_usage.mean_sources_per_lid == 1.5);
}

TEST_CASE("LMC 1, selection without a table: every source uses the base LID, over S0") {
    // Routing::dlid_choice empty means the base LID (as `ibrt sim --dlid table` and the
    // path-selection file read it), the same loads as the explicit base-LID table above.
    const Routed x = two_level_tree(1);
    const BalanceReport b = check_balance(x.f, x.r, TrafficPattern{}, DlidUse::Selection);
    CHECK(load(x, b, L0, 3) == 4);
    CHECK(load(x, b, L0, 4) == 0);
    CHECK(b.links.max == 4);
    CHECK(b.links.min == 0);
    CHECK(b.lid_usage.by_lids_used == std::vector<std::uint64_t>{0, 4});
    // A table entry that is not one of the destination's LIDs falls back to the base LID too.
    Routed y = two_level_tree(1);
    const std::size_t n = y.f.cas().size();
    y.r.dlid_choice.assign(n * n, 1000);
    const BalanceReport c = check_balance(y.f, y.r, TrafficPattern{}, DlidUse::Selection);
    CHECK(c.selection_fallbacks == 12);
    CHECK(load(y, c, L0, 3) == 4);
    CHECK(c.links.max == 4);
}

TEST_CASE("unroutable flows are counted, not loaded") {
    Routed x = two_level_tree();
    x.r.lft[L0][3] = kNoPath;
    const BalanceReport b = check_balance(x.f, x.r, TrafficPattern{});
    CHECK(b.unrouted == 2);
    CHECK(load(x, b, L0, 3) == 0);
}

TEST_CASE("traffic patterns parse and permute deterministically") {
    CHECK(parse_pattern("all-to-all", 0).kind == TrafficPattern::Kind::AllToAll);
    CHECK(parse_pattern("shift/3", 0).shift == 3);
    CHECK(parse_pattern("random", 7).name() == "random-permutation/seed=7");
    CHECK_THROWS_WITH(parse_pattern("shift/0", 0),
                      "unknown traffic pattern \"shift/0\" (expected all-to-all, shift/K with "
                      "K >= 1, random, complement, bitrev, transpose, shuffle, bitrot or "
                      "tornado; as in ibrt sim, alltoall, rotation/K and randperm too)");
    CHECK_THROWS(parse_pattern("shift/x", 0));
    CHECK(permutation_targets(parse_pattern("shift/2", 0), 5) ==
          std::vector<std::uint32_t>{2, 3, 4, 0, 1});
    const auto p = permutation_targets(parse_pattern("random", 42), 1000);
    CHECK(p == permutation_targets(parse_pattern("random", 42), 1000));
    CHECK(p != permutation_targets(parse_pattern("random", 43), 1000));
    std::vector<std::uint32_t> sorted = p;
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::uint32_t> iota(1000);
    std::iota(iota.begin(), iota.end(), 0u);
    CHECK(sorted == iota);
}
