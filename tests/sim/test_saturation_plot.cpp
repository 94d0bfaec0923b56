// Saturation search against an analytic bottleneck, and the SVG plot's content.
#include "sim/saturation.hpp"
#include "sim/svg_plot.hpp"
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

TEST_CASE("the latency plot is an SVG with one polyline and marker per point") {
    const std::string svg =
        line_plot_svg({{"mlid <1 VL>", {{0.1, 100}, {0.2, 150}, {0.3, 400}}},
                       {"slid", {{0.1, 110}, {0.15, 300}}}},
                      "FT(4,4) uniform", "accepted (bytes/ns/node)", "latency (ns)");
    CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
    CHECK(svg.find("</svg>") != std::string::npos);
    auto count = [&](const std::string& s) {
        std::size_t n = 0;
        for (auto p = svg.find(s); p != std::string::npos; p = svg.find(s, p + 1)) ++n;
        return n;
    };
    CHECK(count("<polyline") == 2);
    CHECK(count("<circle") == 5);
    CHECK(svg.find("mlid &lt;1 VL&gt;") != std::string::npos); // escaped legend
    // Axis ticks: x up to 0.3 in steps of 0.05, y up to 400 in steps of 100.
    CHECK(svg.find(">0.3</text>") != std::string::npos);
    CHECK(svg.find(">400</text>") != std::string::npos);
}
