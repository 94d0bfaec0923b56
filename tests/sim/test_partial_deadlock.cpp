// Deadlock while other traffic still flows (issue 6: "no progress with packets in flight for a
// set time is reported as a deadlock, naming the blocked cycle of buffers"): each buffer has a
// stall timer; a cycle of buffers whose head packets have all waited a whole watchdog period is
// a deadlock even when packets elsewhere keep moving.
#include "sim/simulator.hpp"
#include "sim_fixtures.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace ibrt;
using namespace ibrt::sim;

namespace {

constexpr Time ns = kPsPerNs;

// ring4 with a second CA per switch: switches A..D (ids 8..11), hX (ids 0..3, LIDs 1..4) on
// port 1, yX (ids 4..7, LIDs 5..8) on port 4; port 2 goes to the next switch's port 3. Every
// LID not on the switch goes clockwise: the ring is a credit loop, while yA -> hA stays on A.
test::SimFabric ring4_with_locals() {
    FabricBuilder b;
    const char* hn[] = {"hA", "hB", "hC", "hD"};
    const char* yn[] = {"yA", "yB", "yC", "yD"};
    const char* sn[] = {"A", "B", "C", "D"};
    for (int i = 0; i < 4; ++i) b.add_node(NodeType::CA, 1, 0x100 + i, hn[i]);
    for (int i = 0; i < 4; ++i) b.add_node(NodeType::CA, 1, 0x110 + i, yn[i]);
    for (int i = 0; i < 4; ++i) b.add_node(NodeType::Switch, 4, 0x200 + i, sn[i]);
    for (int i = 0; i < 4; ++i) {
        b.connect(NodeId(i), 1, NodeId(8 + i), 1);
        b.connect(NodeId(4 + i), 1, NodeId(8 + i), 4);
        b.connect(NodeId(8 + i), 2, NodeId(8 + (i + 1) % 4), 3);
    }
    test::SimFabric x{std::move(b).build(), {}};
    x.r = test::empty_routing(x.f);
    for (int i = 0; i < 8; ++i) x.r.lids.assign(x.f.port_id(NodeId(i), 1), Lid(i + 1), 0);
    for (int i = 0; i < 4; ++i) x.r.lids.assign(x.f.port_id(NodeId(8 + i), 0), Lid(9 + i), 0);
    x.r.lft.assign(x.f.num_nodes(), {});
    for (int s = 0; s < 4; ++s) {
        auto& t = x.r.lft[NodeId(8 + s)];
        t.assign(x.r.lids.max_lid() + 1u, 2);
        t[0] = kNoPath;
        t[Lid(s + 1)] = 1;
        t[Lid(5 + s)] = 4;
        t[Lid(9 + s)] = 0;
    }
    return x;
}

} // namespace

TEST_CASE("a deadlocked ring is reported while local traffic keeps flowing") {
    auto x = ring4_with_locals();
    SimConfig c;
    c.ps_per_byte = 1000;
    c.packet_bytes = 256;
    c.buffer_bytes = 256;
    c.warmup_ps = 0;
    c.measure_ps = 200 * 1000 * ns;
    c.drain_ps = 50 * 1000 * ns;
    // Every 256 ns (each link's full rate) for 200 us: hX sends two ring hops ahead, and yA
    // sends to hA on its own switch, which needs no ring buffer.
    for (Time t = 0; t < 200 * 1000 * ns; t += 256 * ns) {
        for (std::uint32_t i = 0; i < 4; ++i) c.trace.push_back({t, i, (i + 2) % 4});
        c.trace.push_back({t, 4, 0});
    }
    const SimResult r = simulate(x.f, x.r, c);
    REQUIRE(r.deadlock);
    std::vector<std::string> cyc = r.deadlock_cycle;
    std::sort(cyc.begin(), cyc.end());
    CHECK(cyc == test::ring4_loop_channels());
    // Found while yA was still sending (until 200 us): no whole-network stall was needed. The
    // stall timer needs the cycle occupied at two ticks of the watchdog (100 packet times =
    // 25.6 us apart) with nothing leaving in between.
    CHECK(r.deadlock_at_ps < 200 * 1000 * ns);
    CHECK(r.deadlock_at_ps >= 2 * 25600 * ns);
    CHECK(r.generated == r.delivered + r.dropped + r.in_flight);
}

TEST_CASE("congestion without a loop is not a deadlock") {
    // The 3-flow bottleneck of two_switches(3) keeps input buffers full for the whole run, but
    // their heads leave in turn: no buffer's stall timer runs out.
    auto x = test::two_switches(3);
    SimConfig c;
    c.ps_per_byte = 1000;
    c.packet_bytes = 256;
    c.buffer_bytes = 16 * 256;
    c.traffic.pattern = Pattern::Complement;
    c.traffic.injection = Injection::Constant;
    c.traffic.load = 1.0;
    c.warmup_ps = 20 * 1000 * ns;
    c.measure_ps = 400 * 1000 * ns;
    const SimResult r = simulate(x.f, x.r, c);
    CHECK(!r.deadlock);
    CHECK(r.accepted_bytes_per_ns == Approx(1.0 / 3).epsilon(1e-12));
}
