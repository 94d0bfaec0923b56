// The hot-spot and victim figures of a run's flows (sim/flow_summary.hpp), exactly.
#include "sim/flow_summary.hpp"

#include <catch2/catch.hpp>

using namespace ibrt::sim;

TEST_CASE("Jain's index: 1 for equal shares, 1/n for one flow taking all") {
    CHECK_FALSE(jain_index({}).has_value());         // no flow: cannot judge
    CHECK_FALSE(jain_index({0.0, 0.0}).has_value()); // all starved: cannot judge either
    CHECK(jain_index({0.25, 0.25, 0.25, 0.25}) == Approx(1.0));
    CHECK(jain_index({1.0, 0, 0, 0}) == Approx(0.25));
    // The parking lot under per-input round robin: 1/2, 1/6, 1/12 x2, 1/24 x4.
    CHECK(jain_index({1 / 2., 1 / 6., 1 / 12., 1 / 12., 1 / 24., 1 / 24., 1 / 24., 1 / 24.}) ==
          Approx(0.4186).margin(1e-4));
}

TEST_CASE("flows to a destination offered more than a link are hot, the others victims") {
    // Three contributors offer 0.5 each to CA 0 (1.5 > 1: hot); a victim offers 0.5 to CA 5
    // and gets 0.1; CA 6 gets 0.9 of one link offered by two flows (not hot: 0.9 <= 1).
    const std::vector<FlowStat> flows = {{1, 0, 0.5, 0.4, 7},   {2, 0, 0.5, 0.3, 9},
                                         {3, 0, 0.5, 0.3, 8},   {4, 5, 0.5, 0.1, 2},
                                         {7, 6, 0.45, 0.45, 0}, {8, 6, 0.45, 0.45, 0}};
    const FlowSummary s = summarize_flows(flows);
    CHECK(s.hot_destinations == 1);
    CHECK(s.hot_flows == 3);
    CHECK(s.victim_flows == 3);
    CHECK(s.hot_offered == Approx(1.5));
    CHECK(s.hot_accepted == Approx(1.0));
    CHECK(s.victim_offered == Approx(1.4));
    CHECK(s.victim_accepted == Approx(1.0));
    CHECK(s.hot_jain.value() == Approx(1.0 / (3 * (0.16 + 0.09 + 0.09))));
    CHECK(s.victim_becns == 2);
}
