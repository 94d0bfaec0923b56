// Mapping (mapping/map_fabric.hpp, paper 003 §2) recovers each generator's structure from the
// cabling alone: every fabric is first relabelled (node order, GUIDs, descriptions and port
// numbers shuffled), and the recovered coordinates are compared with the generator's labels
// up to the topology's symmetries (a permutation of the dimensions; any relabelling of a
// complete dimension's values; a rotation or reflection of a ring).
#include "fabric/generators/dragonfly.hpp"
#include "fabric/generators/failures.hpp"
#include "fabric/generators/fat_tree.hpp"
#include "fabric/generators/hyperx.hpp"
#include "fabric/generators/random_graph.hpp"
#include "fabric/generators/torus.hpp"
#include "mapping/map_fabric.hpp"
#include "relabel.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <sstream>

using namespace ibrt;
using namespace ibrt::mapping;

namespace {

// "sw-1.0.3" -> {1, 0, 3}; "sw-g3-1" -> {3, 1}.
std::vector<int> label_coords(std::string d) {
    REQUIRE(d.rfind("sw-", 0) == 0);
    d = d.substr(3);
    if (!d.empty() && d[0] == 'g') d = d.substr(1);
    for (char& c : d)
        if (c == '.' || c == '-') c = ' ';
    std::istringstream in(d);
    std::vector<int> v;
    for (int x; in >> x;) v.push_back(x);
    return v;
}

// The generator's coordinates of every switch, by dense id of `f`.
std::vector<std::vector<int>> truth(const test::Relabelled& r, const SwitchLinks& g) {
    std::vector<std::vector<int>> t;
    for (NodeId n : g.node) t.push_back(label_coords(r.original_desc[n]));
    return t;
}

// Whether value map x -> y of one dimension is a bijection (and, on a ring of k, a rotation
// or reflection).
bool dimension_matches(const std::vector<std::vector<int>>& got, std::size_t r,
                       const std::vector<std::vector<int>>& want, std::size_t q, bool ring, int k) {
    std::map<int, int> to;
    std::map<int, int> from;
    for (std::size_t v = 0; v < got.size(); ++v) {
        const auto [a, fa] = to.emplace(got[v][r], want[v][q]);
        const auto [b, fb] = from.emplace(want[v][q], got[v][r]);
        if (a->second != want[v][q] || b->second != got[v][r]) return false;
    }
    if (!ring) return true;
    int dir = 0;
    for (const auto& [x, y] : to) {
        const auto nx = to.find((x + 1) % k);
        if (nx == to.end()) continue;
        const int step = ((nx->second - y) % k + k) % k;
        if (step != 1 && step != k - 1) return false;
        if (dir == 0) dir = step;
        if (step != dir) return false;
    }
    return true;
}

bool same_up_to_symmetry(const Shape& s, const std::vector<std::vector<int>>& want) {
    const std::size_t n = s.dims.size();
    if (want.empty() || want[0].size() != n) return false;
    std::vector<bool> used(n, false);
    for (std::size_t r = 0; r < n; ++r) {
        bool found = false;
        for (std::size_t q = 0; q < n && !found; ++q)
            if (!used[q] && dimension_matches(s.coord, r, want, q, s.dims[r].ring, s.dims[r].k))
                used[q] = found = true;
        if (!found) return false;
    }
    return true;
}

struct Mapped {
    test::Relabelled r;
    SwitchLinks g;
    Shape shape;
};

Mapped map_relabelled(const Fabric& f, std::uint64_t seed) {
    Mapped m{test::relabel(f, seed), {}, {}};
    m.g = switch_links(m.r.fabric);
    m.shape = map_fabric(m.r.fabric, m.g, link_classes(m.g));
    return m;
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
    // The recovered groups are the generator's groups.
    const auto want = truth(m.r, m.g);
    std::map<int, int> to;
    for (std::size_t v = 0; v < want.size(); ++v) {
        const auto [it, fresh] = to.emplace(m.shape.group[v], want[v][0]);
        CHECK(it->second == want[v][0]);
    }
    CHECK(to.size() == 9);
}

TEST_CASE("a damaged HyperX still maps, and says what is missing", "[mapping]") {
    const Fabric full = gen::hyperx({{4, 8, 8}, {}, 1, 0});
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        gen::FailureSpec spec;
        spec.links = 0.15;
        spec.switches = 0.20;
        spec.seed = seed;
        spec.keep_connected = true;
        gen::FailureReport rep;
        const Fabric f = gen::inject_failures(full, spec, rep);
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
