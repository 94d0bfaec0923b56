// Yen's k shortest loopless Up*/Down* legal routes (see yen.hpp for the order and the method).
#include "graph/yen.hpp"

namespace ibrt::graph {

namespace {

bool switch_edge(const Fabric& f, PortId e) {
    const Port& p = f.port(e);
    return p.connected() && f.node(p.peer_node).is_switch();
}

} // namespace

YenSearch::YenSearch(const Fabric& f, const UpDown& ud)
    : f_(f), ud_(ud), dist_(f.num_nodes() * 2, kFar), on_path_(f.num_nodes(), 0) {
    adj_off_.assign(f.num_nodes() + 1, 0);
    for (NodeId n = 0; n < f.num_nodes(); ++n) {
        const Node& node = f.node(n);
        for (PortNum p = 1; p <= node.num_ports; ++p) {
            const PortId e = f.port_id(n, p);
            if (!switch_edge(f, e)) continue;
            const Port& port = f.port(e);
            adj_.push_back({e, port.peer_node, ud.up(f, e),
                            ud.up(f, f.port_id(port.peer_node, port.peer_port))});
        }
        adj_off_[n + 1] = static_cast<std::uint32_t>(adj_.size());
    }
}

void YenSearch::distances_to(NodeId dst) {
    if (dst == target_) return;
    target_ = dst;
    std::fill(dist_.begin(), dist_.end(), kFar);
    queue_.clear();
    auto reach = [&](NodeId n, int ph, std::uint32_t d) {
        const std::size_t s = std::size_t(n) * 2 + ph;
        if (dist_[s] != kFar) return;
        dist_[s] = d;
        queue_.push_back(static_cast<std::uint32_t>(s));
    };
    reach(dst, 0, 0);
    reach(dst, 1, 0);
    // Reverse BFS over states: the predecessors of (v, ph) are (u, *) with an edge u -> v; an
    // up edge leads into phase 0 from phase 0, a down edge into phase 1 from both phases.
    for (std::size_t head = 0; head < queue_.size(); ++head) {
        const std::uint32_t s = queue_[head];
        const NodeId v = s / 2;
        const int ph = int(s % 2);
        const std::uint32_t d = dist_[s] + 1;
        for (std::uint32_t x = adj_off_[v]; x < adj_off_[v + 1]; ++x) {
            const Arc& a = adj_[x];
            const NodeId u = a.peer;
            if (u == dst) continue;
            const bool is_up = a.back_up; // u -> v
            if (is_up && ph == 0) reach(u, 0, d);
            if (!is_up && ph == 1) {
                reach(u, 0, d);
                reach(u, 1, d);
            }
        }
    }
}

void YenSearch::walk(NodeId n, int phase, std::uint32_t hops, std::uint32_t len, Flat& out, int k) {
    if (n == target_) {
        if (hops == len) {
            out.edges.insert(out.edges.end(), prefix_.begin(), prefix_.end());
            out.off.push_back(static_cast<std::uint32_t>(out.edges.size()));
            ++found_;
        }
        return;
    }
    for (std::uint32_t x = adj_off_[n]; x < adj_off_[n + 1] && found_ < k; ++x) {
        const Arc& a = adj_[x];
        const PortId e = a.edge;
        const NodeId v = a.peer;
        if (on_path_[v] == epoch_) continue;
        const bool is_up = a.up;
        if (is_up && phase == 1) continue;
        const int nph = is_up ? 0 : 1;
        const std::uint32_t h = dist_[std::size_t(v) * 2 + nph];
        if (h == kFar) continue;
        if (hops + 1 + h > len) {
            cut_ = true;
            continue;
        }
        on_path_[v] = epoch_;
        prefix_.push_back(e);
        walk(v, nph, hops + 1, len, out, k);
        prefix_.pop_back();
        on_path_[v] = 0;
    }
}

int YenSearch::run(NodeId src, NodeId dst, int k, Flat& out) {
    found_ = 0;
    if (k <= 0) return 0;
    if (src == dst) {
        out.off.push_back(static_cast<std::uint32_t>(out.edges.size()));
        return 1;
    }
    distances_to(dst);
    const std::uint32_t shortest = dist_[std::size_t(src) * 2];
    if (shortest == kFar) return 0;
    // A loopless route has at most one hop per switch; cut_ stays false once no state was
    // left out for being too far, i.e. no longer route exists.
    for (std::uint32_t len = shortest; found_ < k && len < f_.num_nodes(); ++len) {
        if (++epoch_ == 0) { // wrapped: clear the stamps once
            std::fill(on_path_.begin(), on_path_.end(), 0);
            epoch_ = 1;
        }
        on_path_[src] = epoch_;
        cut_ = false;
        prefix_.clear();
        walk(src, 0, 0, len, out, k);
        if (!cut_) break;
    }
    return found_;
}

std::vector<std::vector<PortId>> YenSearch::run(NodeId src, NodeId dst, int k) {
    Flat flat;
    const int n = run(src, dst, k, flat);
    std::vector<std::vector<PortId>> a;
    for (int i = 0; i < n; ++i)
        a.emplace_back(flat.edges.begin() + flat.off[i], flat.edges.begin() + flat.off[i + 1]);
    return a;
}

std::vector<std::vector<PortId>> yen_k_shortest(const Fabric& f, const UpDown& ud, NodeId src,
                                                NodeId dst, int k) {
    YenSearch y(f, ud);
    return y.run(src, dst, k);
}

} // namespace ibrt::graph
