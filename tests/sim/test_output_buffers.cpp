// Optional output buffers per VL (issue 6, "input buffers per VL, optional output buffers per
// VL"): the crossbar moves a packet, at the output link's rate and cut-through, from its input
// buffer into the output buffer of its VL when that has room; the link serves the output
// buffers by VLArb when the downstream buffer has credits.
#include "engines/engine.hpp"
#include "generators/fat_tree.hpp"
#include "sim/config_check.hpp"
#include "sim/simulator.hpp"
#include "sim_fixtures.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace ibrt;
using namespace ibrt::sim;

namespace {

constexpr Time ns = kPsPerNs;

SimConfig paper_timing() { // paper 000 §5.2: 20 ns fly, 100 ns routing, 4 ns/byte, 32 B
    SimConfig c;
    c.fly_ps = 20 * ns;
    c.routing_ps = 100 * ns;
    c.ps_per_byte = 4 * ns;
    c.packet_bytes = 32;
    c.buffer_bytes = 32;
    c.credit_unit = 32;
    return c;
}

} // namespace

TEST_CASE("output buffers add nothing to zero-load latency") {
    // Cut-through across a crossbar at link rate: the link starts when the crossbar does, so
    // across the root of FT(4,3) it is still 6 fly + 5 routing + one serialization.
    const Fabric f = gen::fat_tree(4, 3);
    const Routing rt = make_engine("mlid")->route(f, nullptr, {});
    SimConfig c = paper_timing();
    c.output_buffer_bytes = 32;
    c.warmup_ps = 0;
    c.measure_ps = 1000 * 1000 * ns;
    c.trace = {{0, 0, 8}, {5000 * ns, 8, 0}, {10000 * ns, 15, 1}};
    const SimResult r = simulate(f, rt, c);
    REQUIRE(r.latency_samples == 3);
    CHECK(r.latency_max_ns == 6 * 20 + 5 * 100 + 32 * 4); // 748 ns
    CHECK(r.latency_mean_ns == 748);
    CHECK(r.hops == 18);
}

TEST_CASE("output buffers stay out of a single flow's credit loop") {
    // h0 -> S0 -> S1 -> h1, one-packet input buffers: S1's input buffer is free again when
    // the tail has crossed S1's crossbar, routing R after the head came in, so each packet on
    // S0 -> S1 waits for fly F + R + serialization + credit delay C: 256 / (20 + 100 + 256 +
    // 20) byte/ns. An output buffer sits after the crossbar and does not shorten that loop.
    auto x = test::two_switches(1);
    for (std::uint32_t ob : {0u, 256u, 1024u}) {
        SimConfig c;
        c.ps_per_byte = 1000;
        c.packet_bytes = 256;
        c.buffer_bytes = 256;
        c.output_buffer_bytes = ob;
        c.traffic.pattern = Pattern::Complement;
        c.traffic.injection = Injection::Constant;
        c.traffic.load = 1.0;
        c.warmup_ps = 20000 * ns;
        c.measure_ps = 200 * 256 * ns;
        c.drain_ps = 0;
        const SimResult r = simulate(x.f, x.r, c);
        INFO("output buffer " << ob);
        // To one packet at each edge of the 51.2 us window.
        CHECK(r.accepted_bytes_per_ns == Approx(256.0 / 396).margin(2 * 256.0 / 51200));
        CHECK(!r.deadlock);
    }
}

TEST_CASE("output buffers keep the bottleneck's analytic saturation") {
    auto x = test::two_switches(3);
    SimConfig c;
    c.ps_per_byte = 1000;
    c.packet_bytes = 256;
    c.buffer_bytes = 16 * 256;
    c.output_buffer_bytes = 4 * 256;
    c.traffic.pattern = Pattern::Complement;
    c.traffic.injection = Injection::Constant;
    c.traffic.load = 1.0;
    c.warmup_ps = 20000 * ns;
    c.measure_ps = 200 * 256 * ns;
    c.drain_ps = 20000 * ns;
    const SimResult r = simulate(x.f, x.r, c);
    CHECK(r.accepted_bytes_per_ns == Approx(1.0 / 3).epsilon(1e-12));
    CHECK(r.link_util_max == 1.0);
    CHECK(r.generated == r.delivered + r.dropped + r.in_flight);
}

