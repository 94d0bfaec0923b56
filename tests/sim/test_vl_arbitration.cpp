// VL arbitration inside the simulator: path SLs put two flows on two VLs of one bottleneck,
// and the VLArbitration weights split its bandwidth between them.
#include "sim/simulator.hpp"
#include "sim_fixtures.hpp"

#include <catch2/catch.hpp>

using namespace ibrt;
using namespace ibrt::sim;

namespace {

struct Shares {
    double vl0 = 0, vl1 = 0;
};

// two_switches(2): h0, h1 on S0; h2, h3 on S1; complement sends h0 -> h3 and h1 -> h2 over the
// one S0-S1 cable. The path SL of h3's LID (4) is 1, so h0's flow uses VL 1 and h1's VL 0.
Shares bottleneck_shares(const VlArbConfig& arb) {
    auto x = test::two_switches(2);
    std::vector<std::uint8_t> sls(x.r.lids.max_lid() + 1u, 0);
    sls[4] = 1;
    x.r.path_sls = PathSlTable::by_dlid(sls);
    SimConfig c;
    c.num_vls = 2;
    c.vlarb = arb;
    c.ps_per_byte = 1000;
    c.packet_bytes = 256;
    c.buffer_bytes = 8 * 256;
    c.traffic.pattern = Pattern::Complement;
    c.traffic.injection = Injection::Constant;
    c.traffic.load = 1.0;
    c.warmup_ps = 20'000'000;
    c.measure_ps = 400 * 256'000;
    c.drain_ps = 0;
    const SimResult r = simulate(x.f, x.r, c);
    const PortId up = x.f.port_id(4, 3); // S0 port 3, the bottleneck towards S1
    for (const auto& u : r.links)
        if (u.port == up) {
            CHECK(u.utilization == 1.0);
            return {u.vl_utilization[0], u.vl_utilization[1]};
        }
    FAIL("no bottleneck link");
    return {};
}

} // namespace

TEST_CASE("VL arbitration weights split a bottleneck") {
    SECTION("default: every VL weight 1, packet round robin") {
        const Shares s = bottleneck_shares({});
        CHECK(s.vl0 == Approx(0.5).margin(0.005));
        CHECK(s.vl1 == Approx(0.5).margin(0.005));
    }
    SECTION("VL 1 weighted 3:1 (12 and 4 units of 64 bytes, 256-byte packets)") {
        VlArbConfig a;
        a.low = {{0, 4}, {1, 12}};
        const Shares s = bottleneck_shares(a);
        CHECK(s.vl0 == Approx(0.25).margin(0.005));
        CHECK(s.vl1 == Approx(0.75).margin(0.005));
    }
    SECTION("VL 1 high priority without limit starves VL 0") {
        VlArbConfig a;
        a.high = {{1, 1}};
        a.low = {{0, 1}};
        a.high_limit = 255;
        const Shares s = bottleneck_shares(a);
        CHECK(s.vl0 == 0);
        CHECK(s.vl1 == 1.0);
    }
}
