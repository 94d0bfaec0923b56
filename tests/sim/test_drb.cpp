// DRB (paper 002 §4; sim/drb.hpp): the state machine alone (expansion after exactly N
// notifications, never above the maximum, Eq. 1's selection frequencies, constriction on the
// timer, sparse state), the ranked paths of a flow, and DRB in the simulator on two switches
// joined by two parallel cables (a congested cable relieved by the other), on FT(4,3) under
// mlid (conservation, determinism), with and without the injection delay; the hot spot's time
// window and the link time series.
#include "engines/engine.hpp"
#include "generators/fat_tree.hpp"
#include "sim/drb.hpp"
#include "sim/simulator.hpp"
#include "sim_fixtures.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>

using namespace ibrt;
using namespace ibrt::sim;

namespace {

constexpr Time ns = kPsPerNs;
constexpr Time us = 1000 * ns;

// Flow (src, dst) has paths 100 + 10 dst + i, i = 0..3.
Drb four_paths(DrbConfig c, std::uint64_t seed = 1) {
    c.on = true;
    return Drb(c, seed, [](std::uint32_t, std::uint32_t dst, Lid original, std::vector<Lid>& out) {
        out = {original};
        for (Lid i = 1; i < 4; ++i) out.push_back(Lid(100 + 10 * dst + i));
    });
}

} // namespace

TEST_CASE("drb: a path opens after exactly N notifications, never more than the maximum") {
    DrbConfig c;
    c.notifications_per_path = 10;
    c.max_paths = 3;
    Drb d = four_paths(c);
    std::uint32_t f, g;
    for (int i = 1; i <= 9; ++i) d.notify(0, 1, 110, 0, Time(i) * ns, f, g);
    CHECK(d.open_paths(0, 1, 10 * ns) == 1);
    d.notify(0, 1, 110, 0, 10 * ns, f, g);
    CHECK(d.open_paths(0, 1, 10 * ns) == 2);
    CHECK(d.stats().paths_opened == 1);
    for (int i = 11; i <= 19; ++i) d.notify(0, 1, 110, 1, Time(i) * ns, f, g);
    CHECK(d.open_paths(0, 1, 19 * ns) == 2);
    d.notify(0, 1, 110, 1, 20 * ns, f, g);
    CHECK(d.open_paths(0, 1, 20 * ns) == 3);
    for (int i = 21; i <= 100; ++i) d.notify(0, 1, 110, 0, Time(i) * ns, f, g);
    CHECK(d.open_paths(0, 1, 100 * ns) == 3); // max_paths
    CHECK(d.stats().paths_opened == 2);
    CHECK(d.stats().peak_open_paths == 3);
    CHECK(d.stats().notifications == 100);
    // Other flows are untouched, and have no state.
    CHECK(d.open_paths(1, 0, 100 * ns) == 1);
    CHECK(d.live_flows() == 1);
}

TEST_CASE("drb: Eq. 1, each open path in inverse proportion to its notifications") {
    DrbConfig c;
    c.notifications_per_path = 10;
    c.timer_ps = 0; // no constriction during the test
    Drb d = four_paths(c, 7);
    std::uint32_t f, g;
    for (int i = 0; i < 10; ++i) d.notify(2, 3, 130, 0, 1 * us, f, g); // B = (10, 0): path 1 opens
    for (int i = 0; i < 5; ++i) d.notify(2, 3, 130, 1, 1 * us, f, g);  // B = (10, 5)
    REQUIRE(d.open_paths(2, 3, 2 * us) == 2);
    CHECK(d.notifications(2, 3, 0) == 10);
    CHECK(d.notifications(2, 3, 1) == 5);
    // rho(C0) = 1 / (10/10 + 10/5) = 1/3, rho(C1) = 1 / (5/10 + 5/5) = 2/3.
    const int n = 60000;
    int on[4] = {0, 0, 0, 0};
    for (int i = 0; i < n; ++i) {
        std::uint8_t rank;
        const Lid l = d.pick(2, 3, 130, 2 * us, rank);
        ++on[rank];
        CHECK(l == (rank == 0 ? 130 : 100 + 30 + rank));
    }
    CHECK(double(on[0]) / n == Approx(1.0 / 3).margin(0.01));
    CHECK(double(on[1]) / n == Approx(2.0 / 3).margin(0.01));
    CHECK(on[2] == 0);
    CHECK(d.stats().alternative_packets == std::uint64_t(on[1]));

    // A third path never notified counts as one: weights 1/10, 1/5, 1 of 1.3.
    for (int i = 0; i < 5; ++i) d.notify(2, 3, 130, 0, 3 * us, f, g); // B = (15, 5), opens C2
    REQUIRE(d.open_paths(2, 3, 3 * us) == 3);
    int on3[3] = {0, 0, 0};
    for (int i = 0; i < n; ++i) {
        std::uint8_t rank;
        d.pick(2, 3, 130, 3 * us, rank);
        ++on3[rank];
    }
    const double w0 = 1.0 / 15, w1 = 1.0 / 5, w2 = 1.0, sum = w0 + w1 + w2;
    CHECK(double(on3[0]) / n == Approx(w0 / sum).margin(0.01));
    CHECK(double(on3[1]) / n == Approx(w1 / sum).margin(0.01));
    CHECK(double(on3[2]) / n == Approx(w2 / sum).margin(0.01));

    SECTION("the same seed draws the same paths") {
        Drb a = four_paths(c, 9), b = four_paths(c, 9);
        for (Drb* x : {&a, &b})
            for (int i = 0; i < 10; ++i) x->notify(0, 1, 110, 0, 1 * us, f, g);
        for (int i = 0; i < 1000; ++i) {
            std::uint8_t ra, rb;
            CHECK(a.pick(0, 1, 110, 2 * us, ra) == b.pick(0, 1, 110, 2 * us, rb));
        }
    }
}

