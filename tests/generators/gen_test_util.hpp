// Helpers shared by the generator tests: lookups by label and the switch graph of a fabric.
#pragma once

#include "fabric/fabric.hpp"
#include "generators/switch_graph.hpp"

#include <algorithm>
#include <map>
#include <string>

namespace ibrt::gentest {

inline std::map<std::string, NodeId> by_desc(const Fabric& f) {
    std::map<std::string, NodeId> m;
    for (NodeId n = 0; n < f.num_nodes(); ++n) m.emplace(f.node(n).desc, n);
    return m;
}

// "peer desc[peer port]" of node `desc` port p, or "-" when unconnected.
inline std::string peer(const Fabric& f, const std::map<std::string, NodeId>& d,
                        const std::string& desc, int p) {
    const Port& port = f.port(d.at(desc), static_cast<PortNum>(p));
    if (!port.connected()) return "-";
    return f.node(port.peer_node).desc + "[" + std::to_string(port.peer_port) + "]";
}

// Switch-to-switch graph (parallel cables collapsed), vertices in order of f.switches().
inline gen::Adjacency switch_graph(const Fabric& f) {
    std::vector<std::uint32_t> index(f.num_nodes(), 0xffffffffu);
    for (std::size_t i = 0; i < f.switches().size(); ++i)
        index[f.switches()[i]] = static_cast<std::uint32_t>(i);
    gen::Adjacency adj(f.switches().size());
    for (std::size_t i = 0; i < f.switches().size(); ++i) {
        const NodeId s = f.switches()[i];
        for (PortNum p = 1; p <= f.node(s).num_ports; ++p) {
            const Port& port = f.port(s, p);
            if (port.connected() && f.node(port.peer_node).is_switch())
                adj[i].push_back(index[port.peer_node]);
        }
        std::sort(adj[i].begin(), adj[i].end());
        adj[i].erase(std::unique(adj[i].begin(), adj[i].end()), adj[i].end());
    }
    return adj;
}

// Every cable is seen identically from both ends.
inline bool cables_consistent(const Fabric& f) {
    for (NodeId n = 0; n < f.num_nodes(); ++n)
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
            const Port& a = f.port(n, p);
            if (!a.connected()) continue;
            const Port& b = f.port(a.peer_node, a.peer_port);
            if (b.peer_node != n || b.peer_port != p || a.width != b.width || a.speed != b.speed)
                return false;
        }
    return true;
}

// Cables between switches, each counted once.
inline std::size_t isl_count(const Fabric& f) {
    std::size_t c = 0;
    for (NodeId s : f.switches())
        for (PortNum p = 1; p <= f.node(s).num_ports; ++p) {
            const Port& port = f.port(s, p);
            if (port.connected() && f.node(port.peer_node).is_switch()) ++c;
        }
    return c / 2;
}

} // namespace ibrt::gentest
