// The one switch BFS: hop counts over switch-to-switch cables only (a CA never forwards), and
// Up*/Down* levels are exactly these distances from the root.
#include "../check/fixtures.hpp"
#include "graph/switch_distance.hpp"
#include "graph/updown.hpp"

#include <catch2/catch.hpp>

using namespace ibrt;
using namespace ibrt::graph;

TEST_CASE("switch distances on the two-level tree and the ring") {
    using namespace ibrt::test;
    std::vector<std::uint32_t> dist;
    std::vector<NodeId> queue;
    const Fabric tree = two_level_tree().f;
    switch_distances(tree, L0, dist, queue);
    CHECK(dist[L0] == 0);
    CHECK(dist[S0] == 1);
    CHECK(dist[S1] == 1);
    CHECK(dist[L1] == 2);
    for (NodeId h = h0; h <= h3; ++h) CHECK(dist[h] == kFar); // CAs are not in the switch graph

    const Fabric ring = clockwise_ring().f;
    switch_distances(ring, A, dist, queue);
    CHECK(dist[B] == 1);
    CHECK(dist[C] == 2);
    CHECK(dist[D] == 1);
}

TEST_CASE("switch distances do not pass through a CA cabled to two switches") {
    // s0 - h (dual-port) - s1: the switches are not connected through the CA.
    FabricBuilder b;
    const NodeId s0 = b.add_node(NodeType::Switch, 2, 0x1, "s0");
    const NodeId s1 = b.add_node(NodeType::Switch, 2, 0x2, "s1");
    const NodeId h = b.add_node(NodeType::CA, 2, 0x3, "h");
    b.connect(s0, 1, h, 1);
    b.connect(s1, 1, h, 2);
    const Fabric f = std::move(b).build();
    std::vector<std::uint32_t> dist;
    std::vector<NodeId> queue;
    switch_distances(f, s0, dist, queue);
    CHECK(dist[s0] == 0);
    CHECK(dist[s1] == kFar);
    const UpDown ud = make_updown(f, s0);
    CHECK(ud.level == std::vector<int>{0, -1, -1});
}

TEST_CASE("Up*/Down* levels are the switch distances from the root") {
    const Fabric f = test::two_level_tree().f;
    std::vector<std::uint32_t> dist;
    std::vector<NodeId> queue;
    for (NodeId root : f.switches()) {
        const UpDown ud = make_updown(f, root);
        switch_distances(f, root, dist, queue);
        for (NodeId n = 0; n < f.num_nodes(); ++n)
            CHECK(ud.level[n] == (dist[n] == kFar ? -1 : int(dist[n])));
    }
}
