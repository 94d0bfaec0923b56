// The split graph of paper 001 §V.C: one vertex per path of R_d, an edge between every two
// paths that split (Definition 1).
//
// Built by bucketing: every (node, out edge, path) triple is sorted by node then edge, so the
// paths leaving a node form consecutive runs, one per out edge, and exactly the pairs from
// different runs of the same node split there. The cost is the number of triples (sum of path
// lengths) times log, plus the output, instead of the paper's O(|R_d|^2 |V|) pairwise test.
#pragma once

#include "lidassign/paths.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace ibrt::lidassign {

struct SplitGraph {
    std::vector<std::uint32_t> offset{0}; // CSR: neighbours of v are adj[offset[v], offset[v+1])
    std::vector<std::uint32_t> adj;       // ascending per vertex

    std::size_t num_vertices() const { return offset.size() - 1; }
    std::size_t num_edges() const { return adj.size() / 2; }
    std::uint32_t degree(std::uint32_t v) const { return offset[v + 1] - offset[v]; }
    std::span<const std::uint32_t> neighbours(std::uint32_t v) const {
        return {adj.data() + offset[v], adj.data() + offset[v + 1]};
    }
};

SplitGraph build_split_graph(const Fabric& f, const DestPaths& d);

// True iff no two paths with the same configuration split (every config < k).
bool valid_assignment(const SplitGraph& g, std::span<const std::uint32_t> config);

} // namespace ibrt::lidassign
