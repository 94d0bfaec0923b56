// Paper 001 §VI: shortest-widest and path selection over Up*/Down* legal routes (see
// path_compute.hpp for the exact rules and the documented deviation).
#include "lidassign/path_compute.hpp"

#include "graph/yen.hpp"

#include <algorithm>
#include <bit>

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

namespace {

// The most loaded live link (ties: lowest index, i.e. lowest PortId) and the largest load among
// the others, under point updates: a max segment tree over the links in PortId order. A dead
// link holds -1 (loads are never negative).
class LoadMax {
  public:
    explicit LoadMax(std::size_t n) : size_(1) {
        while (size_ < n) size_ <<= 1;
        val_.assign(size_, -1);
        win_.resize(2 * size_);
        for (std::size_t i = 0; i < size_; ++i) win_[size_ + i] = static_cast<std::uint32_t>(i);
        for (std::size_t x = size_ - 1; x >= 1; --x) win_[x] = pick(win_[2 * x], win_[2 * x + 1]);
    }
    void set(std::size_t i, std::int64_t v) {
        val_[i] = v;
        // Up from the leaf; an ancestor whose winner stays the same other leaf is unchanged,
        // and so is everything above it.
        for (std::size_t x = (size_ + i) >> 1; x >= 1; x >>= 1) {
            const std::uint32_t w = pick(win_[2 * x], win_[2 * x + 1]);
            if (w == win_[x] && w != i) break;
            win_[x] = w;
        }
    }
    bool empty() const { return val_[win_[1]] < 0; }
    std::size_t top() const { return win_[1]; }
    // max(0, largest load other than at `skip`).
    std::int64_t second(std::size_t skip) const {
        std::int64_t m = 0;
        // The siblings of the leaf's ancestors cover every other leaf exactly once.
        for (std::size_t x = size_ + skip; x > 1; x >>= 1) m = std::max(m, val_[win_[x ^ 1]]);
        return m;
    }

  private:
    // The larger load; ties (and two dead links) to the left, lower index.
    std::uint32_t pick(std::uint32_t a, std::uint32_t b) const { return val_[b] > val_[a] ? b : a; }
    std::size_t size_;
    std::vector<std::int64_t> val_;
    std::vector<std::uint32_t> win_; // per tree node: the leaf of largest load below it
};

} // namespace

std::uint32_t SelectedPaths::route_of(std::size_t si, std::size_t di, NodeId u, NodeId t) const {
    if (by == PairClasses::CaPair) return chosen[di * num_cas + si];
    if (index[u] == kNone || index[t] == kNone) return kNone;
    return chosen[std::size_t(index[u]) * num_switches + index[t]];
}

std::span<const PortId> SelectedPaths::route(std::uint32_t r) const {
    return {edges.data() + off[r], edges.data() + off[r + 1]};
}

