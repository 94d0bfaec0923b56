// Up*/Down* routing (Schroeder et al., Autonet, 1991), the deadlock-free candidate set that
// paper 001 §VI restricts both path computations to; in the graph library so that engines
// and lidassign share one orientation.
//
// The switch BFS from a root switch (switch_distance.hpp) gives every switch a level; a directed
// edge u -> v between switches is "up" when level(v) < level(u), or the levels tie and
// v < u (node id). Edges out of a CA are up, edges into a CA down. A legal route takes zero or
// more up edges, then only down edges; the up orientation is acyclic, so the channel
// dependency graph of legal routes is too.
//
// ShortestDag: for one destination CA, the hop distance of every state (node, phase) to it,
// phase 0 = may still go up, 1 = has gone down. Edges that keep the distance decreasing by one
// form the DAG of all shortest legal routes. CAs other than the destination are never transit
// nodes: only a source CA's own state has a distance.
#pragma once

#include "fabric/end_ports.hpp"
#include "fabric/fabric.hpp"
#include "graph/switch_distance.hpp"

#include <cstdint>
#include <vector>

namespace ibrt::graph {

struct UpDown {
    NodeId root = kNoNode;
    std::vector<int> level; // per node; -1 for CAs and switches the root does not reach
    // True when the directed edge leaving through `e` goes up.
    bool up(const Fabric& f, PortId e) const {
        const NodeId u = f.port_node(e), v = f.port(e).peer_node;
        if (!f.node(u).is_switch()) return true;
        if (!f.node(v).is_switch()) return false;
        return level[v] < level[u] || (level[v] == level[u] && v < u);
    }
};

// The root: the seed picks one switch of the largest connected switch component
// deterministically (seed 0 = the lowest switch id).
NodeId choose_root(const Fabric& f, std::uint64_t seed);
UpDown make_updown(const Fabric& f, NodeId root);

struct ShortestDag {
    NodeId dst = kNoNode;
    std::vector<std::uint32_t> dist; // per state node * 2 + phase, kFar if no legal route
    std::uint32_t at(NodeId n, int phase) const { return dist[std::size_t(n) * 2 + phase]; }
};

// dst must be a CA; routes enter it through first_end_port(dst) only (paper 001 models one
// port per machine; fabric/end_ports.hpp).
ShortestDag shortest_dag(const Fabric& f, const UpDown& ud, NodeId dst);

// Calls fn(edge, next_phase) for every DAG edge out of state (n, phase): edges in port order.
template <class Fn>
void for_each_dag_edge(const Fabric& f, const UpDown& ud, const ShortestDag& g, NodeId n, int phase,
                       Fn&& fn) {
    const std::uint32_t here = g.at(n, phase);
    if (here == kFar || here == 0) return;
    const Node& node = f.node(n);
    for (PortNum p = 1; p <= node.num_ports; ++p) {
        const PortId e = f.port_id(n, p);
        const Port& port = f.port(e);
        if (!port.connected()) continue;
        if (!node.is_switch() && e != first_end_port(f, n)) continue;
        const NodeId v = port.peer_node;
        if (!f.node(v).is_switch() &&
            (v != g.dst || f.port_id(v, port.peer_port) != first_end_port(f, v)))
            continue;
        const bool is_up = ud.up(f, e);
        if (is_up && phase == 1) continue;
        const int next = is_up ? 0 : 1;
        if (g.at(v, next) + 1 == here) fn(e, next);
    }
}

} // namespace ibrt::graph
