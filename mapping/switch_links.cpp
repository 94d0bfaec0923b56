// The switch graph mapping works on; see switch_links.hpp.
#include "mapping/switch_links.hpp"

#include <algorithm>
#include <stdexcept>

namespace ibrt::mapping {

std::uint32_t SwitchLinks::link_between(std::uint32_t s, std::uint32_t t) const {
    const auto r = around(s);
    const auto it = std::lower_bound(
        r.begin(), r.end(), t, [](const Incidence& i, std::uint32_t v) { return i.peer < v; });
    return it != r.end() && it->peer == t ? it->link : kNone;
}

std::uint32_t SwitchLinks::channel(std::uint32_t s, std::uint32_t t) const {
    const auto r = around(s);
    const auto it = std::lower_bound(
        r.begin(), r.end(), t, [](const Incidence& i, std::uint32_t v) { return i.peer < v; });
    return it != r.end() && it->peer == t ? start[s] + std::uint32_t(it - r.begin()) : kNone;
}

SwitchLinks switch_links(const Fabric& f) {
    SwitchLinks g;
    g.dense.assign(f.num_nodes(), kNone);
    g.node.assign(f.switches().begin(), f.switches().end());
    // Dense ids in GUID order: the structure comes from the cabling alone, but every label and
    // tie after it (class, dimension and group numbers, coordinates, an engine's choice among
    // equal detours) follows the ids, and opensm's snapshot lists nodes in another order than
    // an ibnetdiscover file of the same fabric. By GUID, both give the same tables.
    std::stable_sort(g.node.begin(), g.node.end(),
                     [&](NodeId a, NodeId b) { return f.node(a).guid < f.node(b).guid; });
    for (std::uint32_t i = 0; i < g.node.size(); ++i) g.dense[g.node[i]] = i;
    const std::size_t n = g.node.size();
    g.cas.assign(n, 0);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> ends; // one per cable, a < b
    for (std::uint32_t s = 0; s < n; ++s) {
        const Node& node = f.node(g.node[s]);
        for (PortNum p = 1; p <= node.num_ports; ++p) {
            const Port& port = f.port(g.node[s], p);
            if (!port.connected()) continue;
            const std::uint32_t t = g.dense[port.peer_node];
            if (t == kNone)
                ++g.cas[s];
            else if (s < t)
                ends.emplace_back(s, t);
        }
    }
    std::sort(ends.begin(), ends.end());
    for (const auto& [a, b] : ends) {
        if (!g.links.empty() && g.links.back().a == a && g.links.back().b == b)
            ++g.links.back().cables;
        else
            g.links.push_back({a, b, 1});
    }
    std::vector<std::uint32_t> degree(n + 1, 0);
    for (const auto& l : g.links) {
        ++degree[l.a];
        ++degree[l.b];
    }
    g.start.assign(n + 1, 0);
    for (std::size_t s = 0; s < n; ++s) g.start[s + 1] = g.start[s] + degree[s];
    g.incidences.resize(g.start[n]);
    std::vector<std::uint32_t> fill(g.start.begin(), g.start.end() - 1);
    for (std::uint32_t i = 0; i < g.links.size(); ++i) {
        const auto& l = g.links[i];
        g.incidences[fill[l.a]++] = {l.b, i};
        g.incidences[fill[l.b]++] = {l.a, i};
    }
    // Links are sorted by (a, b), so each switch's incidences already ascend by peer except that
    // peers below it (added as b) come in link order; sort to be sure.
    for (std::size_t s = 0; s < n; ++s)
        std::sort(g.incidences.begin() + g.start[s], g.incidences.begin() + g.start[s + 1],
                  [](const auto& x, const auto& y) { return x.peer < y.peer; });
    return g;
}

std::vector<std::uint8_t> member_hops(const SwitchLinks& g,
                                      std::span<const std::uint32_t> members) {
    const std::size_t k = members.size();
    std::vector<std::uint32_t> pos(g.num_switches(), kNone); // dense id -> member index
    for (std::size_t i = 0; i < k; ++i) pos[members[i]] = std::uint32_t(i);
    std::vector<std::uint8_t> hops(k * k, kFarHops);
    std::vector<std::uint32_t> queue(k);
    for (std::size_t t = 0; t < k; ++t) {
        std::uint8_t* d = hops.data() + t * k;
        std::size_t head = 0, tail = 0;
        d[t] = 0;
        queue[tail++] = members[t];
        while (head < tail) {
            const std::uint32_t v = queue[head++];
            const std::uint8_t next = std::uint8_t(d[pos[v]] + 1);
            for (const auto& i : g.around(v)) {
                const std::uint32_t p = pos[i.peer];
                if (p == kNone || d[p] != kFarHops) continue;
                if (next == kFarHops) throw std::length_error("switch distances above 254 hops");
                d[p] = next;
                queue[tail++] = i.peer;
            }
        }
    }
    return hops;
}

} // namespace ibrt::mapping
