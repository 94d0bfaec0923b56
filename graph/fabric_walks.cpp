// BFS over the flat port arrays; no allocation per visited node beyond the queue.
#include "graph/fabric_walks.hpp"

namespace ibrt {

void graph::bfs_hops(const Fabric& f, std::span<const NodeId> sources, bool switches_only,
                     std::vector<std::uint32_t>& dist, std::vector<NodeId>& queue) {
    dist.assign(f.num_nodes(), graph::kFar);
    queue.clear();
    for (NodeId n : sources) {
        dist[n] = 0;
        queue.push_back(n);
    }
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const NodeId n = queue[head];
        const Node& node = f.node(n);
        for (PortNum p = 1; p <= node.num_ports; ++p) {
            const Port& port = f.port(n, p);
            if (!port.connected() || dist[port.peer_node] != graph::kFar ||
                (switches_only && !f.node(port.peer_node).is_switch()))
                continue;
            dist[port.peer_node] = dist[n] + 1;
            queue.push_back(port.peer_node);
        }
    }
}

std::vector<std::uint32_t> levels_from_cas(const Fabric& f) {
    std::vector<std::uint32_t> level;
    std::vector<NodeId> queue;
    queue.reserve(f.num_nodes());
    graph::bfs_hops(f, f.cas(), false, level, queue);
    return level;
}

Components connected_components(const Fabric& f) {
    constexpr std::uint32_t kNone = 0xffffffffu;
    Components c;
    c.of_node.assign(f.num_nodes(), kNone);
    std::vector<NodeId> stack;
    for (NodeId start = 0; start < f.num_nodes(); ++start) {
        if (c.of_node[start] != kNone) continue;
        const std::uint32_t id = c.count++;
        c.of_node[start] = id;
        stack.push_back(start);
        while (!stack.empty()) {
            const NodeId n = stack.back();
            stack.pop_back();
            const Node& node = f.node(n);
            for (PortNum p = 1; p <= node.num_ports; ++p) {
                const Port& port = f.port(n, p);
                if (port.connected() && c.of_node[port.peer_node] == kNone) {
                    c.of_node[port.peer_node] = id;
                    stack.push_back(port.peer_node);
                }
            }
        }
    }
    return c;
}

} // namespace ibrt
