// Mapping (mapping/map_fabric.hpp, paper 003 §2) recovers each generator's structure from the
// cabling alone: every fabric is first relabelled (node order, GUIDs, descriptions and port
// numbers shuffled), and the recovered coordinates are compared with the generator's labels
// up to the topology's symmetries (a permutation of the dimensions; any relabelling of a
// complete dimension's values; a rotation or reflection of a ring).
#include "generators/dragonfly.hpp"
#include "generators/failures.hpp"
#include "generators/fat_tree.hpp"
#include "generators/hyperx.hpp"
#include "generators/random_graph.hpp"
#include "generators/torus.hpp"
#include "mapped.hpp"
#include "mapping/map_fabric.hpp"
#include "mapping/shape_compare.hpp"
#include "tests/generators/damaged.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
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

TEST_CASE("a Dragonfly maps to its groups, every global link joins two groups once", "[mapping]") {
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
        {"Dragonfly K=16 G=8, 40 % switches, 10 % links", gen::dragonfly(df), 0.40, 0.10},
    };
    for (const Claim& c : claims)
        for (std::uint64_t seed = 1; seed <= 2; ++seed) {
            INFO(c.name << ", seed " << seed);
            const auto [f, rep] = test::damaged(c.full, c.links, c.switches, seed, false);
            const SwitchLinks g = switch_links(f);
            const Shape s = map_fabric(f, g, link_classes(g));
            INFO(s.why_not);
            CHECK(matches_generator(s, g, generator_coords(f, g)));
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

namespace {

gen::DragonflyParams k16_g8() {
    gen::DragonflyParams df;
    df.a = 16;
    df.h = 8;
    df.p = 8;
    df.groups = 128;
    return df;
}

std::set<std::uint32_t> not_known(const Mapped& m) {
    const std::vector<bool> known = dragonfly_known(m.g, m.truth);
    std::set<std::uint32_t> out;
    for (std::uint32_t v = 0; v < known.size(); ++v)
        if (!known[v]) out.insert(v);
    return out;
}

} // namespace

// Paper 003 §2.2's claim point, seeds (as bench_map --robustness numbers them) that mapped
// wrong before: a small group too sparse for the density test (20, 38), a global triangle
// that made the dense classes an odd cycle (83), and a group left with two switches, one of
// which was joined to a neighbouring group (33: the cabling does not tell that pair's group,
// and both are now unplaced); and seeds where single switches' groups are not told (1, 18).
TEST_CASE("Dragonfly K=16 G=8 with 40 % of switches and 10 % of links missing maps every "
          "switch the cabling places",
          "[mapping][scale]") {
    const Fabric full = gen::dragonfly(k16_g8());
    for (std::uint64_t seed : {20, 33, 38, 83, 1, 18}) {
        INFO("seed " << seed);
        const auto [f, rep] = test::damaged(full, 0.10, 0.40, seed, false);
        const Mapped m = map_relabelled(f, seed);
        INFO(m.shape.why_not);
        REQUIRE(m.shape.family == Family::Dragonfly);
        CHECK(matches_generator(m.shape, m.g, m.truth));
        // Unplaced are exactly the switches whose group the cabling does not tell.
        const std::set<std::uint32_t> unplaced(m.shape.unplaced.begin(), m.shape.unplaced.end());
        CHECK(unplaced == not_known(m));
        CHECK(unplaced.empty() == (seed != 1 && seed != 18 && seed != 33));
        // Those are held to no group; the others all are.
        CHECK(matches_generator(m.shape, m.truth) == unplaced.empty());
    }
}

TEST_CASE("a Dragonfly switch placed in the wrong group, or guessed into one, is wrong",
          "[mapping]") {
    const Fabric full = gen::dragonfly(k16_g8());
    const auto [f, rep] = test::damaged(full, 0.10, 0.40, 1, false);
    const Mapped m = map_relabelled(f, 4);
    REQUIRE(matches_generator(m.shape, m.g, m.truth));
    const std::set<std::uint32_t> unknown = not_known(m);
    REQUIRE(unknown.size() == 1);
    const std::uint32_t lone = *unknown.begin();
    const std::uint32_t other = lone == 0 ? 1 : 0; // a known switch
    Shape moved = m.shape;
    moved.group[other] = m.shape.group[lone]; // a known switch in the lone one's group
    CHECK_FALSE(matches_generator(moved, m.g, m.truth));
    Shape guessed = m.shape;
    guessed.unplaced.clear();
    for (std::uint32_t v = 0; v < m.truth.size(); ++v)
        if (m.truth[v][0] != m.truth[lone][0]) {
            guessed.group[lone] = m.shape.group[v]; // into a group it is not in
            break;
        }
    CHECK_FALSE(matches_generator(guessed, m.g, m.truth));
    for (std::uint32_t v = 0; v < m.truth.size(); ++v)
        if (v != lone && m.truth[v][0] == m.truth[lone][0]) {
            guessed.group[lone] = m.shape.group[v]; // a lucky guess is not wrong
            break;
        }
    CHECK(matches_generator(guessed, m.g, m.truth));
}

TEST_CASE("rings of 3 beside longer rings map as a torus, also damaged", "[mapping]") {
    for (const std::vector<int>& k : {std::vector<int>{3, 6}, {5, 3, 7, 3}, {3, 8, 8}}) {
        const Mapped m = map_relabelled(gen::torus({k, {}, 1, true, 0}), 7);
        INFO(m.shape.why_not);
        REQUIRE(m.shape.family == Family::Torus);
        std::multiset<int> got, want(k.begin(), k.end());
        for (const auto& d : m.shape.dims) {
            got.insert(d.k);
            CHECK(d.ring);
        }
        CHECK(got == want);
        CHECK(same_up_to_symmetry(m.shape, truth(m.r, m.g)));
    }
    // What the torus engine routes around: a failed link, a failed switch.
    const Fabric full = gen::torus({{3, 6, 7}, {}, 1, true, 0});
    for (const auto& [links, switches] :
         {std::pair<std::vector<std::string>, std::vector<std::string>>{{"sw-1.2.3[2]"}, {}},
          {{}, {"sw-0.4.4"}},
          {{"sw-2.0.5[4]", "sw-0.3.1[5]"}, {"sw-1.1.1"}}}) {
        gen::FailureSpec spec;
        spec.link_names = links;
        spec.switch_names = switches;
        gen::FailureReport rep;
        const Mapped m = map_relabelled(gen::inject_failures(full, spec, rep), 5);
        INFO(m.shape.why_not);
        REQUIRE(m.shape.family == Family::Torus);
        CHECK(same_up_to_symmetry(m.shape, truth(m.r, m.g)));
        CHECK(m.shape.missing_switches.size() == rep.removed_switches.size());
        CHECK(m.shape.missing_links.size() == rep.removed_links.size());
    }
}

// A ring of 3 is K3 and a ring of 4 is K2 x K2: a torus with no longer ring is, as a graph,
// a FlatFly or hypercube, and nothing in the cabling tells them apart. It maps as that; each
// ring corresponds to its recovered dimensions one to one (a 4-ring's positions are pairs of
// K2 values, in Gray code order since every link is one step), which is the same fabric for
// routing (docs/results/mapping.md).
TEST_CASE("a torus of rings of 3 and 4 only maps as the FlatFly or hypercube it is", "[mapping]") {
    for (const std::vector<int>& k : {std::vector<int>{4, 3}, {4, 4}, {3, 3}, {4, 4, 3}}) {
        const Mapped m = map_relabelled(gen::torus({k, {}, 1, true, 0}), 9);
        INFO(m.shape.why_not);
        REQUIRE((m.shape.family == Family::FlatFly || m.shape.family == Family::Hypercube));
        CHECK(m.shape.missing_links.empty());
        CHECK(m.shape.missing_switches.empty());
        const auto want = truth(m.r, m.g);
        // Each generated ring: the recovered dimensions that are a function of its value.
        std::vector<bool> used(m.shape.dims.size(), false);
        for (std::size_t q = 0; q < k.size(); ++q) {
            std::vector<std::size_t> rs;
            for (std::size_t r = 0; r < m.shape.dims.size(); ++r) {
                std::map<int, int> f;
                bool function = true;
                for (std::size_t v = 0; v < want.size(); ++v)
                    function &= f.emplace(want[v][q], m.shape.coord[v][r]).first->second ==
                                m.shape.coord[v][r];
                if (function) rs.push_back(r);
            }
            int values = 1;
            std::map<std::vector<int>, int> tuple_to_ring;
            bool injective = true;
            for (std::size_t r : rs) {
                CHECK_FALSE(used[r]);
                used[r] = true;
                values *= m.shape.dims[r].k;
            }
            for (std::size_t v = 0; v < want.size(); ++v) {
                std::vector<int> t;
                for (std::size_t r : rs) t.push_back(m.shape.coord[v][r]);
                injective &= tuple_to_ring.emplace(t, want[v][q]).first->second == want[v][q];
            }
            CHECK(values == k[q]);
            CHECK(injective);
        }
        CHECK(std::count(used.begin(), used.end(), true) == std::ptrdiff_t(used.size()));
    }
}
