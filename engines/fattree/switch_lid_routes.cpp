// Credit-loop-free routes toward switch LIDs on fat trees (issue 19); see the header.
#include "engines/fattree/switch_lid_routes.hpp"

#include "graph/fabric_walks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <unordered_set>

namespace ibrt::fattree {

namespace {

using graph::kFar; // the graph library's "unreachable"

// Legal (Up*/Down*) routes toward one switch LID X, per NodeId.
struct LegalRoutes {
    std::uint32_t stamp = 0;
    std::vector<std::uint32_t> in_d;        // == stamp: X or an ancestor of X
    std::vector<std::uint32_t> hops;        // switch hops to X; kFar: no legal route
    std::vector<PortNum> out;               // the entry where hops != kFar
    std::vector<NodeId> up_peer, down_peer; // the node behind t.up_ports[j] / t.down_ports[j]
    bool routed(NodeId s) const { return hops[s] != kFar; }
};

// Step 1 of the header for switch X (LIDs base .. base + count - 1): fills lr, writes the
// entries of every switch with a legal route, and lists the leaves without one in `stranded`.
// This runs once per switch LID on every tree, so it stays on flat arrays.
void legal_routes(const FatTreeShape& t, NodeId x, Lid base, unsigned count, LegalRoutes& lr,
                  std::vector<NodeId>& stranded, std::vector<NodeId>& queue, Routing& r) {
    const std::uint32_t stamp = ++lr.stamp;
    stranded.clear();
    queue.assign(1, x);
    lr.in_d[x] = stamp;
    for (std::size_t h = 0; h < queue.size(); ++h) {
        const NodeId s = queue[h];
        for (std::uint32_t j = t.up_begin[s]; j < t.up_begin[s + 1]; ++j) {
            const NodeId p = lr.up_peer[j];
            if (lr.in_d[p] != stamp) {
                lr.in_d[p] = stamp;
                queue.push_back(p);
            }
        }
    }
    // Top level first, so every parent is settled before its children.
    for (std::size_t k = t.by_level.size(); k-- > 0;) {
        const NodeId s = t.by_level[k];
        PortNum out = kNoPath;
        std::uint32_t hops = kFar;
        if (s == x) {
            out = 0;
            hops = 0;
        } else if (lr.in_d[s] == stamp) {
            // Every down path into X from here has level[s] - level[X] hops: spread.
            std::uint32_t n = 0;
            for (std::uint32_t j = t.down_begin[s]; j < t.down_begin[s + 1]; ++j)
                n += lr.in_d[lr.down_peer[j]] == stamp;
            std::uint32_t pick = base % n;
            for (std::uint32_t j = t.down_begin[s]; out == kNoPath; ++j)
                if (lr.in_d[lr.down_peer[j]] == stamp && pick-- == 0) out = t.down_ports[j];
            hops = static_cast<std::uint32_t>(t.level[s] - t.level[x]);
        } else {
            std::uint32_t best = kFar, n = 0;
            for (std::uint32_t j = t.up_begin[s]; j < t.up_begin[s + 1]; ++j) {
                const std::uint32_t h = lr.hops[lr.up_peer[j]];
                if (h < best) {
                    best = h;
                    n = 1;
                } else if (h == best) {
                    ++n;
                }
            }
            if (best != kFar) {
                std::uint32_t pick = base % n;
                for (std::uint32_t j = t.up_begin[s]; out == kNoPath; ++j)
                    if (lr.hops[lr.up_peer[j]] == best && pick-- == 0) out = t.up_ports[j];
                hops = best + 1;
            } else if (t.level[s] == 1) {
                stranded.push_back(s);
            }
        }
        lr.hops[s] = hops;
        lr.out[s] = out;
        if (out != kNoPath) std::fill_n(r.lft[s].begin() + base, count, out);
    }
}

// Ancestors-or-self of every switch, as bitsets over the switches (by_level order).
class Ancestors {
  public:
    Ancestors(const Fabric& f, const FatTreeShape& t) : index_(f.num_nodes(), 0) {
        const std::size_t ns = t.by_level.size();
        words_ = (ns + 63) / 64;
        for (std::size_t k = 0; k < ns; ++k) index_[t.by_level[k]] = static_cast<std::uint32_t>(k);
        bits_.assign(f.num_nodes() * words_, 0);
        for (std::size_t k = ns; k-- > 0;) {
            const NodeId s = t.by_level[k];
            std::uint64_t* row = bits_.data() + std::size_t(s) * words_;
            row[k / 64] |= std::uint64_t(1) << (k % 64);
            for (std::uint32_t j = t.up_begin[s]; j < t.up_begin[s + 1]; ++j) {
                const std::uint64_t* up = this->row(f.port(s, t.up_ports[j]).peer_node);
                for (std::size_t w = 0; w < words_; ++w) row[w] |= up[w];
            }
        }
        // Diamonds, top level first: s or an ancestor has two parents with a common
        // ancestor-or-self.
        diamond_.assign(f.num_nodes(), 0);
        for (std::size_t k = ns; k-- > 0;) {
            const NodeId s = t.by_level[k];
            for (std::uint32_t i = t.up_begin[s]; i < t.up_begin[s + 1] && !diamond_[s]; ++i) {
                const NodeId p = f.port(s, t.up_ports[i]).peer_node;
                diamond_[s] = diamond_[p];
                for (std::uint32_t j = i + 1; j < t.up_begin[s + 1] && !diamond_[s]; ++j) {
                    const NodeId q = f.port(s, t.up_ports[j]).peer_node;
                    diamond_[s] = q != p && meet(p, q);
                }
            }
        }
    }
    // Whether a is an ancestor-or-self of s.
    bool has(NodeId s, NodeId a) const {
        const std::uint32_t k = index_[a];
        return row(s)[k / 64] >> (k % 64) & 1;
    }
    // Whether a proper ancestor of a is an ancestor-or-self of b.
    bool meet_above(NodeId a, NodeId b) const {
        const std::uint64_t* x = row(a);
        const std::uint64_t* y = row(b);
        const std::uint32_t k = index_[a];
        for (std::size_t w = 0; w < words_; ++w) {
            std::uint64_t both = x[w] & y[w];
            if (w == k / 64) both &= ~(std::uint64_t(1) << (k % 64));
            if (both) return true;
        }
        return false;
    }

