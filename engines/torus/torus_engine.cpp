// The torus engine (issue 13; paper 003 §1.1, §3.2): DOR on 2D, 3D and 4D tori with one
// dateline bit per dimension in the path SL, coordinates from the mapping alone, routes around
// failed links and a failed switch (dor_routes.hpp), and an escape VL for what those cannot
// serve deadlock-free (issue 37; below).
//
// Why the SL2VL tables below are free of credit loops. A hop in dimension d takes VL bit 0 =
// SL bit d, where SL bit d says whether the packet's route crosses the dateline of d (the link
// between coordinates K-1 and 0) on an intact ring: determined at the source and carried in the
// SL, as §3.2 says it must be, since a switch cannot tell from the DLID where a packet came
// from. SL2VL is by (in port, out port, SL), so the switch looks up the out port's dimension.
//   - Across dimensions: DOR uses dimensions in increasing order, so every dependency goes from
//     a channel of dimension d to one of a higher dimension or to d itself.
//   - Within an intact ring of K >= 4 (one direction; a packet never reverses): packets on VL 0
//     never cross the dateline, so their channels form a path, not a ring. Packets on VL 1 all
//     cross it, each on the shorter way round, an arc of at most K/2 links through the
//     dateline; two consecutive channels half-way round, c_j -> c_j+1 with j = K/2 - 1, both
//     lie on such an arc only if it is longer than K/2, so the VL 1 channels form a path too.
//     Hence 2 VLs; the bit is not "before/after the dateline" (a switch cannot know that), it is
//     "this packet's arc contains the dateline", constant along the arc.
//   - A ring of 2 or 3 is crossed in one hop: no dependency within it, no dateline bit, and a
//     torus of only such rings needs 1 VL.
//   - A ring that lost a link or a switch is a path: no cycle within it whatever the VLs, so
//     its hops keep the pristine SL bit (the SL of a path does not change when it has to take
//     the long way round).
//   - A detour around a failed switch needs a turn from a higher to a lower dimension. As in
//     torus-2QoS, the hop after such a turn gets VL bit 1 (VL 2, 3; VL 1 when no ring needs a
//     dateline): those channels have no dependency from lower dimensions, and a credit loop
//     through them would have to encircle the failed switch.
// The last argument depends on where the failures are, so the engine builds the channel
// dependency graph of its own routes (one channel per switch pair and VL, which covers every
// parallel cable: a cycle over cables is one over switch pairs).
//
// What the scheme cannot serve goes on the escape layer (common/escape_layer.hpp, issue 37):
// a destination switch DOR has no route to from some switch (a ring cut in two with no later
// dimension to detour through), one whose detours loop, and, when the dependency graph of all
// routes has a cycle, the destinations that close one: their dependencies are added one
// destination at a time (those with fewer detour turns first) to a graph kept acyclic
// (AcyclicChannels below), and a destination whose dependencies would close a cycle is
// escaped instead. Every LID of an escaped switch (its own, its CAs') is then routed by
// Up*/Down* on the lowest SL no torus path uses (2^dateline dimensions: 8 on a 3D torus of
// rings >= 4; never 15) and a VL above every torus VL. The torus VLs carry only the routes
// left, acyclic by construction, the escape VL only Up*/Down*, acyclic on its own, and a
// packet's SL keeps it in one of the two: no credit loop (Dally & Seitz 1987). The engine
// declines only when the switches are not connected, no SL is left (a 4D torus of rings >= 4
// uses all 16), or the ports have fewer data VLs than the result asks (engine.hpp).
//
// LFTs: per destination switch every switch's next hop (dor_routes.hpp), and among parallel
// cables the DLID modulo the bundle size (LIDs of one switch's CAs are consecutive, so each
// switch spreads destinations evenly). Path SLs are one row per ingress switch.
#include "engines/common/escape_layer.hpp"
#include "engines/direct/direct_lids.hpp"
#include "engines/direct/distance_based.hpp"
#include "engines/direct/neighbor_ports.hpp"
#include "engines/engine.hpp"
#include "engines/torus/dor_routes.hpp"
#include "engines/torus/torus_grid.hpp"
#include "fabric/display_name.hpp"
#include "fabric/end_ports.hpp"
#include "graph/channel_dependency.hpp"
#include "mapping/link_classes.hpp"
#include "mapping/map_fabric.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <string>

