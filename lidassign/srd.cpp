// SRD destination trees over Up*/Down* (see srd.hpp for the rules).
#include "lidassign/srd.hpp"

#include <algorithm>
#include <deque>

namespace ibrt::lidassign {

namespace {

bool switch_link(const Fabric& f, PortId e) {
    const Port& p = f.port(e);
    return p.connected() && f.node(p.peer_node).is_switch();
}

} // namespace

PathSet srd_paths(const Fabric& f, const graph::UpDown& ud) {
    const std::size_t nn = f.num_nodes();
    std::vector<std::uint64_t> load(f.num_port_slots(), 0);
    // CAs per switch (sources), in CA order.
    std::vector<std::uint32_t> local(nn, 0);
    for (NodeId c : f.cas()) {
        const PortId p = first_end_port(f, c);
        if (p != kNoPort && f.node(f.port(p).peer_node).is_switch()) ++local[f.port(p).peer_node];
    }
    // Switches in increasing (level, id): the up orientation points from later to earlier.
    std::vector<NodeId> by_level;
    for (NodeId s : f.switches())
        if (ud.level[s] >= 0) by_level.push_back(s);
    std::stable_sort(by_level.begin(), by_level.end(),
                     [&](NodeId a, NodeId b) { return ud.level[a] < ud.level[b]; });
    std::vector<std::uint32_t> len(nn), flow(nn);
    std::vector<bool> down_only(nn);
    std::vector<PortId> next(nn);
    std::vector<NodeId> order;
    std::deque<NodeId> q;
    PathSet out;
    for (NodeId d : f.cas()) {
        DestPaths dp;
        dp.dst = d;
        const PortId dport = first_end_port(f, d);
        const NodeId t = dport == kNoPort ? kNoNode : f.port(dport).peer_node;
        if (t == kNoNode || !f.node(t).is_switch() || ud.level[t] < 0) {
            out.push_back(std::move(dp));
            continue;
        }
        std::fill(len.begin(), len.end(), graph::kFar);
        std::fill(down_only.begin(), down_only.end(), false);
        std::fill(next.begin(), next.end(), kNoPort);
        // Down-only distances: reverse BFS from t over edges u -> v that go down.
        len[t] = 0;
        down_only[t] = true;
        q.assign(1, t);
        while (!q.empty()) {
            const NodeId v = q.front();
            q.pop_front();
            for (PortNum p = 1; p <= f.node(v).num_ports; ++p) {
                const PortId back = f.port_id(v, p);
                if (!switch_link(f, back)) continue;
                const NodeId u = f.port(back).peer_node;
                const PortId e = f.port_id(u, f.port(back).peer_port); // u -> v
                if (down_only[u] || ud.up(f, e)) continue;
                down_only[u] = true;
                len[u] = len[v] + 1;
                q.push_back(u);
            }
        }
        // Other switches go up: shortest walk over up edges into already settled switches.
        for (NodeId x : by_level) {
            if (down_only[x]) continue;
            for (PortNum p = 1; p <= f.node(x).num_ports; ++p) {
                const PortId e = f.port_id(x, p);
                if (!switch_link(f, e) || !ud.up(f, e)) continue;
                const NodeId y = f.port(e).peer_node;
                if (len[y] != graph::kFar) len[x] = std::min(len[x], len[y] + 1);
            }
        }
        // Farthest first, so each switch knows its flow before choosing its link.
        order.clear();
        for (NodeId x : by_level)
            if (len[x] != graph::kFar) order.push_back(x);
        std::stable_sort(order.begin(), order.end(),
                         [&](NodeId a, NodeId b) { return len[a] > len[b]; });
        for (NodeId x : order) flow[x] = local[x] - (x == t ? 1u : 0u);
        for (NodeId x : order) {
            if (x == t) continue;
            PortId best = kNoPort;
            for (PortNum p = 1; p <= f.node(x).num_ports; ++p) {
                const PortId e = f.port_id(x, p);
                if (!switch_link(f, e)) continue;
                const NodeId y = f.port(e).peer_node;
                const bool ok = down_only[x] ? (!ud.up(f, e) && down_only[y]) : ud.up(f, e);
                if (!ok || len[y] == graph::kFar || len[y] + 1 != len[x]) continue;
                if (best == kNoPort || load[e] < load[best]) best = e;
            }
            next[x] = best;
            flow[f.port(best).peer_node] += flow[x];
            load[best] += flow[x];
        }
        std::vector<PortId> path;
        for (NodeId s : f.cas()) {
            if (s == d) continue;
            const PortId sport = first_end_port(f, s);
            if (sport == kNoPort) continue;
            NodeId x = f.port(sport).peer_node;
            if (!f.node(x).is_switch() || len[x] == graph::kFar) continue;
            path.assign(1, sport);
            for (; x != t; x = f.port(next[x]).peer_node) path.push_back(next[x]);
            path.push_back(f.port_id(t, f.port(dport).peer_port));
            dp.add(path);
        }
        out.push_back(std::move(dp));
    }
    return out;
}

} // namespace ibrt::lidassign
