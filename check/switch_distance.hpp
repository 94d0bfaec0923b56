// Shortest distances in the switch graph (switch-to-switch cables only: CAs do not forward),
// the yardstick of the minimality check.
#pragma once

#include "fabric/fabric.hpp"

#include <cstdint>
#include <vector>

namespace ibrt::check {

inline constexpr std::uint16_t kFar = 0xffff;

// BFS from switch `from`; fills `dist` (sized num_nodes) with hop counts, kFar where
// unreachable. `queue` is scratch space reused between calls.
void switch_distances(const Fabric& f, NodeId from, std::vector<std::uint16_t>& dist,
                      std::vector<NodeId>& queue);

} // namespace ibrt::check