namespace ibrt {
namespace {

using torus::DorRouter;
using torus::TorusGrid;

// Channel dependencies kept acyclic, a destination's at a time: like direct::DependencyLayer,
// but one search per destination instead of one per new dependency (a torus of 2,048 switches
// adds about a million). The graph before was acyclic, so a cycle now runs through a new
// dependency, hence through the channel it leads to: one depth-first search from those finds
// it (a grey channel met again) or proves there is none.
class AcyclicChannels {
  public:
    explicit AcyclicChannels(std::size_t channels) : out_(channels), mark_(channels, 0) {}
    // Adds every a -> b of `deps`; false (and nothing added) when they close a cycle.
    bool add(std::span<const std::pair<std::uint32_t, std::uint32_t>> deps) {
        added_.clear();
        for (const auto& [a, b] : deps) {
            auto& o = out_[a];
            if (std::find(o.begin(), o.end(), b) != o.end()) continue;
            o.push_back(b);
            added_.push_back(a);
        }
        if (added_.empty()) return true;
        stamp_ += 2; // mark_ == stamp_ - 1: on the search path (grey); == stamp_: done
        for (const std::uint32_t a : added_)
            if (!search(out_[a].back())) {
                for (auto it = added_.rbegin(); it != added_.rend(); ++it) out_[*it].pop_back();
                return false;
            }
        return true;
    }
    std::size_t dependencies() const {
        std::size_t n = 0;
        for (const auto& o : out_) n += o.size();
        return n;
    }

  private:
    // false when a cycle is reachable from `root`.
    bool search(std::uint32_t root) {
        if (mark_[root] == stamp_) return true;
        const std::uint32_t grey = stamp_ - 1;
        stack_.assign(1, {root, 0});
        mark_[root] = grey;
        while (!stack_.empty()) {
            auto& [v, i] = stack_.back();
            if (i == out_[v].size()) {
                mark_[v] = stamp_;
                stack_.pop_back();
                continue;
            }
            const std::uint32_t w = out_[v][i++];
            if (mark_[w] == grey) return false;
            if (mark_[w] != stamp_) {
                mark_[w] = grey;
                stack_.push_back({w, 0});
            }
        }
        return true;
    }
    std::vector<std::vector<std::uint32_t>> out_;
    std::vector<std::uint32_t> mark_, added_;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> stack_;
    std::uint32_t stamp_ = 0;
};

// The VLs of the scheme in the header: by the dimensions of the in and out ports (-1: port 0
// or an end port) and the SL.
struct VlRule {
    std::vector<int> sl_bit;  // per dimension: its dateline bit in the SL, -1 for rings <= 3
    std::uint8_t turn_vl = 0; // added on a hop after a turn to a lower dimension
    std::uint8_t operator()(int in_dim, int out_dim, std::uint8_t sl) const {
        if (out_dim < 0) return 0;
        const int b = sl_bit[out_dim];
        std::uint8_t v = b >= 0 ? static_cast<std::uint8_t>(sl >> b & 1) : 0;
        if (in_dim > out_dim) v |= turn_vl;
        return v;
    }
};

class TorusEngine final : public Engine {
  public:
    std::string_view name() const override { return "torus"; }
    std::span<const EngineParam> params() const override { return direct::kDistanceParams; }

