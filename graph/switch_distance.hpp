// Shortest distances in the switch graph (switch-to-switch cables only: CAs do not forward):
// the one switch BFS, the yardstick of `ibrt check`'s minimality check and the level
// assignment of Up*/Down* (updown.hpp).
#pragma once

#include "fabric/fabric.hpp"
#include "graph/fabric_walks.hpp"

#include <cstdint>
#include <vector>

namespace ibrt::graph {

// BFS from switch `from`; fills `dist` (sized num_nodes) with hop counts, kFar where
// unreachable (every CA, and switches in other components). `queue` is scratch space reused
// between calls.
void switch_distances(const Fabric& f, NodeId from, std::vector<std::uint32_t>& dist,
                      std::vector<NodeId>& queue);

} // namespace ibrt::graph
