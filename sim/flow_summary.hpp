// Hot-spot and victim figures of a run's flows (SimResult::flows): the measures of the classic
// IBA congestion-control experiments (Gran et al., IPDPS 2010 and CCGrid 2011; issue 16) —
// what the contributors to a hot spot get and how fairly they share it, and what the victims,
// flows that only pass the congestion tree, still get. A destination is hot when the flows to
// it offer more than its link can take (their offered fractions sum above 1: every flow's
// figure is a fraction of its source's link, so this assumes one link speed, as the studies
// do); a hot flow goes to a hot destination, a victim flow to any other.
#pragma once

#include "sim/simulator.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace ibrt::sim {

struct FlowSummary {
    std::uint32_t hot_destinations = 0, hot_flows = 0, victim_flows = 0;
    // Sums over the flows, in links' worth (fractions of a source link).
    double hot_offered = 0, hot_accepted = 0, victim_offered = 0, victim_accepted = 0;
    // Jain's fairness index of the flows' accepted traffic, (sum x)^2 / (n sum x^2): 1 when
    // every flow gets the same, 1/n when one gets everything; none when there is no flow or
    // none got anything (fairness cannot be judged: all starved is not "perfectly fair").
    std::optional<double> hot_jain, victim_jain;
    // Notifications the sources received for victim flows: with per-QP control, BECNs that
    // throttle a victim.
    std::uint64_t victim_becns = 0;
};

std::optional<double> jain_index(const std::vector<double>& x);

FlowSummary summarize_flows(const std::vector<FlowStat>& flows);

} // namespace ibrt::sim
