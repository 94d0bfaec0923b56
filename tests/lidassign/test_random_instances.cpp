// Cross-checks on real path sets (random irregular fabrics, both path computations): the
// bucketed split graph equals the pairwise Definition 1 test, every heuristic returns a valid
// partition, and the exact mode is never worse than any heuristic.
#include "generators/random_graph.hpp"
#include "lidassign/exact.hpp"
#include "lidassign/path_compute.hpp"
#include "lidassign/plan.hpp"

#include <catch2/catch.hpp>

using namespace ibrt;
using namespace ibrt::lidassign;

TEST_CASE("split graph by bucketing equals the pairwise split test") {
    gen::RandomParams rp;
    rp.switches = 12;
    rp.degree = 4;
    rp.cas = 24;
    rp.seed = 5;
    const Fabric f = gen::random_fabric(rp);
    for (PathScheme s : {PathScheme::ShortestWidest, PathScheme::PathSelection}) {
        const PathSet ps = compute_paths(f, s);
        std::size_t edges = 0;
        for (const DestPaths& d : ps) {
            const SplitGraph g = build_split_graph(f, d);
            edges += g.num_edges();
            std::size_t pairs = 0;
            for (std::uint32_t p = 0; p < d.size(); ++p)
                for (std::uint32_t q = p + 1; q < d.size(); ++q) {
                    const bool sp = split(f, d.path(p), d.path(q));
                    const auto nb = g.neighbours(p);
                    REQUIRE(sp == std::binary_search(nb.begin(), nb.end(), q));
                    pairs += sp;
                }
            REQUIRE(pairs == g.num_edges());
        }
        CHECK(edges > 0);
    }
}

TEST_CASE("heuristics are valid partitions and the exact mode bounds them all") {
    for (std::uint64_t seed : {1, 2}) {
        gen::RandomParams rp;
        rp.switches = 16;
        rp.degree = 8;
        rp.cas = 64;
        rp.seed = seed;
        const Fabric f = gen::random_fabric(rp);
        PathOptions po;
        po.seed = seed;
        for (PathScheme s : {PathScheme::ShortestWidest, PathScheme::PathSelection}) {
            INFO("seed " << seed << " " << to_string(s));
            const PathSet ps = compute_paths(f, s, po);
            const ExactPlan e = plan_exact(f, ps, 20);
            CHECK(e.optimal == ps.size());
            for (Heuristic h : kAllHeuristics) {
                const Plan p = plan_heuristic(f, ps, h);
                CHECK(p.total_lids >= e.total_lids);
                for (std::size_t i = 0; i < ps.size(); ++i) {
                    const SplitGraph g = build_split_graph(f, ps[i]);
                    REQUIRE(valid_assignment(g, p.per_dest[i].config));
                    REQUIRE(valid_assignment(g, e.per_dest[i].best.config));
                    REQUIRE(p.per_dest[i].k >= e.per_dest[i].best.k);
                    REQUIRE(e.per_dest[i].best.k >= greedy_clique(g).size());
                }
            }
        }
    }
}
