// Yen's k shortest loopless Up*/Down* legal routes (see yen.hpp for the order and the method).
#include "graph/yen.hpp"

#include <algorithm>
#include <span>

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
            next_len_ = std::min(next_len_, hops + 1 + h);
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
    // IDA*: the next length tried is the smallest that some state left out for being too far
    // could reach (no route has a length in between); none left out means no longer route.
    // A loopless route has at most one hop per switch.
    // A length that adds no route is a hint that the walk only finds legal walks with loops
    // (the distances ignore looplessness; on a 2,048-switch Dragonfly a pair with one route
    // tried every length up to the Up*/Down* depth, ~1 s): then Yen's deviation test decides
    // whether any other loopless route exists at all.
    const std::size_t base = out.off.size() - 1;
    for (std::uint32_t len = shortest; found_ < k && len < f_.num_nodes();) {
        if (++epoch_ == 0) { // wrapped: clear the stamps once
            std::fill(on_path_.begin(), on_path_.end(), 0);
            epoch_ = 1;
        }
        on_path_[src] = epoch_;
        next_len_ = kFar;
        prefix_.clear();
        const int before = found_;
        walk(src, 0, 0, len, out, k);
        if (next_len_ == kFar) break;
        if (found_ == before && !another_route(src, out, base)) break;
        len = next_len_;
    }
    return found_;
}

bool YenSearch::another_route(NodeId src, const Flat& out, std::size_t base) {
    // Yen: a loopless route not yet found leaves the found route sharing its longest prefix
    // (the root) at some spur node by an edge no found route with that root takes, and then
    // avoids the root. Such a spur exists iff a legal walk from the spur node with the root's
    // phase, avoiding the root's switches and those edges, reaches the target; the shortest
    // such walk visits no switch twice (a switch met in phase 0 and again in phase 1 could
    // continue from the first visit), so one BFS per spur node decides it.
    const int n = found_;
    auto route = [&](int r) {
        return std::span<const PortId>(out.edges.data() + out.off[base + r],
                                       out.edges.data() + out.off[base + r + 1]);
    };
    if (block_.empty()) {
        block_.assign(f_.num_nodes(), 0);
        seen_.assign(f_.num_nodes() * 2, 0);
    }
    for (int r = 0; r < n; ++r) {
        const auto a = route(r);
        NodeId spur = src;
        int phase = 0;
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (++bfs_epoch_ == 0) {
                std::fill(block_.begin(), block_.end(), 0);
                std::fill(seen_.begin(), seen_.end(), 0);
                bfs_epoch_ = 1;
            }
            const std::uint32_t ep = bfs_epoch_;
            for (NodeId x = src, j = 0; j <= i; ++j) { // the root's switches, spur included
                block_[x] = ep;
                if (j < i) x = f_.port(a[j]).peer_node;
            }
            blocked_.clear();
            for (int q = 0; q < n; ++q) {
                const auto b = route(q);
                if (b.size() > i && std::equal(b.begin(), b.begin() + i, a.begin()))
                    blocked_.push_back(b[i]);
            }
            bfs_.assign(1, static_cast<std::uint32_t>(std::size_t(spur) * 2 + phase));
            seen_[bfs_[0]] = ep;
            for (std::size_t h = 0; h < bfs_.size(); ++h) {
                const NodeId v = bfs_[h] / 2;
                const int ph = int(bfs_[h] % 2);
                for (std::uint32_t x = adj_off_[v]; x < adj_off_[v + 1]; ++x) {
                    const Arc& arc = adj_[x];
                    if (arc.up && ph == 1) continue;
                    if (v == spur &&
                        std::find(blocked_.begin(), blocked_.end(), arc.edge) != blocked_.end())
                        continue;
                    if (arc.peer == target_) return true;
                    if (block_[arc.peer] == ep) continue;
                    const std::uint32_t st =
                        static_cast<std::uint32_t>(std::size_t(arc.peer) * 2 + (arc.up ? 0 : 1));
                    if (seen_[st] == ep) continue;
                    seen_[st] = ep;
                    bfs_.push_back(st);
                }
            }
            if (!ud_.up(f_, a[i])) phase = 1;
            spur = f_.port(a[i]).peer_node;
        }
    }
    return false;
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
