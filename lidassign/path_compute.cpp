// Paper 001 §VI: shortest-widest and path selection over Up*/Down* legal routes (see
// path_compute.hpp for the exact rules and the documented deviation).
#include "lidassign/path_compute.hpp"

#include "fabric/parallel.hpp"
#include "fabric/rng.hpp"
#include "graph/link_load.hpp"
#include "graph/yen.hpp"

#include <algorithm>
#include <bit>
#include <limits>

namespace ibrt::lidassign {

std::string_view to_string(PathScheme s) {
    return s == PathScheme::ShortestWidest ? "shortest-widest" : "path-selection";
}

PathSet compute_paths(const Fabric& f, PathScheme s, const PathOptions& opt) {
    const graph::UpDown ud = graph::make_updown(f, graph::choose_root(f, opt.seed));
    return s == PathScheme::ShortestWidest ? shortest_widest(f, ud)
                                           : path_selection(f, ud, opt.candidates);
}

PathSet shortest_widest(const Fabric& f, const graph::UpDown& ud, const WidestOptions& w) {
    using W = WidestOptions;
    const auto cas = f.cas();
    const std::size_t nc = cas.size();
    std::vector<std::uint64_t> weight(f.num_port_slots(), 1);
    // Per cable: both directions count on the lower PortId of the two.
    auto slot = [&](PortId e) -> PortId {
        if (w.weights == W::Weights::PerDirection) return e;
        const Port& p = f.port(e);
        return std::min(e, f.port_id(p.peer_node, p.peer_port));
    };
    const std::size_t states = f.num_nodes() * 2;
    std::vector<std::uint64_t> best(states);
    std::vector<PortId> via(states);
    std::vector<std::uint32_t> prev(states);
    std::vector<std::uint32_t> stamp(states, 0);
    std::uint32_t epoch = 0;
    std::vector<std::uint32_t> layer, next;
    std::vector<PortId> path;
    // The route of one pair into `path` (false: no legal route), then its weights raised.
    auto route_one = [&](NodeId s, NodeId d, const graph::ShortestDag& g) {
        if (g.at(s, 0) == graph::kFar || g.at(s, 0) == 0) return false;
        // Layered DP over the DAG: every edge lowers the distance by one, so states of one
        // distance are final before the next layer is expanded.
        ++epoch;
        layer.assign(1, s * 2);
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
                    const std::uint64_t we = weight[slot(e)];
                    // The bottleneck counts switch-to-switch links only: a pair's CA links
                    // are on every one of its routes and would tie them all.
                    const std::uint64_t c = w.cost == W::Cost::Sum        ? best[st] + we
                                            : graph::is_switch_link(f, e) ? std::max(best[st], we)
                                                                          : best[st];
                    if (stamp[to] != epoch) {
                        stamp[to] = epoch;
                        best[to] = c;
                        via[to] = e;
                        prev[to] = st;
                        next.push_back(to);
                    } else if (c < best[to]) {
                        best[to] = c;
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
        for (PortId e : path) ++weight[slot(e)];
        return true;
    };
    PathSet out(nc);
    if (w.order == W::Order::DestinationMajor) {
        for (std::size_t di = 0; di < nc; ++di) {
            out[di].dst = cas[di];
            const graph::ShortestDag g = graph::shortest_dag(f, ud, cas[di]);
            for (NodeId s : cas)
                if (s != cas[di] && route_one(s, cas[di], g)) out[di].add(path);
        }
        return out;
    }
    // The other orders: every destination's DAG kept, routes stored by pair and assembled per
    // destination in source order at the end (study sizes: 512 CAs).
    std::vector<graph::ShortestDag> dags(nc);
    for (std::size_t di = 0; di < nc; ++di) dags[di] = graph::shortest_dag(f, ud, cas[di]);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs; // (destination, source) index
    pairs.reserve(nc * nc);
    for (std::uint32_t a = 0; a < nc; ++a)
        for (std::uint32_t b = 0; b < nc; ++b)
            if (a != b) pairs.emplace_back(b, a); // source-major: source a, destinations b
    if (w.order == W::Order::Random) gen::Rng(w.order_seed).shuffle(pairs);
    // A route between two CAs has at least their two links: empty means none.
    std::vector<std::vector<PortId>> route(nc * nc);
    for (auto [di, si] : pairs)
        if (route_one(cas[si], cas[di], dags[di])) route[std::size_t(di) * nc + si] = path;
    for (std::size_t di = 0; di < nc; ++di) {
        out[di].dst = cas[di];
        for (std::size_t si = 0; si < nc; ++si)
            if (!route[di * nc + si].empty()) out[di].add(route[di * nc + si]);
    }
    return out;
}

namespace {

// The most loaded live link (ties: lowest index, i.e. lowest PortId) and the largest load among
// the others, under point updates: a max tree of winners over the loads themselves (the loop
// has just written the load it updates, so the leaf is in cache, and the tree of indices is a
// quarter of a tree of (load, index) pairs: ~1 G updates at 16,384 hosts, bound by cache
// misses). Dead links, and the padding to a power of two, hold negative loads.
template <typename Index> // holds every leaf index: 16 bits up to 65,536 leaves
class LoadMax {
  public:
    // load has a power-of-two size of at least 2; it is read, never written, and the caller
    // calls update(i) after changing load[i].
    explicit LoadMax(const std::vector<std::int64_t>& load) : load_(load), size_(load.size()) {
        win_.resize(size_);
        for (std::size_t x = size_ - 1; x >= 1; --x) win_[x] = pick(2 * x);
    }
    void update(std::size_t i) {
        // Up from the leaf; an ancestor whose winner stays the same other leaf is unchanged,
        // and so is everything above it.
        for (std::size_t x = (size_ + i) >> 1; x >= 1; x >>= 1) {
            const Index w = pick(2 * x);
            if (w == win_[x] && w != i) break;
            win_[x] = w;
        }
    }
    bool empty() const { return load_[win_[1]] < 0; }
    std::size_t top() const { return win_[1]; }
    // max(0, largest load other than at `skip`).
    std::int64_t second(std::size_t skip) const {
        std::int64_t m = 0;
        // The siblings of the leaf's ancestors cover every other leaf exactly once.
        for (std::size_t x = size_ + skip; x > 1; x >>= 1) m = std::max(m, load_[winner(x ^ 1)]);
        return m;
    }

  private:
    // Node c's winner: an inner node's, or leaf c - size_ itself.
    Index winner(std::size_t c) const {
        return c >= size_ ? static_cast<Index>(c - size_) : win_[c];
    }
    // The winner of children a and a + 1; ties (and two dead links) to the left, lower index.
    Index pick(std::size_t a) const {
        const Index l = winner(a), r = winner(a + 1);
        return load_[r] > load_[l] ? r : l;
    }
    const std::vector<std::int64_t>& load_;
    std::size_t size_;
    std::vector<Index> win_; // inner nodes 1 .. size_ - 1
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
                           const std::function<void(double)>& progress, LinkIds ids,
                           Candidates which) {
    constexpr std::int64_t kScale = 720720; // lcm(1..16): candidate weights stay integral
    constexpr std::uint32_t kUnset = SelectedPaths::kNone;
    candidates = std::clamp(candidates, 1, 16);
    const auto cas = f.cas();
    SelectedPaths out;
    const std::size_t ns = f.switches().size();
    out.num_switches = ns;
    out.index.assign(f.num_nodes(), kUnset);
    for (std::size_t i = 0; i < ns; ++i) out.index[f.switches()[i]] = static_cast<std::uint32_t>(i);
    out.by = by;
    out.num_cas = cas.size();
    // Links (switch-to-switch edges) by dense id in PortId order: candidates, loads and the
    // max tree use these ids, so the loop's per-link arrays are a few hundred kB, not one entry
    // per port slot.
    std::vector<std::uint32_t> link_of(f.num_port_slots(), kUnset);
    std::vector<PortId> links;
    for (PortId e = 0; e < f.num_port_slots(); ++e)
        if (f.node(f.port_node(e)).is_switch() && f.port(e).connected() &&
            f.node(f.port(e).peer_node).is_switch()) {
            link_of[e] = static_cast<std::uint32_t>(links.size());
            links.push_back(e);
        }
    const std::size_t nl = links.size();
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
    // Yen's candidates, as link ids, in parts: by switch pair the destination switches are
    // split into contiguous ranges, one per thread, each with its own YenSearch (which reuses
    // its distances destination by destination); the classes are the same in any split. By CA
    // pair one part, with the candidates of a switch pair computed on first use and shared.
    //
    // A class's candidates are one block, read as a whole by every reduction of the class:
    // [mult][count][length of each candidate][edges of candidate 0, 1, ...], in units of Id,
    // 16 bits when the link ids fit (2,048 switches: 47 k links), else 32. A reduction then
    // costs one random miss where it used three dependent ones (a class record, its
    // candidates' offsets, their edges), and at 16,384 hosts the candidates take 0.7 GB, not 1.3.
    const auto run = [&]<typename Id>() {
        constexpr std::size_t kMultIds = sizeof(std::uint32_t) / sizeof(Id);
        struct Part {
            std::vector<Id> blocks;
            std::vector<std::uint32_t> pos, key; // per class: its block, its entry in out.chosen
            std::vector<std::uint16_t> alive;    // per class: its live candidates, a bit each
        };
        auto add_block = [&](std::vector<Id>& blk, const graph::YenSearch::Flat& fl,
                             std::uint32_t mult, int count) {
            const std::size_t at = blk.size();
            if (at > std::numeric_limits<std::uint32_t>::max() - fl.edges.size() - 64)
                throw std::length_error("path selection: candidates exceed 2^32 entries");
            for (std::size_t h = 0; h < kMultIds; ++h)
                blk.push_back(static_cast<Id>(mult >> (8 * sizeof(Id) * h)));
            blk.push_back(static_cast<Id>(count));
            for (int j = 0; j < count; ++j) {
                const std::uint32_t len = fl.off[j + 1] - fl.off[j];
                if (len > std::numeric_limits<Id>::max())
                    throw std::length_error("path selection: route too long");
                blk.push_back(static_cast<Id>(len));
            }
            for (const PortId e : fl.edges) blk.push_back(static_cast<Id>(link_of[e]));
            return static_cast<std::uint32_t>(at);
        };
        auto fresh = [](graph::YenSearch::Flat& fl) {
            fl.edges.clear();
            fl.off.assign(1, 0);
        };
        // Candidates::Shortest: only the routes as short as the first (Yen's order: hops first).
        auto keep = [which](graph::YenSearch::Flat& fl, int count) {
            if (which != Candidates::Shortest || count < 2) return count;
            const std::uint32_t len = fl.off[1] - fl.off[0];
            int n = 1;
            while (n < count && fl.off[std::size_t(n) + 1] - fl.off[std::size_t(n)] == len) ++n;
            fl.off.resize(std::size_t(n) + 1);
            fl.edges.resize(fl.off.back());
            return n;
        };
        std::vector<Part> parts;
        if (by == PairClasses::SwitchPair) {
            out.chosen.assign(ns * ns, kUnset);
            const std::size_t threads = worker_count(order.size(), 8);
            parts.resize(threads);
            auto run_part = [&](std::size_t p) {
                Part& part = parts[p];
                graph::YenSearch yen(f, ud);
                graph::YenSearch::Flat cands;
                const std::size_t t0 = order.size() * p / threads,
                                  t1 = order.size() * (p + 1) / threads;
                for (std::size_t ti = t0; ti < t1; ++ti) {
                    const NodeId t = order[ti];
                    const std::uint32_t nt = n_cas[out.index[t]];
                    for (NodeId u : order) {
                        const std::uint32_t nu = n_cas[out.index[u]];
                        const std::uint32_t mult = u == t ? nu * (nu - 1) : nu * nt;
                        if (mult == 0) continue;
                        fresh(cands);
                        const int count = keep(cands, yen.run(u, t, candidates, cands));
                        if (count == 0) continue; // no legal route: the pairs stay without a path
                        part.pos.push_back(add_block(part.blocks, cands, mult, count));
                        part.key.push_back(
                            static_cast<std::uint32_t>(out.index[u] * ns + out.index[t]));
                        part.alive.push_back(static_cast<std::uint16_t>((1u << count) - 1));
                    }
                    // The candidates take a GB at 16,384 hosts: after the first destination,
                    // reserve for the rest at its rate rather than copy on every doubling.
                    if (ti == t0) {
                        const std::size_t rest = t1 - t0;
                        part.blocks.reserve(part.blocks.size() * rest * 21 / 20);
                        part.pos.reserve(part.pos.size() * rest);
                        part.key.reserve(part.key.size() * rest);
                        part.alive.reserve(part.alive.size() * rest);
                    }
                    if (p == 0 && progress && ((ti - t0) & 15) == 0)
                        progress(0.5 * double(ti - t0) / double(t1 - t0));
                }
            };
            run_parts(threads, run_part); // progress only from part 0, the caller's thread
        } else {
            parts.resize(1);
            Part& part = parts[0];
            graph::YenSearch yen(f, ud);
            graph::YenSearch::Flat cands;
            std::vector<std::uint32_t> memo(ns * ns, kUnset); // per switch pair: its block
            std::vector<std::uint8_t> memo_n(ns * ns, 0);     // and how many candidates
            const std::size_t n = cas.size();
            out.chosen.assign(n * n, kUnset);
            std::vector<NodeId> sw_of(n, kNoNode); // the switch a CA hangs off
            for (std::size_t i = 0; i < n; ++i) {
                const PortId p = first_end_port(f, cas[i]);
                if (p != kNoPort && f.node(f.port(p).peer_node).is_switch())
                    sw_of[i] = f.port(p).peer_node;
            }
            std::vector<std::uint8_t> done(ns * ns, 0);
            for (std::size_t di = 0; di < n; ++di) {
                if (sw_of[di] == kNoNode) continue;
                for (std::size_t si = 0; si < n; ++si) {
                    if (si == di || sw_of[si] == kNoNode) continue;
                    const std::size_t k =
                        std::size_t(out.index[sw_of[si]]) * ns + out.index[sw_of[di]];
                    if (!done[k]) {
                        done[k] = 1;
                        fresh(cands);
                        memo_n[k] = static_cast<std::uint8_t>(
                            keep(cands, yen.run(sw_of[si], sw_of[di], candidates, cands)));
                        if (memo_n[k] > 0) memo[k] = add_block(part.blocks, cands, 1, memo_n[k]);
                    }
                    if (memo_n[k] == 0) continue;
                    part.pos.push_back(memo[k]);
                    part.key.push_back(static_cast<std::uint32_t>(di * n + si));
                    part.alive.push_back(static_cast<std::uint16_t>((1u << memo_n[k]) - 1));
                }
                if (progress && (di & 63) == 0) progress(0.5 * double(di) / double(n));
            }
        }
        // Classes by global id: the parts in order.
        std::vector<std::uint32_t> part_base{0};
        for (const Part& p : parts)
            part_base.push_back(part_base.back() + static_cast<std::uint32_t>(p.pos.size()));
        const std::uint32_t num_classes = part_base.back();
        // Per class, what the scan of a link's classes reads (its live candidates) and where its
        // block is, side by side: 6 bytes a class, one miss for both.
        struct [[gnu::packed]] ClassRef {
            std::uint32_t pos;
            std::uint16_t alive;
        };
        std::vector<ClassRef> cref;
        cref.reserve(num_classes);
        for (std::size_t p = 0; p < parts.size(); ++p) {
            Part& x = parts[p];
            for (std::size_t c = 0; c < x.pos.size(); ++c) cref.push_back({x.pos[c], x.alive[c]});
            std::vector<std::uint32_t>().swap(x.pos);
            std::vector<std::uint16_t>().swap(x.alive);
        }
        auto part_of = [&](std::uint32_t c) -> std::size_t {
            std::size_t p = 0;
            while (c >= part_base[p + 1]) ++p;
            return p;
        };
        // Class c's block: its words, and candidate j's edges by walking the lengths.
        struct Block {
            const Id* w;
            std::uint32_t mult() const {
                std::uint32_t m = 0;
                for (std::size_t h = 0; h < kMultIds; ++h) m |= std::uint32_t(w[h]) << (16 * h);
                return m;
            }
            std::uint32_t count() const { return w[kMultIds]; }
            std::uint32_t len(std::uint32_t j) const { return w[kMultIds + 1 + j]; }
            const Id* edges() const { return w + kMultIds + 1 + count(); }
            std::span<const Id> route(std::uint32_t j) const {
                const Id* e = edges();
                for (std::uint32_t x = 0; x < j; ++x) e += len(x);
                return {e, len(j)};
            }
        };
        auto block = [&](std::uint32_t c) {
            return Block{parts[part_of(c)].blocks.data() + cref[c].pos};
        };
        // Per link, the classes with a candidate through it (ascending), and which candidates.
        // Built part by part over the cores (a part's classes are a contiguous range, so its
        // entries of a link follow the earlier parts' ones): counted, then filled.
        const std::size_t np = parts.size();
        std::vector<std::vector<std::uint32_t>> at(np); // per part and link: entries, then start
        auto for_each_class_of = [&](std::size_t p, auto&& fn) {
            for (std::uint32_t c = part_base[p]; c < part_base[p + 1]; ++c) fn(c, block(c));
        };
        run_parts(np, [&](std::size_t p) {
            std::vector<std::uint32_t>& count = at[p];
            count.assign(nl, 0);
            std::vector<std::uint32_t> last(nl, kUnset);
            for_each_class_of(p, [&](std::uint32_t c, const Block& b) {
                const Id* e = b.edges();
                for (std::uint32_t j = 0; j < b.count(); ++j)
                    for (const Id* end = e + b.len(j); e < end; ++e)
                        if (last[*e] != c) {
                            last[*e] = c;
                            ++count[*e];
                        }
            });
        });
        std::vector<std::uint32_t> l_off(nl + 1, 0);
        for (std::size_t i = 0; i < nl; ++i) {
            std::uint32_t x = l_off[i];
            for (std::size_t p = 0; p < np; ++p) { // count -> where part p's entries start
                const std::uint32_t count = at[p][i];
                at[p][i] = x;
                x += count;
            }
            l_off[i + 1] = x;
        }
        // A class and its candidates through the link side by side: a visit starts its scan at a
        // random place in 1 GB of lists, one miss rather than two.
        struct [[gnu::packed]] Entry {
            std::uint32_t cls;
            std::uint16_t mask;
        };
        std::vector<Entry> l_entry(l_off.back(), Entry{0, 0});
        std::vector<std::vector<std::int64_t>> part_load(np); // integer sums: any split is exact
        run_parts(np, [&](std::size_t p) {
            std::vector<std::uint32_t>& fill = at[p];
            std::vector<std::int64_t>& load = part_load[p];
            load.assign(nl, 0);
            std::vector<std::uint32_t> last(nl, kUnset);
            for_each_class_of(p, [&](std::uint32_t c, const Block& b) {
                const std::int64_t w = std::int64_t(b.mult()) * (kScale / b.count());
                const Id* e = b.edges();
                for (std::uint32_t j = 0; j < b.count(); ++j)
                    for (const Id* end = e + b.len(j); e < end; ++e) {
                        if (last[*e] != c) {
                            last[*e] = c;
                            l_entry[fill[*e]++].cls = c;
                        }
                        l_entry[fill[*e] - 1].mask |= static_cast<std::uint16_t>(1u << j);
                        load[*e] += w;
                    }
            });
        });
        at.clear();
        std::vector<std::int64_t> load(nl, 0);
        for (const std::vector<std::int64_t>& pl : part_load)
            for (std::size_t e = 0; e < nl; ++e) load[e] += pl[e];
        part_load.clear();
        // Links with no candidate through them are dead from the start; a dead link's load stays
        // far below zero whatever is added to it.
        constexpr std::int64_t kDead = std::numeric_limits<std::int64_t>::min() / 4;
        std::size_t num_dead = 0;
        for (std::size_t e = 0; e < nl; ++e)
            if (l_off[e + 1] == l_off[e]) {
                load[e] = kDead;
                ++num_dead;
            }
        load.resize(std::max<std::size_t>(std::bit_ceil(nl), 2), kDead);
        LoadMax<Id> heap(load); // nl < 2^16 with 16-bit ids: at most 65,536 leaves
        // One reduction changes the weights of all of a class's candidates; their edges overlap,
        // so the deltas are summed per edge first and each edge's load (and tree leaf) is set once.
        std::vector<std::int64_t> delta(nl, 0);
        std::vector<std::uint32_t> touched;
        auto adjust = [&](const Id* e, const Id* end, std::int64_t d) {
            for (; e < end; ++e) {
                if (delta[*e] == 0) touched.push_back(*e);
                delta[*e] += d;
            }
        };
        auto apply = [&] {
            for (std::uint32_t e : touched) {
                load[e] += delta[e];
                delta[e] = 0;
                if (load[e] >= 0) heap.update(e);
            }
            touched.clear();
        };
        // A link's entries are in class order. Classes before the link's cursor are settled for
        // good: they either have no candidate through the link any more or every candidate they
        // have left uses it (and candidates only ever die), so each list is scanned once in total.
        std::vector<std::uint32_t> cursor(l_off.begin(), l_off.end() - 1);
        std::size_t visits = 0;
        while (!heap.empty()) {
            const std::size_t e = heap.top();
            const std::int64_t second = heap.second(e);
            // Drop, class by class (lowest class first), the candidates through e of classes that
            // keep one avoiding e, until e is no longer above the next most loaded link.
            bool reduced = false;
            std::uint32_t i = cursor[e];
            const std::uint32_t end = l_off[e + 1];
            // The scan is bound by random reads of the classes' live masks: ask for the first
            // 16 at once (a visit scans ~4 entries; one by one, each waited for the last), and
            // then 16 ahead.
            for (std::uint32_t k = i; k < end && k < i + 16; ++k)
                __builtin_prefetch(&cref[l_entry[k].cls]);
            for (; i < end; ++i) {
                if (i + 16 < end) __builtin_prefetch(&cref[l_entry[i + 16].cls]);
                ClassRef& ref = cref[l_entry[i].cls];
                const std::uint16_t live = ref.alive;
                const std::uint16_t through = live & l_entry[i].mask;
                if (through == 0 || through == live) continue; // settled
                if (reduced && load[e] <= second) break;
                const Block b = block(l_entry[i].cls);
                reduced = true;
                const std::uint32_t alive_n = static_cast<std::uint32_t>(std::popcount(live));
                const std::int64_t old_w = std::int64_t(b.mult()) * (kScale / alive_n);
                const std::uint32_t left = alive_n - std::popcount(through);
                const std::int64_t new_w = std::int64_t(b.mult()) * (kScale / left);
                const std::uint32_t top = 32 - std::countl_zero(std::uint32_t(live));
                const Id* r = b.edges();
                for (std::uint32_t j = 0; j < top; ++j) {
                    const Id* next = r + b.len(j);
                    if (live >> j & 1u)
                        adjust(r, next, (through >> j & 1u) ? -old_w : new_w - old_w);
                    r = next;
                }
                apply();
                ref.alive = static_cast<std::uint16_t>(live & ~through);
            }
            cursor[e] = i;
            if (i == end) { // nothing left to reduce, ever
                load[e] = kDead;
                ++num_dead;
                heap.update(e);
            }
            ++visits;
            if (progress && (visits & 1023) == 0)
                progress(0.5 + 0.5 * double(num_dead) / double(nl));
        }
        // Keep only the selected route of each class, as PortIds.
        for (std::uint32_t c = 0; c < num_classes; ++c) {
            const auto r =
                block(c).route(static_cast<std::uint32_t>(std::countr_zero(cref[c].alive)));
            const std::size_t p = part_of(c);
            out.chosen[parts[p].key[c - part_base[p]]] =
                static_cast<std::uint32_t>(out.off.size() - 1);
            for (const Id e : r) out.edges.push_back(links[e]);
            out.off.push_back(static_cast<std::uint32_t>(out.edges.size()));
        }
    };
    if (ids == LinkIds::Auto && nl <= std::numeric_limits<std::uint16_t>::max())
        run.template operator()<std::uint16_t>();
    else
        run.template operator()<std::uint32_t>();
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
        } else if (stamp_[u] == epoch_) { // u's route is known to exist: one per switch pair
            c = at_[u];
        } else {
            const std::uint32_t r = sp_.route_of(si, di, u, t);
            if (r == SelectedPaths::kNone) continue;
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
                       const std::function<void(double)>& progress, Candidates which) {
    return ca_paths(
        f, select_paths(f, ud, PairClasses::CaPair, candidates, progress, LinkIds::Auto, which));
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
        if (graph::is_switch_link(f, e)) mx = std::max(mx, load[e]);
    const std::size_t n = f.cas().size();
    return n > 1 ? double(mx) / double(n - 1) : 0.0;
}

} // namespace ibrt::lidassign
