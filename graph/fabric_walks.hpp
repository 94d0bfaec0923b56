// Graph walks over the fabric shared by `ibrt info`, fat-tree recognition and the checkers:
// the one breadth-first search of the graph library (hop counts from a set of nodes), the
// levels seen from the end nodes, and connected components.
#pragma once

#include "fabric/fabric.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace ibrt {

namespace graph {

// The hop count of what cannot be reached, in every distance array of the graph library.
inline constexpr std::uint32_t kFar = 0xffffffffu;

// Hops over cables from the nearest of `sources` to every node (`dist`, sized num_nodes), kFar
// where unreached; with `switches_only` the walk enters switches only (CAs do not forward).
// `queue` is scratch space reused between calls.
void bfs_hops(const Fabric& f, std::span<const NodeId> sources, bool switches_only,
              std::vector<std::uint32_t>& dist, std::vector<NodeId>& queue);

} // namespace graph

// Distance of every node from the nearest CA/router, in hops over cables (CAs are 0, the
// switches they are cabled to are 1, ...). Nodes no CA reaches get graph::kFar.
std::vector<std::uint32_t> levels_from_cas(const Fabric& f);

// Component index of every node (0..count-1, in order of the lowest node id), over cables.
struct Components {
    std::vector<std::uint32_t> of_node;
    std::uint32_t count = 0;
};
Components connected_components(const Fabric& f);

} // namespace ibrt