  protected:
    Routing compute(const Fabric& f, const Lids* preassigned,
                    const EngineOptions& opt) const override;
};

Routing TorusEngine::compute(const Fabric& f, const Lids* preassigned,
                             const EngineOptions& opt) const {
    const mapping::SwitchLinks links = mapping::switch_links(f);
    const mapping::Shape shape = mapping::map_fabric(f, links, mapping::link_classes(links));
    const TorusGrid g = TorusGrid::build(f, links, shape);
    const DorRouter router(g);
    const int nd = g.dims();
    const std::size_t n = g.num_switches();

    Routing r;
    r.lids = direct::direct_lids(f, preassigned, opt, "torus", r.lmc);
    const Lid max_lid = r.lids.max_lid();
    const std::size_t width = std::size_t(max_lid) + 1;

    // Each switch's destinations: (LID, port the switch delivers it on).
    struct Dest {
        Lid lid;
        PortNum port;
    };
    std::vector<std::uint32_t> dest_start(n + 1, 0);
    std::vector<Dest> dests;
    {
        const std::vector<direct::LidTarget> target = direct::lid_targets(f, links, r.lids);
        for (Lid l = 1; l <= max_lid; ++l)
            if (target[l].sw != mapping::kNone) ++dest_start[target[l].sw + 1];
        for (std::size_t s = 0; s < n; ++s) dest_start[s + 1] += dest_start[s];
        dests.resize(dest_start[n]);
        std::vector<std::uint32_t> fill(dest_start.begin(), dest_start.end() - 1);
        for (Lid l = 1; l <= max_lid; ++l)
            if (target[l].sw != mapping::kNone) dests[fill[target[l].sw]++] = {l, target[l].port};
    }

    VlRule vl;
    vl.sl_bit.assign(nd, -1);
    int dateline_dims = 0;
    for (int d = 0; d < nd; ++d)
        if (g.k(d) > 3) vl.sl_bit[d] = dateline_dims++;
    vl.turn_vl = dateline_dims ? 2 : 1;
    const auto sl_of_mask = [&](std::uint32_t mask) {
        std::uint8_t sl = 0;
        for (int d = 0; d < nd; ++d)
            if (vl.sl_bit[d] >= 0 && (mask >> d & 1)) sl |= std::uint8_t(1u << vl.sl_bit[d]);
        return sl;
    };

    r.lft.assign(f.num_nodes(), {});
    for (NodeId s : f.switches()) r.lft[s].assign(width, kNoPath);
    // Every switch's next hop and path SL toward every destination switch, by destination.
    std::vector<std::uint8_t> code_all(n * n), sl_all(n * n);
    // Destination switches whose DOR routes are blocked, loop or would close a credit loop:
    // every LID of theirs goes on the escape layer (the header), by reason.
    std::vector<std::uint8_t> escaped(n, 0);
    std::size_t escaped_blocked = 0, escaped_looping = 0, escaped_credit = 0;
    std::string first_blocked; // what the decline says when the escape layer cannot help

    std::vector<std::uint8_t> code(n), state(n);
    std::vector<std::uint32_t> cross(n), has(n), stack;
    std::vector<std::uint8_t> sl(n);
    // Walk stamps by (switch, incoming dimension and direction, VL), per destination and SL.
    const std::size_t keys_per_switch = std::size_t(nd) * 2 * 4;
    std::vector<std::uint32_t> stamp(n * keys_per_switch, 0);
    std::uint32_t epoch = 0;
    std::array<std::vector<std::uint32_t>, 16> by_sl;
    // Per destination: the detour turns of its routes and the highest VL they use.
    std::vector<std::uint32_t> turns_to(n, 0);
    std::vector<std::uint8_t> max_vl_to(n, 0);
    const auto next_switch = [&](std::uint32_t x, std::uint8_t c) {
        return g.neighbour(x, torus::hop_dim(c), torus::hop_dir(c));
    };
    const auto first_port = [&](std::uint32_t x, std::uint8_t c) {
        return g.ports(x, torus::hop_dim(c), torus::hop_dir(c))[0];
    };

    // The channel dependencies of the routes toward dst (code_all, sl_all), one channel per
    // switch pair and VL: dep(node, in port, in VL, out port, out VL, in channel, out channel)
    // with channels numbered by sending port and VL. The walks from the sources of one SL share
    // stamps (SL2VL depends on the SL).
    const auto walk = [&](std::uint32_t dst, auto&& dep) {
        const std::uint8_t* cd = code_all.data() + std::size_t(dst) * n;
        const std::uint8_t* sd = sl_all.data() + std::size_t(dst) * n;
        for (auto& b : by_sl) b.clear();
        for (std::uint32_t x = 0; x < n; ++x)
            if (x != dst) by_sl[sd[x]].push_back(x);
        std::uint8_t top = 0;
        for (std::uint8_t s = 0; s < 16; ++s) {
            if (by_sl[s].empty()) continue;
            ++epoch;
            for (const std::uint32_t x : by_sl[s]) {
                std::uint8_t c = cd[x];
                std::uint8_t v = vl(-1, torus::hop_dim(c), s);
                top = std::max(top, v);
                std::uint32_t at = x;
                for (;;) {
                    const int d = torus::hop_dim(c), dir = torus::hop_dir(c);
                    const std::uint32_t y = g.neighbour(at, d, dir);
                    const std::uint8_t cy = cd[y];
                    if (cy == torus::kArrived) break;
                    std::uint32_t& st = stamp[std::size_t(y) * keys_per_switch + c * 4u + v];
                    if (st == epoch) break;
                    st = epoch;
                    const std::uint8_t w = vl(d, torus::hop_dim(cy), s);
                    top = std::max(top, w);
                    const PortNum out = first_port(y, cy);
                    dep(g.node(y), g.entry_port(at, d, dir), v, out, w,
                        std::uint32_t(f.port_id(g.node(at), first_port(at, c))) * 4 + v,
                        std::uint32_t(f.port_id(g.node(y), out)) * 4 + w);
                    at = y;
                    c = cy;
                    v = w;
                }
            }
        }
        return top;
    };

    graph::ChannelDependencies deps(f, dateline_dims ? 4 : 2);
    for (std::uint32_t dst = 0; dst < n; ++dst) {
        for (std::uint32_t x = 0; x < n; ++x) code[x] = router.next(x, dst);
        // Resolve every switch's route: no dead end, no forwarding loop; crossings on the way.
        // A destination some switch has no route to, or whose detours loop, is escaped.
        std::fill(state.begin(), state.end(), 0);
        for (std::uint32_t x0 = 0; x0 < n && !escaped[dst]; ++x0) {
            if (state[x0]) continue;
            stack.clear();
            std::uint32_t cur = x0;
            while (state[cur] == 0) {
                state[cur] = 1;
                stack.push_back(cur);
                if (code[cur] == torus::kArrived || code[cur] == torus::kBlocked) break;
                cur = next_switch(cur, code[cur]);
            }
            if (code[cur] == torus::kBlocked) {
                escaped[dst] = 1;
                ++escaped_blocked;
                if (first_blocked.empty())
                    first_blocked = fmt::format(
                        "no route from {} to {}: a ring on the way is cut into disjoint pieces "
                        "and no later dimension is left to detour through",
                        display_name(f, g.node(cur)), display_name(f, g.node(dst)));
                break;
            }
            if (state[cur] == 1 && code[cur] != torus::kArrived) {
                escaped[dst] = 1;
                ++escaped_looping;
                if (first_blocked.empty())
                    first_blocked =
                        fmt::format("the detours toward {} loop through {}",
                                    display_name(f, g.node(dst)), display_name(f, g.node(cur)));
                break;
            }
            for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
                const std::uint32_t x = *it;
                state[x] = 2;
                if (code[x] == torus::kArrived) {
                    cross[x] = has[x] = 0;
                    continue;
                }
                const int d = torus::hop_dim(code[x]);
                const std::uint32_t y = next_switch(x, code[x]);
                cross[x] = cross[y];
                has[x] = has[y];
                if (g.intact(x, d)) {
                    has[x] |= 1u << d;
                    if (router.crosses(d, g.coord(x, d), torus::hop_dir(code[x])))
                        cross[x] |= 1u << d;
                }
                if (code[y] != torus::kArrived && torus::hop_dim(code[y]) < d) ++turns_to[dst];
            }
        }
        if (escaped[dst]) continue;
        for (std::uint32_t x = 0; x < n; ++x)
            sl[x] = sl_of_mask((cross[x] & has[x]) | router.pristine_crossings(x, dst, has[x]));

        std::copy(code.begin(), code.end(), code_all.begin() + std::size_t(dst) * n);
        std::copy(sl.begin(), sl.end(), sl_all.begin() + std::size_t(dst) * n);
        max_vl_to[dst] =
            walk(dst, [&](NodeId y, PortNum in, unsigned v, PortNum out, unsigned w, std::uint32_t,
                          std::uint32_t) { deps.add(y, in, v, out, w); });
    }

