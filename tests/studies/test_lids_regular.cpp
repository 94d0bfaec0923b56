// Paper 001 §VI.C: dimension-order routing on tori needs one LID per destination (no path
// splits); after a link breaks only the paths over it change, and they stay valid.
#include "generators/failures.hpp"
#include "generators/torus.hpp"
#include "lidassign/plan.hpp"
#include "studies/lids_regular.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <stdexcept>

using namespace ibrt;
using namespace ibrt::lidassign;

TEST_CASE("DOR on 16x8 and 8x4x4 tori: no splits, one LID per destination") {
    for (std::vector<int> k : {std::vector<int>{16, 8}, std::vector<int>{8, 4, 4}}) {
        gen::TorusParams tp;
        tp.k = k;
        const Fabric f = gen::torus(tp);
        const PathSet ps = dor_paths(f);
        REQUIRE(ps.size() == 128);
        std::size_t hops = 0;
        for (const DestPaths& d : ps) {
            REQUIRE(d.size() == 127);
            REQUIRE_NOTHROW(validate(f, d));
            for (std::size_t i = 0; i < d.size(); ++i) hops += d.path(i).size() - 2;
        }
        // Every source sees the same distances: sum over dimensions n of (N / k_n) * k_n^2 / 4
        // (a ring of even k has distances summing to k^2 / 4), times N sources.
        std::size_t from_one = 0;
        for (int kn : k) from_one += std::size_t(128 / kn) * std::size_t(kn * kn / 4);
        const std::size_t expect = 128 * from_one;
        CHECK(expect == (k.size() == 2 ? 98304u : 65536u));
        CHECK(hops == expect);
        for (Heuristic h : {Heuristic::Greedy, Heuristic::ColorL}) {
            const Plan p = plan_heuristic(f, ps, h);
            CHECK(p.total_lids == 128);
            CHECK(p.max_k == 1);
        }
    }
}

namespace {

Fabric torus_8x4() {
    gen::TorusParams tp;
    tp.k = {8, 4};
    return gen::torus(tp);
}

// `f` with `links` random switch links failed (seed `seed`), kept connected.
Fabric with_failures(const Fabric& f, int links, std::uint64_t seed, gen::FailureReport& rep) {
    gen::FailureSpec fs;
    fs.links = links;
    fs.seed = seed;
    fs.keep_connected = true;
    return gen::inject_failures(f, fs, rep);
}

} // namespace

TEST_CASE("a broken link re-routes exactly the paths over it") {
    const Fabric f = torus_8x4();
    const PathSet base = dor_paths(f);
    gen::FailureReport rep;
    const Fabric g = with_failures(f, 1, 3, rep);
    REQUIRE(rep.removed_links.size() == 1);
    REQUIRE(g.num_nodes() == f.num_nodes());
    std::size_t broken = 0;
    for (const DestPaths& d : base)
        for (std::size_t i = 0; i < d.size(); ++i) {
            bool b = false;
            for (PortId e : d.path(i)) b |= !g.port(e).connected();
            broken += b;
        }
    REQUIRE(broken > 0);
    std::size_t repaired = 0;
    const PathSet ps = repair_paths(g, base, &repaired);
    CHECK(repaired == broken);
    for (std::size_t di = 0; di < ps.size(); ++di) {
        REQUIRE_NOTHROW(validate(g, ps[di]));
        REQUIRE(ps[di].size() == base[di].size());
    }
    const Plan p = plan_heuristic(g, ps, Heuristic::ColorL);
    CHECK(p.total_lids > 32);
}

TEST_CASE("repair variants: same broken paths and valid routes, and fresh weights ignore the kept "
          "paths") {
    const Fabric f = torus_8x4();
    const PathSet base = dor_paths(f);
    gen::FailureReport rep;
    const Fabric g = with_failures(f, 2, 5, rep);
    std::size_t want = 0;
    const PathSet def = repair_paths(g, base, &want);
    RepairOptions same; // the defaults: the rule above
    std::size_t n = 0;
    const PathSet again = repair_paths(g, base, &n, same);
    CHECK(n == want);
    for (std::size_t di = 0; di < def.size(); ++di)
        for (std::size_t i = 0; i < def[di].size(); ++i) {
            const auto p = def[di].path(i), q = again[di].path(i);
            CHECK(std::equal(p.begin(), p.end(), q.begin(), q.end()));
        }
    for (auto order : {RepairOptions::Order::Destination, RepairOptions::Order::Source,
                       RepairOptions::Order::Random})
        for (auto weights : {RepairOptions::Weights::Loaded, RepairOptions::Weights::Fresh}) {
            RepairOptions o;
            o.order = order;
            o.weights = weights;
            o.order_seed = 7;
            const PathSet ps = repair_paths(g, base, &n, o);
            CHECK(n == want);
            REQUIRE(ps.size() == base.size());
            for (std::size_t di = 0; di < ps.size(); ++di) {
                REQUIRE_NOTHROW(validate(g, ps[di]));
                REQUIRE(ps[di].size() == base[di].size());
                // Every re-routed path is a shortest one on the failed torus, in every variant.
                for (std::size_t i = 0; i < ps[di].size(); ++i)
                    CHECK(ps[di].path(i).size() == def[di].path(i).size());
            }
        }
}

