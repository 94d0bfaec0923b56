// DRB's DFS paths (engines/multipath/dfs_paths.hpp, paper 002 §4.1): on a torus and a mesh
// routed by the torus engine, every CA's extra LIDs reach it from every CA, no LFT loops, no
// credit loop under the new SL2VL tables and path SLs, the original routes unchanged, and
// nearly every pair with an alternative; the LID limit is an error.
#include "check/credit_loops.hpp"
#include "check/reachability.hpp"
#include "engines/engine.hpp"
#include "engines/multipath/dfs_paths.hpp"
#include "fabric/end_ports.hpp"
#include "generators/fat_tree.hpp"
#include "generators/torus.hpp"

#include "../lft_walk.hpp"

#include <catch2/catch.hpp>

#include <set>

using namespace ibrt;

namespace {

Fabric grid(std::vector<int> k, bool wrap) {
    gen::TorusParams p;
    p.k = std::move(k);
    p.wrap = wrap;
    return gen::torus(p);
}

double stat(const Routing& r, const std::string& name) {
    for (const auto& [k, v] : r.stats)
        if (k == name) return v;
    FAIL("no stat " << name);
    return 0;
}

std::vector<PortId> ports_of(const test::Walk& w, const Fabric& f) {
    std::vector<PortId> p;
    for (const auto& h : w.hops) p.push_back(f.port_id(h.node, h.out));
    return p;
}

void require_paths(const Fabric& f, const Routing& before, const Routing& after,
                   std::uint32_t paths) {
    const auto cas = all_end_ports(f, &after.lids);
    std::size_t walks = 0, differ = 0, pairs = 0;
    for (PortId s : cas)
        for (PortId d : cas) {
            if (s == d) continue;
            REQUIRE(after.lids.lmc(d) >= 2);
            const Lid nb = after.lids.base(d);
            // Offset 0 is the engine's own route, cable for cable.
            const auto orig = test::walk(f, before, s, before.lids.base(d));
            const auto same = test::walk(f, after, s, nb);
            REQUIRE(same.reached);
            CHECK(ports_of(orig, f) == ports_of(same, f));
            std::set<std::vector<PortId>> distinct;
            for (std::uint32_t k = 0; k < (1u << after.lids.lmc(d)); ++k) {
                const auto w = test::walk(f, after, s, Lid(nb + k));
                ++walks;
                INFO("from port " << s << " to LID " << nb + k);
                REQUIRE(w.reached); // reaches its CA, so no loop either (the walk is bounded)
                if (k < paths) distinct.insert(ports_of(w, f));
            }
            ++pairs;
            differ += distinct.size() > 1;
        }
    CHECK(walks > 0);
    // Nearly every pair has an alternative; a few neighbours of the destination that could only
    // detour through each other lose out in every tree (measured: 24 of 4,032 pairs on the 8x8
    // torus, 2 of 992 on the 8x4 mesh).
    CHECK(double(differ) >= 0.99 * double(pairs));
    const check::ForwardingReport fw = check::check_forwarding(f, after);
    CHECK(fw.reach.failures() == 0);
    const check::DeadlockReport dl = check::check_credit_loops(f, after);
    CHECK(dl.loops.empty());
    CHECK(dl.vl15_drops == 0);
    CHECK(dl.vls <= after.data_vls);
}

} // namespace

TEST_CASE("dfs paths: 8x8 torus, 4 paths per CA", "[dfs_paths]") {
    const Fabric f = grid({8, 8}, true);
    const Routing r = make_engine("torus")->route(f, nullptr, {});
    const Routing x = add_dfs_paths(f, r, {});
    CHECK(x.lmc == 2);
    require_paths(f, r, x, 4);
    // On a torus of degree 4 most extra paths avoid the pair's other paths entirely.
    CHECK(stat(x, "dfs_pair_paths") == 64 * 64 * 3); // (source switch, extra LID)
    CHECK(stat(x, "dfs_pair_paths_disjoint") > 0.45 * stat(x, "dfs_pair_paths")); // 6,023
    CHECK(x.data_vls >= r.data_vls);
    CHECK(x.data_vls <= 15);
}

TEST_CASE("dfs paths: 8x4 mesh and a fat tree", "[dfs_paths]") {
    const Fabric mesh = grid({8, 4}, false);
    const Routing rm = make_engine("torus")->route(mesh, nullptr, {});
    require_paths(mesh, rm, add_dfs_paths(mesh, rm, {}), 4);

    const Fabric ft = gen::fat_tree(4, 2);
    const Routing rs = make_engine("slid")->route(ft, nullptr, {});
    const Routing xs = add_dfs_paths(ft, rs, {});
    CHECK(xs.lmc == 2);
    const check::ForwardingReport fw = check::check_forwarding(ft, xs);
    CHECK(fw.reach.failures() == 0);
    CHECK(check::check_credit_loops(ft, xs).loops.empty());
}

TEST_CASE("dfs paths: same input, same tables", "[dfs_paths]") {
    const Fabric f = grid({4, 4}, true);
    const Routing r = make_engine("torus")->route(f, nullptr, {});
    const Routing a = add_dfs_paths(f, r, {}), b = add_dfs_paths(f, r, {});
    CHECK(a.lft == b.lft);
    CHECK(a.data_vls == b.data_vls);
}

TEST_CASE("dfs paths: enough LIDs already, and the limits", "[dfs_paths]") {
    const Fabric f = grid({4, 4}, true);
    EngineOptions opt;
    opt.lmc = 2;
    const Routing r2 = make_engine("torus")->route(f, nullptr, opt);
    CHECK(add_dfs_paths(f, r2, {}).lft == r2.lft); // 4 LIDs per CA already

    DfsPathsOptions bad;
    bad.paths = 1;
    CHECK_THROWS_AS(add_dfs_paths(f, r2, bad), std::invalid_argument);

    // 400 CAs x 128 LIDs do not fit the 49,151 unicast LIDs.
    const Fabric big = grid({20, 20}, true);
    const Routing rb = make_engine("torus")->route(big, nullptr, {});
    DfsPathsOptions many;
    many.paths = 128;
    try {
        add_dfs_paths(big, rb, many);
        FAIL("no error");
    } catch (const std::invalid_argument& e) {
        CHECK_THAT(e.what(), Catch::Contains("49,151"));
    }
}
