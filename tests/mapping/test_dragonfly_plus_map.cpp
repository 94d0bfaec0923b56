// Dragonfly+ mapping (issue 37; mapping/dragonfly_plus_map.hpp): relabelled fabrics (node order,
// GUIDs, names and port numbers shuffled) map to the generator's groups, leaves and spines in
// every global arrangement and with several links per pair, intact and damaged; other families
// are not read as a Dragonfly+, nor a Dragonfly+ as a Dragonfly.
#include "generators/dragonfly.hpp"
#include "generators/dragonfly_plus.hpp"
#include "generators/fat_tree.hpp"
#include "mapping/map_fabric.hpp"
#include "relabel.hpp"
#include "tests/generators/damaged.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <string>

using namespace ibrt;
using mapping::Family;

namespace {

constexpr gen::GlobalArrangement kAll[] = {
    gen::GlobalArrangement::Absolute, gen::GlobalArrangement::Relative,
    gen::GlobalArrangement::Circulant, gen::GlobalArrangement::Random};

// The generator's group and kind from a label "leaf-g<G>-<i>" / "spine-g<G>-<i>" (parsed here,
// independently of the mapping); group -1 for anything else.
struct Truth {
    int group = -1;
    bool spine = false;
};
Truth truth_of(const std::string& label) {
    Truth t;
    const auto g = label.find("-g");
    if (g == std::string::npos) return t;
    t.spine = label.starts_with("spine");
    t.group = std::stoi(label.substr(g + 2));
    return t;
}

struct Result {
    std::size_t wrong_group = 0, wrong_kind = 0, unplaced_with_leaf = 0;
};

// Whether the mapped groups are the generator's (one to one on the switches placed), the
// spines its spines, and every switch left unplaced a spine without a leaf.
Result compare(const test::Relabelled& rl, const mapping::SwitchLinks& g, const mapping::Shape& s) {
    Result out;
    std::map<int, int> to, from;
    std::vector<std::uint8_t> unplaced(g.num_switches(), 0);
    for (std::uint32_t v : s.unplaced) unplaced[v] = 1;
    for (std::uint32_t v = 0; v < g.num_switches(); ++v) {
        const Truth t = truth_of(rl.original_desc[g.node[v]]);
        out.wrong_kind += bool(s.spine[v]) != t.spine;
        if (unplaced[v]) {
            for (const auto& i : g.around(v))
                out.unplaced_with_leaf += !truth_of(rl.original_desc[g.node[i.peer]]).spine;
            continue;
        }
        const int a = to.emplace(s.group[v], t.group).first->second;
        const int b = from.emplace(t.group, s.group[v]).first->second;
        out.wrong_group += a != t.group || b != s.group[v];
    }
    return out;
}

gen::DragonflyPlusParams params(int leaves, int spines, int h, int m, int groups,
                                gen::GlobalArrangement arr, std::uint64_t seed) {
    gen::DragonflyPlusParams p;
    p.leaves = leaves;
    p.spines = spines;
    p.h = h;
    p.p = 2;
    p.links_per_pair = m;
    p.groups = groups;
    p.arrangement = arr;
    p.seed = seed;
    return p;
}

} // namespace

TEST_CASE("Dragonfly+: generator cabling", "[mapping]") {
    const Fabric f = gen::dragonfly_plus(params(3, 4, 2, 1, 0, kAll[0], 1));
    CHECK(f.switches().size() == 9u * 7u); // 4 * 2 + 1 groups
    CHECK(f.cas().size() == 9u * 3u * 2u);
    CHECK(f.num_links() == 9u * 3u * 2u + 9u * 3u * 4u + 9u * 8u / 2u);
    CHECK_THROWS_WITH(gen::dragonfly_plus(params(2, 2, 2, 2, 4, kAll[0], 1)),
                      "dragonfly-plus: the group count must be in 2..3 "
                      "(spines*h/links_per_pair + 1), got 4");
}

