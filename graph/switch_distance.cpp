// BFS over switch-to-switch cables; see switch_distance.hpp.
#include "graph/switch_distance.hpp"

namespace ibrt::graph {

void switch_distances(const Fabric& f, NodeId from, std::vector<std::uint32_t>& dist,
                      std::vector<NodeId>& queue) {
    dist.assign(f.num_nodes(), kFar);
    queue.clear();
    dist[from] = 0;
    queue.push_back(from);
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const NodeId n = queue[head];
        const Node& node = f.node(n);
        for (PortNum p = 1; p <= node.num_ports; ++p) {
            const Port& port = f.port(n, p);
            if (!port.connected() || dist[port.peer_node] != kFar ||
                !f.node(port.peer_node).is_switch())
                continue;
            dist[port.peer_node] = dist[n] + 1;
            queue.push_back(port.peer_node);
        }
    }
}

} // namespace ibrt::graph
