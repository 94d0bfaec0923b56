// Graph walks over the fabric shared by `ibrt info`, fat-tree recognition and the checkers:
// breadth-first levels seen from the end nodes and connected components.
#pragma once

#include "fabric/fabric.hpp"

#include <vector>

namespace ibrt {

inline constexpr int kUnreached = -1;

// Distance of every node from the nearest CA/router, in hops over cables (CAs are 0, the
// switches they are cabled to are 1, ...). Nodes no CA reaches get kUnreached.
std::vector<int> levels_from_cas(const Fabric& f);

// Component index of every node (0..count-1, in order of the lowest node id), over cables.
struct Components {
    std::vector<std::uint32_t> of_node;
    std::uint32_t count = 0;
};
Components connected_components(const Fabric& f);

} // namespace ibrt
