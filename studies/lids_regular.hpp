// Paths for paper 001 §VI.C (regular and near-regular topologies, Figs. 10-11): a base routing
// on the intact topology, and after links break, only the paths that used a broken link are
// recomputed, by shortest-widest without the Up*/Down* restriction (as the paper does).
// Study code (studies/), not LID assignment: it drives lidassign/ for the paper's tables; its
// namespace stays the paper's.
#pragma once

#include "lidassign/paths.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ibrt::lidassign {

// Dimension-order routing on a torus built by generators/torus.hpp: coordinates are
// read from the "sw-x1.x2..." labels; dimension 0 first, each in the shorter direction
// around the ring (ties: +). One path per ordered CA pair, PathSet layout as compute_paths.
PathSet dor_paths(const Fabric& torus);

// base: paths on the intact fabric (same node and port ids as `failed`, which
// gen::inject_failures keeps when no node is dropped). Paths whose edges all still exist are
// kept; the others are recomputed by shortest-widest (fewest hops, then least weight; weights
// start at 1 + the load of the kept paths). `repaired` counts them.
// RepairOptions (issue 39): the paper does not say in which order the broken paths are re-routed
// nor whether the kept paths load the weights; the default is the rule above (destination by
// destination, sources in order, kept paths loaded), the variants re-route source by source or
// in a random order (order_seed), or start every weight at 1 (fresh: only re-routed paths add).
struct RepairOptions {
    enum class Order { Destination, Source, Random } order = Order::Destination;
    enum class Weights { Loaded, Fresh } weights = Weights::Loaded;
    std::uint64_t order_seed = 1;
};
PathSet repair_paths(const Fabric& failed, const PathSet& base, std::size_t* repaired = nullptr,
                     const RepairOptions& opt = {});

// The paths of every destination in a random order (seed): the heuristics visit R_d in its
// order and break ties by it (greedy: first fit in path order; color/L: the lower index among
// equally split paths), the ILP's optimum does not depend on it (issue 39: how much of the
// heuristics' distance to the optimum is the tie order).
PathSet shuffle_paths(const PathSet& paths, std::uint64_t seed);

// The topologies of `ibrt lids --study-regular` (issue 39: §VI.C's "other 2D and 3D tori and
// fat-trees"): "torus:AxB[xC...]" (DOR paths; 1-4 dimensions of 2-64 switches each, one machine
// per switch) or "fat-tree:M,N" (FT(M,N) with d-mod-k paths; M even, 4-64, N 2-4), at most 4096
// machines each. A list separates them by commas (a fat tree's own comma included:
// "torus:16x8,fat-tree:8,3"). The paper's three keep their figures' names and files (16x8 torus
// lids-fig10a.csv, 8x4x4 torus lids-fig10b.csv, FT(8,3) lids-fig11.csv); any other writes
// lids-regular-<torus-AxB|ft-M-N>.csv. figure: the file's name without "lids-" and ".csv", the
// per-seed CSVs' figure column.
struct RegularTopology {
    enum class Kind { Torus, FatTree } kind = Kind::Torus;
    std::vector<int> dims; // torus: switches per dimension; fat tree: {M, N}
    std::string name;      // "16x8 torus", "FT(8,3)"
    std::string file;      // "lids-fig10a.csv", "lids-regular-torus-8x8.csv"
    std::string figure;    // "fig10a", "regular-torus-8x8"
};
inline constexpr std::string_view kDefaultRegularTopologies = "torus:16x8,torus:8x4x4,fat-tree:8,3";
// Throws std::invalid_argument naming the bad item (unknown kind, bad size, a duplicate, an
// empty list).
std::vector<RegularTopology> parse_regular_topologies(std::string_view list);

} // namespace ibrt::lidassign
