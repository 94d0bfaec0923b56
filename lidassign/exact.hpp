// Exact mode: the 0-1 ILP of paper 001 §IV for the decision problem SD(G, d, R_d, k), solved
// with GLPK's branch and cut (glp_intopt).
//
// Variables X[p][i] (path p in configuration i), sum_i X[p][i] = 1 per path and
// X[p][i] + X[q][i] <= 1 for every split pair {p, q} and every i. As in §VI.B the search starts
// from color/L's k and solves SD(k-1), SD(k-2), ... until one is infeasible (optimum = that
// k + 1) or a time limit ends it.
//
// Symmetry breaking (configurations are interchangeable, so without it the solver explores
// k! copies of every partial colouring): a clique Q of the split graph is found greedily
// (largest degree first, then the vertex adjacent to all chosen ones with the largest degree);
// its paths need pairwise different configurations, so the j-th clique path is fixed to
// configuration j. |Q| is also a lower bound: when color/L's k equals |Q| no ILP is solved,
// and SD(|Q| - 1) is never asked. Every other path p (in R_d order, r-th non-clique path) may
// only use configurations <= |Q| + r, the "path i only uses configurations <= i" rule shifted
// past the clique.
#pragma once

#include "lidassign/heuristics.hpp"
#include "lidassign/split_graph.hpp"

#include <cstdint>
#include <string_view>

namespace ibrt::lidassign {

enum class ExactStatus {
    Optimal,  // proven minimum
    Feasible, // an ILP improved on color/L, but a later one ran out of time
    TimedOut, // the first ILP ran out of time: only color/L's k is known
};
std::string_view to_string(ExactStatus s);

struct ExactResult {
    Assignment best;               // the best partition found (color/L's if nothing better)
    std::uint32_t lower_bound = 0; // proven: clique size, or the optimum
    ExactStatus status = ExactStatus::TimedOut;
    std::uint32_t ilps_solved = 0;
    double seconds = 0;
};

// time_limit_s: wall-clock budget for the whole destination (all decision ILPs together).
ExactResult solve_exact(const SplitGraph& g, double time_limit_s);

// The decision ILP SD(k) alone: feasible with a partition into at most k configurations, or
// not (timed_out tells a time limit from a proof of infeasibility).
struct DecisionResult {
    bool feasible = false;
    bool timed_out = false;
    Assignment assignment;
};
DecisionResult solve_decision(const SplitGraph& g, std::uint32_t k, double time_limit_s);

// The greedy clique used for symmetry breaking (vertices in the order fixed to 0, 1, ...).
std::vector<std::uint32_t> greedy_clique(const SplitGraph& g);

} // namespace ibrt::lidassign
