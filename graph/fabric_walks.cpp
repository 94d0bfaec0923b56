// BFS over the flat port arrays; no allocation per visited node beyond the queue.
#include "graph/fabric_walks.hpp"

namespace ibrt {

std::vector<int> levels_from_cas(const Fabric& f) {
    std::vector<int> level(f.num_nodes(), kUnreached);
    std::vector<NodeId> queue;
    queue.reserve(f.num_nodes());
    for (NodeId n : f.cas()) {
        level[n] = 0;
        queue.push_back(n);
    }
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const NodeId n = queue[head];
        const Node& node = f.node(n);
        for (PortNum p = 1; p <= node.num_ports; ++p) {
            const Port& port = f.port(n, p);
            if (!port.connected() || level[port.peer_node] != kUnreached) continue;
            level[port.peer_node] = level[n] + 1;
            queue.push_back(port.peer_node);
        }
    }
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
