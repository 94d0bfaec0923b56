// The two path computations of paper 001 §VI, both restricted to Up*/Down* legal routes
// (updown.hpp), one path per ordered pair of distinct CAs.
//
// shortest-widest: pairs one by one (destinations in Fabric::cas() order, sources in the same
// order); every directed edge starts with weight 1 and gains 1 per path that uses it; a pair
// gets the legal route with the fewest hops, and among those the smallest weight sum (ties:
// lowest port numbers first). Weights are per directed edge: a cable carries the two
// directions independently.
//
// path-selection: as in §VI, up to `candidates` (16) loopless legal routes per pair from
// Yen's k shortest paths (yen.hpp; computed once per switch pair, ordered by hops then
// PortIds, so longer routes join when fewer than 16 shortest exist), then Koibuchi, Jouraku,
// Amano's most-loaded-link-first selection (paper 001 ref. [12]). Load of a directed link =
// sum over the pairs of (that pair's candidates through the link) / (that pair's
// candidates), kept exactly in integers scaled by lcm(1..16). Selection: take the link of
// highest load on which some pair still has a candidate avoiding it (ties: lowest PortId);
// drop that pair's candidates through the link; repeat until every pair has one candidate
// left. Documented deviation, to keep 512/64 at seconds: one visit of the most loaded link
// drops pairs (lowest pair index first) until the link is no longer above the next most
// loaded one, rather than one pair per global re-selection.
//
// Data layout (issue 12, sizes of 1,000 hosts and more): the candidates are stored once per
// switch pair (a CA pair holds its switch pair's first route and a 16-bit mask of the ones
// still alive), each link lists the pairs with a candidate through it and which ones, and the
// most loaded link comes from a max tree over the links, updated once per edge and reduction.
// The selected paths are the same as with per-pair copies and a linear scan
// (tests/lidassign/test_path_compute.cpp keeps that plain version as the reference).
#pragma once

#include "graph/updown.hpp"
#include "lidassign/paths.hpp"

#include <functional>
#include <string_view>

namespace ibrt::lidassign {

enum class PathScheme { ShortestWidest, PathSelection };
std::string_view to_string(PathScheme s);

struct PathOptions {
    std::uint64_t seed = 1; // Up*/Down* root choice
    int candidates = 16;
};

// One DestPaths per CA in Fabric::cas() order (dst = that CA), sources in the same order;
// a pair without a legal route is left out (the fabric is disconnected).
PathSet compute_paths(const Fabric& f, PathScheme s, const PathOptions& opt = {});
PathSet shortest_widest(const Fabric& f, const graph::UpDown& ud);
// progress, if set, is called now and then with the fraction done (for long runs; no I/O here).
PathSet path_selection(const Fabric& f, const graph::UpDown& ud, int candidates = 16,
                       const std::function<void(double)>& progress = {});

// All-to-all link load of a path set: max over directed switch-to-switch links of the paths
// using it, divided by (#CAs - 1) (paper 001 §VI.D normalises each machine's traffic to 1).
double max_link_load(const Fabric& f, const PathSet& paths);

} // namespace ibrt::lidassign
