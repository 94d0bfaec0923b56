// Paper 001 §VI path computations: every path Up*/Down* legal and shortest among legal
// routes, exact routes where only one is legal, and the balance of path selection.
#include "../check/fixtures.hpp"
#include "fabric/generators/random_graph.hpp"
#include "graph/yen.hpp"
#include "lidassign/path_compute.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

using namespace ibrt;
using namespace ibrt::lidassign;

namespace {

bool legal(const Fabric& f, const graph::UpDown& ud, std::span<const PortId> p) {
    bool down = false;
    for (PortId e : p) {
        if (ud.up(f, e) && down) return false;
        down |= !ud.up(f, e);
    }
    return true;
}

// shortest: every path has the fewest legal hops (shortest-widest); otherwise every path is
// one of Yen's 16 loopless legal routes of its switch pair (path selection's candidates).
void check_paths(const Fabric& f, const graph::UpDown& ud, const PathSet& ps,
                 bool shortest = true) {
    REQUIRE(ps.size() == f.cas().size());
    for (std::size_t di = 0; di < ps.size(); ++di) {
        const DestPaths& d = ps[di];
        CHECK(d.dst == f.cas()[di]);
        REQUIRE(d.size() == f.cas().size() - 1);
        REQUIRE_NOTHROW(validate(f, d));
        const graph::ShortestDag g = graph::shortest_dag(f, ud, d.dst);
        for (std::size_t i = 0; i < d.size(); ++i) {
            const auto p = d.path(i);
            CHECK(legal(f, ud, p));
            if (shortest) {
                CHECK(p.size() == g.at(f.port_node(p[0]), 0));
                continue;
            }
            CHECK(p.size() >= g.at(f.port_node(p[0]), 0));
            REQUIRE(p.size() >= 2);
            const std::vector<PortId> mid(p.begin() + 1, p.end() - 1);
            const auto cands =
                graph::yen_k_shortest(f, ud, f.port(p[0]).peer_node, f.port_node(p.back()), 16);
            CHECK(std::find(cands.begin(), cands.end(), mid) != cands.end());
        }
    }
}

} // namespace

TEST_CASE("ring rooted at A: hB -> hD must go over A (B -> C -> D turns down-up)") {
    using namespace ibrt::test;
    const Routed x = clockwise_ring();
    const Fabric& f = x.f;
    const graph::UpDown ud = graph::make_updown(f, A);
    CHECK(ud.level[A] == 0);
    CHECK(ud.level[B] == 1);
    CHECK(ud.level[D] == 1);
    CHECK(ud.level[C] == 2);
    for (PathScheme s : {PathScheme::ShortestWidest, PathScheme::PathSelection}) {
        INFO(to_string(s));
        const PathSet ps =
            s == PathScheme::ShortestWidest ? shortest_widest(f, ud) : path_selection(f, ud, 16);
        check_paths(f, ud, ps);
        // Destination hD is the 4th CA; sources hA, hB, hC in order.
        const auto p = ps[3].path(1);
        CHECK(std::vector<PortId>(p.begin(), p.end()) ==
              std::vector<PortId>{f.port_id(hB, 1), f.port_id(B, 3), f.port_id(A, 3),
                                  f.port_id(D, 1)});
    }
}

TEST_CASE("two-level tree rooted at a leaf: path selection splits each direction 2/2") {
    using namespace ibrt::test;
    const Routed x = two_level_tree();
    const Fabric& f = x.f;
    const graph::UpDown ud = graph::make_updown(f, L0);
    const PathSet ps = path_selection(f, ud, 16);
    check_paths(f, ud, ps);
    std::map<PortId, int> load;
    for (const DestPaths& d : ps)
        for (PortId e : d.edges)
            if (f.node(f.port_node(e)).is_switch() && f.node(f.port(e).peer_node).is_switch())
                ++load[e];
    // 4 leaf-to-leaf pairs per direction over 2 spines: 2 paths on each of the 8 links.
    CHECK(load.size() == 8);
    for (auto [e, n] : load) CHECK(n == 2);
    CHECK(max_link_load(f, ps) == Approx(2.0 / 3.0));
}

TEST_CASE("random irregular fabrics: every pair gets a legal Up*/Down* path (shortest for SW, "
          "a Yen candidate for PS)") {
    for (std::uint64_t seed : {1, 2, 3}) {
        INFO("seed " << seed);
        gen::RandomParams rp;
        rp.switches = 16;
        rp.degree = 4;
        rp.cas = 32;
        rp.seed = seed;
        const Fabric f = gen::random_fabric(rp);
        const graph::UpDown ud = graph::make_updown(f, graph::choose_root(f, seed));
        check_paths(f, ud, shortest_widest(f, ud));
        const PathSet sel = path_selection(f, ud, 16);
        check_paths(f, ud, sel, false);
        // Yen admits longer routes and the load balancing uses some of them.
        std::size_t longer = 0;
        for (const DestPaths& d : sel) {
            const graph::ShortestDag g = graph::shortest_dag(f, ud, d.dst);
            for (std::size_t i = 0; i < d.size(); ++i)
                longer += d.path(i).size() > g.at(f.port_node(d.path(i)[0]), 0);
        }
        CHECK(longer > 0);
        // Deterministic: the same inputs give the same paths.
        const PathSet a = path_selection(f, ud, 16), b = path_selection(f, ud, 16);
        for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i].edges == b[i].edges);
    }
}
