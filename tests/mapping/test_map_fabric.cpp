// Mapping (mapping/map_fabric.hpp, paper 003 §2) recovers each generator's structure from the
// cabling alone: every fabric is first relabelled (node order, GUIDs, descriptions and port
// numbers shuffled), and the recovered coordinates are compared with the generator's labels
// up to the topology's symmetries (a permutation of the dimensions; any relabelling of a
// complete dimension's values; a rotation or reflection of a ring).
#include "../fabric/damaged.hpp"
#include "fabric/generators/dragonfly.hpp"
#include "fabric/generators/failures.hpp"
#include "fabric/generators/fat_tree.hpp"
#include "fabric/generators/hyperx.hpp"
#include "fabric/generators/random_graph.hpp"
#include "fabric/generators/torus.hpp"
#include "mapped.hpp"
#include "mapping/map_fabric.hpp"
#include "mapping/shape_compare.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <sstream>

using namespace ibrt;
using namespace ibrt::mapping;
using test::map_relabelled;
using test::Mapped;

namespace {

// The generator's coordinates of every switch, by dense id of the relabelled fabric.
std::vector<std::vector<int>> truth(const test::Relabelled& r, const SwitchLinks& g) {
    std::vector<std::vector<int>> t;
    for (NodeId n : g.node) t.push_back(generator_coords(r.original_desc[n]).value());
    return t;
}

bool same_up_to_symmetry(const Shape& s, const std::vector<std::vector<int>>& want) {
    return matches_generator(s, want);
}

std::multiset<std::pair<int, int>> k_and_width(const Shape& s) {
    std::multiset<std::pair<int, int>> out;
    for (const auto& d : s.dims) out.insert({d.k, d.width});
    return out;
}

} // namespace

TEST_CASE("a HyperX with parallel links maps to its dimensions, widths and coordinates",
          "[mapping]") {
    const Fabric f = gen::hyperx({{3, 4, 5}, {1, 2, 1}, 2, 0});
    for (std::uint64_t seed : {1, 2, 3}) {
        const Mapped m = map_relabelled(f, seed);
        INFO(m.shape.why_not);
        REQUIRE(m.shape.family == Family::FlatFly);
        CHECK(k_and_width(m.shape) == std::multiset<std::pair<int, int>>{{3, 1}, {4, 2}, {5, 1}});
        CHECK(m.shape.cas_per_switch == 2);
        CHECK(same_up_to_symmetry(m.shape, truth(m.r, m.g)));
        CHECK(m.shape.missing_switches.empty());
        CHECK(m.shape.missing_links.empty());
    }
}

TEST_CASE("a hypercube is a HyperX of 2s", "[mapping]") {
    const Mapped m = map_relabelled(gen::hypercube(7, 2, 1), 5);
    REQUIRE(m.shape.family == Family::Hypercube);
    CHECK(m.shape.dims.size() == 7);
    CHECK(k_and_width(m.shape) == std::multiset<std::pair<int, int>>(
                                      {{2, 2}, {2, 2}, {2, 2}, {2, 2}, {2, 2}, {2, 2}, {2, 2}}));
    CHECK(same_up_to_symmetry(m.shape, truth(m.r, m.g)));
}

TEST_CASE("tori of 2, 3 and 4 dimensions map to rings in order", "[mapping]") {
    for (const std::vector<int>& k : {std::vector<int>{5, 7}, {5, 6, 7}, {5, 5, 6, 5}}) {
        INFO(k.size() << "D");
        const Mapped m = map_relabelled(gen::torus({k, {}, 1, true, 0}), 11);
        INFO(m.shape.why_not);
        REQUIRE(m.shape.family == Family::Torus);
        REQUIRE(m.shape.dims.size() == k.size());
        for (const auto& d : m.shape.dims) CHECK(d.ring);
        CHECK(same_up_to_symmetry(m.shape, truth(m.r, m.g)));
        CHECK(m.shape.missing_links.empty());
    }
}

TEST_CASE("rings of 4 and 3 (K2 x K2 and K3 as graphs) come back as rings on a torus",
          "[mapping]") {
    for (const std::vector<int>& k : {std::vector<int>{4, 3, 6}, {4, 8, 8, 8}, {4, 4, 5}}) {
        const Mapped m = map_relabelled(gen::torus({k, {}, 1, true, 0}), 3);
        INFO(m.shape.why_not);
        REQUIRE(m.shape.family == Family::Torus);
        std::multiset<int> got, want(k.begin(), k.end());
        for (const auto& d : m.shape.dims) got.insert(d.k);
        CHECK(got == want);
        CHECK(same_up_to_symmetry(m.shape, truth(m.r, m.g)));
    }
    // Without rings, K2 x K2 stays a hypercube.
    CHECK(map_fabric(gen::hypercube(2, 1, 1)).family == Family::Hypercube);
}

TEST_CASE("a Dragonfly maps to its groups; every global link joins two groups once", "[mapping]") {
    gen::DragonflyParams p;
    p.a = 4;
    p.h = 2;
    p.p = 2;
    const Mapped m = map_relabelled(gen::dragonfly(p), 7);
    INFO(m.shape.why_not);
    REQUIRE(m.shape.family == Family::Dragonfly);
    CHECK(m.shape.groups == 9);
    CHECK(m.shape.group_size == 4);
    CHECK(m.shape.globals_per_switch == 2);
    CHECK(m.shape.cas_per_switch == 2);
    CHECK(m.shape.missing_global_links == 0);
    CHECK(same_up_to_symmetry(m.shape, truth(m.r, m.g))); // the generator's groups
}