TEST_CASE("drb: constriction, one path per timer expiry without notifications, then forgotten") {
    DrbConfig c;
    c.notifications_per_path = 2;
    c.timer_ps = 100 * us;
    Drb d = four_paths(c);
    std::uint32_t f = 0, g = 0;
    std::vector<Time> checks;
    for (int i = 0; i < 6; ++i)
        if (const Time t = d.notify(4, 5, 150, 0, 50 * us, f, g)) checks.push_back(t);
    // Six BECNs at 50 us open three paths (4 open). One check is scheduled, by the first BECN:
    // when the flow, then on one path, would have been forgotten.
    REQUIRE(d.open_paths(4, 5, 50 * us) == 4);
    CHECK(checks == std::vector<Time>{150 * us});
    CHECK(d.open_paths(4, 5, 150 * us - 1) == 4);
    CHECK(d.open_paths(4, 5, 150 * us) == 3);
    CHECK(d.open_paths(4, 5, 250 * us) == 2);
    CHECK(d.open_paths(4, 5, 350 * us) == 1);
    std::uint8_t rank;
    CHECK(d.pick(4, 5, 150, 360 * us, rank) == 150);
    CHECK(rank == 0);
    // The check closes the path the first expiry closed and looks again when the flow, on
    // three paths, would be forgotten.
    CHECK(d.check(f, g, 150 * us) == 450 * us);
    CHECK(d.stats().constrictions == 1);
    // A BECN at 260 us (one more path closed by then) restarts the timer from there.
    CHECK(d.notify(4, 5, 150, 1, 260 * us, f, g) == 0); // a check is pending
    CHECK(d.stats().constrictions == 2);
    CHECK(d.open_paths(4, 5, 359 * us) == 2);
    CHECK(d.open_paths(4, 5, 360 * us) == 1);
    CHECK(d.check(f, g, 450 * us) == 460 * us);
    CHECK(d.stats().constrictions == 3);
    CHECK(d.live_flows() == 1);
    CHECK(d.check(f, g, 460 * us) == 0);
    CHECK(d.live_flows() == 0); // forgotten: its state is freed
    CHECK(d.stats().flows_freed == 1);
    CHECK(d.stats().constrictions == 3);
    CHECK(d.open_paths(4, 5, 460 * us) == 1);
    CHECK(d.check(f, g, 460 * us) == 0); // a stale check does nothing
    // The next BECN starts afresh.
    d.notify(4, 5, 150, 0, 500 * us, f, g);
    CHECK(d.notifications(4, 5, 0) == 1);
    CHECK(d.open_paths(4, 5, 500 * us) == 1);
}

