// Paper 001 §VI: shortest-widest and path selection over Up*/Down* legal routes (see
// path_compute.hpp for the exact rules and the documented deviation).
#include "lidassign/path_compute.hpp"

#include <algorithm>
#include <queue>

namespace ibrt::lidassign {

std::string_view to_string(PathScheme s) {
    return s == PathScheme::ShortestWidest ? "shortest-widest" : "path-selection";
}

PathSet compute_paths(const Fabric& f, PathScheme s, const PathOptions& opt) {
    const UpDown ud = make_updown(f, choose_root(f, opt.seed));
    return s == PathScheme::ShortestWidest ? shortest_widest(f, ud)
                                           : path_selection(f, ud, opt.candidates);
}

PathSet shortest_widest(const Fabric& f, const UpDown& ud) {
    PathSet out;
    std::vector<std::uint64_t> weight(f.num_port_slots(), 1);
    const std::size_t states = f.num_nodes() * 2;
    std::vector<std::uint64_t> best(states);
    std::vector<PortId> via(states);
    std::vector<std::uint32_t> prev(states);
    std::vector<std::uint32_t> stamp(states, 0);
    std::uint32_t epoch = 0;
    std::vector<PortId> path;
    for (NodeId d : f.cas()) {
        DestPaths dp;
        dp.dst = d;
        const ShortestDag g = shortest_dag(f, ud, d);
        for (NodeId s : f.cas()) {
            if (s == d || g.at(s, 0) == kFar || g.at(s, 0) == 0) continue;
            // Layered DP over the DAG: every edge lowers the distance by one, so states of one
            // distance are final before the next layer is expanded.
            ++epoch;
            std::vector<std::uint32_t> layer{s * 2}, next;
            stamp[s * 2] = epoch;
            best[s * 2] = 0;
            via[s * 2] = kNoPort;
            std::uint32_t end_state = kFar;
            while (!layer.empty()) {
                next.clear();
                std::sort(layer.begin(), layer.end());
                for (std::uint32_t st : layer) {
                    const NodeId n = st / 2;
                    if (n == d) {
                        if (end_state == kFar || best[st] < best[end_state]) end_state = st;
                        continue;
                    }
                    for_each_dag_edge(f, ud, g, n, int(st % 2), [&](PortId e, int ph) {
                        const std::uint32_t to = f.port(e).peer_node * 2 + ph;
                        const std::uint64_t w = best[st] + weight[e];
                        if (stamp[to] != epoch) {
                            stamp[to] = epoch;
                            best[to] = w;
                            via[to] = e;
                            prev[to] = st;
                            next.push_back(to);
                        } else if (w < best[to]) {
                            best[to] = w;
                            via[to] = e;
                            prev[to] = st;
                        }
                    });
                }
                layer.swap(next);
            }
            path.clear();
            for (std::uint32_t st = end_state; via[st] != kNoPort; st = prev[st])
                path.push_back(via[st]);
            std::reverse(path.begin(), path.end());
            for (PortId e : path) ++weight[e];
            dp.add(path);
        }
        out.push_back(std::move(dp));
    }
    return out;
}

namespace {

constexpr std::uint64_t kCountCap = std::uint64_t(1) << 62;

// Number of DAG routes from every state to the destination (saturating), for unranking.
std::vector<std::uint64_t> count_routes(const Fabric& f, const UpDown& ud, const ShortestDag& g) {
    std::vector<std::uint64_t> cnt(g.dist.size(), 0);
    std::vector<std::uint32_t> order;
    for (std::uint32_t st = 0; st < g.dist.size(); ++st)
        if (g.dist[st] != kFar) order.push_back(st);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return g.dist[a] < g.dist[b]; });
    for (std::uint32_t st : order) {
        const NodeId n = st / 2;
        if (n == g.dst) {
            cnt[st] = st % 2 == 0 ? 1 : 0; // count arrival once (phase 0 stands for both)
            continue;
        }
        std::uint64_t c = 0;
        for_each_dag_edge(f, ud, g, n, int(st % 2), [&](PortId e, int ph) {
            const NodeId v = f.port(e).peer_node;
            c = std::min(kCountCap, c + cnt[v == g.dst ? v * 2 : v * 2 + ph]);
        });
        cnt[st] = c;
    }
    return cnt;
}

} // namespace

