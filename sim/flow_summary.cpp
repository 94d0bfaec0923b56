// Hot-spot and victim figures of a run's flows; see flow_summary.hpp.
#include "sim/flow_summary.hpp"

#include <map>

namespace ibrt::sim {

std::optional<double> jain_index(const std::vector<double>& x) {
    double sum = 0, squares = 0;
    for (const double v : x) {
        sum += v;
        squares += v * v;
    }
    if (squares <= 0) return std::nullopt;
    return sum * sum / (double(x.size()) * squares);
}

FlowSummary summarize_flows(const std::vector<FlowStat>& flows) {
    std::map<std::uint32_t, double> offered_to; // ordered: sums in one order, one answer
    for (const FlowStat& f : flows) offered_to[f.dst] += f.offered_fraction;
    FlowSummary s;
    for (const auto& [dst, offered] : offered_to) s.hot_destinations += offered > 1.0;
    std::vector<double> hot, victim;
    for (const FlowStat& f : flows) {
        if (offered_to[f.dst] > 1.0) {
            ++s.hot_flows;
            s.hot_offered += f.offered_fraction;
            s.hot_accepted += f.accepted_fraction;
            hot.push_back(f.accepted_fraction);
        } else {
            ++s.victim_flows;
            s.victim_offered += f.offered_fraction;
            s.victim_accepted += f.accepted_fraction;
            s.victim_becns += f.becns;
            victim.push_back(f.accepted_fraction);
        }
    }
    s.hot_jain = jain_index(hot);
    s.victim_jain = jain_index(victim);
    return s;
}

} // namespace ibrt::sim
