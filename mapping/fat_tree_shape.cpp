// Fat-tree recognition (paper 000 §3, generalized to any folded-Clos fabric); see the header.
#include "mapping/fat_tree_shape.hpp"

#include "fabric/display_name.hpp"
#include "fabric/end_ports.hpp"
#include "graph/fabric_walks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <tuple>

namespace ibrt::fattree {

namespace {

struct UnionFind {
    std::vector<std::uint32_t> parent;
    explicit UnionFind(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0u); }
    std::uint32_t find(std::uint32_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    }
    void unite(std::uint32_t a, std::uint32_t b) {
        a = find(a);
        b = find(b);
        if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
};

void check_connected(const Fabric& f) {
    const Components comp = connected_components(f);
    if (comp.count <= 1) return;
    for (NodeId n = 0; n < f.num_nodes(); ++n)
        if (comp.of_node[n] != 0)
            throw NotAFatTree(fmt::format("not a fat tree: the fabric is disconnected ({} "
                                          "components); {} is not connected to {}",
                                          comp.count, display_name(f, n), display_name(f, 0)));
}

} // namespace

FatTreeShape recognize_fat_tree(const Fabric& f) {
    if (f.cas().empty()) throw NotAFatTree("not a fat tree: the fabric has no CAs or routers");
    if (f.switches().empty()) throw NotAFatTree("not a fat tree: the fabric has no switches");
    check_connected(f);

    // Every node is reached: the fabric is connected and has CAs (checked above).
    const std::vector<std::uint32_t> lv = levels_from_cas(f);
    FatTreeShape t;
    const std::size_t nn = f.num_nodes();
    t.level.assign(nn, 0);
    for (NodeId s : f.switches()) {
        if (lv[s] > 255)
            throw NotAFatTree(fmt::format("not a fat tree: {} is {} levels above the CAs",
                                          display_name(f, s), lv[s]));
        t.level[s] = static_cast<std::uint8_t>(lv[s]);
        t.height = std::max(t.height, int(lv[s]));
    }
    // Every cable must join adjacent levels; breadth-first levels differ by at most one, so
    // the only violations are cables within a level and CAs cabled to CAs.
    for (NodeId n = 0; n < nn; ++n) {
        const Node& node = f.node(n);
        for (PortNum p = 1; p <= node.num_ports; ++p) {
            const Port& port = f.port(n, p);
            if (!port.connected() || port.peer_node < n) continue;
            const NodeId m = port.peer_node;
            if (!node.is_switch() && !f.node(m).is_switch())
                throw NotAFatTree(fmt::format("not a fat tree: {} port {} is cabled directly "
                                              "to {} port {}",
                                              display_name(f, n), p, display_name(f, m),
                                              port.peer_port));
            if (node.is_switch() && f.node(m).is_switch() && lv[n] == lv[m])
                throw NotAFatTree(fmt::format(
                    "not a fat tree: {} port {} and {} port {} are both on level {} (a cable "
                    "within a level{})",
                    display_name(f, n), p, display_name(f, m), port.peer_port, lv[n],
                    lv[n] == 1 ? ", or CAs attached above the leaf level" : ""));
        }
    }

    // Up and down port lists.
    t.up_begin.assign(nn + 1, 0);
    t.down_begin.assign(nn + 1, 0);
    std::vector<PortNum> ports;
    std::vector<NodeId> group_peer;
    std::vector<std::vector<PortNum>> groups;
    for (NodeId n = 0; n < nn; ++n) {
        t.up_begin[n] = static_cast<std::uint32_t>(t.up_ports.size());
        t.down_begin[n] = static_cast<std::uint32_t>(t.down_ports.size());
        const Node& node = f.node(n);
        if (!node.is_switch()) continue;
        for (int dir = 0; dir < 2; ++dir) { // 0: down, 1: up
            group_peer.clear();
            groups.clear();
            for (PortNum p = 1; p <= node.num_ports; ++p) {
                const Port& port = f.port(n, p);
                if (!port.connected()) continue;
                const bool up = lv[port.peer_node] > lv[n];
                if (up != (dir == 1)) continue;
                auto it = std::find(group_peer.begin(), group_peer.end(), port.peer_node);
                if (it == group_peer.end()) {
                    group_peer.push_back(port.peer_node);
                    groups.emplace_back();
                    it = group_peer.end() - 1;
                }
                groups[it - group_peer.begin()].push_back(p);
            }
            if (dir == 0) {
                for (auto& g : groups) t.down_ports.insert(t.down_ports.end(), g.begin(), g.end());
            } else {
                for (std::size_t round = 0;; ++round) {
                    bool any = false;
                    for (auto& g : groups)
                        if (round < g.size()) {
                            t.up_ports.push_back(g[round]);
                            any = true;
                        }
                    if (!any) break;
                }
            }
        }
    }
    t.up_begin[nn] = static_cast<std::uint32_t>(t.up_ports.size());
    t.down_begin[nn] = static_cast<std::uint32_t>(t.down_ports.size());

    // Switches by level.
    t.by_level.assign(f.switches().begin(), f.switches().end());
    std::stable_sort(t.by_level.begin(), t.by_level.end(),
                     [&](NodeId a, NodeId b) { return t.level[a] < t.level[b]; });
    t.level_begin.assign(t.height + 2, 0);
    t.up_radix.assign(t.height + 1, 0);
    {
        std::size_t i = 0;
        for (int L = 1; L <= t.height + 1; ++L) {
            while (i < t.by_level.size() && t.level[t.by_level[i]] < L) ++i;
            t.level_begin[L] = static_cast<std::uint32_t>(i);
        }
    }
    for (NodeId s : t.by_level)
        t.up_radix[t.level[s]] =
            std::max(t.up_radix[t.level[s]], t.up_begin[s + 1] - t.up_begin[s]);

    // Leaves and pods.
    t.leaf_index.assign(nn, FatTreeShape::kNotLeaf);
    for (NodeId s : t.by_level)
        if (t.level[s] == 1) {
            t.leaf_index[s] = static_cast<std::uint32_t>(t.leaves.size());
            t.leaves.push_back(s);
        }
    std::sort(t.leaves.begin(), t.leaves.end());
    for (std::uint32_t i = 0; i < t.leaves.size(); ++i) t.leaf_index[t.leaves[i]] = i;
    const std::size_t nl = t.leaves.size();
    t.pod.assign(std::size_t(t.height) * nl, 0);
    std::vector<std::uint32_t> switch_pod(nn, 0); // of a level-L switch, in level L's pods
    {
        UnionFind uf(nn);
        for (int L = 1; L <= t.height; ++L) {
            for (std::uint32_t k = t.level_begin[L]; k < t.level_begin[L + 1]; ++k) {
                const NodeId s = t.by_level[k];
                for (std::uint32_t j = t.down_begin[s]; j < t.down_begin[s + 1]; ++j) {
                    const NodeId c = f.port(s, t.down_ports[j]).peer_node;
                    if (f.node(c).is_switch()) uf.unite(s, c);
                }
            }
            for (std::size_t i = 0; i < nl; ++i) t.pod[(L - 1) * nl + i] = uf.find(t.leaves[i]);
            for (std::uint32_t k = t.level_begin[L]; k < t.level_begin[L + 1]; ++k)
                switch_pod[t.by_level[k]] = uf.find(t.by_level[k]);
        }
    }

    // End ports and their digits.
    const int H = t.height;
    // Index of the down group of switch s that contains port p.
    auto down_group_index = [&](NodeId s, PortNum p) {
        std::uint32_t g = 0;
        NodeId prev = kNoNode;
        for (std::uint32_t j = t.down_begin[s]; j < t.down_begin[s + 1]; ++j) {
            const NodeId peer = f.port(s, t.down_ports[j]).peer_node;
            if (j != t.down_begin[s] && peer != prev) ++g;
            prev = peer;
            if (t.down_ports[j] == p) return g;
        }
        return g;
    };
    // Digits 2..H of the end ports of each leaf. Digit L is the index the level-L switches
    // give the leaf's level-(L-1) pod (on an intact tree they all agree). A parent that lost a
    // child numbers the children after it one lower, and reading that one would give two
    // siblings one digit, and with it one path (§4.2's ranks would collide); so the index is
    // the one given by the parent with the most children left, then by the most cables, then
    // the lowest.
    std::vector<std::uint32_t> children(f.num_nodes(), 0);
    for (NodeId s : t.by_level)
        if (t.down_begin[s] != t.down_begin[s + 1])
            children[s] = down_group_index(s, t.down_ports[t.down_begin[s + 1] - 1]) + 1;
    std::vector<std::uint32_t> chain(nl * std::size_t(H), 0), best(nn);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> score(nn);
    struct Vote {
        std::uint32_t pod, index, children;
    };
    std::vector<Vote> votes;
    for (int L = 2; L <= H; ++L) {
        // One vote per cable between levels L-1 and L, grouped by (pod, index).
        votes.clear();
        for (std::uint32_t k = t.level_begin[L - 1]; k < t.level_begin[L]; ++k) {
            const NodeId m = t.by_level[k];
            for (std::uint32_t j = t.up_begin[m]; j < t.up_begin[m + 1]; ++j) {
                const Port& up = f.port(m, t.up_ports[j]);
                votes.push_back({switch_pod[m], down_group_index(up.peer_node, up.peer_port),
                                 children[up.peer_node]});
            }
        }
        std::sort(votes.begin(), votes.end(), [](const Vote& a, const Vote& b) {
            return std::tie(a.pod, a.index) < std::tie(b.pod, b.index);
        });
        // Per pod: the index with the most children behind it, then the most cables.
        score.assign(nn, {0, 0});
        best.assign(nn, 0);
        for (std::size_t a = 0, b = 0; a < votes.size(); a = b) {
            std::uint32_t kids = 0;
            for (b = a; b < votes.size() && votes[b].pod == votes[a].pod &&
                        votes[b].index == votes[a].index;
                 ++b)
                kids = std::max(kids, votes[b].children);
            const std::pair<std::uint32_t, std::uint32_t> sc{kids, std::uint32_t(b - a)};
            if (sc > score[votes[a].pod]) { // the lower index wins a tie (sorted first)
                score[votes[a].pod] = sc;
                best[votes[a].pod] = votes[a].index;
            }
        }
        for (std::size_t l = 0; l < nl; ++l)
            chain[l * H + L - 1] = best[t.pod[std::size_t(L - 2) * nl + l]];
    }
    std::vector<PortId> ends;
    std::vector<std::uint32_t> dig;
    std::vector<std::uint32_t> ends_leaf;
    std::vector<PortNum> ends_leaf_port;
    for (NodeId c : f.cas()) {
        for (PortId e : ibrt::end_ports(f, c)) {
            const Port& port = f.port(e);
            const std::uint32_t l = t.leaf_index[port.peer_node];
            ends.push_back(e);
            ends_leaf.push_back(l);
            ends_leaf_port.push_back(port.peer_port);
            dig.push_back(down_group_index(port.peer_node, port.peer_port));
            dig.insert(dig.end(), chain.begin() + std::size_t(l) * H + 1,
                       chain.begin() + std::size_t(l + 1) * H);
        }
    }
    std::vector<std::uint32_t> order(ends.size());
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        for (int L = H; L >= 1; --L) {
            const std::uint32_t da = dig[std::size_t(a) * H + L - 1];
            const std::uint32_t db = dig[std::size_t(b) * H + L - 1];
            if (da != db) return da < db;
        }
        return ends[a] < ends[b];
    });
    t.end_ports.resize(ends.size());
    t.end_leaf.resize(ends.size());
    t.end_leaf_port.resize(ends.size());
    t.digits.resize(dig.size());
    t.end_index.assign(f.num_port_slots(), FatTreeShape::kNoEnd);
    for (std::size_t i = 0; i < order.size(); ++i) {
        const std::uint32_t k = order[i];
        t.end_ports[i] = ends[k];
        t.end_leaf[i] = ends_leaf[k];
        t.end_leaf_port[i] = ends_leaf_port[k];
        std::copy_n(dig.begin() + std::size_t(k) * H, H, t.digits.begin() + i * H);
        t.end_index[ends[k]] = static_cast<std::uint32_t>(i);
    }
    t.end_of_ca.assign(f.cas().size(), FatTreeShape::kNoEnd);
    for (std::size_t a = 0; a < f.cas().size(); ++a) {
        const PortId e = first_end_port(f, f.cas()[a]);
        if (e != kNoPort) t.end_of_ca[a] = t.end_index[e];
    }
    return t;
}

} // namespace ibrt::fattree
