// The slimfly engine (engines/slimfly, paper 003 §3.6): minimal routing on a Slim Fly mapped
// from relabelled cabling reaches every (CA port, LID) pair on minimal paths with no credit
// loop, on two VLs (from a host VL 0, else VL 1) when complete; degraded fabrics route their
// 3-hop pairs on a second layer of VLs selected by the path SL, still loop-free; what it cannot
// route it declines with the reason.
#include "../../mapping/relabel.hpp"
#include "../direct_checks.hpp"
#include "generators/hyperx.hpp"
#include "generators/slimfly.hpp"
#include "tests/generators/damaged.hpp"

#include <catch2/catch.hpp>

#include <set>

using namespace ibrt;

namespace {

Fabric slimfly(int q, int parallel = 1) {
    gen::SlimFlyParams p;
    p.q = q;
    p.parallel = parallel;
    p.cas_per_switch = 2;
    return gen::slimfly(p);
}

double stat(const Routing& r, std::string_view key) {
    for (const auto& [k, v] : r.stats)
        if (k == key) return v;
    FAIL("no stat " << key);
    return 0;
}

// The VLs the SL2VL tables give to the SLs the paths use (SL 0 when there are no path SLs).
std::set<int> vls_used(const Routing& r) {
    const unsigned top = r.path_sls.empty() ? 0 : r.path_sls.max_sl();
    std::set<int> out;
    for (const auto& tables : r.sl2vl.tables)
        for (const auto& t : tables)
            for (unsigned sl = 0; sl <= top; ++sl)
                if (t[sl] != 15) out.insert(t[sl]);
    return out;
}

} // namespace

using test::clean;
using test::without;

TEST_CASE("slimfly: minimal routing on two VLs, and only on two", "[slimfly]") {
    for (int q : {4, 5, 7}) {
        INFO("q = " << q);
        const Fabric f = test::relabel(slimfly(q), std::uint64_t(q)).fabric;
        const Routing r = test::route_with("slimfly", f);
        CHECK(clean(f, r)); // every path minimal
        CHECK(r.data_vls == 2);
        CHECK(r.path_sls.empty());
        CHECK(vls_used(r) == std::set<int>{0, 1});
        CHECK(stat(r, "switch_pairs_3_or_more_hops") == 0);
        CHECK(stat(r, "vl_layers") == 1);
        CHECK(stat(r, "switch_pairs_2_hops") > 0);
        // All on VL 0: two-hop paths around the graph close a cycle.
        CHECK_FALSE(check::check_credit_loops(f, test::fold_vl(r, 1, 0)).loops.empty());
        const check::ForwardingReport fw = check::check_forwarding(f, r);
        CHECK(fw.minimal.max_extra_hops == 0);
    }
}

TEST_CASE("slimfly: pairs with several minimal paths use them in balance", "[slimfly]") {
    // Two switches of one column are often joined by several "yy" paths (§3.6); with 2 CAs
    // per switch, their destinations go through different middle switches.
    const Fabric f = slimfly(7);
    const Routing r = test::route_with("slimfly", f);
    CHECK(stat(r, "switch_pairs_with_choice") > 0);
    const check::ForwardingReport fw = check::check_forwarding(f, r);
    CHECK(fw.reach.failures() == 0);
    // The busiest switch port carries no more destinations than twice the average.
    std::vector<std::size_t> per_port(f.num_port_slots(), 0);
    for (NodeId sw : f.switches())
        for (std::size_t lid = 1; lid < r.lft[sw].size(); ++lid) {
            const PortNum p = r.lft[sw][lid];
            if (p == kNoPath || p == 0 || !f.node(f.port(sw, p).peer_node).is_switch()) continue;
            ++per_port[f.port_id(sw, p)];
        }
    std::size_t total = 0, ports = 0, most = 0;
    for (std::size_t c : per_port)
        if (c) {
            total += c;
            ++ports;
            most = std::max(most, c);
        }
    REQUIRE(ports > 0);
    CHECK(double(most) <= 2.0 * double(total) / double(ports));
}

TEST_CASE("slimfly: a degraded Slim Fly routes its long pairs in layers of VLs, loop-free",
          "[slimfly]") {
    // q = 5 has girth 5: a lost link or switch leaves pairs 3 or 4 hops apart.
    std::size_t layered = 0;
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        const auto [d, rep] = test::damaged(slimfly(5), 4, 1, seed);
        const Fabric f = test::relabel(d, seed).fabric;
        INFO("seed " << seed);
        const Routing r = test::route_with("slimfly", f);
        CHECK(clean(f, r)); // minimal in the degraded graph
        CHECK(stat(r, "missing_switches") == 1);
        CHECK(stat(r, "missing_links") == double(rep.removed_links.size()));
        REQUIRE(stat(r, "switch_pairs_3_or_more_hops") > 0);
        const auto layers = static_cast<unsigned>(stat(r, "vl_layers"));
        CHECK(r.data_vls == 1 + layers);
        CHECK(r.path_sls.empty() == (layers == 1));
        CHECK(r.path_sls.max_sl() == layers - 1);
        std::set<int> want;
        for (unsigned vl = 0; vl <= layers; ++vl) want.insert(int(vl));
        CHECK(vls_used(r) == want);
        if (layers > 1) {
            // Each further layer holds paths that close a cycle in the layers before it:
            // folded onto VL 1, the routing has a credit loop.
            ++layered;
            Routing folded = r;
            for (unsigned vl = 2; vl <= layers; ++vl)
                folded = test::fold_vl(folded, std::uint8_t(vl), 1);
            CHECK_FALSE(check::check_credit_loops(f, folded).loops.empty());
        }
    }
    CHECK(layered > 0); // some seed needs a second layer
}

