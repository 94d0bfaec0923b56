// Port numbering for graph-defined direct topologies; see switch_graph.hpp.
#include "generators/switch_graph.hpp"

#include <algorithm>

namespace ibrt::gen {

void cable_switch_graph(GenBuilder& b, const std::vector<NodeId>& switches, const Adjacency& adj,
                        int first_port, int parallel) {
    for (std::uint32_t u = 0; u < adj.size(); ++u) {
        for (std::size_t i = 0; i < adj[u].size(); ++i) {
            const std::uint32_t v = adj[u][i];
            if (v <= u) continue;
            const auto it = std::lower_bound(adj[v].begin(), adj[v].end(), u);
            const int back = static_cast<int>(it - adj[v].begin());
            for (int j = 0; j < parallel; ++j)
                b.link(switches[u], first_port + static_cast<int>(i) * parallel + j, switches[v],
                       first_port + back * parallel + j);
        }
    }
}

int graph_diameter(const Adjacency& adj) {
    const std::size_t n = adj.size();
    int diameter = 0;
    std::vector<int> dist(n);
    std::vector<std::uint32_t> queue(n);
    for (std::uint32_t s = 0; s < n; ++s) {
        std::fill(dist.begin(), dist.end(), -1);
        dist[s] = 0;
        std::size_t head = 0, tail = 0;
        queue[tail++] = s;
        while (head < tail) {
            const std::uint32_t u = queue[head++];
            for (std::uint32_t v : adj[u])
                if (dist[v] < 0) {
                    dist[v] = dist[u] + 1;
                    queue[tail++] = v;
                }
        }
        if (tail != n) return -1;
        diameter = std::max(diameter, dist[queue[tail - 1]]);
    }
    return diameter;
}

} // namespace ibrt::gen
