// The switch BFS: graph/fabric_walks.hpp's, entering switches only.
#include "graph/switch_distance.hpp"

namespace ibrt::graph {

void switch_distances(const Fabric& f, NodeId from, std::vector<std::uint32_t>& dist,
                      std::vector<NodeId>& queue) {
    bfs_hops(f, std::span<const NodeId>(&from, 1), true, dist, queue);
}

} // namespace ibrt::graph
