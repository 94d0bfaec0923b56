// Up*/Down* orientation and the shortest-legal-route DAG (see updown.hpp).
#include "graph/updown.hpp"

#include "graph/fabric_walks.hpp"

#include <deque>

namespace ibrt::graph {

NodeId choose_root(const Fabric& f, std::uint64_t seed) {
    if (f.switches().empty()) return kNoNode;
    const Components c = connected_components(f);
    std::vector<std::size_t> size(c.count, 0);
    for (NodeId s : f.switches()) ++size[c.of_node[s]];
    std::uint32_t big = 0;
    for (std::uint32_t i = 1; i < c.count; ++i)
        if (size[i] > size[big]) big = i;
    std::vector<NodeId> cand;
    for (NodeId s : f.switches())
        if (c.of_node[s] == big) cand.push_back(s);
    // splitmix64 of the seed: any seed gives a well-spread index, seed 0 gives the first.
    if (seed == 0) return cand[0];
    std::uint64_t z = seed + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return cand[z % cand.size()];
}

UpDown make_updown(const Fabric& f, NodeId root) {
    UpDown ud;
    ud.root = root;
    ud.level.assign(f.num_nodes(), -1);
    if (root == kNoNode) return ud;
    std::vector<std::uint32_t> dist;
    std::vector<NodeId> queue;
    switch_distances(f, root, dist, queue);
    for (NodeId n = 0; n < f.num_nodes(); ++n)
        if (dist[n] != kFar) ud.level[n] = static_cast<int>(dist[n]);
    return ud;
}

ShortestDag shortest_dag(const Fabric& f, const UpDown& ud, NodeId dst) {
    ShortestDag g;
    g.dst = dst;
    g.dist.assign(f.num_nodes() * 2, kFar);
    const PortId dport = first_end_port(f, dst);
    if (dport == kNoPort) return g;
    g.dist[dst * 2] = g.dist[dst * 2 + 1] = 0;
    // Reverse BFS over states. The predecessors of (v, ph) are (u, *) with an edge u -> v:
    // a down edge leads into phase 1 from both phases, an up edge into phase 0 from phase 0.
    std::deque<std::uint32_t> q;
    auto reach = [&](NodeId u, int ph, std::uint32_t d) {
        std::uint32_t& x = g.dist[std::size_t(u) * 2 + ph];
        if (x != kFar) return;
        x = d;
        if (f.node(u).is_switch()) q.push_back(u * 2 + ph); // CAs are never transit nodes
    };
    {
        const Port& p = f.port(dport);
        if (f.node(p.peer_node).is_switch()) {
            reach(p.peer_node, 0, 1);
            reach(p.peer_node, 1, 1);
        }
    }
    while (!q.empty()) {
        const std::uint32_t s = q.front();
        q.pop_front();
        const NodeId v = s / 2;
        const int ph = int(s % 2);
        const std::uint32_t d = g.dist[s] + 1;
        for (PortNum p = 1; p <= f.node(v).num_ports; ++p) {
            const Port& port = f.port(v, p);
            if (!port.connected()) continue;
            const NodeId u = port.peer_node;
            if (u == dst) continue;
            const PortId e = f.port_id(u, port.peer_port); // u -> v
            if (!f.node(u).is_switch() && e != first_end_port(f, u)) continue;
            const bool is_up = ud.up(f, e);
            if (is_up && ph == 0) reach(u, 0, d);
            if (!is_up && ph == 1) {
                reach(u, 0, d);
                reach(u, 1, d);
            }
        }
    }
    return g;
}

} // namespace ibrt::graph