SelectedPaths select_paths(const Fabric& f, const graph::UpDown& ud, PairClasses by, int candidates,
                           const std::function<void(double)>& progress) {
    constexpr std::int64_t kScale = 720720; // lcm(1..16): candidate weights stay integral
    constexpr std::uint32_t kUnset = SelectedPaths::kNone;
    candidates = std::clamp(candidates, 1, 16);
    const auto cas = f.cas();
    auto is_link = [&](PortId e) {
        return f.node(f.port_node(e)).is_switch() && f.port(e).connected() &&
               f.node(f.port(e).peer_node).is_switch();
    };
    SelectedPaths out;
    const std::size_t ns = f.switches().size();
    out.num_switches = ns;
    out.index.assign(f.num_nodes(), kUnset);
    for (std::size_t i = 0; i < ns; ++i) out.index[f.switches()[i]] = static_cast<std::uint32_t>(i);
    out.by = by;
    out.num_cas = cas.size();
    // CAs per switch (a CA counts at the switch its first end port is cabled to), and the
    // switches in order of their first CA: classes follow the (destination, source) CA order.
    std::vector<std::uint32_t> n_cas(ns, 0);
    std::vector<NodeId> order;
    for (NodeId c : cas) {
        const PortId p = first_end_port(f, c);
        if (p == kNoPort || !f.node(f.port(p).peer_node).is_switch()) continue;
        const NodeId u = f.port(p).peer_node;
        if (n_cas[out.index[u]]++ == 0) order.push_back(u);
    }
    // Yen's candidates per switch pair, computed on first use (destination by destination,
    // so that YenSearch reuses its distances) and stored once.
    graph::YenSearch yen(f, ud);
    graph::YenSearch::Flat cands; // candidate r is cands.edges[cands.off[r], cands.off[r+1])
    std::vector<std::uint32_t>& r_off = cands.off;
    std::vector<PortId>& r_edges = cands.edges;
    std::vector<std::uint32_t> memo(ns * ns, kUnset); // per switch pair: its first candidate
    std::vector<std::uint8_t> memo_n(ns * ns, 0);     // and how many
    struct Class {
        std::uint32_t key;   // its entry in out.chosen
        std::uint32_t first; // its first candidate
        std::uint32_t eoff;  // where its first candidate's edges start (r_off[first])
        std::uint32_t mult;  // CA pairs in it
        std::uint8_t count, alive_n;
    };
    std::vector<Class> classes;
    // Per class, its live candidates (a bit each), apart from the rest: the scan of a link's
    // classes reads only these, and 2 bytes a class stay in cache far better than 12.
    std::vector<std::uint16_t> alive;
    auto add_class = [&](std::size_t key, NodeId u, NodeId t, std::uint32_t mult) {
        const std::size_t k = std::size_t(out.index[u]) * ns + out.index[t];
        if (memo[k] == kUnset) {
            memo[k] = static_cast<std::uint32_t>(r_off.size() - 1);
            memo_n[k] = static_cast<std::uint8_t>(yen.run(u, t, candidates, cands));
        }
        const std::uint8_t count = memo_n[k];
        if (count == 0) return; // no legal route: the pairs stay without a path
        classes.push_back(
            {static_cast<std::uint32_t>(key), memo[k], r_off[memo[k]], mult, count, count});
        alive.push_back(static_cast<std::uint16_t>((1u << count) - 1));
    };
    if (by == PairClasses::SwitchPair) {
        out.chosen.assign(ns * ns, kUnset);
        for (std::size_t ti = 0; ti < order.size(); ++ti) {
            const NodeId t = order[ti];
            const std::uint32_t nt = n_cas[out.index[t]];
            for (NodeId u : order) {
                const std::uint32_t nu = n_cas[out.index[u]];
                const std::uint32_t mult = u == t ? nu * (nu - 1) : nu * nt;
                if (mult > 0) add_class(std::size_t(out.index[u]) * ns + out.index[t], u, t, mult);
            }
            if (progress && (ti & 15) == 0) progress(0.5 * double(ti) / double(order.size()));
        }
    } else {
        const std::size_t n = cas.size();
        out.chosen.assign(n * n, kUnset);
        std::vector<NodeId> sw_of(n, kNoNode); // the switch a CA hangs off
        for (std::size_t i = 0; i < n; ++i) {
            const PortId p = first_end_port(f, cas[i]);
            if (p != kNoPort && f.node(f.port(p).peer_node).is_switch())
                sw_of[i] = f.port(p).peer_node;
        }
        for (std::size_t di = 0; di < n; ++di) {
            if (sw_of[di] == kNoNode) continue;
            for (std::size_t si = 0; si < n; ++si)
                if (si != di && sw_of[si] != kNoNode)
                    add_class(di * n + si, sw_of[si], sw_of[di], 1);
            if (progress && (di & 63) == 0) progress(0.5 * double(di) / double(n));
        }
    }
    // The per-switch-pair index is done with; free it before the link lists (peak memory).
    std::vector<std::uint32_t>().swap(memo);
    std::vector<std::uint8_t>().swap(memo_n);
    auto route = [&](const Class& c, std::uint32_t j) {
        return std::span<const PortId>(r_edges.data() + r_off[c.first + j],
                                       r_edges.data() + r_off[c.first + j + 1]);
    };
    // Per link, the classes with a candidate through it (ascending), and which candidates.
    std::vector<std::uint32_t> l_off(f.num_port_slots() + 1, 0);
    std::vector<std::uint32_t> last(f.num_port_slots(), kUnset);
    for (std::uint32_t c = 0; c < classes.size(); ++c)
        for (std::uint32_t j = 0; j < classes[c].count; ++j)
            for (PortId e : route(classes[c], j))
                if (last[e] != c) {
                    last[e] = c;
                    ++l_off[e + 1];
                }
    for (std::size_t i = 0; i < f.num_port_slots(); ++i) l_off[i + 1] += l_off[i];
    std::vector<std::uint32_t> l_class(l_off.back());
    std::vector<std::uint16_t> l_mask(l_off.back(), 0);
    {
        std::vector<std::uint32_t> fill(l_off.begin(), l_off.end() - 1);
        std::fill(last.begin(), last.end(), kUnset);
        for (std::uint32_t c = 0; c < classes.size(); ++c)
            for (std::uint32_t j = 0; j < classes[c].count; ++j)
                for (PortId e : route(classes[c], j)) {
                    if (last[e] != c) {
                        last[e] = c;
                        l_class[fill[e]++] = c;
                    }
                    l_mask[fill[e] - 1] |= static_cast<std::uint16_t>(1u << j);
                }
    }
    std::vector<std::int64_t> load(f.num_port_slots(), 0);
    for (const Class& c : classes)
        for (std::uint32_t j = 0; j < c.count; ++j)
            for (PortId e : route(c, j)) load[e] += std::int64_t(c.mult) * (kScale / c.count);
    // Links still worth visiting, in PortId order, as positions in a max tree.
    std::vector<PortId> links;
    std::vector<std::uint32_t> pos(f.num_port_slots(), kUnset);
    for (PortId e = 0; e < f.num_port_slots(); ++e)
        if (l_off[e + 1] > l_off[e] && is_link(e)) {
            pos[e] = static_cast<std::uint32_t>(links.size());
            links.push_back(e);
        }
    LoadMax heap(links.size());
    for (std::size_t i = 0; i < links.size(); ++i) heap.set(i, load[links[i]]);
    std::vector<bool> dead(links.size(), false);
    std::size_t num_dead = 0;
    // One reduction changes the weights of all of a class's candidates; their edges overlap,
    // so the deltas are summed per edge first and each edge's load (and tree leaf) is set once.
    std::vector<std::int64_t> delta(f.num_port_slots(), 0);
    std::vector<PortId> touched;
    auto adjust = [&](const Class& c, std::uint32_t j, std::int64_t d) {
        for (PortId e : route(c, j)) {
            if (delta[e] == 0) touched.push_back(e);
            delta[e] += d;
        }
    };
    auto apply = [&] {
        for (PortId e : touched) {
            load[e] += delta[e];
            delta[e] = 0;
            if (pos[e] != kUnset && !dead[pos[e]]) heap.set(pos[e], load[e]);
        }
        touched.clear();
    };
    // l_class of a link is in class order. Classes before the link's cursor are settled for
    // good: they either have no candidate through the link any more or every candidate they
    // have left uses it (and candidates only ever die), so each list is scanned once in total.
    std::vector<std::uint32_t> cursor(l_off.begin(), l_off.end() - 1);
    std::size_t visits = 0;
    while (!heap.empty()) {
        const std::size_t top = heap.top();
        const std::int64_t second = heap.second(top);
        const PortId e = links[top];
        // Drop, class by class (lowest class first), the candidates through e of classes that
        // keep one avoiding e, until e is no longer above the next most loaded link.
        bool reduced = false;
        std::uint32_t i = cursor[e];
        const std::uint32_t end = l_off[e + 1];
        for (; i < end; ++i) {
            // The scan is bound by these random reads: ask for the next ones early.
            if (i + 16 < end) __builtin_prefetch(&alive[l_class[i + 16]]);
            const std::uint16_t live = alive[l_class[i]];
            const std::uint16_t through = live & l_mask[i];
            if (through == 0 || through == live) continue; // settled
            if (reduced && load[e] <= second) break;
            Class& c = classes[l_class[i]];
            // Its candidates' offsets and edges: two reads that need not wait for each other.
            __builtin_prefetch(r_off.data() + c.first);
            __builtin_prefetch(r_edges.data() + c.eoff);
            reduced = true;
            const std::int64_t old_w = std::int64_t(c.mult) * (kScale / c.alive_n);
            const std::uint32_t left = c.alive_n - std::popcount(through);
            const std::int64_t new_w = std::int64_t(c.mult) * (kScale / left);
            for (std::uint32_t j = 0; j < c.count; ++j) {
                if (!(live >> j & 1u)) continue;
                if (through >> j & 1u)
                    adjust(c, j, -old_w);
                else
                    adjust(c, j, new_w - old_w);
            }
            apply();
            alive[l_class[i]] = static_cast<std::uint16_t>(live & ~through);
            c.alive_n = static_cast<std::uint8_t>(left);
        }
        cursor[e] = i;
        if (i == end) { // nothing left to reduce, ever
            dead[top] = true;
            ++num_dead;
            heap.set(top, -1);
        }
        ++visits;
        if (progress && (visits & 1023) == 0)
            progress(0.5 + 0.5 * double(num_dead) / double(links.size()));
    }
    // Keep only the selected route of each class.
    for (std::size_t x = 0; x < classes.size(); ++x) {
        const Class& c = classes[x];
        const auto r = route(c, static_cast<std::uint32_t>(std::countr_zero(alive[x])));
        out.chosen[c.key] = static_cast<std::uint32_t>(out.off.size() - 1);
        out.edges.insert(out.edges.end(), r.begin(), r.end());
        out.off.push_back(static_cast<std::uint32_t>(out.edges.size()));
    }
    if (progress) progress(1.0);
    return out;
}

