// Saturation search against an analytic bottleneck.
#include "sim/saturation.hpp"
#include "sim_fixtures.hpp"

#include <catch2/catch.hpp>

using namespace ibrt;
using namespace ibrt::sim;

TEST_CASE("saturation search finds the bottleneck share") {
    // Three flows per direction over one link: each source saturates at a third of its link.
    auto x = test::two_switches(3);
    SimConfig c;
    c.ps_per_byte = 1000;
    c.packet_bytes = 256;
    c.buffer_bytes = 16 * 256;
    c.warmup_ps = 20'000'000;
    c.measure_ps = 200 * 256'000;
    c.drain_ps = 20'000'000;
    c.traffic.pattern = Pattern::Complement;
    c.traffic.injection = Injection::Constant;
    const Saturation s = find_saturation(x.f, x.r, c, 1.0, 7, 0.05);
    REQUIRE(s.runs.size() == 8);
    CHECK(s.runs.front().load == 1.0);
    CHECK(s.runs.front().saturated);
    // Unsaturated up to 1/3; saturated once 1/3 < 0.95 x load, i.e. load > 0.3509.
    CHECK(s.onset_load >= 1.0 / 3 - 1.0 / 128);
    CHECK(s.onset_load <= 1.0 / 3 / 0.95);
    CHECK(s.max_accepted == Approx(1.0 / 3).epsilon(1e-12));
    // The maximum accepted rate is reached above the onset, at a saturated load.
    CHECK(s.max_accepted_load > s.onset_load);
    CHECK(s.tolerance == 0.05);
    bool found = false;
    for (const auto& p : s.runs)
        found |= p.load == s.max_accepted_load && p.result.accepted_fraction == s.max_accepted;
    CHECK(found);
    for (const auto& p : s.runs) CHECK(p.saturated == (p.load > 1.0 / 3 / 0.95));
}
