// Every run ends with a verdict on progress (issue 12, "ibrt sim must not call a stalled network
// healthy"): a network that delivers nothing, one whose packets stop moving, and a loop that
// closes too late for the watchdog within the run are each a failure, never "ok"; a watchdog
// period too short to tell a stall from a packet in transit is refused.
#include "engines/engine.hpp"
#include "generators/fat_tree.hpp"
#include "sim/config_notes.hpp"
#include "sim/saturation.hpp"
#include "sim/simulator.hpp"
#include "sim_fixtures.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace ibrt;
using namespace ibrt::sim;

namespace {

constexpr Time ns = kPsPerNs, us = 1000 * ns;

// 1 ns per byte, 256-byte packets, 4-packet buffers, a 20 us window.
SimConfig config() {
    SimConfig c;
    c.ps_per_byte = 1000;
    c.packet_bytes = 256;
    c.buffer_bytes = 4 * 256;
    c.warmup_ps = 0;
    c.measure_ps = 20 * us;
    c.drain_ps = 0;
    c.traffic.pattern = Pattern::Complement;
    c.traffic.load = 0.5;
    return c;
}

} // namespace

TEST_CASE("a healthy run is ok") {
    auto x = test::two_switches(2);
    const SimResult r = simulate(x.f, x.r, config());
    CHECK(r.verdict == Verdict::Ok);
    CHECK(r.delivered > 0);
    CHECK(!failed(r));
}

// A run that generates nothing examined nothing: no "ok" (issue 35: `ibrt sim --load 0`).
TEST_CASE("a run that offers nothing is no pass and no failure: nothing offered") {
    auto x = test::two_switches(2);
    SimConfig c = config();
    c.traffic.load = 0;
    const SimResult r = simulate(x.f, x.r, c);
    CHECK(r.generated == 0);
    CHECK(r.verdict == Verdict::NothingOffered);
    CHECK(to_string(r.verdict) == "nothing-offered");
    CHECK(!failed(r));
    CHECK(!is_saturated(r, 0.05));
}

TEST_CASE("all VL arbitration weights zero: delivered nothing") {
    auto x = test::two_switches(2);
    SimConfig c = config();
    c.num_vls = 2;
    c.sl = SlPolicy::Spread;
    c.vlarb.low = {{0, 0}, {1, 0}};
    const SimResult r = simulate(x.f, x.r, c);
    CHECK(r.generated > 0);
    CHECK(r.delivered == 0);
    CHECK(r.verdict == Verdict::DeliveredNothing);
    CHECK(!r.deadlock);
    CHECK(failed(r));
    // Said before the run, too.
    const auto notes = config_notes(x.f, x.r, c);
    CHECK(std::count_if(notes.begin(), notes.end(), [](const std::string& n) {
              return n.find("VLs 0, 1 carry traffic but no weight") != std::string::npos;
          }) == 1);
}

TEST_CASE("credits that take 1 ms to return: delivered nothing, or stuck at the end") {
    // Every packet takes two switch hops; once the first buffers' credits are spent, the next
    // come back after 1 ms, far beyond the run.
    auto x = test::two_switches(2);
    SimConfig c = config();
    c.credit_delay_ps = 1000 * us;
    // The first packets are delivered before the window: nothing is in it.
    c.warmup_ps = 5 * us;
    SimResult r = simulate(x.f, x.r, c);
    CHECK(r.accepted_fraction == 0);
    CHECK(r.offered_fraction > 0);
    CHECK(r.verdict == Verdict::DeliveredNothing);
    CHECK(failed(r));
    // With the window from the start a few arrive in it, then nothing moves during the drain.
    c.warmup_ps = 0;
    c.drain_ps = 20 * us;
    r = simulate(x.f, x.r, c);
    CHECK(r.accepted_fraction > 0);
    CHECK(r.last_hop_ps < 20 * us);
    CHECK(r.verdict == Verdict::Stuck);
    CHECK(failed(r));
    // The same with credits back after 20 ns moves all along.
    c.credit_delay_ps = 20 * ns;
    CHECK(simulate(x.f, x.r, c).verdict == Verdict::Ok);
}

TEST_CASE("a loop that closes too late for the watchdog in the run is still a deadlock") {
    // ring4: every packet goes three hops clockwise. The loop closes within a few us, the run
    // ends at 20 us, and the watchdog (100 packet times = 25.6 us) needs two ticks: the run
    // goes on without new traffic until it sees the cycle, and keeps the run's statistics.
    auto x = test::ring4();
    SimConfig c = config();
    c.buffer_bytes = 256;
    c.traffic.pattern = Pattern::Rotation;
    c.traffic.shift = 3;
    c.traffic.load = 0.9;
    const SimResult r = simulate(x.f, x.r, c);
    REQUIRE(r.verdict == Verdict::Deadlock);
    CHECK(r.deadlock);
    CHECK(r.end_ps <= 20 * us);
    CHECK(r.deadlock_at_ps > r.end_ps);
    std::vector<std::string> cyc = r.deadlock_cycle;
    std::sort(cyc.begin(), cyc.end());
    CHECK(cyc == test::ring4_loop_channels());
    CHECK(r.generated == r.delivered + r.dropped + r.in_flight);

    // Nothing moved for a whole period before the end: the same cycle, at the end.
    c.measure_ps = 80 * us;
    c.deadlock_ps = 30 * us; // the first tick sees hops, the loop closes before the end
    const SimResult late = simulate(x.f, x.r, c);
    REQUIRE(late.verdict == Verdict::Deadlock);
    CHECK(late.deadlock_at_ps <= 80 * us);
    CHECK(late.last_hop_ps + 30 * us <= late.deadlock_at_ps);
    CHECK(late.deadlock_cycle.size() == 4);
}