    // Whether a packet can go up from s and come back down to s over some other link: s or
    // an ancestor has two parents with a common ancestor-or-self.
    bool diamond(NodeId s) const { return diamond_[s] != 0; }

  private:
    const std::uint64_t* row(NodeId s) const { return bits_.data() + std::size_t(s) * words_; }
    bool meet(NodeId a, NodeId b) const {
        const std::uint64_t* x = row(a);
        const std::uint64_t* y = row(b);
        for (std::size_t w = 0; w < words_; ++w)
            if (x[w] & y[w]) return true;
        return false;
    }
    std::vector<std::uint32_t> index_;
    std::size_t words_ = 0;
    std::vector<std::uint64_t> bits_;
    std::vector<char> diamond_;
};

// A down->up turn: the route enters z from y (above) and leaves up to m.
struct Turn {
    NodeId y, z, m;
};

// Whether, after the up move z -> m of turn a, legal moves alone (up*, then down*, never
// straight back over the link just taken: no route visits a switch twice) lead to the down
// move y' -> z' of turn b: then a channel dependency chain runs from turn a to turn b. Exact
// below m; through a proper ancestor of m any way down is assumed, which may see a chain that
// needs a U-turn (conservative).
bool can_follow(const Ancestors& anc, const Turn& a, const Turn& b) {
    if (b.y == a.m) return b.z != a.z || anc.diamond(a.m); // m -> z', or around and back
    if (b.y != a.z && anc.has(b.y, a.m)) return true;      // down from m to y'
    return anc.meet_above(a.m, b.y);                       // up from m, then down to y'
}

// The admitted turns and the edges "can be followed by" between them, kept acyclic: a credit
// loop needs a cycle of turns (header, step 2).
class TurnGraph {
  public:
    explicit TurnGraph(const Ancestors& anc) : anc_(anc) {}
    static std::uint64_t key(PortId into_z, PortId out_of_z) {
        return std::uint64_t(into_z) << 32 | out_of_z;
    }
    bool contains(std::uint64_t k) const { return keys_.count(k) != 0; }
    std::size_t size() const { return turns_.size(); }

    // Marks the admitted turns that can follow a turn whose up move is first.z -> first.m.
    void reachable_after(const Turn& first, std::vector<char>& reached) {
        reached.assign(turns_.size(), 0);
        stack_.clear();
        for (std::uint32_t i = 0; i < turns_.size(); ++i)
            if (can_follow(anc_, first, turns_[i])) {
                reached[i] = 1;
                stack_.push_back(i);
            }
        while (!stack_.empty()) {
            const std::uint32_t i = stack_.back();
            stack_.pop_back();
            for (std::uint32_t j : next_[i])
                if (!reached[j]) {
                    reached[j] = 1;
                    stack_.push_back(j);
                }
        }
    }
    // Whether admitting n closes a cycle; `reached` = reachable_after(n) (it depends only on
    // n.z and n.m, so callers share it between turns into the same z).
    bool closes_cycle(const Turn& n, const std::vector<char>& reached) const {
        if (can_follow(anc_, n, n)) return true;
        for (std::uint32_t i = 0; i < turns_.size(); ++i)
            if (reached[i] && can_follow(anc_, turns_[i], n)) return true;
        return false;
    }
    // Admits n, which closes no cycle (closes_cycle said so).
    void admit(std::uint64_t k, const Turn& n) {
        const auto i = static_cast<std::uint32_t>(turns_.size());
        next_.emplace_back();
        for (std::uint32_t j = 0; j < i; ++j) {
            if (can_follow(anc_, n, turns_[j])) next_[i].push_back(j);
            if (can_follow(anc_, turns_[j], n)) next_[j].push_back(i);
        }
        turns_.push_back(n);
        keys_.insert(k);
    }

