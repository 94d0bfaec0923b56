// Exact mode: the 0-1 ILP of paper 001 §IV for the decision problem SD(G, d, R_d, k), solved
// with GLPK's branch and cut (glp_intopt).
//
// Variables X[p][i] (path p in configuration i), sum_i X[p][i] = 1 per path and no two split
// paths in one configuration. As in §VI.B the search starts from a heuristic k and solves
// SD(k-1), SD(k-2), ... until one is infeasible (optimum = that k + 1) or a time limit ends it.
// A configuration is a colour class of the split graph, so the optimum is its chromatic number.
//
// Reductions around the ILP (each keeps the answer exact):
//
//  1. k-core. Before SD(k), vertices of degree < k are removed repeatedly. The rest (the
//     k-core) is coloured by the ILP; the removed vertices are then coloured in reverse removal
//     order, each with a configuration < k that none of its neighbours uses. That always
//     exists: when v was removed it had < k neighbours left, and those are exactly the
//     vertices coloured before it. So SD(k) is feasible iff it is on the k-core.
//  2. Components. Configurations of different connected components never interact, so SD(k)
//     on the core is feasible iff it is on every component; each is solved on its own (in
//     ascending size, sharing the time budget; the first infeasible one ends SD(k)). A
//     component that a DSATUR colouring already fits into k configurations needs no ILP.
//  3. Maximum clique. A clique of c paths needs c configurations, so an exact maximum clique
//     (branch and bound, Tomita's MCQ: vertices by degree, greedy colouring of the candidates
//     as the bound; see max_clique) is the lower bound; when the upper bound meets it no ILP
//     is solved. A node limit keeps it from hanging: then the largest clique found so far (at
//     least greedy_clique's) is used, which is still a clique, so still a sound bound.
//  4. Upper bound: the better of color/L and DSATUR. The heuristic results reported elsewhere
//     are untouched (color/L itself is not changed); only the exact search starts lower.
//  5. Clique constraints. Per configuration i, instead of X[p][i] + X[q][i] <= 1 per split
//     pair, sum_{p in C} X[p][i] <= 1 for every clique C of a cover of the edges by cliques
//     (each edge lies in at least one; cliques grown greedily from uncovered edges). Every
//     split pair is still excluded (it lies in some C) and every C holds pairwise split paths
//     (at most one per configuration in any colouring), so the 0-1 solutions are the same;
//     the LP relaxation is tighter and the model smaller.
//
// GLPK: presolver on, branching on the last fractional column, clique cuts off (measured,
// docs/lidassign.md).
//
// Symmetry breaking, per component (configurations are interchangeable, so without it the
// solver explores k! copies of every partial colouring): the component's maximum clique Q has
// its j-th path fixed to configuration j, and the r-th other path (in index order) may only
// use configurations <= |Q| + r. Any colouring can be renamed to satisfy both: name the
// configurations of Q's paths 0..|Q|-1, then the others in order of first use, so the r-th
// other path meets at most r + 1 new names. Doing this per component instead of on the whole
// graph keeps r small, which is where the restriction bites.
#pragma once

#include "lidassign/heuristics.hpp"
#include "lidassign/split_graph.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

namespace ibrt::lidassign {

enum class ExactStatus {
    Optimal,  // proven minimum
    Feasible, // better than color/L (by DSATUR or an ILP), but not proven minimum in time
    TimedOut, // only color/L's k is known
};
std::string_view to_string(ExactStatus s);

struct ExactResult {
    Assignment best;               // the best partition found (color/L's if nothing better)
    std::uint32_t lower_bound = 0; // proven: maximum clique size, or the optimum
    ExactStatus status = ExactStatus::TimedOut;
    std::uint32_t ilps_solved = 0; // glp_intopt calls (one per component that needed one)
    double seconds = 0;
};

// time_limit_s: wall-clock budget for the whole destination (all decision ILPs together).
ExactResult solve_exact(const SplitGraph& g, double time_limit_s);

// The decision problem SD(k) alone: feasible with a partition into at most k configurations,
// or not (timed_out tells a time limit from a proof of infeasibility). Reductions 1-3 and 5
// applied; `ilps` counts the glp_intopt calls, `core_vertices` the size of the k-core.
struct DecisionResult {
    bool feasible = false;
    bool timed_out = false;
    Assignment assignment; // configurations renumbered densely, assignment.k <= k
    std::uint32_t ilps = 0;
    std::uint32_t core_vertices = 0;
};
DecisionResult solve_decision(const SplitGraph& g, std::uint32_t k, double time_limit_s);

// The greedy clique (largest degree first, then the common neighbour of largest degree).
std::vector<std::uint32_t> greedy_clique(const SplitGraph& g);

// A maximum clique by branch and bound, at most node_limit search nodes. `proven` is false
// when the limit stopped it; the clique returned is then the largest found (never smaller
// than greedy_clique's).
struct CliqueResult {
    std::vector<std::uint32_t> clique;
    bool proven = false;
};
CliqueResult max_clique(const SplitGraph& g, std::uint64_t node_limit = 200000);

// DSATUR (Brélaz): next the uncoloured vertex with the most distinct neighbour colours, ties
// to the most uncoloured neighbours, then the lower index; it takes the smallest free colour.
Assignment dsatur(const SplitGraph& g);

// The subgraph induced by `vertices` (ascending), vertex i of it being vertices[i].
SplitGraph induced_subgraph(const SplitGraph& g, const std::vector<std::uint32_t>& vertices);

} // namespace ibrt::lidassign