CaPaths::CaPaths(const Fabric& f, const SelectedPaths& sp)
    : f_(f), sp_(sp), ca_index_(f.num_nodes(), SelectedPaths::kNone), at_(f.num_nodes(), 0),
      stamp_(f.num_nodes(), 0) {
    for (NodeId c : f.cas()) {
        ca_index_[c] = static_cast<std::uint32_t>(sport_.size());
        sport_.push_back(first_end_port(f, c));
    }
}

RouteClasses CaPaths::classes_to(std::size_t di, std::vector<std::uint32_t>& src) const {
    src.clear();
    if (sp_.by != PairClasses::SwitchPair) {
        const DestPaths d = to(di);
        for (std::size_t i = 0; i < d.size(); ++i)
            src.push_back(ca_index_[f_.port_node(d.path(i)[0])]);
        return route_classes(f_, d);
    }
    const auto cas = f_.cas();
    RouteClasses rc;
    rc.reps.dst = cas[di];
    const PortId dport = sport_[di];
    if (dport == kNoPort) return rc;
    const NodeId t = f_.port(dport).peer_node;
    const PortId last = f_.port_id(t, f_.port(dport).peer_port);
    if (++epoch_ == 0) { // wrapped: forget every stamp
        std::fill(stamp_.begin(), stamp_.end(), 0u);
        epoch_ = 1;
    }
    rc.class_of.reserve(cas.size());
    src.reserve(cas.size());
    // The same walk over the sources as to(), so path i is the same path.
    for (std::size_t si = 0; si < cas.size(); ++si) {
        const PortId sport = sport_[si];
        if (si == di || sport == kNoPort) continue;
        const NodeId u = f_.port(sport).peer_node;
        std::uint32_t c = 0;
        if (u == rc.reps.dst) { // CA cabled straight to CA: a path of one edge, alone
            c = static_cast<std::uint32_t>(rc.weight.size());
            rc.weight.push_back(0);
            rc.reps.add(std::span<const PortId>(&sport, 1));
        } else {
            const std::uint32_t r = sp_.route_of(si, di, u, t);
            if (r == SelectedPaths::kNone) continue;
            if (stamp_[u] == epoch_) {
                c = at_[u];
            } else {
                c = static_cast<std::uint32_t>(rc.weight.size());
                stamp_[u] = epoch_;
                at_[u] = c;
                rc.weight.push_back(0);
                const auto mid = sp_.route(r);
                rc.reps.edges.push_back(sport);
                rc.reps.edges.insert(rc.reps.edges.end(), mid.begin(), mid.end());
                rc.reps.edges.push_back(last);
                rc.reps.offset.push_back(static_cast<std::uint32_t>(rc.reps.edges.size()));
            }
        }
        ++rc.weight[c];
        rc.class_of.push_back(c);
        src.push_back(static_cast<std::uint32_t>(si));
    }
    return rc;
}

