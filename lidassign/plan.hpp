// LID assignment over a whole path set: paper 001 §II reduces it to one single-destination
// problem per destination (L = sum_d L_d), each counted as 2^ceil(lg k_d) LIDs for LMC.
#pragma once

#include "lidassign/exact.hpp"
#include "lidassign/heuristics.hpp"
#include "lidassign/paths.hpp"

#include <cstdint>
#include <vector>

namespace ibrt::lidassign {

struct Plan {
    std::vector<Assignment> per_dest; // parallel to the PathSet
    std::uint64_t total_lids = 0;     // sum of lids_for(k_d)
    std::uint64_t total_k = 0;        // sum of k_d
    std::uint32_t max_k = 0;
    double seconds = 0;
};

Plan plan_heuristic(const Fabric& f, const PathSet& paths, Heuristic h);

struct ExactPlan {
    std::vector<ExactResult> per_dest;
    std::uint64_t total_lids = 0; // of the best partitions found
    std::uint64_t total_k = 0;
    std::uint32_t optimal = 0, feasible = 0, timed_out = 0;
    std::uint32_t ilps = 0;
    double seconds = 0;
};

// time_limit_s per destination.
ExactPlan plan_exact(const Fabric& f, const PathSet& paths, double time_limit_s);

} // namespace ibrt::lidassign
