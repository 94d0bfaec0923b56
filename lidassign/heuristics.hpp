// The LID assignment heuristics of paper 001 §V: greedy (Fig. 6), split-merge/S and /L
// (Fig. 7) and the graph colouring heuristics color/S and color/L (Fig. 9). Each partitions
// R_d into configurations (sets of paths without a split, Definition 2); one LID realizes a
// configuration (Lemma 2).
//
// Choices the figures leave open, fixed here so results are deterministic:
//   - paths are visited in R_d order, ties (equal node usage, equal degree) go to the lower
//     index / node id;
//   - split-merge: a path that does not leave the selected node has no split there; it joins
//     the largest part of its item (first by edge id on a tie), so the split phase cuts items
//     no more than Definition 1 requires. The merge phase is Fig. 6's greedy over the items,
//     taken in order of their lowest path index. Nodes no path leaves are never selected (they
//     split nothing). Usage counts a node once per path that leaves it;
//   - color/S and color/L select by the degree in the current working graph (it shrinks as
//     vertices are removed), as in the worked example of Fig. 8.
#pragma once

#include "lidassign/paths.hpp"
#include "lidassign/split_graph.hpp"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace ibrt::lidassign {

enum class Heuristic { Greedy, SplitMergeS, SplitMergeL, ColorS, ColorL };
inline constexpr Heuristic kAllHeuristics[] = {Heuristic::Greedy, Heuristic::SplitMergeS,
                                               Heuristic::SplitMergeL, Heuristic::ColorS,
                                               Heuristic::ColorL};

std::string_view to_string(Heuristic h); // "greedy", "split-merge/S", ..., "color/L"
std::optional<Heuristic> parse_heuristic(std::string_view s);

// A partition of R_d: config[i] in 0..k-1 is the configuration (LID offset) of path i.
struct Assignment {
    std::vector<std::uint32_t> config;
    std::uint32_t k = 0;
};

Assignment greedy(const Fabric& f, const DestPaths& d);
Assignment split_merge(const Fabric& f, const DestPaths& d, bool largest_first);
// weight (empty = all 1): vertex v stands for weight[v] paths with the same switch-level route
// (they never split with each other and split with the same paths), so its degree counts a
// neighbour x weight[x] times. Colouring the classes this way gives each class the colour
// every one of its paths would get from the plain colouring (a class-mate of the chosen path
// keeps no working neighbour and joins its configuration), at the cost of the classes.
Assignment color(const SplitGraph& g, bool largest_first,
                 std::span<const std::uint32_t> weight = {});

// color() on the classes of R_d's paths that leave a CA and then share every edge (the CAs of
// one switch towards d under path selection): the same assignment as color() on the split
// graph of all paths, built and coloured per class (issue 12: 16x fewer vertices on a
// Dragonfly with 4 CAs per switch).
Assignment color_by_route(const Fabric& f, const DestPaths& d, bool largest_first);
// Its steps, for callers that reuse a class colouring (the CAs of one switch, whose classes
// are alike): the classes (in order of their first path), their colouring, the expansion.
struct RouteClasses {
    std::vector<std::uint32_t> class_of; // per path
    DestPaths reps;                      // per class: its first path
    std::vector<std::uint32_t> weight;   // per class: its paths
};
RouteClasses route_classes(const Fabric& f, const DestPaths& d);
Assignment color_classes(const Fabric& f, const RouteClasses& rc, bool largest_first);
Assignment expand(const RouteClasses& rc, const Assignment& per_class);

// Runs one heuristic; the split graph is built only for the colouring heuristics.
Assignment run_heuristic(Heuristic h, const Fabric& f, const DestPaths& d);

} // namespace ibrt::lidassign
