// Paper 001 §V: greedy (Fig. 6), split-merge (Fig. 7), most/least split path first (Fig. 9).
// Configurations are node-indexed arrays of the out edge (the paper's O(|V|) representation),
// reset with epoch stamps so one array serves every configuration.
#include "lidassign/heuristics.hpp"

#include <algorithm>
#include <numeric>
#include <queue>

namespace ibrt::lidassign {

std::string_view to_string(Heuristic h) {
    switch (h) {
    case Heuristic::Greedy:
        return "greedy";
    case Heuristic::SplitMergeS:
        return "split-merge/S";
    case Heuristic::SplitMergeL:
        return "split-merge/L";
    case Heuristic::ColorS:
        return "color/S";
    case Heuristic::ColorL:
        return "color/L";
    }
    return "?";
}

std::optional<Heuristic> parse_heuristic(std::string_view s) {
    for (Heuristic h : kAllHeuristics)
        if (to_string(h) == s) return h;
    if (s == "s-m/S" || s == "sm-s") return Heuristic::SplitMergeS;
    if (s == "s-m/L" || s == "sm-l") return Heuristic::SplitMergeL;
    if (s == "color-s") return Heuristic::ColorS;
    if (s == "color-l") return Heuristic::ColorL;
    return std::nullopt;
}

namespace {

// One configuration under construction: the out edge of every node it uses.
class ConfigTable {
  public:
    explicit ConfigTable(std::size_t nodes) : edge_(nodes, kNoPort), stamp_(nodes, 0) {}
    void reset() { ++epoch_; }
    bool fits(const Fabric& f, std::span<const PortId> p) const {
        for (PortId e : p) {
            const NodeId n = f.port_node(e);
            if (stamp_[n] == epoch_ && edge_[n] != e) return false;
        }
        return true;
    }
    void add(const Fabric& f, std::span<const PortId> p) {
        for (PortId e : p) {
            const NodeId n = f.port_node(e);
            stamp_[n] = epoch_;
            edge_[n] = e;
        }
    }