  private:
    const Ancestors& anc_;
    std::vector<Turn> turns_;
    std::unordered_set<std::uint64_t> keys_;
    std::vector<std::vector<std::uint32_t>> next_;
    std::vector<std::uint32_t> stack_;
};

// Step 2 of the header: a route for each leaf without a legal one, found by a breadth-first
// search over (switch, going up / going down) from the leaf: up*, then down*, ending either in
// an admissible turn into a switch with a legal route or on the route of an earlier leaf
// (entered from below, or from above where that route still goes down). Fewest hops first,
// then no new turn; the search stops once no shorter route can be found, so it stays near the
// leaf.
class TurnRoutes {
  public:
    TurnRoutes(const Fabric& f, const FatTreeShape& t)
        : f_(f), t_(t), anc_(f, t), turns_(anc_), seen_(2 * f.num_nodes(), 0),
          from_(2 * f.num_nodes()), dist_(2 * f.num_nodes(), 0), on_route_(f.num_nodes(), 0),
          goes_down_(f.num_nodes(), 0), remaining_(f.num_nodes(), 0), after_at_(f.num_nodes(), 0),
          after_(f.num_nodes()) {}

    // False when some stranded leaf has neither a route nor an admissible turn toward x.
    bool route(const LegalRoutes& lr, const std::vector<NodeId>& stranded, Lid base, unsigned count,
               Routing& r) {
        ++lid_;
        ++version_; // the legal entries, hence the m of every turn, differ per LID
        for (NodeId leaf : stranded) {
            const End end = search(leaf, lr);
            if (end.total == kFar) return false;
            commit(end, lr, base, count, r);
        }
        return true;
    }

  private:
    enum : std::uint32_t { kUp = 0, kDown = 1 }; // state = 2 * node + phase

    struct End {
        std::uint32_t total = kFar, cost = kFar;
        std::uint32_t state = 0; // the last state of the search
        PortNum port = 0;        // where it leaves
        bool turn = false;       // into a switch with a legal route (else onto a route)
    };

    // Whether turn n (y -> z, z -> its legal entry) closes no cycle with the admitted ones.
    bool admissible(const Turn& n) {
        if (after_at_[n.z] != version_) { // reachable_after depends on z and m only
            after_at_[n.z] = version_;
            turns_.reachable_after(n, after_[n.z]);
        }
        return !turns_.closes_cycle(n, after_[n.z]);
    }

    End search(NodeId leaf, const LegalRoutes& lr) {
        const FatTreeShape& t = t_;
        ++search_;
        End best;
        auto offer = [&](std::uint32_t total, std::uint32_t cost, std::uint32_t state, PortNum port,
                         bool turn) {
            if (total < best.total || (total == best.total && cost < best.cost))
                best = {total, cost, state, port, turn};
        };
        auto visit = [&](std::uint32_t state, std::uint32_t prev, PortNum port, std::uint32_t d) {
            if (seen_[state] == search_) return;
            // Down through a switch already passed going up would be a loop.
            if (state % 2 == kDown && seen_[state - 1] == search_) return;
            seen_[state] = search_;
            from_[state] = {prev, port};
            dist_[state] = d;
            next_.push_back(state);
        };
        next_.clear();
        visit(2 * leaf + kUp, 0, 0, 0);
        // Every end costs at least 2 more hops (a turn, then at least one hop to X).
        for (std::uint32_t d = 0; d + 2 <= best.total && !next_.empty(); ++d) {
            layer_.swap(next_);
            next_.clear();
            const bool grow = d + 3 <= best.total;
            for (const std::uint32_t state : layer_) {
                const NodeId s = state / 2;
                if (state % 2 == kUp)
                    for (std::uint32_t j = t.up_begin[s]; j < t.up_begin[s + 1]; ++j) {
                        const NodeId p = lr.up_peer[j]; // no legal route there either
                        if (on_route_[p] == lid_)
                            offer(d + 1 + remaining_[p], 0, state, t.up_ports[j], false);
                        else if (grow)
                            visit(2 * p + kUp, state, t.up_ports[j], d + 1);
                    }
                for (std::uint32_t j = t.down_begin[s]; j < t.down_begin[s + 1]; ++j) {
                    const NodeId c = lr.down_peer[j];
                    if (!f_.node(c).is_switch()) continue;
                    if (lr.routed(c)) {
                        // A turn admitted already costs 0, a new one 1 (it constrains later
                        // LIDs); the cycle test runs only for a strictly shorter route.
                        const std::uint32_t total = d + 1 + lr.hops[c];
                        if (total > best.total || (total == best.total && best.cost == 0)) continue;
                        const PortNum port = t.down_ports[j];
                        if (turns_.contains(
                                TurnGraph::key(f_.port_id(s, port), f_.port_id(c, lr.out[c]))))
                            offer(total, 0, state, port, true);
                        else if (total < best.total &&
                                 admissible(Turn{s, c, f_.port(c, lr.out[c]).peer_node}))
                            offer(total, 1, state, port, true);
                    } else if (on_route_[c] == lid_) {
                        if (goes_down_[c]) // else entering it from above is a second turn
                            offer(d + 1 + remaining_[c], 0, state, t.down_ports[j], false);
                    } else if (grow) {
                        visit(2 * c + kDown, state, t.down_ports[j], d + 1);
                    }
                }
            }
        }
        return best;
    }