TEST_CASE("output buffers relieve head-of-line blocking under uniform load") {
    // FT(4,3), paper timing, 1 VL, offered 0.5: with one-packet input buffers the input FIFOs
    // block behind busy outputs; output buffers let the crossbar drain them.
    const Fabric f = gen::fat_tree(4, 3);
    const Routing rt = make_engine("mlid")->route(f, nullptr, {});
    SimConfig c = paper_timing();
    c.traffic.load = 0.5;
    c.warmup_ps = 5000 * ns;
    c.measure_ps = 50000 * ns;
    double last = 0;
    for (std::uint32_t ob : {0u, 32u, 64u}) {
        c.output_buffer_bytes = ob;
        const SimResult r = simulate(f, rt, c);
        INFO("output buffer " << ob);
        CHECK(r.accepted_fraction > last + 0.02);
        CHECK(r.generated == r.delivered + r.dropped + r.in_flight);
        last = r.accepted_fraction;
        const SimResult again = simulate(f, rt, c);
        CHECK(again.events == r.events);
        CHECK(again.latency_mean_ns == r.latency_mean_ns);
    }
}

TEST_CASE("a credit loop through output buffers deadlocks and names them") {
    // ring4: every switch forwards clockwise; the cycle alternates ring input buffers (port 3)
    // and the output buffers towards the next switch (port 2).
    auto x = test::ring4();
    SimConfig c;
    c.ps_per_byte = 1000;
    c.packet_bytes = 256;
    c.buffer_bytes = 256;
    c.output_buffer_bytes = 256;
    // Three ring hops each: with the output buffers' extra room, two-hop traffic keeps
    // finding a packet that leaves the ring; three-hop traffic fills the loop.
    c.traffic.pattern = Pattern::Rotation;
    c.traffic.shift = 3;
    c.traffic.load = 0.9;
    c.warmup_ps = 20000 * ns;
    c.measure_ps = 200 * 256 * ns;
    c.drain_ps = 20000 * ns;
    const SimResult r = simulate(x.f, x.r, c);
    REQUIRE(r.deadlock);
    std::vector<std::string> cyc = r.deadlock_cycle;
    std::sort(cyc.begin(), cyc.end());
    CHECK(cyc == test::ring4_loop_channels(true));
    CHECK(r.generated == r.delivered + r.dropped + r.in_flight);
}

TEST_CASE("an output buffer smaller than a packet is refused") {
    auto x = test::two_switches(1);
    SimConfig c;
    c.packet_bytes = 256;
    c.output_buffer_bytes = 128;
    CHECK_THROWS_WITH(simulate(x.f, x.r, c), "an output buffer of 128 bytes (2 credits of 64 "
                                             "bytes) cannot hold a packet of 256 bytes (4 "
                                             "credits)");
}

TEST_CASE("an output buffer that is not a whole number of credits says it was rounded down") {
    // 1000 bytes are 15 credits of 64 bytes (960 bytes): a 1000-byte packet needs 16.
    auto x = test::two_switches(1);
    SimConfig c;
    c.packet_bytes = 1000;
    c.buffer_bytes = 1024;
    c.output_buffer_bytes = 1000;
    CHECK_THROWS_WITH(simulate(x.f, x.r, c),
                      "an output buffer of 1000 bytes (15 credits of 64 bytes, rounded down to "
                      "whole credits) cannot hold a packet of 1000 bytes (16 credits)");
    c.output_buffer_bytes = 1024;
    CHECK_NOTHROW(check_config(c));
}
