// The channel dependency graph filled directly, as an engine would from its own routes: a
// ring of four switches has one loop when every hop stays on one VL, none when a dateline
// moves the packets to the next VL; duplicates count once and two U-turns close a loop.
#include "../check/fixtures.hpp"
#include "graph/channel_dependency.hpp"

#include <catch2/catch.hpp>

using namespace ibrt;
using namespace ibrt::graph;
using test::A;
using test::B;
using test::C;
using test::D;

namespace {

// Clockwise through every switch of the ring (in on port 3 from the previous switch, out on
// port 2 to the next); vl_out(s, v) is the VL out of switch s for a packet that came in on
// VL v.
template <class VlOut> CreditLoops ring_loops(const Fabric& f, unsigned vls, VlOut vl_out) {
    ChannelDependencies deps(f, vls);
    for (NodeId s = A; s <= D; ++s)
        for (unsigned v = 0; v < vls; ++v) deps.add(s, 3, v, 2, vl_out(s, v));
    return std::move(deps).find_loops();
}

} // namespace

TEST_CASE("channel dependencies: the clockwise ring on one VL is one loop of four channels") {
    const Fabric f = test::clockwise_ring().f;
    const CreditLoops c = ring_loops(f, 1, [](NodeId, unsigned) { return 0u; });
    CHECK(c.dependencies == 4);
    CHECK(c.channels == 4);
    REQUIRE(c.loops.size() == 1);
    CHECK(c.loops[0].component_channels == 4);
    // Starts at the lowest channel (A's port 2) and follows the dependencies.
    CHECK(c.loops[0].cycle == std::vector<Channel>{{f.port_id(A, 2), 0},
                                                   {f.port_id(B, 2), 0},
                                                   {f.port_id(C, 2), 0},
                                                   {f.port_id(D, 2), 0}});
}

TEST_CASE("channel dependencies: a dateline at switch A breaks the ring's loop") {
    const Fabric f = test::clockwise_ring().f;
    // Packets leave A on VL1 and stay there; a packet that arrives at A on VL1 has gone
    // around once and is delivered, so no dependency enters A's VL1 from VL1 except VL0.
    ChannelDependencies deps(f, 2);
    for (NodeId s = B; s <= D; ++s)
        for (unsigned v = 0; v < 2; ++v) deps.add(s, 3, v, 2, v);
    deps.add(A, 3, 0, 2, 1);
    const CreditLoops c = std::move(deps).find_loops();
    CHECK(c.dependencies == 7);
    CHECK(c.loops.empty());
    // The same dependencies with A keeping VL0 close the loop again.
    const CreditLoops same = ring_loops(f, 2, [](NodeId, unsigned v) { return v; });
    CHECK(same.loops.size() == 2);
}

TEST_CASE("channel dependencies: duplicates count once, two U-turns are a loop") {
    const Fabric f = test::clockwise_ring().f;
    ChannelDependencies deps(f, 2);
    deps.add(B, 3, 1, 2, 0);
    deps.add(B, 3, 1, 2, 0);
    // A U-turn at B (in and out on port 3): (A:2 -> B:3, VL0) then (B:3 -> A:2, VL0); the
    // U-turn at A (in and out on port 2) closes the loop.
    deps.add(B, 3, 0, 3, 0);
    deps.add(A, 2, 0, 2, 0);
    CHECK(deps.vls() == 2);
    const CreditLoops c = std::move(deps).find_loops();
    CHECK(c.dependencies == 3);
    REQUIRE(c.loops.size() == 1);
    CHECK(c.loops[0].cycle == std::vector<Channel>{{f.port_id(A, 2), 0}, {f.port_id(B, 3), 0}});
}