TEST_CASE("a damaged HyperX still maps, and says what is missing", "[mapping]") {
    const Fabric full = gen::hyperx({{4, 8, 8}, {}, 1, 0});
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        const auto [f, rep] = test::damaged(full, 0.15, 0.20, seed);
        const Mapped m = map_relabelled(f, seed);
        INFO("seed " << seed << ": " << m.shape.why_not);
        REQUIRE(m.shape.family == Family::FlatFly);
        CHECK(same_up_to_symmetry(m.shape, truth(m.r, m.g)));
        CHECK(m.shape.missing_switches.size() == rep.removed_switches.size());
        CHECK(m.shape.missing_links.size() == rep.removed_links.size());
    }
}

TEST_CASE("what is not a direct topology is said to be none, with the reason", "[mapping]") {
    const Shape tree = map_fabric(gen::fat_tree(4, 3));
    CHECK(tree.family == Family::Unknown);
    CHECK_FALSE(tree.why_not.empty());
    const Shape rnd = map_fabric(gen::random_fabric({32, 5, 32, 3, 0}));
    CHECK(rnd.family == Family::Unknown);
    CHECK_FALSE(rnd.why_not.empty());
}

TEST_CASE("the comparison with the generator fails when a coordinate is off", "[mapping]") {
    const Mapped m = map_relabelled(gen::torus({{5, 6}, {}, 1, true, 0}), 2);
    auto want = truth(m.r, m.g);
    REQUIRE(same_up_to_symmetry(m.shape, want));
    std::swap(want[0], want[1]); // two switches trade places
    CHECK_FALSE(same_up_to_symmetry(m.shape, want));
    CHECK(generator_coords("sw-g3-1") == std::vector<int>{3, 1});
    CHECK(generator_coords("sw-1.0.3") == std::vector<int>{1, 0, 3});
    CHECK_FALSE(generator_coords("leaf-3").has_value());
}

// The paper's claims at its scale (§2.1, §2.2; 2,048 switches, 16,384 hosts), reduced to a
// few seeds for `make check`; the 50-seed curves are in docs/results/mapping.md (bench_map
// --robustness).
TEST_CASE("paper 003's mapping claims hold at its scale (reduced)", "[mapping][scale]") {
    struct Claim {
        const char* name;
        Fabric full;
        double switches, links;
    };
    gen::DragonflyParams df;
    df.a = 16;
    df.h = 8;
    df.p = 8;
    df.groups = 128;
    const Claim claims[] = {
        {"FlatFly 4x8x8x8, 20 % switches, 15 % links",
         gen::hyperx({{4, 8, 8, 8}, {2, 1, 1, 1}, 8, 0}), 0.20, 0.15},
        {"hypercube 11D, 15 % switches, 10 % links", gen::hypercube(11, 2, 8), 0.15, 0.10},
        {"Dragonfly K=16 G=8, 40 % switches", gen::dragonfly(df), 0.40, 0.0},
    };
    for (const Claim& c : claims)
        for (std::uint64_t seed = 1; seed <= 2; ++seed) {
            INFO(c.name << ", seed " << seed);
            const auto [f, rep] = test::damaged(c.full, c.links, c.switches, seed, false);
            const SwitchLinks g = switch_links(f);
            const Shape s = map_fabric(f, g, link_classes(g));
            INFO(s.why_not);
            CHECK(matches_generator(s, generator_coords(f, g)));
        }
}

TEST_CASE("a torus with missing switches and links still maps to its rings", "[mapping]") {
    // What the torus engine must route around (issue 13: failed links and one failed switch),
    // and 5 % of the switches: switches whose links all lost their rectangles float and are
    // placed by their neighbours. (Past that the curve is in docs/results/mapping.md.)
    const Fabric full = gen::torus({{6, 7, 8}, {}, 1, true, 0});
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        const auto [f, rep] =
            test::damaged(full, seed <= 3 ? 0.05 : 0, seed <= 3 ? 1 : 0.05, seed, false);
        const Mapped m = map_relabelled(f, seed);
        INFO("seed " << seed << ": " << m.shape.why_not);
        REQUIRE(m.shape.family == Family::Torus);
        CHECK(same_up_to_symmetry(m.shape, truth(m.r, m.g)));
        CHECK(m.shape.missing_switches.size() == rep.removed_switches.size());
    }
}

TEST_CASE("a 2D torus with a failed link or switch maps (one square per pair of positions)",
          "[mapping]") {
    // On a 2D torus two ring positions of different dimensions share a single square: a
    // failed link hides their orthogonality, and it must not merge the dimensions.
    const Fabric full = gen::torus({{5, 6}, {}, 1, true, 0});
    for (const auto& [links, switches] :
         {std::pair<std::vector<std::string>, std::vector<std::string>>{{"sw-0.0[2]"}, {}},
          {{}, {"sw-1.1"}},
          {{"sw-2.3[4]", "sw-4.1[2]"}, {}}}) {
        gen::FailureSpec spec;
        spec.link_names = links;
        spec.switch_names = switches;
        gen::FailureReport rep;
        const Mapped m = map_relabelled(gen::inject_failures(full, spec, rep), 3);
        INFO(m.shape.why_not);
        REQUIRE(m.shape.family == Family::Torus);
        CHECK(same_up_to_symmetry(m.shape, truth(m.r, m.g)));
        CHECK(m.shape.missing_links.size() == rep.removed_links.size());
    }
}