TEST_CASE("packets that stop moving without a cycle are stuck") {
    // LID 1 (h0) is on SL 1, which VL arbitration never serves: h0 -> h1 is delivered at once,
    // then h1's messages to h0 wait in its source queue for ever.
    auto x = test::two_switches(1);
    {
        std::vector<std::uint8_t> sls(x.r.lids.max_lid() + 1u, 0);
        sls[1] = 1;
        x.r.path_sls = PathSlTable::by_dlid(sls);
    }
    SimConfig c = config();
    c.num_vls = 2;
    c.vlarb.low = {{0, 1}};
    c.deadlock_ps = 5 * us;
    c.trace = {{0, 0, 1}, {0, 1, 0}, {1 * us, 1, 0}};
    const SimResult r = simulate(x.f, x.r, c);
    CHECK(r.delivered == 1);
    CHECK(r.in_flight == 2);
    CHECK(r.verdict == Verdict::Stuck);
    CHECK(!r.deadlock);
    CHECK(r.last_hop_ps < 1 * us);
    CHECK(failed(r));
}

TEST_CASE("a watchdog period below what the configuration can detect is refused") {
    const Fabric f = gen::fat_tree(4, 3);
    const Routing rt = make_engine("mlid")->route(f, nullptr, {});
    SimConfig c;
    c.traffic.load = 0.9;
    c.warmup_ps = 5 * us;
    c.measure_ps = 20 * us;
    c.drain_ps = 20 * us;
    // 4x SDR, 1 ns/byte: 2 x (256 + 20 + 100 + 20) ns.
    const Time min = min_deadlock_period_ps(f, c);
    CHECK(min == 792 * ns);
    c.deadlock_ps = 1; // --deadlock-us 0.000001: every packet in transit would look stalled
    CHECK_THROWS_AS(simulate(f, rt, c), std::invalid_argument);
    c.deadlock_ps = min - 1;
    CHECK_THROWS_AS(simulate(f, rt, c), std::invalid_argument);
    c.deadlock_ps = min; // the shortest accepted period sees no false deadlock at 90 % load
    const SimResult r = simulate(f, rt, c);
    CHECK(r.verdict == Verdict::Ok);
    CHECK(r.deadlock_period_ps == min);
    // Output buffers add a crossbar serialization.
    c.output_buffer_bytes = 1024;
    CHECK(min_deadlock_period_ps(f, c) == 2 * (512 + 140) * ns);
    // The default period is never below the minimum.
    c.deadlock_ps = 0;
    c.output_buffer_bytes = 0;
    c.credit_delay_ps = 0;
    c.fly_ps = 0;
    c.routing_ps = 0;
    c.packet_bytes = 64;
    CHECK(simulate(f, rt, c).deadlock_period_ps >= min_deadlock_period_ps(f, c));
}

TEST_CASE("configured VLs that no traffic can take are said") {
    auto x = test::two_switches(2);
    SimConfig c = config();
    c.num_vls = 4;
    const auto has = [](const std::vector<std::string>& notes, const std::string& s) {
        return std::any_of(notes.begin(), notes.end(),
                           [&](const std::string& n) { return n.find(s) != std::string::npos; });
    };
    // Every path on SL 0, no tables: VL 0 only.
    CHECK(vls_carrying_traffic(x.f, x.r, c) == 1u);
    CHECK(has(config_notes(x.f, x.r, c), "4 VLs configured but unused"));
    // Spread over the VLs: all four.
    c.sl = SlPolicy::Spread;
    CHECK(vls_carrying_traffic(x.f, x.r, c) == 15u);
    CHECK(!has(config_notes(x.f, x.r, c), "unused"));
    // Path SLs 0 and 2 through tables that map SL s to VL s / 2: VLs 0 and 1.
    c.sl = SlPolicy::Path;
    {
        std::vector<std::uint8_t> sls(x.r.lids.max_lid() + 1u, 0);
        sls[2] = 2;
        x.r.path_sls = PathSlTable::by_dlid(sls);
    }
    x.r.sl2vl.tables.assign(x.f.num_nodes(), {});
    for (NodeId n = 0; n < x.f.num_nodes(); ++n) {
        Sl2VlTable t{};
        for (unsigned sl = 0; sl < 16; ++sl) t[sl] = std::uint8_t(sl / 2);
        x.r.sl2vl.tables[n].assign(Sl2Vl::size(x.f.node(n).num_ports), t);
    }
    CHECK(vls_carrying_traffic(x.f, x.r, c) == 3u);
    CHECK(has(config_notes(x.f, x.r, c), "only VL 0, 1"));
}