namespace {

// h0, h1 on S0 (ports 1, 2); h2, h3 on S1 (ports 1, 2); two cables S0:3-S1:3 and S0:4-S1:4.
// LMC 1: each CA's even LID crosses on port 3, its odd LID on port 4.
test::SimFabric two_cables() {
    FabricBuilder b;
    for (int i = 0; i < 4; ++i) b.add_node(NodeType::CA, 1, 0x100 + i, "h" + std::to_string(i));
    b.add_node(NodeType::Switch, 4, 0x200, "S0");
    b.add_node(NodeType::Switch, 4, 0x201, "S1");
    b.connect(0, 1, 4, 1);
    b.connect(1, 1, 4, 2);
    b.connect(2, 1, 5, 1);
    b.connect(3, 1, 5, 2);
    b.connect(4, 3, 5, 3);
    b.connect(4, 4, 5, 4);
    test::SimFabric x{std::move(b).build(), {}};
    x.r = test::empty_routing(x.f);
    x.r.lmc = 1;
    for (int i = 0; i < 4; ++i) x.r.lids.assign(x.f.port_id(NodeId(i), 1), Lid(2 + 2 * i), 1);
    x.r.lids.assign(x.f.port_id(4, 0), 10, 0);
    x.r.lids.assign(x.f.port_id(5, 0), 11, 0);
    x.r.lft.assign(6, {});
    //             0        1        2  3  4  5  6  7  8  9  10 11
    x.r.lft[4] = {kNoPath, kNoPath, 1, 1, 2, 2, 3, 4, 3, 4, 0, 3};
    x.r.lft[5] = {kNoPath, kNoPath, 3, 4, 3, 4, 1, 1, 2, 2, 3, 0};
    return x;
}

SimConfig two_flows(bool drb, bool throttle) {
    SimConfig c;
    c.ps_per_byte = 1000;
    c.packet_bytes = 256;
    c.warmup_ps = 50 * us;
    c.measure_ps = 200 * us;
    c.drain_ps = 20 * us;
    c.flow_stats = true;
    c.dlid = DlidPolicy::Base;
    // h0 -> h2 and h1 -> h3 at full rate: both on the even cable unless DRB opens the odd one.
    for (Time t = 0; t < c.warmup_ps + c.measure_ps; t += 256 * ns) {
        c.trace.push_back({t, 0, 2});
        c.trace.push_back({t, 1, 3});
    }
    c.cc.on = true;
    c.cc.settings = test::marking_cc();
    c.cc.throttle = throttle;
    c.drb.on = drb;
    return c;
}

double util(const SimResult& r, PortId p) {
    for (const auto& u : r.links)
        if (u.port == p) return u.utilization;
    return -1;
}

double accepted(const SimResult& r, std::uint32_t src, std::uint32_t dst) {
    for (const auto& f : r.flows)
        if (f.src == src && f.dst == dst) return f.accepted_fraction;
    return -1;
}

} // namespace

TEST_CASE("drb: a flow's paths, original first, shortest first, identical paths once") {
    auto x = two_cables();
    const PortId h0 = x.f.port_id(0, 1);
    CHECK(drb_paths(x.f, x.r, h0, 6, 6, 1, 4) == std::vector<Lid>{6, 7});
    CHECK(drb_paths(x.f, x.r, h0, 7, 6, 1, 4) == std::vector<Lid>{7, 6});
    CHECK(drb_paths(x.f, x.r, h0, 6, 6, 1, 1) == std::vector<Lid>{6});
    // Both LIDs on one cable: no alternative.
    x.r.lft[4][7] = 3;
    CHECK(drb_paths(x.f, x.r, h0, 6, 6, 1, 4) == std::vector<Lid>{6});
}

TEST_CASE("drb: two flows on one cable spread onto the parallel one") {
    auto x = two_cables();
    const PortId even = x.f.port_id(4, 3), odd = x.f.port_id(4, 4);
    // Without DRB (notifications only) the even cable carries both flows at half rate each.
    const SimResult off = simulate(x.f, x.r, two_flows(false, false));
    REQUIRE_FALSE(failed(off));
    CHECK(off.cc_stats.becn_received > 0);
    CHECK(util(off, odd) == 0);
    CHECK(accepted(off, 0, 2) + accepted(off, 1, 3) == Approx(1.0).margin(0.01));
    CHECK(off.cc_stats.peak_ccti == 0); // no injection delay: no CCTI either

    const SimResult on = simulate(x.f, x.r, two_flows(true, false));
    REQUIRE_FALSE(failed(on));
    REQUIRE(on.drb);
    CHECK(on.drb_stats.paths_opened == 2); // one per flow, and only two paths exist
    CHECK(on.drb_stats.peak_open_paths == 2);
    CHECK(on.drb_stats.peak_flows == 2);
    CHECK(on.drb_stats.alternative_packets > 0);
    CHECK(util(on, odd) > 0.3);
    // Not the 2.0 of two links: Eq. 1 keeps moving traffic towards the less notified path, so
    // each cable in turn backs up (measured 1.47).
    CHECK(accepted(on, 0, 2) + accepted(on, 1, 3) > 1.4);
    CHECK(on.generated == on.delivered + on.dropped + on.in_flight);
    const CcStats& s = on.cc_stats;
    CHECK(s.becn_sent == s.becn_received + s.becn_dropped + s.becn_in_flight);
    (void)even;

    SECTION("with one path DRB never opens another") {
        SimConfig c = two_flows(true, false);
        c.drb.max_paths = 1;
        const SimResult one = simulate(x.f, x.r, c);
        CHECK(one.drb_stats.paths_opened == 0);
        CHECK(util(one, odd) == 0);
        // The same packets on the same cables (DRB's timer checks are its only events).
        CHECK(one.hops == off.hops);
        CHECK(one.latency_mean_ns == off.latency_mean_ns);
    }
    SECTION("DRB with IBA CC's throttling too") {
        const SimResult both = simulate(x.f, x.r, two_flows(true, true));
        REQUIRE_FALSE(failed(both));
        CHECK(both.drb_stats.paths_opened == 2);
        CHECK(both.cc_stats.peak_ccti > 0);
    }
    SECTION("idealised notifications carry the path too") {
        SimConfig c = two_flows(true, false);
        c.cc.becn_delay_ps = 1 * us;
        const SimResult ideal = simulate(x.f, x.r, c);
        CHECK(ideal.drb_stats.paths_opened == 2);
        CHECK(util(ideal, odd) > 0.3);
    }
    SECTION("DRB without congestion control, or with random DLIDs, is refused") {
        SimConfig c = two_flows(true, false);
        c.cc.on = false;
        CHECK_THROWS_AS(simulate(x.f, x.r, c), std::invalid_argument);
        c = two_flows(true, false);
        c.dlid = DlidPolicy::Random;
        CHECK_THROWS_AS(simulate(x.f, x.r, c), std::invalid_argument);
    }
}

