// Paper 001 §VI: shortest-widest and path selection over Up*/Down* legal routes (see
// path_compute.hpp for the exact rules and the documented deviation).
#include "lidassign/path_compute.hpp"

#include "graph/yen.hpp"

#include <algorithm>

namespace ibrt::lidassign {

std::string_view to_string(PathScheme s) {
    return s == PathScheme::ShortestWidest ? "shortest-widest" : "path-selection";
}

PathSet compute_paths(const Fabric& f, PathScheme s, const PathOptions& opt) {
    const graph::UpDown ud = graph::make_updown(f, graph::choose_root(f, opt.seed));
    return s == PathScheme::ShortestWidest ? shortest_widest(f, ud)
                                           : path_selection(f, ud, opt.candidates);
}

PathSet shortest_widest(const Fabric& f, const graph::UpDown& ud) {
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
        const graph::ShortestDag g = graph::shortest_dag(f, ud, d);
        for (NodeId s : f.cas()) {
            if (s == d || g.at(s, 0) == graph::kFar || g.at(s, 0) == 0) continue;
            // Layered DP over the DAG: every edge lowers the distance by one, so states of one
            // distance are final before the next layer is expanded.
            ++epoch;
            std::vector<std::uint32_t> layer{s * 2}, next;
            stamp[s * 2] = epoch;
            best[s * 2] = 0;
            via[s * 2] = kNoPort;
            std::uint32_t end_state = graph::kFar;
            while (!layer.empty()) {
                next.clear();
                std::sort(layer.begin(), layer.end());
                for (std::uint32_t st : layer) {
                    const NodeId n = st / 2;
                    if (n == d) {
                        if (end_state == graph::kFar || best[st] < best[end_state]) end_state = st;
                        continue;
                    }
                    graph::for_each_dag_edge(f, ud, g, n, int(st % 2), [&](PortId e, int ph) {
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

PathSet path_selection(const Fabric& f, const graph::UpDown& ud, int candidates) {
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
    // Yen's candidates depend only on the switch pair: computed once per pair, on demand.
    graph::YenSearch yen(f, ud);
    std::vector<std::uint32_t> sw_index(f.num_nodes(), 0);
    for (std::size_t i = 0; i < f.switches().size(); ++i)
        sw_index[f.switches()[i]] = static_cast<std::uint32_t>(i);
    const std::size_t ns = f.switches().size();
    constexpr std::uint32_t kUnset = 0xffffffffu;
    std::vector<std::uint32_t> memo(ns * ns, kUnset); // index into memo_first
    std::vector<std::uint32_t> memo_first, memo_off{0};
    std::vector<PortId> memo_edges;
    auto switch_routes = [&](NodeId u, NodeId t) {
        std::uint32_t& m = memo[sw_index[u] * ns + sw_index[t]];
        if (m == kUnset) {
            m = static_cast<std::uint32_t>(memo_first.size());
            memo_first.push_back(static_cast<std::uint32_t>(memo_off.size() - 1));
            for (const auto& r : yen.run(u, t, candidates)) {
                memo_edges.insert(memo_edges.end(), r.begin(), r.end());
                memo_off.push_back(static_cast<std::uint32_t>(memo_edges.size()));
            }
            memo_first.push_back(static_cast<std::uint32_t>(memo_off.size() - 1));
        }
        return std::pair<std::uint32_t, std::uint32_t>{memo_first[m], memo_first[m + 1]};
    };
    for (NodeId d : cas) {
        const PortId dport = first_end_port(f, d);
        if (dport == kNoPort) continue;
        const NodeId t = f.port(dport).peer_node;
        const bool t_switch = f.node(t).is_switch();
        const PortId last = t_switch ? f.port_id(t, f.port(dport).peer_port) : kNoPort;
        for (NodeId s : cas) {
            if (s == d) continue;
            const PortId sport = first_end_port(f, s);
            if (sport == kNoPort) continue;
            const NodeId u = f.port(sport).peer_node;
            Pair pr{s, d, static_cast<std::uint32_t>(c_pair.size()), 0, 0};
            auto add = [&](std::span<const PortId> mid) {
                c_edges.push_back(sport);
                c_edges.insert(c_edges.end(), mid.begin(), mid.end());
                if (last != kNoPort) c_edges.push_back(last);
                c_off.push_back(static_cast<std::uint32_t>(c_edges.size()));
                c_pair.push_back(static_cast<std::uint32_t>(pairs.size()));
                ++pr.count;
            };
            if (u == d) { // CA cabled straight to CA
                add({});
            } else if (t_switch && f.node(u).is_switch()) {
                const auto [lo, hi] = switch_routes(u, t);
                for (std::uint32_t r = lo; r < hi; ++r)
                    add(std::span<const PortId>(memo_edges.data() + memo_off[r],
                                                memo_edges.data() + memo_off[r + 1]));
            }
            if (pr.count == 0) continue;
            pr.alive = pr.count;
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
    // The links still worth visiting; a linear scan for the two most loaded is cheaper than
    // a lazy heap here (a few hundred links, every visit changes many loads).
    std::vector<PortId> live;
    for (PortId e = 0; e < f.num_port_slots(); ++e)
        if (l_off[e + 1] > l_off[e]) live.push_back(e);
    auto adjust = [&](std::uint32_t c, std::int64_t delta) {
        for (std::uint32_t i = c_off[c]; i < c_off[c + 1]; ++i) load[c_edges[i]] += delta;
    };
    // l_cand of a link is sorted by candidate, so grouped by pair in pair order. Pairs before
    // the link's cursor are settled for good: they either have no candidate through the link
    // any more or every candidate they have left uses it (and candidates only ever die), so
    // each link's list is scanned once in total.
    std::vector<std::uint32_t> cursor(l_off.begin(), l_off.end() - 1);
    while (!live.empty()) {
        // Most loaded link (ties: lowest PortId) and the load of the next most loaded.
        std::size_t top = 0;
        std::int64_t second = 0;
        for (std::size_t i = 1; i < live.size(); ++i) {
            if (load[live[i]] > load[live[top]]) {
                second = load[live[top]];
                top = i;
            } else {
                second = std::max(second, load[live[i]]);
            }
        }
        const PortId e = live[top];
        // Drop, pair by pair (lowest pair first), the candidates through e of pairs that keep
        // one avoiding e, until e is no longer above the next most loaded link.
        bool reduced = false;
        std::uint32_t i = cursor[e];
        const std::uint32_t end = l_off[e + 1];
        while (i < end) {
            const std::uint32_t p = c_pair[l_cand[i]];
            std::uint32_t j = i, through = 0;
            for (; j < end && c_pair[l_cand[j]] == p; ++j) through += alive[l_cand[j]];
            Pair& pr = pairs[p];
            if (through == 0 || through == pr.alive) { // settled
                i = j;
                continue;
            }
            if (reduced && load[e] <= second) break;
            reduced = true;
            const std::int64_t old_w = kScale / pr.alive;
            const std::uint32_t left = pr.alive - through;
            const std::int64_t new_w = kScale / left;
            for (std::uint32_t c = pr.first; c < pr.first + pr.count; ++c) {
                if (!alive[c]) continue;
                bool uses = false;
                for (std::uint32_t x = c_off[c]; x < c_off[c + 1]; ++x) uses |= c_edges[x] == e;
                if (uses) {
                    alive[c] = false;
                    adjust(c, -old_w);
                } else {
                    adjust(c, new_w - old_w);
                }
            }
            pr.alive = left;
            i = j;
        }
        cursor[e] = i;
        if (i == end) // nothing left to reduce, ever
            live.erase(live.begin() + std::ptrdiff_t(top));
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