TEST_CASE("slimfly: what it cannot route is declined with the reason", "[slimfly]") {
    CHECK_THAT(test::refusal("slimfly", gen::hyperx({{3, 3}, {}, 1, 0})),
               Catch::StartsWith("slimfly: the fabric is not a Slim Fly"));
    // Too few VLs: two are needed.
    const Fabric f = slimfly(5);
    const auto e = make_engine("slimfly");
    EngineOptions opt;
    opt.default_data_vls = 1;
    CHECK_THROWS_AS(e->route(f, nullptr, opt), RoutingError);
    opt.default_data_vls = 2;
    CHECK_NOTHROW(e->route(f, nullptr, opt));
}

TEST_CASE("slimfly: the same tables whatever order the nodes are listed in", "[slimfly]") {
    const auto [f, rep] = test::damaged(slimfly(5), 2, 1, 1);
    const Fabric g = test::relabel(f, 9, /*only_order=*/true).fabric;
    const Routing a = test::route_with("slimfly", f);
    const Routing b = test::route_with("slimfly", g);
    for (NodeId s : f.switches()) {
        const NodeId t = *g.find_node_by_guid(f.node(s).guid);
        CHECK(a.lft[s] == b.lft[t]);
    }
}

TEST_CASE("slimfly: Slim Fly x FlatFly products route minimally by DOR on two VLs", "[slimfly]") {
    struct Case {
        int q, parallel;
        std::vector<int> k;
    };
    for (const Case& c : {Case{3, 1, {3}}, Case{4, 2, {3, 3}}, Case{5, 1, {4}}}) {
        INFO("q = " << c.q << ", FlatFly dims " << c.k.size());
        gen::SlimFlyParams p;
        p.q = c.q;
        p.parallel = c.parallel;
        p.cas_per_switch = 1;
        p.ff_k = c.k;
        const Fabric f = test::relabel(gen::slimfly(p), std::uint64_t(c.q)).fabric;
        const Routing r = test::route_with("slimfly", f);
        CHECK(clean(f, r)); // reachable, minimal, no credit loop
        CHECK(r.data_vls == 2);
        CHECK(r.path_sls.empty());
        CHECK(vls_used(r) == std::set<int>{0, 1});
        CHECK(stat(r, "flatfly_dimensions") == double(c.k.size()));
        CHECK(check::check_forwarding(f, r).minimal.max_extra_hops == 0);
        // All on VL 0: the Slim Fly's two-hop paths close a cycle, as on a plain Slim Fly.
        CHECK_FALSE(check::check_credit_loops(f, test::fold_vl(r, 1, 0)).loops.empty());
    }
}

// Degraded products (past the paper): where DOR's next factor has no minimal hop the path
// takes another one and leaves the order; such paths go on layers of their own VLs (2, 3, ...)
// selected by path SL per source switch (their first hop on VL 0), every other path keeps the
// two VLs of DOR.
TEST_CASE("slimfly: degraded Slim Fly x FlatFly products route their detours on layers of VLs",
          "[slimfly]") {
    struct Case {
        int q;
        std::vector<int> k;
        double links, switches;
    };
    std::size_t with_detours = 0, loops_on_sl0 = 0;
    for (const Case& c :
         {Case{4, {4}, 6, 0}, Case{4, {4}, 6, 1}, Case{3, {3}, 4, 1}, Case{4, {3, 3}, 8, 1}})
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            gen::SlimFlyParams p;
            p.q = c.q;
            p.cas_per_switch = 1;
            p.ff_k = c.k;
            const auto [d, rep] = test::damaged(gen::slimfly(p), c.links, c.switches, seed);
            const Fabric f = test::relabel(d, seed).fabric;
            INFO("q = " << c.q << " FlatFly dims " << c.k.size() << " switches " << c.switches
                        << " seed " << seed);
            const Routing r = test::route_with("slimfly", f);
            CHECK(clean(f, r)); // every pair reached, minimal, no credit loop
            CHECK(stat(r, "missing_switches") == double(rep.removed_switches.size()));
            CHECK(stat(r, "missing_links") == double(rep.removed_links.size()));
            const auto layers = static_cast<unsigned>(stat(r, "vl_layers"));
            CHECK(r.data_vls == 1 + layers);
            CHECK(r.data_vls <= 8);
            std::set<int> want;
            for (unsigned vl = 0; vl <= layers; ++vl) want.insert(int(vl));
            CHECK(vls_used(r) == want);
            if (layers > 1) {
                ++with_detours;
                CHECK(stat(r, "paths_off_dor") > 0);
                CHECK(r.path_sls.max_sl() == layers - 1);
                // With every path on SL 0 (the detours on DOR's two VLs) some routings have a
                // credit loop: the layers are needed.
                Routing flat = r;
                flat.path_sls = PathSlTable{};
                loops_on_sl0 += !check::check_credit_loops(f, flat).loops.empty();
                // Too few VLs for the layers: declined by Engine::route.
                const auto e = make_engine("slimfly");
                EngineOptions opt;
                opt.default_data_vls = 2;
                CHECK_THROWS_AS(e->route(f, nullptr, opt), RoutingError);
            } else {
                CHECK(r.path_sls.empty());
            }
        }
    CHECK(with_detours > 0);
    CHECK(loops_on_sl0 > 0);
}
