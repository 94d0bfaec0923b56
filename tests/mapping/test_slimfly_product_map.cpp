// Slim Fly x FlatFly mapping (mapping/slimfly_product_map.hpp, paper 003 §1.5): from the cabling
// alone, after shuffling node order, GUIDs, descriptions and port numbers, a product is
// recognised with its q and FlatFly factor, and the recovered coordinates are the generator's
// up to an automorphism of the MMS graph and a renumbering of each FlatFly dimension; the other
// families are not taken for products.
#include "generators/hyperx.hpp"
#include "generators/slimfly.hpp"
#include "generators/torus.hpp"
#include "mapped.hpp"
#include "mapping/map_fabric.hpp"
#include "mapping/shape_compare.hpp"
#include "tests/generators/damaged.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>

using namespace ibrt;
using namespace ibrt::mapping;
using test::map_relabelled;
using test::Mapped;

namespace {

Fabric product(int q, std::vector<int> k, int parallel = 1, std::vector<int> width = {}) {
    gen::SlimFlyParams p;
    p.q = q;
    p.parallel = parallel;
    p.cas_per_switch = 1;
    p.ff_k = std::move(k);
    p.ff_width = std::move(width);
    return gen::slimfly(p);
}

std::vector<int> sorted_k(const Shape& s) {
    std::vector<int> k;
    for (const Dimension& d : s.dims) k.push_back(d.k);
    std::sort(k.begin(), k.end());
    return k;
}

} // namespace

TEST_CASE("slimfly x flatfly: a pristine product maps to its q, its FlatFly and the generator's "
          "coordinates",
          "[mapping][slimfly]") {
    // q = 3 has triangles at every switch and q = 8 K4s in one subgraph's columns: clique
    // classes that are not FlatFly dimensions.
    for (int q : {3, 4, 5, 8})
        for (const std::vector<int>& k : {std::vector<int>{3}, std::vector<int>{4, 3}}) {
            const Mapped m = map_relabelled(product(q, k), std::uint64_t(q * 10 + k.size()));
            INFO("q = " << q << " FlatFly dims " << k.size() << ": " << m.shape.why_not);
            REQUIRE(m.shape.family == Family::SlimFly);
            CHECK(m.shape.q == q);
            std::vector<int> want = k;
            std::sort(want.begin(), want.end());
            CHECK(sorted_k(m.shape) == want);
            CHECK(m.shape.link_width == 1);
            CHECK(m.shape.missing_switches.empty());
            CHECK(m.shape.missing_links.empty());
            CHECK(matches_generator(m.shape, m.truth));
        }
}

TEST_CASE("slimfly x flatfly: parallel cables give the widths L of both factors",
          "[mapping][slimfly]") {
    const Mapped m = map_relabelled(product(4, {3, 4}, 2, {1, 3}), 5);
    REQUIRE(m.shape.family == Family::SlimFly);
    CHECK(m.shape.link_width == 2);
    REQUIRE(m.shape.dims.size() == 2);
    for (const Dimension& d : m.shape.dims) CHECK(d.width == (d.k == 3 ? 1 : 3));
    CHECK(matches_generator(m.shape, m.truth));
}

TEST_CASE("slimfly x flatfly: the coordinates check fails on a wrong reading",
          "[mapping][slimfly]") {
    Mapped m = map_relabelled(product(4, {3}), 7);
    REQUIRE(matches_generator(m.shape, m.truth));
    // Swap the FlatFly coordinate of two switches that differ in it.
    std::size_t v = 1;
    while (m.shape.coord[v][3] == m.shape.coord[0][3]) ++v;
    std::swap(m.shape.coord[0][3], m.shape.coord[v][3]);
    CHECK_FALSE(matches_generator(m.shape, m.truth));
}