    // Writes the route that `end` closes, from its last switch back to the leaf, and admits
    // its turn.
    void commit(const End& end, const LegalRoutes& lr, Lid base, unsigned count, Routing& r) {
        if (end.turn) {
            const NodeId y = end.state / 2;
            const NodeId z = f_.port(y, end.port).peer_node;
            turns_.admit(TurnGraph::key(f_.port_id(y, end.port), f_.port_id(z, lr.out[z])),
                         Turn{y, z, f_.port(z, lr.out[z]).peer_node});
            ++version_;
        }
        std::uint32_t state = end.state;
        PortNum port = end.port;
        for (;;) {
            const NodeId s = state / 2;
            on_route_[s] = lid_;
            goes_down_[s] = t_.level[f_.port(s, port).peer_node] < t_.level[s];
            remaining_[s] = end.total - dist_[state];
            std::fill_n(r.lft[s].begin() + base, count, port);
            const auto [prev, in_port] = from_[state];
            if (in_port == 0) return; // the leaf
            state = prev;
            port = in_port;
        }
    }

    const Fabric& f_;
    const FatTreeShape& t_;
    Ancestors anc_;
    TurnGraph turns_;
    std::uint32_t lid_ = 0, search_ = 0, version_ = 1;
    std::vector<std::uint32_t> seen_;                     // per state: == search_ if visited
    std::vector<std::pair<std::uint32_t, PortNum>> from_; // per state: previous state, port
    std::vector<std::uint32_t> dist_;                     // per state: hops from the leaf
    std::vector<std::uint32_t> layer_, next_;
    std::vector<std::uint32_t> on_route_;  // per node: == lid_ if on a route of this LID
    std::vector<char> goes_down_;          // its entry is a down port
    std::vector<std::uint32_t> remaining_; // its hops to X
    std::vector<std::uint32_t> after_at_;  // == version_: after_[z] is current (same LID,
                                           // no turn admitted since)
    std::vector<std::vector<char>> after_; // per z: TurnGraph::reachable_after
};

} // namespace

std::vector<Lid> route_switch_lids(const Fabric& f, const FatTreeShape& t, Routing& r) {
    const std::size_t nn = f.num_nodes();
    LegalRoutes lr;
    lr.in_d.assign(nn, 0);
    lr.hops.assign(nn, kFar);
    lr.out.assign(nn, kNoPath);
    lr.up_peer.resize(t.up_ports.size());
    lr.down_peer.resize(t.down_ports.size());
    for (NodeId s : t.by_level) {
        for (std::uint32_t j = t.up_begin[s]; j < t.up_begin[s + 1]; ++j)
            lr.up_peer[j] = f.port(s, t.up_ports[j]).peer_node;
        for (std::uint32_t j = t.down_begin[s]; j < t.down_begin[s + 1]; ++j)
            lr.down_peer[j] = f.port(s, t.down_ports[j]).peer_node;
    }
    std::vector<NodeId> stranded, queue;
    std::vector<Lid> escape;
    std::optional<TurnRoutes> turns; // only when some leaf needs a turn
    for (NodeId x : f.switches()) {
        const PortId p0 = f.port_id(x, 0);
        if (!r.lids.has_lid(p0)) continue;
        const Lid base = r.lids.base(p0);
        const unsigned count = 1u << r.lids.lmc(p0);
        legal_routes(t, x, base, count, lr, stranded, queue, r);
        if (stranded.empty()) continue;
        if (!turns) turns.emplace(f, t);
        if (!turns->route(lr, stranded, base, count, r))
            for (unsigned o = 0; o < count; ++o) escape.push_back(Lid(base + o));
    }
    return escape;
}

} // namespace ibrt::fattree