  private:
    std::vector<PortId> edge_;
    std::vector<std::uint32_t> stamp_;
    std::uint32_t epoch_ = 1;
};

// Fig. 6 over groups of paths (single paths for greedy, split items for split-merge): a group
// joins the current configuration iff none of its paths splits with it.
Assignment merge_groups(const Fabric& f, const DestPaths& d,
                        const std::vector<std::vector<std::uint32_t>>& groups) {
    Assignment a;
    a.config.assign(d.size(), 0);
    std::vector<bool> placed(groups.size(), false);
    std::size_t left = groups.size();
    ConfigTable cfg(f.num_nodes());
    while (left > 0) {
        cfg.reset();
        for (std::size_t g = 0; g < groups.size(); ++g) {
            if (placed[g]) continue;
            bool ok = true;
            for (std::uint32_t p : groups[g])
                if (!cfg.fits(f, d.path(p))) {
                    ok = false;
                    break;
                }
            if (!ok) continue;
            for (std::uint32_t p : groups[g]) {
                cfg.add(f, d.path(p));
                a.config[p] = a.k;
            }
            placed[g] = true;
            --left;
        }
        ++a.k;
    }
    return a;
}

} // namespace

Assignment greedy(const Fabric& f, const DestPaths& d) {
    std::vector<std::vector<std::uint32_t>> groups(d.size());
    for (std::uint32_t i = 0; i < d.size(); ++i) groups[i] = {i};
    return merge_groups(f, d, groups);
}

Assignment split_merge(const Fabric& f, const DestPaths& d, bool largest_first) {
    // Nodes by usage (paths leaving them).
    std::vector<std::uint32_t> usage(f.num_nodes(), 0);
    for (PortId e : d.edges) ++usage[f.port_node(e)];
    std::vector<NodeId> order;
    for (NodeId n = 0; n < f.num_nodes(); ++n)
        if (usage[n] > 0) order.push_back(n);
    std::stable_sort(order.begin(), order.end(), [&](NodeId a, NodeId b) {
        return largest_first ? usage[a] > usage[b] : usage[a] < usage[b];
    });
    // For each node, the (path, edge) pairs leaving it.
    std::vector<std::uint32_t> first(f.num_nodes() + 1, 0);
    for (PortId e : d.edges) ++first[f.port_node(e) + 1];
    for (std::size_t n = 0; n < f.num_nodes(); ++n) first[n + 1] += first[n];
    std::vector<std::pair<std::uint32_t, PortId>> leaving(d.edges.size());
    {
        std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
        for (std::uint32_t p = 0; p < d.size(); ++p)
            for (PortId e : d.path(p)) leaving[fill[f.port_node(e)]++] = {p, e};
    }

    std::vector<std::uint32_t> item(d.size(), 0); // item of each path
    std::uint32_t items = d.size() ? 1 : 0;
    std::vector<PortId> edge_at(d.size(), kNoPort);
    for (std::uint32_t step = 0; step < order.size(); ++step) {
        const NodeId a = order[step];
        // Per item, the parts by out edge: (item, edge) -> count, and the largest part.
        std::vector<std::pair<std::uint32_t, PortId>> keys;
        for (std::uint32_t i = first[a]; i < first[a + 1]; ++i) {
            auto [p, e] = leaving[i];
            edge_at[p] = e;
            keys.emplace_back(item[p], e);
        }
        std::sort(keys.begin(), keys.end());
        // Runs of equal (item, edge): count; per item keep the largest run's edge.
        struct Part {
            std::uint32_t item;
            PortId edge;
            std::uint32_t count;
            std::uint32_t new_item;
        };
        std::vector<Part> parts;
        for (std::size_t i = 0; i < keys.size();) {
            std::size_t j = i;
            while (j < keys.size() && keys[j] == keys[i]) ++j;
            parts.push_back({keys[i].first, keys[i].second, std::uint32_t(j - i), 0});
            i = j;
        }
        std::vector<PortId> keep_edge(items, kNoPort); // edge whose part keeps the item's id
        std::vector<std::uint32_t> keep_count(items, 0);
        for (const Part& pt : parts)
            if (pt.count > keep_count[pt.item]) {
                keep_count[pt.item] = pt.count;
                keep_edge[pt.item] = pt.edge;
            }
        for (Part& pt : parts) pt.new_item = pt.edge == keep_edge[pt.item] ? pt.item : items++;
        for (std::uint32_t i = first[a]; i < first[a + 1]; ++i) {
            const std::uint32_t p = leaving[i].first;
            const std::uint32_t it = item[p];
            if (edge_at[p] == keep_edge[it]) continue;
            auto pos = std::lower_bound(parts.begin(), parts.end(), std::pair{it, edge_at[p]},
                                        [](const Part& x, std::pair<std::uint32_t, PortId> k) {
                                            return std::pair{x.item, x.edge} < k;
                                        });
            item[p] = pos->new_item;
        }
    }
    // Items in order of their lowest path index.
    std::vector<std::int64_t> rank(items, -1);
    std::vector<std::vector<std::uint32_t>> groups;
    for (std::uint32_t p = 0; p < d.size(); ++p) {
        if (rank[item[p]] < 0) {
            rank[item[p]] = static_cast<std::int64_t>(groups.size());
            groups.emplace_back();
        }
        groups[rank[item[p]]].push_back(p);
    }
    return merge_groups(f, d, groups);
}

Assignment color(const SplitGraph& g, bool largest_first, std::span<const std::uint32_t> weight) {
    const auto n = static_cast<std::uint32_t>(g.num_vertices());
    auto w = [&](std::uint32_t v) -> std::uint64_t { return weight.empty() ? 1 : weight[v]; };
    Assignment a;
    constexpr std::uint32_t kNone = 0xffffffffu;
    a.config.assign(n, kNone);
    // uncol[v]: weight of v's uncoloured neighbours, kept up to date as vertices are coloured,
    // so a round starts from it instead of recounting every edge.
    std::vector<std::uint64_t> uncol(n, 0), deg(n);
    for (std::uint32_t v = 0; v < n; ++v)
        for (std::uint32_t x : g.neighbours(v)) uncol[v] += w(x);
    std::vector<std::uint32_t> in_work(n, 0); // epoch: vertex is in this round's working graph
    std::uint32_t uncolored = n;
    // Heap key: (degree, vertex) so that the lower index wins ties for both orders.
    using Key = std::pair<std::int64_t, std::int64_t>;
    std::vector<Key> heap;
    auto key = [&](std::uint32_t v) {
        const auto dg = static_cast<std::int64_t>(deg[v]);
        return Key{largest_first ? dg : -dg, -std::int64_t(v)};
    };
    auto push = [&](Key k) {
        heap.push_back(k);
        std::push_heap(heap.begin(), heap.end());
    };
    while (uncolored > 0) {
        const std::uint32_t round = a.k + 1;
        // (9): the working graph is the uncoloured vertices and the edges between them.
        heap.clear();
        for (std::uint32_t v = 0; v < n; ++v)
            if (a.config[v] == kNone) {
                in_work[v] = round;
                deg[v] = uncol[v];
                heap.push_back(key(v));
            }
        std::make_heap(heap.begin(), heap.end());
        // A removed vertex lowers its neighbours' degrees. Most split first: a lowered key
        // only sinks, so the heap keeps the old (higher) entry and a popped entry that is no
        // longer current is pushed again with its current key. Least split first: a lowered
        // degree rises, so it is pushed at once (older entries are skipped as stale).
        auto remove = [&](std::uint32_t v) {
            in_work[v] = 0;
            for (std::uint32_t x : g.neighbours(v))
                if (in_work[x] == round) {
                    deg[x] -= w(v);
                    if (!largest_first) push(key(x));
                }
        };
        while (!heap.empty()) {
            std::pop_heap(heap.begin(), heap.end());
            const Key top = heap.back();
            heap.pop_back();
            const auto v = static_cast<std::uint32_t>(-top.second);
            if (in_work[v] != round) continue; // removed or coloured
            if (key(v) != top) {               // stale
                if (largest_first) push(key(v));
                continue;
            }
            a.config[v] = a.k;
            --uncolored;
            for (std::uint32_t x : g.neighbours(v)) uncol[x] -= w(v);
            // (7): remove v and its neighbours.
            in_work[v] = 0;
            for (std::uint32_t x : g.neighbours(v))
                if (in_work[x] == round) remove(x);
        }
        ++a.k;
    }
    return a;
}

RouteClasses route_classes(const Fabric& f, const DestPaths& d) {
    constexpr std::uint32_t kNone = 0xffffffffu;
    RouteClasses rc;
    rc.reps.dst = d.dst;
    rc.class_of.resize(d.size());
    std::vector<std::uint32_t> rep_path;                      // per class: its first path
    std::vector<std::uint32_t> by_node(f.num_nodes(), kNone); // first tail node -> a class
    std::vector<std::uint32_t> next_same;                     // per class: next, same first node
    for (std::uint32_t i = 0; i < d.size(); ++i) {
        const auto p = d.path(i);
        const bool shared = p.size() >= 2 && !f.node(f.port_node(p[0])).is_switch();
        const NodeId head = shared ? f.port_node(p[1]) : kNoNode;
        std::uint32_t c = kNone;
        if (shared)
            for (std::uint32_t x = by_node[head]; x != kNone; x = next_same[x]) {
                const auto q = d.path(rep_path[x]);
                if (std::equal(p.begin() + 1, p.end(), q.begin() + 1, q.end())) {
                    c = x;
                    break;
                }
            }
        if (c == kNone) {
            c = static_cast<std::uint32_t>(rc.weight.size());
            rc.weight.push_back(0);
            rep_path.push_back(i);
            next_same.push_back(kNone);
            if (shared) {
                next_same[c] = by_node[head];
                by_node[head] = c;
            }
            rc.reps.add(p);
        }
        ++rc.weight[c];
        rc.class_of[i] = c;
    }
    return rc;
}

Assignment color_classes(const Fabric& f, const RouteClasses& rc, bool largest_first) {
    return color(build_split_graph(f, rc.reps), largest_first, rc.weight);
}

Assignment expand(const RouteClasses& rc, const Assignment& per_class) {
    Assignment a;
    a.k = per_class.k;
    a.config.resize(rc.class_of.size());
    for (std::size_t i = 0; i < a.config.size(); ++i)
        a.config[i] = per_class.config[rc.class_of[i]];
    return a;
}

Assignment color_by_route(const Fabric& f, const DestPaths& d, bool largest_first) {
    const RouteClasses rc = route_classes(f, d);
    return expand(rc, color_classes(f, rc, largest_first));
}

Assignment run_heuristic(Heuristic h, const Fabric& f, const DestPaths& d) {
    switch (h) {
    case Heuristic::Greedy:
        return greedy(f, d);
    case Heuristic::SplitMergeS:
        return split_merge(f, d, false);
    case Heuristic::SplitMergeL:
        return split_merge(f, d, true);
    case Heuristic::ColorS:
        return color(build_split_graph(f, d), false);
    case Heuristic::ColorL:
        return color(build_split_graph(f, d), true);
    }
    return {};
}

} // namespace ibrt::lidassign