TEST_CASE("slimfly x flatfly: a product missing one Slim Fly cable names it",
          "[mapping][slimfly]") {
    const Fabric full = product(4, {3});
    // Without one Slim Fly cable (its two switches differ in (t, x, y), the label's first part).
    FabricBuilder b;
    for (NodeId n = 0; n < full.num_nodes(); ++n) {
        const Node& x = full.node(n);
        b.add_node(x.type, x.num_ports, x.guid, x.desc);
    }
    bool removed = false;
    for (NodeId n = 0; n < full.num_nodes(); ++n)
        for (PortNum p = 1; p <= full.node(n).num_ports; ++p) {
            const Port& port = full.port(n, p);
            if (!port.connected() || port.peer_node < n) continue;
            const bool sf_link =
                full.node(n).is_switch() && full.node(port.peer_node).is_switch() &&
                full.node(n).desc.substr(0, 8) != full.node(port.peer_node).desc.substr(0, 8);
            if (sf_link && !removed) {
                removed = true;
                continue;
            }
            b.connect(n, p, port.peer_node, port.peer_port, port.width, port.speed);
        }
    REQUIRE(removed);
    const Fabric f = std::move(b).build();
    const SwitchLinks g = switch_links(f);
    const Shape s = map_fabric(f, g, link_classes(g));
    INFO(s.why_not);
    REQUIRE(s.family == Family::SlimFly);
    CHECK(s.q == 4);
    CHECK(s.missing_switches.empty());
    REQUIRE(s.missing_links.size() == 1);
    const MissingLink& m = s.missing_links[0];
    CHECK(m.cables == 0);
    // Same FlatFly coordinate, different Slim Fly vertices.
    CHECK(s.coord[m.a][3] == s.coord[m.b][3]);
    CHECK_FALSE(std::equal(s.coord[m.a].begin(), s.coord[m.a].begin() + 3, s.coord[m.b].begin()));
    CHECK(matches_generator(s, generator_coords(f, g)));
}

// Random missing cables (and a switch) as `ibrt gen --fail-links N --fail-switches 1
// --keep-connected` makes them: near-cliques and one smaller piece in the FlatFly classes.
TEST_CASE("slimfly x flatfly: degraded products map with their missing switch and cables",
          "[mapping][slimfly]") {
    struct Case {
        int q;
        std::vector<int> k;
        double links, switches;
    };
    // q = 4 x K8 (paper 003's SF×FF-2 at reduced scale) with 5 % and 10 % of its cables gone:
    // most of its K8 copies miss a link, so a clique class cannot ask for complete pieces.
    for (const Case& c :
         {Case{4, {4}, 6, 0}, Case{4, {4}, 6, 1}, Case{3, {3}, 4, 0}, Case{3, {3}, 4, 1},
          Case{4, {3, 3}, 8, 1}, Case{4, {8}, 0.05, 0}, Case{4, {8}, 0.1, 0}})
        for (std::uint64_t seed = 1; seed <= 4; ++seed) {
            const auto [f, rep] = test::damaged(product(c.q, c.k), c.links, c.switches, seed);
            const Mapped m = map_relabelled(f, seed);
            INFO("q = " << c.q << " FlatFly dims " << c.k.size() << " switches " << c.switches
                        << " seed " << seed << ": " << m.shape.why_not);
            REQUIRE(m.shape.family == Family::SlimFly);
            CHECK(m.shape.q == c.q);
            std::vector<int> want = c.k;
            std::sort(want.begin(), want.end());
            CHECK(sorted_k(m.shape) == want);
            CHECK(m.shape.missing_switches.size() == rep.removed_switches.size());
            CHECK(m.shape.missing_links.size() == rep.removed_links.size());
            // Each missing link joins the two switches of a removed cable ("A[pa] <-> B[pb]",
            // by the generator's labels, which the mapping never reads).
            std::set<std::pair<std::string, std::string>> removed;
            for (const std::string& r : rep.removed_links) {
                const std::size_t arrow = r.find(" <-> ");
                std::string a = r.substr(0, r.rfind('[', arrow));
                std::string b = r.substr(arrow + 5, r.rfind('[') - arrow - 5);
                removed.emplace(std::min(a, b), std::max(a, b));
            }
            for (const MissingLink& l : m.shape.missing_links) {
                CHECK(l.cables == 0);
                const std::string& a = m.r.original_desc[m.g.node[l.a]];
                const std::string& b = m.r.original_desc[m.g.node[l.b]];
                CHECK(removed.count({std::min(a, b), std::max(a, b)}) == 1);
            }
            CHECK(matches_generator(m.shape, m.truth));
            // The missing switch's coordinates are the ones no switch has.
            for (const auto& x : m.shape.missing_switches)
                CHECK(std::find(m.shape.coord.begin(), m.shape.coord.end(), x) ==
                      m.shape.coord.end());
        }
}

TEST_CASE("slimfly x flatfly: FlatFlies, tori with rings of 3 and plain Slim Flies keep their "
          "families",
          "[mapping][slimfly]") {
    CHECK(map_fabric(gen::hyperx({{3, 4, 5}, {}, 1, 0})).family == Family::FlatFly);
    CHECK(map_fabric(gen::torus({{3, 5}, {}, 1, true, 0})).family == Family::Torus);
    const Shape sf = map_fabric(product(5, {}));
    CHECK(sf.family == Family::SlimFly);
    CHECK(sf.dims.empty());
}