TEST_CASE("drb: generated traffic with DRB is conserved and a function of --seed") {
    const Fabric f = gen::fat_tree(4, 3);
    const Routing rt = make_engine("mlid")->route(f, nullptr, {});
    SimConfig c;
    c.ps_per_byte = 1000;
    c.warmup_ps = 10 * us;
    c.measure_ps = 50 * us;
    c.traffic.pattern = Pattern::Hotspot;
    c.traffic.hot_fraction = 0.3;
    c.traffic.load = 0.7;
    c.cc.on = true;
    c.cc.settings = test::marking_cc();
    c.cc.throttle = false;
    c.drb.on = true;
    c.drb.notifications_per_path = 2;
    c.drb.timer_ps = 10 * us;
    c.seed = 5;
    const SimResult a = simulate(f, rt, c), b = simulate(f, rt, c);
    c.seed = 6;
    const SimResult other = simulate(f, rt, c);
    REQUIRE_FALSE(failed(a));
    CHECK(a.drb_stats.paths_opened > 0);
    CHECK(a.drb_stats.constrictions > 0);
    CHECK(a.drb_stats.peak_open_paths <= 4);
    CHECK(a.drb_stats.peak_flows < 16 * 15); // sparse: only notified flows
    CHECK(a.generated == a.delivered + a.dropped + a.in_flight);
    CHECK(a.events == b.events);
    CHECK(a.hops == b.hops);
    CHECK(a.latency_mean_ns == b.latency_mean_ns);
    CHECK(a.drb_stats.paths_opened == b.drb_stats.paths_opened);
    CHECK(a.drb_stats.alternative_packets == b.drb_stats.alternative_packets);
    CHECK(other.events != a.events);
}

TEST_CASE("hot spot window and link time series") {
    auto x = two_cables();
    SimConfig c;
    c.ps_per_byte = 1000;
    c.warmup_ps = 0;
    c.measure_ps = 300 * us;
    c.drain_ps = 10 * us;
    c.traffic.pattern = Pattern::Hotspot;
    c.traffic.hot_node = 2;
    c.traffic.hot_fraction = 1.0;
    c.traffic.hot_start_ps = 100 * us;
    c.traffic.hot_end_ps = 200 * us;
    c.traffic.load = 0.3;
    c.traffic.injection = Injection::Constant;
    c.dlid = DlidPolicy::Base;
    c.link_series_ps = 50 * us;
    const SimResult r = simulate(x.f, x.r, c);
    REQUIRE_FALSE(failed(r));
    const LinkSeries& s = r.link_series;
    CHECK(s.step_ps == 50 * us);
    REQUIRE(s.intervals() >= 6);
    // The link S1 -> h2: outside the window uniform traffic (a third of each other source's
    // 0.3: 0.3 together), inside it all of the three other sources' 0.3.
    std::size_t i = 0;
    while (s.ports[i] != x.f.port_id(5, 1)) ++i;
    const auto u = [&](std::size_t k) {
        return double(s.busy_ps[k * s.ports.size() + i]) / double(s.step_ps);
    };
    CHECK(u(0) == Approx(0.3).margin(0.08));
    CHECK(u(1) == Approx(0.3).margin(0.08));
    CHECK(u(2) == Approx(0.9).margin(0.03));
    CHECK(u(3) == Approx(0.9).margin(0.03));
    CHECK(u(4) == Approx(0.3).margin(0.08));
    CHECK(u(5) == Approx(0.3).margin(0.08));
    // The series adds up to the window's busy time.
    Time total = 0;
    for (std::size_t k = 0; k < s.intervals(); ++k) total += s.busy_ps[k * s.ports.size() + i];
    CHECK(double(total) / double(c.measure_ps) >= util(r, x.f.port_id(5, 1)) - 1e-9);
}
