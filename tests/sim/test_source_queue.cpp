// Source queues bounded (issue 6: "memory is bounded by buffers, not by the length of the
// run"): above saturation a full source queue refuses messages, which count as offered and
// throttled, never as generated, so offered against accepted stays honest and the packets
// alive at once do not grow with the run.
#include "sim/config_check.hpp"
#include "sim/simulator.hpp"
#include "sim_fixtures.hpp"

#include <catch2/catch.hpp>

using namespace ibrt;
using namespace ibrt::sim;

namespace {

constexpr Time ns = kPsPerNs;

// h0 <-> h1 through one switch each side (two_switches(1)), 1 ns/byte, 256-byte packets:
// every link carries at most one packet per 256 ns, and each CA offers `load` of that.
SimConfig overload(double load, std::uint64_t packet_times) {
    SimConfig c;
    c.ps_per_byte = 1000;
    c.packet_bytes = 256;
    c.buffer_bytes = 4 * 256;
    c.traffic.pattern = Pattern::Complement;
    c.traffic.injection = Injection::Constant;
    c.traffic.load = load;
    c.warmup_ps = 0;
    c.measure_ps = packet_times * 256 * ns;
    c.drain_ps = 0;
    return c;
}

} // namespace

TEST_CASE("source queues are bounded: a 10x longer run at 2x saturation holds as many packets") {
    auto x = test::two_switches(1);
    SimConfig c = overload(2.0, 200);
    c.source_queue_packets = 16;
    const SimResult a = simulate(x.f, x.r, c);
    c.measure_ps *= 10;
    const SimResult b = simulate(x.f, x.r, c);
    for (const SimResult* r : {&a, &b}) {
        const double T = double(r == &a ? 200 : 2000); // the window in packet times
        CHECK(r->peak_source_queue == 16);
        // Offered stays what the sources tried (2 x the link) and accepted is the link. Of the
        // 2T packets a source offers, T leave on its link and 16 wait in its full queue; the
        // full queue refused the rest (to one packet at the window's edges).
        CHECK(r->offered_fraction == Approx(2.0).epsilon(0.01));
        CHECK(r->accepted_fraction == Approx(1.0).margin(2 / T));
        CHECK(r->throttled_fraction == Approx((2 * T - T - 16) / T).margin(1 / T));
        CHECK(r->throttled > 0);
        CHECK(r->generated == r->delivered + r->dropped + r->in_flight);
    }
    // Two source queues of 16 plus what the links and buffers hold: the same bound at 10x.
    CHECK(b.peak_packets == a.peak_packets);
    CHECK(a.peak_packets <= 2 * 16 + 2 * 3 * 4 + 6);
    CHECK(b.throttled > 9 * a.throttled);

    // Unbounded queues (the old behaviour) grow with the run: the 10x run holds ~10x more.
    c = overload(2.0, 200);
    c.source_queue_packets = 0;
    const SimResult ua = simulate(x.f, x.r, c);
    c.measure_ps *= 10;
    const SimResult ub = simulate(x.f, x.r, c);
    CHECK(ua.throttled == 0);
    CHECK(ub.throttled == 0);
    CHECK(ub.peak_packets > 8 * ua.peak_packets);
    CHECK(ua.peak_packets > a.peak_packets);
}

TEST_CASE("below saturation the source-queue bound changes nothing") {
    auto x = test::two_switches(1);
    SimConfig c = overload(0.9, 400);
    c.traffic.injection = Injection::Bernoulli;
    c.source_queue_packets = 0;
    const SimResult u = simulate(x.f, x.r, c);
    c.source_queue_packets = 64;
    const SimResult b = simulate(x.f, x.r, c);
    CHECK(b.throttled == 0);
    CHECK(b.peak_source_queue < 64);
    CHECK(b.events == u.events);
    CHECK(b.latency_mean_ns == u.latency_mean_ns);
    CHECK(b.accepted_bytes_per_ns == u.accepted_bytes_per_ns);
}

TEST_CASE("a message larger than the source queue is refused (issue 12)") {
    auto x = test::two_switches(1);
    SimConfig c = overload(0.2, 400);
    c.message_bytes = 8 * 256; // 8 packets
    c.source_queue_packets = 4;
    CHECK_THROWS_WITH(simulate(x.f, x.r, c),
                      "a message of 2048 bytes is 8 packets of 256 bytes, more than a source "
                      "queue of 4 packets holds (raise the source queue or shorten the message)");
    c.source_queue_packets = 8; // exactly one message fits
    const SimResult r = simulate(x.f, x.r, c);
    CHECK(r.delivered > 0);
    CHECK(r.generated % 8 == 0);
    c.source_queue_packets = 0; // unbounded
    CHECK_NOTHROW(check_config(c));
}