PathSet path_selection(const Fabric& f, const UpDown& ud, int candidates) {
    constexpr std::int64_t kScale = 720720; // lcm(1..16): candidate weights stay integral
    candidates = std::clamp(candidates, 1, 16);
    const auto cas = f.cas();
    // Candidate store: CSR of edges, owning pair, per pair its candidate range.
    std::vector<std::uint32_t> c_off{0}, c_pair;
    std::vector<PortId> c_edges;
    struct Pair {
        NodeId src, dst;
        std::uint32_t first, count, alive;
    };
    std::vector<Pair> pairs;
    std::vector<PortId> path;
    for (NodeId d : cas) {
        const ShortestDag g = shortest_dag(f, ud, d);
        const std::vector<std::uint64_t> cnt = count_routes(f, ud, g);
        for (NodeId s : cas) {
            if (s == d || g.at(s, 0) == kFar || g.at(s, 0) == 0) continue;
            const std::uint64_t total = cnt[s * 2];
            if (total == 0) continue;
            const std::uint64_t m = std::min<std::uint64_t>(total, std::uint64_t(candidates));
            Pair pr{s, d, static_cast<std::uint32_t>(c_pair.size()), 0, 0};
            for (std::uint64_t i = 0; i < m; ++i) {
                // floor(i * total / m) without overflow: total < 2^62, m <= 16.
                std::uint64_t rank = (total / m) * i + ((total % m) * i) / m;
                path.clear();
                NodeId n = s;
                int ph = 0;
                while (n != d) {
                    PortId take = kNoPort;
                    int take_ph = 0;
                    for_each_dag_edge(f, ud, g, n, ph, [&](PortId e, int nph) {
                        if (take != kNoPort) return;
                        const NodeId v = f.port(e).peer_node;
                        const std::uint64_t c = cnt[v == d ? v * 2 : v * 2 + nph];
                        if (rank < c) {
                            take = e;
                            take_ph = nph;
                        } else {
                            rank -= c;
                        }
                    });
                    path.push_back(take);
                    n = f.port(take).peer_node;
                    ph = take_ph;
                }
                c_edges.insert(c_edges.end(), path.begin(), path.end());
                c_off.push_back(static_cast<std::uint32_t>(c_edges.size()));
                c_pair.push_back(static_cast<std::uint32_t>(pairs.size()));
            }
            pr.count = pr.alive = static_cast<std::uint32_t>(m);
            pairs.push_back(pr);
        }
    }
    const std::size_t ncand = c_pair.size();
    std::vector<bool> alive(ncand, true);
    // Links: directed switch-to-switch edges; CA links carry every candidate of a pair alike.
    auto is_link = [&](PortId e) {
        return f.node(f.port_node(e)).is_switch() && f.node(f.port(e).peer_node).is_switch();
    };
    std::vector<std::uint32_t> l_off(f.num_port_slots() + 1, 0);
    for (PortId e : c_edges)
        if (is_link(e)) ++l_off[e + 1];
    for (std::size_t i = 0; i < f.num_port_slots(); ++i) l_off[i + 1] += l_off[i];
    std::vector<std::uint32_t> l_cand(l_off.back());
    {
        std::vector<std::uint32_t> fill(l_off.begin(), l_off.end() - 1);
        for (std::uint32_t c = 0; c < ncand; ++c)
            for (std::uint32_t i = c_off[c]; i < c_off[c + 1]; ++i)
                if (is_link(c_edges[i])) l_cand[fill[c_edges[i]]++] = c;
    }
    std::vector<std::int64_t> load(f.num_port_slots(), 0);
    for (std::uint32_t c = 0; c < ncand; ++c)
        for (std::uint32_t i = c_off[c]; i < c_off[c + 1]; ++i)
            load[c_edges[i]] += kScale / pairs[c_pair[c]].count;
    using Key = std::pair<std::int64_t, std::int64_t>; // (load, -link)
    std::priority_queue<Key> heap;
    for (PortId e = 0; e < f.num_port_slots(); ++e)
        if (l_off[e + 1] > l_off[e]) heap.push({load[e], -std::int64_t(e)});
    std::vector<bool> dead(f.num_port_slots(), false);
    std::vector<std::uint32_t> through(pairs.size(), 0), seen(pairs.size(), 0);
    std::uint32_t epoch = 0;
    std::vector<std::uint32_t> touched;
    auto adjust = [&](std::uint32_t c, std::int64_t delta) {
        for (std::uint32_t i = c_off[c]; i < c_off[c + 1]; ++i) {
            const PortId e = c_edges[i];
            load[e] += delta;
            if (is_link(e) && !dead[e]) heap.push({load[e], -std::int64_t(e)});
        }
    };
    std::vector<std::uint32_t> l_end(l_off.begin() + 1, l_off.end()); // live prefix end
    auto stale = [&](const Key& k) {
        const auto e = static_cast<PortId>(-k.second);
        return dead[e] || load[e] != k.first;
    };
    while (!heap.empty()) {
        const Key top = heap.top();
        heap.pop();
        if (stale(top)) continue;
        const auto e = static_cast<PortId>(-top.second);
        while (!heap.empty() && stale(heap.top())) heap.pop();
        const std::int64_t second = heap.empty() ? 0 : heap.top().first;
        // Count each pair's live candidates through e, compacting dead ones out of the list.
        ++epoch;
        touched.clear();
        std::uint32_t w = l_off[e];
        for (std::uint32_t i = l_off[e]; i < l_end[e]; ++i) {
            const std::uint32_t c = l_cand[i];
            if (!alive[c]) continue;
            l_cand[w++] = c;
            const std::uint32_t p = c_pair[c];
            if (seen[p] != epoch) {
                seen[p] = epoch;
                through[p] = 0;
                touched.push_back(p);
            }
            ++through[p];
        }
        l_end[e] = w;
        // Drop, pair by pair (lowest pair first), the candidates through e of pairs that keep
        // one avoiding e, until e is no longer above the next most loaded link.
        bool reduced = false;
        for (std::uint32_t p : touched) {
            if (reduced && load[e] <= second) break;
            Pair& pr = pairs[p];
            if (through[p] == pr.alive) continue; // every candidate left uses e
            reduced = true;
            const std::int64_t old_w = kScale / pr.alive;
            const std::uint32_t left = pr.alive - through[p];
            const std::int64_t new_w = kScale / left;
            for (std::uint32_t c = pr.first; c < pr.first + pr.count; ++c) {
                if (!alive[c]) continue;
                bool uses = false;
                for (std::uint32_t i = c_off[c]; i < c_off[c + 1]; ++i) uses |= c_edges[i] == e;
                if (uses) {
                    alive[c] = false;
                    adjust(c, -old_w);
                } else {
                    adjust(c, new_w - old_w);
                }
            }
            pr.alive = left;
        }
        if (!reduced) dead[e] = true; // stays irreducible: candidates are only ever removed
    }
    PathSet out;
    std::size_t pi = 0;
    for (NodeId d : cas) {
        DestPaths dp;
        dp.dst = d;
        for (; pi < pairs.size() && pairs[pi].dst == d; ++pi)
            for (std::uint32_t c = pairs[pi].first; c < pairs[pi].first + pairs[pi].count; ++c)
                if (alive[c]) {
                    dp.add(std::span<const PortId>(c_edges.data() + c_off[c],
                                                   c_edges.data() + c_off[c + 1]));
                    break;
                }
        out.push_back(std::move(dp));
    }
    return out;
}

double max_link_load(const Fabric& f, const PathSet& paths) {
    std::vector<std::uint64_t> load(f.num_port_slots(), 0);
    for (const DestPaths& d : paths)
        for (PortId e : d.edges) ++load[e];
    std::uint64_t mx = 0;
    for (PortId e = 0; e < f.num_port_slots(); ++e)
        if (f.node(f.port_node(e)).is_switch() && f.port(e).connected() &&
            f.node(f.port(e).peer_node).is_switch())
            mx = std::max(mx, load[e]);
    const std::size_t n = f.cas().size();
    return n > 1 ? double(mx) / double(n - 1) : 0.0;
}

} // namespace ibrt::lidassign