DestPaths CaPaths::to(std::size_t di) const {
    const auto cas = f_.cas();
    DestPaths dp;
    dp.dst = cas[di];
    const PortId dport = sport_[di];
    if (dport == kNoPort) return dp;
    const NodeId t = f_.port(dport).peer_node;
    const PortId last = f_.port_id(t, f_.port(dport).peer_port); // t -> d (if t switch)
    dp.offset.reserve(cas.size());
    for (std::size_t si = 0; si < cas.size(); ++si) {
        const PortId sport = sport_[si];
        if (si == di || sport == kNoPort) continue;
        const NodeId u = f_.port(sport).peer_node;
        if (u == dp.dst) { // CA cabled straight to CA
            dp.edges.push_back(sport);
        } else {
            const std::uint32_t r = sp_.route_of(si, di, u, t);
            if (r == SelectedPaths::kNone) continue;
            const auto mid = sp_.route(r);
            dp.edges.push_back(sport);
            dp.edges.insert(dp.edges.end(), mid.begin(), mid.end());
            dp.edges.push_back(last);
        }
        dp.offset.push_back(static_cast<std::uint32_t>(dp.edges.size()));
    }
    return dp;
}

PathSet ca_paths(const Fabric& f, const SelectedPaths& sp) {
    const CaPaths paths(f, sp);
    PathSet out;
    for (std::size_t di = 0; di < f.cas().size(); ++di) out.push_back(paths.to(di));
    return out;
}

PathSet path_selection(const Fabric& f, const graph::UpDown& ud, int candidates,
                       const std::function<void(double)>& progress) {
    return ca_paths(f, select_paths(f, ud, PairClasses::CaPair, candidates, progress));
}

double max_link_load(const Fabric& f, const PathSet& paths) {
    std::vector<std::uint64_t> load(f.num_port_slots(), 0);
    for (const DestPaths& d : paths)
        for (PortId e : d.edges) ++load[e];
    return max_link_load(f, load);
}

double max_link_load(const Fabric& f, std::span<const std::uint64_t> load) {
    std::uint64_t mx = 0;
    for (PortId e = 0; e < f.num_port_slots(); ++e)
        if (f.node(f.port_node(e)).is_switch() && f.port(e).connected() &&
            f.node(f.port(e).peer_node).is_switch())
            mx = std::max(mx, load[e]);
    const std::size_t n = f.cas().size();
    return n > 1 ? double(mx) / double(n - 1) : 0.0;
}

} // namespace ibrt::lidassign
