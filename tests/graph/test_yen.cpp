// Yen's k shortest loopless Up*/Down* legal routes (paper 001 §VI, ref. [17]): exact lists on a
// hand-built graph with parallel cables, and agreement with brute-force enumeration of every
// loopless legal route on random irregular fabrics.
#include "generators/random_graph.hpp"
#include "graph/yen.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace ibrt;
using namespace ibrt::graph;

namespace {

using Route = std::vector<PortId>;

// R(0) root; R:1-A:1, R:2-B:1, A:2-B:2, A:3-C:1, B:3-C:2, B:4-C:3 (two parallel B-C cables).
// Levels R 0, A 1, B 1, C 2; A-B ties, so B -> A is up and A -> B down.
enum : NodeId { R = 0, A, B, C };

Fabric diamond() {
    FabricBuilder b;
    b.add_node(NodeType::Switch, 2, 0x10, "R");
    b.add_node(NodeType::Switch, 3, 0x11, "A");
    b.add_node(NodeType::Switch, 4, 0x12, "B");
    b.add_node(NodeType::Switch, 3, 0x13, "C");
    b.connect(R, 1, A, 1);
    b.connect(R, 2, B, 1);
    b.connect(A, 2, B, 2);
    b.connect(A, 3, C, 1);
    b.connect(B, 3, C, 2);
    b.connect(B, 4, C, 3);
    return std::move(b).build();
}

bool legal(const Fabric& f, const UpDown& ud, const Route& p) {
    bool down = false;
    for (PortId e : p) {
        if (ud.up(f, e) && down) return false;
        down |= !ud.up(f, e);
    }
    return true;
}

// Every loopless legal switch route src -> dst by DFS, sorted by (hops, PortIds).
void enumerate(const Fabric& f, const UpDown& ud, NodeId n, NodeId dst, bool down,
               std::vector<bool>& on, Route& cur, std::vector<Route>& out) {
    if (n == dst) {
        out.push_back(cur);
        return;
    }
    for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
        const PortId e = f.port_id(n, p);
        const Port& port = f.port(e);
        if (!port.connected() || !f.node(port.peer_node).is_switch() || on[port.peer_node])
            continue;
        const bool up = ud.up(f, e);
        if (up && down) continue;
        on[port.peer_node] = true;
        cur.push_back(e);
        enumerate(f, ud, port.peer_node, dst, down || !up, on, cur, out);
        cur.pop_back();
        on[port.peer_node] = false;
    }
}

std::vector<Route> all_routes(const Fabric& f, const UpDown& ud, NodeId s, NodeId d) {
    std::vector<bool> on(f.num_nodes(), false);
    on[s] = true;
    Route cur;
    std::vector<Route> out;
    enumerate(f, ud, s, d, false, on, cur, out);
    std::sort(out.begin(), out.end(), [](const Route& a, const Route& b) {
        return a.size() != b.size() ? a.size() < b.size() : a < b;
    });
    return out;
}

} // namespace

TEST_CASE("yen on the diamond: all legal loopless routes in (hops, PortId) order") {
    const Fabric f = diamond();
    const UpDown ud = make_updown(f, R);
    REQUIRE(ud.level == std::vector<int>{0, 1, 1, 2});
    auto e = [&](NodeId n, PortNum p) { return f.port_id(n, p); };
    // C -> B: the two parallel cables, over A (up, then A -> B down), over A and R.
    CHECK(
        yen_k_shortest(f, ud, C, B, 10) ==
        std::vector<Route>{{e(C, 2)}, {e(C, 3)}, {e(C, 1), e(A, 2)}, {e(C, 1), e(A, 1), e(R, 2)}});
    // k cuts the list in the same order.
    CHECK(yen_k_shortest(f, ud, C, B, 3) ==
          std::vector<Route>{{e(C, 2)}, {e(C, 3)}, {e(C, 1), e(A, 2)}});
    // C -> A: B -> A is up, so both parallel cables start two-hop and three-hop routes.
    CHECK(yen_k_shortest(f, ud, C, A, 16) == std::vector<Route>{{e(C, 1)},
                                                                {e(C, 2), e(B, 2)},
                                                                {e(C, 3), e(B, 2)},
                                                                {e(C, 2), e(B, 1), e(R, 1)},
                                                                {e(C, 3), e(B, 1), e(R, 1)}});
    // R -> A: R -> B -> A and R -> B -> C -> A turn down -> up: only the direct cable is legal.
    CHECK(yen_k_shortest(f, ud, R, A, 16) == std::vector<Route>{{e(R, 1)}});
    // A -> R: A -> B and A -> C go down and R is only reachable upwards.
    CHECK(yen_k_shortest(f, ud, A, R, 16) == std::vector<Route>{{e(A, 1)}});
    CHECK(yen_k_shortest(f, ud, B, B, 16) == std::vector<Route>{{}});
    CHECK(yen_k_shortest(f, ud, C, B, 0).empty());
}

TEST_CASE("yen equals the first k of a brute-force enumeration on random fabrics") {
    for (std::uint64_t seed : {1, 2, 3}) {
        gen::RandomParams rp;
        rp.switches = 9;
        rp.degree = 4;
        rp.cas = 9;
        rp.seed = seed;
        const Fabric f = gen::random_fabric(rp);
        const UpDown ud = make_updown(f, choose_root(f, seed));
        YenSearch y(f, ud);
        std::size_t pairs = 0, longer = 0;
        for (NodeId s : f.switches())
            for (NodeId d : f.switches()) {
                if (s == d) continue;
                const std::vector<Route> all = all_routes(f, ud, s, d);
                REQUIRE(!all.empty());
                for (int k : {1, 4, 16}) {
                    INFO("seed " << seed << " " << s << " -> " << d << " k " << k);
                    const std::vector<Route> want(
                        all.begin(), all.begin() + std::min<std::size_t>(all.size(), k));
                    const std::vector<Route> got = y.run(s, d, k);
                    CHECK(got == want);
                    for (const Route& r : got) CHECK(legal(f, ud, r));
                }
                ++pairs;
                const auto got = y.run(s, d, 16);
                longer += got.back().size() > got.front().size();
            }
        CHECK(pairs == 72);
        CHECK(longer > 0); // Yen does admit routes longer than the shortest
    }
}