    graph::CreditLoops loops = std::move(deps).find_loops();
    std::size_t dependencies = loops.dependencies;
    if (!loops.loops.empty()) {
        // The routes close a credit loop. Add the destinations' dependencies one at a time to
        // a graph kept acyclic, those with fewer detour turns first (the scheme's argument
        // covers routes without turns; the loops run through turns), and escape every destination
        // whose dependencies would close a cycle: the routes that stay have acyclic dependencies by
        // construction.
        std::vector<std::uint32_t> order;
        for (std::uint32_t dst = 0; dst < n; ++dst)
            if (!escaped[dst]) order.push_back(dst);
        std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
            return turns_to[a] < turns_to[b];
        });
        AcyclicChannels layer(f.num_port_slots() * std::size_t(4));
        std::vector<std::pair<std::uint32_t, std::uint32_t>> mine;
        for (const std::uint32_t dst : order) {
            mine.clear();
            walk(dst, [&](NodeId, PortNum, unsigned, PortNum, unsigned, std::uint32_t a,
                          std::uint32_t b) { mine.emplace_back(a, b); });
            if (layer.add(mine)) continue;
            escaped[dst] = 1;
            ++escaped_credit;
        }
        dependencies = layer.dependencies();
    }
    std::uint64_t turns = 0;
    unsigned max_vl = 0;
    for (std::uint32_t dst = 0; dst < n; ++dst)
        if (!escaped[dst]) {
            turns += turns_to[dst];
            max_vl = std::max<unsigned>(max_vl, max_vl_to[dst]);
        }

    // LFTs and path SLs (one row per ingress switch), a switch at a time.
    r.path_sls = PathSlTable(f.num_port_slots(), max_lid);
    std::vector<std::uint8_t> row(width, 0);
    // lid_mod[(w - 1) * width + lid] = lid mod w: the cable of a bundle of w that takes lid.
    std::size_t widest = 1;
    for (std::uint32_t x = 0; x < n; ++x)
        for (int d = 0; d < nd; ++d)
            for (int dir : {torus::kPlus, torus::kMinus})
                widest = std::max(widest, g.ports(x, d, dir).size());
    std::vector<std::uint8_t> lid_mod(widest * width);
    for (std::size_t w = 1; w <= widest; ++w)
        for (std::size_t l = 0; l < width; ++l)
            lid_mod[(w - 1) * width + l] = static_cast<std::uint8_t>(l % w);
    for (std::uint32_t x = 0; x < n; ++x) {
        Lft& lft = r.lft[g.node(x)];
        for (std::uint32_t dst = 0; dst < n; ++dst) {
            if (escaped[dst]) continue; // the escape layer sets its LIDs' entries and SLs
            const std::span<const Dest> here(dests.data() + dest_start[dst],
                                             dests.data() + dest_start[dst + 1]);
            const std::uint8_t c = code_all[std::size_t(dst) * n + x];
            if (c == torus::kArrived) {
                for (const Dest& e : here) {
                    lft[e.lid] = e.port;
                    row[e.lid] = 0;
                }
                continue;
            }
            const auto ports = g.ports(x, torus::hop_dim(c), torus::hop_dir(c));
            const std::uint8_t* mod = lid_mod.data() + (ports.size() - 1) * width;
            const std::uint8_t s = sl_all[std::size_t(dst) * n + x];
            for (const Dest& e : here) {
                lft[e.lid] = ports[mod[e.lid]];
                row[e.lid] = s;
            }
        }
        r.path_sls.set_switch_row(f, g.node(x), row);
    }
    code_all = {};
    sl_all = {};

    // SL2VL: switches by the dimensions of in and out port; end ports VL 0.
    if (!turns) vl.turn_vl = 0;
    // One table per (in dimension, out dimension), -1 as nd: end ports and port 0.
    std::vector<Sl2VlTable> by_dims(std::size_t(nd + 1) * (nd + 1));
    for (int a = -1; a < nd; ++a)
        for (int b = -1; b < nd; ++b)
            for (std::uint8_t s = 0; s < 16; ++s)
                by_dims[std::size_t(a + 1) * (nd + 1) + (b + 1)][s] = vl(a, b, s);
    r.sl2vl.tables.assign(f.num_nodes(), {});
    for (NodeId v = 0; v < f.num_nodes(); ++v) {
        const PortNum np = f.node(v).num_ports;
        auto& t = r.sl2vl.tables[v];
        t.assign(Sl2Vl::size(np), Sl2VlTable{});
        if (!f.node(v).is_switch()) continue;
        for (PortNum in = 0; in <= np; ++in) {
            const int a = in ? g.port_dim(v, in) : -1;
            for (PortNum out = 1; out <= np; ++out)
                t[Sl2Vl::index(np, in, out)] =
                    by_dims[std::size_t(a + 1) * (nd + 1) + (g.port_dim(v, out) + 1)];
        }
    }
    r.data_vls = static_cast<std::uint8_t>(max_vl >= 2 ? 4 : max_vl + 1);

    std::vector<Lid> escape_lids;
    for (std::uint32_t dst = 0; dst < n; ++dst)
        if (escaped[dst])
            for (std::uint32_t i = dest_start[dst]; i < dest_start[dst + 1]; ++i)
                escape_lids.push_back(dests[i].lid);
    r.stats = {{"dimensions", nd},
               {"dateline_dimensions", dateline_dims},
               {"missing_switches", double(g.missing_switches())},
               {"broken_rings", double(g.broken_lines())},
               {"detour_turns", double(turns)},
               {"channel_dependencies", double(dependencies)},
               {"escaped_blocked", double(escaped_blocked)},
               {"escaped_looping", double(escaped_looping)},
               {"escaped_credit_loop", double(escaped_credit)}};
    if (!escape_lids.empty()) {
        // The lowest SL no path uses (the dateline bits take 0 .. 2^dateline_dims - 1), never
        // 15; the VL above every one the torus's routes use.
        const std::uint16_t used = r.path_sls.sl_mask();
        std::uint8_t esl = 0;
        while (esl < 15 && (used >> esl & 1)) ++esl;
        if (esl == 15)
            throw RoutingError(fmt::format(
                "torus: {} destination switch(es) need the escape VL ({}{}), but the torus's "
                "paths use every SL 0-14: no SL is left for it",
                escaped_blocked + escaped_looping + escaped_credit, first_blocked,
                first_blocked.empty() ? "their routes close a credit loop" : ""));
        const std::uint8_t evl = static_cast<std::uint8_t>(max_vl + 1);
        escape::route_on_escape_layer(f, {}, escape_lids, {.sl = esl, .vl = evl, .what = "torus"},
                                      r);
        // Ports run 1, 2, 4 or 8 data VLs (OperVLs): ask for the count that holds them all.
        r.data_vls = static_cast<std::uint8_t>(std::bit_ceil(unsigned(evl) + 1));
        r.stats.emplace_back("escape_sl", esl);
        r.stats.emplace_back("escape_vl", evl);
    }
    r.stats.emplace_back("data_vls", r.data_vls);
    direct::add_adaptive_sets(*this, opt, f, r);
    return r;
}

} // namespace

std::unique_ptr<Engine> make_torus_engine() {
    return std::make_unique<TorusEngine>();
}

} // namespace ibrt
