// Yen's k shortest loopless Up*/Down* legal routes (see yen.hpp for the order and the rules).
#include "graph/yen.hpp"

#include <algorithm>
#include <set>

namespace ibrt::graph {

namespace {

bool switch_edge(const Fabric& f, PortId e) {
    const Port& p = f.port(e);
    return p.connected() && f.node(p.peer_node).is_switch();
}

struct ByLengthThenLex {
    bool operator()(const std::vector<PortId>& a, const std::vector<PortId>& b) const {
        if (a.size() != b.size()) return a.size() < b.size();
        return a < b;
    }
};

} // namespace

YenSearch::YenSearch(const Fabric& f, const UpDown& ud)
    : f_(f), ud_(ud), dist_(f.num_nodes() * 2, kFar), dist_stamp_(f.num_nodes() * 2, 0),
      node_block_(f.num_nodes(), 0), edge_block_(f.num_port_slots(), 0) {}

bool YenSearch::spur(NodeId from, int phase, NodeId dst, std::vector<PortId>& out) {
    // Reverse BFS over states from dst, never through blocked switches nor through `from`
    // (the spur path must not come back to its own start).
    ++dist_epoch_;
    auto dist = [&](NodeId n, int ph) -> std::uint32_t {
        const std::size_t s = std::size_t(n) * 2 + ph;
        return dist_stamp_[s] == dist_epoch_ ? dist_[s] : kFar;
    };
    queue_.clear();
    auto reach = [&](NodeId n, int ph, std::uint32_t d) {
        const std::size_t s = std::size_t(n) * 2 + ph;
        if (dist_stamp_[s] == dist_epoch_) return;
        dist_stamp_[s] = dist_epoch_;
        dist_[s] = d;
        queue_.push_back(static_cast<std::uint32_t>(s));
    };
    if (dst != from) {
        reach(dst, 0, 0);
        reach(dst, 1, 0);
    }
    for (std::size_t head = 0; head < queue_.size(); ++head) {
        const std::uint32_t s = queue_[head];
        const NodeId v = s / 2;
        const int ph = int(s % 2);
        const std::uint32_t d = dist_[s] + 1;
        const Node& node = f_.node(v);
        for (PortNum p = 1; p <= node.num_ports; ++p) {
            const PortId back = f_.port_id(v, p);
            if (!switch_edge(f_, back)) continue;
            const Port& port = f_.port(back);
            const NodeId u = port.peer_node;
            if (u == from || node_block_[u] == block_epoch_) continue;
            const PortId e = f_.port_id(u, port.peer_port); // u -> v
            const bool is_up = ud_.up(f_, e);
            if (is_up && ph == 0) reach(u, 0, d);
            if (!is_up && ph == 1) {
                reach(u, 0, d);
                reach(u, 1, d);
            }
        }
    }
    // First edge: the blocked out edges of `from` are excluded; then a lowest-PortId walk down
    // the distances. A shortest walk never repeats a switch: dist(n, 0) <= dist(n, 1).
    NodeId n = from;
    int ph = phase;
    std::uint32_t here = kFar;
    bool first = true;
    while (n != dst) {
        PortId take = kNoPort;
        int take_ph = 0;
        std::uint32_t best = kFar;
        const Node& node = f_.node(n);
        for (PortNum p = 1; p <= node.num_ports; ++p) {
            const PortId e = f_.port_id(n, p);
            if (!switch_edge(f_, e)) continue;
            if (first && edge_block_[e] == block_epoch_) continue;
            const NodeId v = f_.port(e).peer_node;
            const bool is_up = ud_.up(f_, e);
            if (is_up && ph == 1) continue;
            const int nph = is_up ? 0 : 1;
            const std::uint32_t dv = dist(v, nph);
            if (dv == kFar) continue;
            if (first ? dv < best : dv + 1 == here) {
                best = dv;
                take = e;
                take_ph = nph;
                if (!first) break; // lowest PortId on a shortest continuation
            }
        }
        if (take == kNoPort) return false;
        out.push_back(take);
        here = dist(f_.port(take).peer_node, take_ph);
        n = f_.port(take).peer_node;
        ph = take_ph;
        first = false;
    }
    return true;
}

std::vector<std::vector<PortId>> YenSearch::run(NodeId src, NodeId dst, int k) {
    std::vector<std::vector<PortId>> a;
    if (k <= 0) return a;
    ++block_epoch_; // nothing blocked
    std::vector<PortId> p;
    if (src == dst) {
        a.push_back({});
        return a;
    }
    if (!spur(src, 0, dst, p)) return a;
    a.push_back(p);
    std::set<std::vector<PortId>, ByLengthThenLex> b;
    std::vector<NodeId> nodes;
    while (int(a.size()) < k) {
        const std::vector<PortId>& last = a.back();
        nodes.assign(1, src);
        for (PortId e : last) nodes.push_back(f_.port(e).peer_node);
        int phase = 0;
        for (std::size_t i = 0; i < last.size(); ++i) {
            ++block_epoch_;
            for (std::size_t j = 0; j < i; ++j) node_block_[nodes[j]] = block_epoch_;
            for (const auto& q : a)
                if (q.size() > i && std::equal(last.begin(), last.begin() + i, q.begin()))
                    edge_block_[q[i]] = block_epoch_;
            p.assign(last.begin(), last.begin() + i);
            if (spur(nodes[i], phase, dst, p)) b.insert(p);
            if (!ud_.up(f_, last[i])) phase = 1;
        }
        if (b.empty()) break;
        a.push_back(*b.begin());
        b.erase(b.begin());
    }
    return a;
}

std::vector<std::vector<PortId>> yen_k_shortest(const Fabric& f, const UpDown& ud, NodeId src,
                                                NodeId dst, int k) {
    YenSearch y(f, ud);
    return y.run(src, dst, k);
}

} // namespace ibrt::graph