TEST_CASE("shuffle_paths: the same paths per destination in another order, the same optimum") {
    const Fabric f = torus_8x4();
    gen::FailureReport rep;
    const Fabric g = with_failures(f, 2, 5, rep);
    const PathSet ps = repair_paths(g, dor_paths(f));
    const PathSet sh = shuffle_paths(ps, 9);
    REQUIRE(sh.size() == ps.size());
    bool moved = false;
    for (std::size_t di = 0; di < ps.size(); ++di) {
        CHECK(sh[di].dst == ps[di].dst);
        REQUIRE(sh[di].size() == ps[di].size());
        std::vector<std::vector<PortId>> a, b;
        for (std::size_t i = 0; i < ps[di].size(); ++i) {
            a.emplace_back(ps[di].path(i).begin(), ps[di].path(i).end());
            b.emplace_back(sh[di].path(i).begin(), sh[di].path(i).end());
        }
        moved |= a != b;
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        CHECK(a == b);
    }
    CHECK(moved);
    CHECK(shuffle_paths(ps, 9)[3].edges == sh[3].edges); // deterministic per seed
    CHECK(plan_exact(g, sh, 30).total_lids == plan_exact(g, ps, 30).total_lids);
}

TEST_CASE("ibrt lids --study-regular's topologies: the paper's three keep their figures, others "
          "their own") {
    const auto def = parse_regular_topologies(kDefaultRegularTopologies);
    REQUIRE(def.size() == 3);
    CHECK(def[0].kind == RegularTopology::Kind::Torus);
    CHECK(def[0].dims == std::vector<int>{16, 8});
    CHECK(def[0].name == "16x8 torus");
    CHECK(def[0].file == "lids-fig10a.csv");
    CHECK(def[0].figure == "fig10a");
    CHECK(def[1].dims == std::vector<int>{8, 4, 4});
    CHECK(def[1].name == "8x4x4 torus");
    CHECK(def[1].file == "lids-fig10b.csv");
    CHECK(def[1].figure == "fig10b");
    CHECK(def[2].kind == RegularTopology::Kind::FatTree);
    CHECK(def[2].dims == std::vector<int>{8, 3});
    CHECK(def[2].name == "FT(8,3)");
    CHECK(def[2].file == "lids-fig11.csv");
    CHECK(def[2].figure == "fig11");
    const auto other = parse_regular_topologies("fat-tree:16,2,torus:8x8,fat-tree:4,3,torus:4x4x4");
    REQUIRE(other.size() == 4);
    CHECK(other[0].name == "FT(16,2)");
    CHECK(other[0].file == "lids-regular-ft-16-2.csv");
    CHECK(other[0].figure == "regular-ft-16-2");
    CHECK(other[1].name == "8x8 torus");
    CHECK(other[1].file == "lids-regular-torus-8x8.csv");
    CHECK(other[1].figure == "regular-torus-8x8");
    CHECK(other[2].dims == std::vector<int>{4, 3});
    CHECK(other[3].figure == "regular-torus-4x4x4");
    // One of the paper's alone keeps its file.
    CHECK(parse_regular_topologies("fat-tree:8,3")[0].file == "lids-fig11.csv");
}

TEST_CASE("ibrt lids --study-regular's topologies: bad lists are refused by name") {
    for (const char* bad : {"",
                            ",",
                            "torus:16x8,",
                            "mesh:4x4",
                            "torus:",
                            "torus:4x",
                            "torus:1x8",
                            "torus:65x2",
                            "torus:4x4x4x4x2",
                            "torus:64x64x2",
                            "torus:-4x4",
                            "torus:4.5x4",
                            "fat-tree:8",
                            "fat-tree:7,3",
                            "fat-tree:2,3",
                            "fat-tree:8,1",
                            "fat-tree:8,5",
                            "fat-tree:8,3,4",
                            "fat-tree:64,3",
                            "fat-tree:x,2",
                            "torus:8x8,torus:8x8",
                            "fat-tree:8,3,fat-tree:8,3",
                            "torus:16x8 "}) {
        INFO(bad);
        CHECK_THROWS_AS(parse_regular_topologies(bad), std::invalid_argument);
    }
    CHECK_THROWS_WITH(parse_regular_topologies("torus:8x8,mesh:4x4"),
                      Catch::Contains("'mesh:4x4'") && Catch::Contains("unknown topology"));
    CHECK_THROWS_WITH(parse_regular_topologies("torus:8x8,torus:8x8"), Catch::Contains("twice"));
}
