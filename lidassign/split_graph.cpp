// Paper 001 §V.C (split graph), built by bucketing paths by (node, out edge).
#include "lidassign/split_graph.hpp"

#include <algorithm>

namespace ibrt::lidassign {

SplitGraph build_split_graph(const Fabric& f, const DestPaths& d) {
    struct Leave {
        NodeId node;
        PortId edge;
        std::uint32_t path;
        auto operator<=>(const Leave&) const = default;
    };
    std::vector<Leave> leaves;
    leaves.reserve(d.edges.size());
    for (std::uint32_t i = 0; i < d.size(); ++i)
        for (PortId e : d.path(i)) leaves.push_back({f.port_node(e), e, i});
    std::sort(leaves.begin(), leaves.end());

    std::vector<std::uint64_t> pairs; // (min << 32) | max
    for (std::size_t lo = 0; lo < leaves.size();) {
        std::size_t hi = lo;
        while (hi < leaves.size() && leaves[hi].node == leaves[lo].node) ++hi;
        // Runs of equal edges inside [lo, hi): pair every path with those of later runs.
        for (std::size_t a = lo; a < hi; ++a) {
            std::size_t b = a + 1;
            while (b < hi && leaves[b].edge == leaves[a].edge) ++b;
            for (; b < hi; ++b) {
                const std::uint32_t p = leaves[a].path, q = leaves[b].path;
                pairs.push_back(p < q ? (std::uint64_t(p) << 32 | q)
                                      : (std::uint64_t(q) << 32 | p));
            }
        }
        lo = hi;
    }
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());

    SplitGraph g;
    const std::size_t n = d.size();
    std::vector<std::uint32_t> deg(n, 0);
    for (std::uint64_t pq : pairs) {
        ++deg[pq >> 32];
        ++deg[pq & 0xffffffffu];
    }
    g.offset.assign(n + 1, 0);
    for (std::size_t v = 0; v < n; ++v) g.offset[v + 1] = g.offset[v] + deg[v];
    g.adj.resize(g.offset[n]);
    std::vector<std::uint32_t> fill(g.offset.begin(), g.offset.end() - 1);
    // Pairs are sorted by (min, max): appending max to min's list and min to max's list keeps
    // every list ascending.
    for (std::uint64_t pq : pairs) {
        const auto p = static_cast<std::uint32_t>(pq >> 32), q = static_cast<std::uint32_t>(pq);
        g.adj[fill[p]++] = q;
    }
    for (std::uint64_t pq : pairs) {
        const auto p = static_cast<std::uint32_t>(pq >> 32), q = static_cast<std::uint32_t>(pq);
        g.adj[fill[q]++] = p;
    }
    for (std::size_t v = 0; v < n; ++v)
        std::sort(g.adj.begin() + g.offset[v], g.adj.begin() + g.offset[v + 1]);
    return g;
}

bool valid_assignment(const SplitGraph& g, std::span<const std::uint32_t> config) {
    if (config.size() != g.num_vertices()) return false;
    for (std::uint32_t v = 0; v < g.num_vertices(); ++v)
        for (std::uint32_t w : g.neighbours(v))
            if (config[v] == config[w]) return false;
    return true;
}

} // namespace ibrt::lidassign