TEST_CASE("intact Dragonfly+ fabrics map to their groups, leaves and spines", "[mapping]") {
    struct Size {
        int leaves, spines, h, m, groups;
    };
    for (const Size z : {Size{2, 2, 2, 1, 0}, Size{4, 4, 4, 1, 0}, Size{3, 5, 3, 1, 0},
                         Size{4, 4, 4, 2, 0}, Size{4, 2, 4, 1, 6}, Size{2, 3, 4, 3, 0}})
        for (gen::GlobalArrangement arr : kAll)
            for (std::uint64_t seed = 1; seed <= 2; ++seed) {
                INFO("leaves " << z.leaves << " spines " << z.spines << " h " << z.h << " m " << z.m
                               << " groups " << z.groups << " arrangement " << int(arr) << " seed "
                               << seed);
                const Fabric f =
                    gen::dragonfly_plus(params(z.leaves, z.spines, z.h, z.m, z.groups, arr, seed));
                const test::Relabelled rl = test::relabel(f, seed * 17 + 3);
                const mapping::SwitchLinks g = mapping::switch_links(rl.fabric);
                const mapping::Shape s =
                    mapping::map_fabric(rl.fabric, g, mapping::link_classes(g));
                INFO(s.why_not);
                REQUIRE(s.family == Family::DragonflyPlus);
                CHECK(s.groups == (z.groups ? z.groups : z.spines * z.h / z.m + 1));
                CHECK(s.leaves_per_group == z.leaves);
                CHECK(s.spines_per_group == z.spines);
                CHECK(s.links_per_pair == z.m);
                CHECK(s.cas_per_switch == 2);
                CHECK(s.unplaced.empty());
                CHECK(s.missing_links.empty());
                CHECK(s.missing_switches.empty());
                CHECK(s.missing_global_links == 0);
                const Result c = compare(rl, g, s);
                CHECK(c.wrong_group == 0);
                CHECK(c.wrong_kind == 0);
            }
}

TEST_CASE("damaged Dragonfly+ fabrics map with every placed switch in its group", "[mapping]") {
    std::size_t mapped = 0, with_unplaced = 0;
    for (gen::GlobalArrangement arr : kAll)
        for (std::uint64_t seed = 1; seed <= 6; ++seed) {
            INFO("arrangement " << int(arr) << " seed " << seed);
            const Fabric f = gen::dragonfly_plus(params(4, 4, 4, 1, 0, arr, seed));
            const test::Damaged d = test::damaged(f, 0.10, 0.10, seed);
            const test::Relabelled rl = test::relabel(d.fabric, seed + 50);
            const mapping::SwitchLinks g = mapping::switch_links(rl.fabric);
            const mapping::Shape s = mapping::map_fabric(rl.fabric, g, mapping::link_classes(g));
            INFO(s.why_not);
            REQUIRE(s.family == Family::DragonflyPlus);
            ++mapped;
            with_unplaced += !s.unplaced.empty();
            CHECK(s.leaves_per_group == 4);
            CHECK(s.spines_per_group == 4);
            CHECK(!s.missing_links.empty()); // 10 % of the cables are out
            const Result c = compare(rl, g, s);
            CHECK(c.wrong_group == 0);
            CHECK(c.wrong_kind == 0);
            CHECK(c.unplaced_with_leaf == 0);
        }
    CHECK(mapped == 24);
}

TEST_CASE("other families are not read as a Dragonfly+, nor a Dragonfly+ as another", "[mapping]") {
    // A three-level fat tree: pods joined only through its top switches.
    CHECK(mapping::map_fabric(gen::fat_tree(4, 3)).family != Family::DragonflyPlus);
    // A two-level one: a single group.
    CHECK(mapping::map_fabric(gen::fat_tree(8, 2)).family != Family::DragonflyPlus);
    // A Dragonfly: switches with CAs cabled to each other.
    gen::DragonflyParams df;
    CHECK(mapping::map_fabric(gen::dragonfly(df)).family == Family::Dragonfly);
    // Before the Dragonfly+ reading, this one mapped as a Dragonfly of 13 groups.
    CHECK(mapping::map_fabric(gen::dragonfly_plus(params(2, 2, 2, 1, 0, kAll[0], 1))).family ==
          Family::DragonflyPlus);
}
