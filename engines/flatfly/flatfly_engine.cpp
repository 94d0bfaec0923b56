// The `flatfly` engine: dimension-order routing on a FlatFly / HyperX / hypercube (paper 003
// §3.3, §3.4), mapped from the cabling alone (mapping/map_fabric.hpp, §2.1).
//
// DOR: at switch x, toward destination switch y, correct the first dimension d where x and y
// differ by the direct link to t = x with x_d := y_d. Every dimension is a complete graph, so
// a path takes at most one hop per dimension and dimensions are crossed in increasing order:
// the channel dependencies go from dimension d to higher ones only, and DOR is deadlock-free
// on one VL. Parallel cables of a dimension (L_n > 1) are used in balance: destination LIDs
// are spread over them.
//
// Missing links (ADOR's extra hop, §3.3): when the link x-t is missing, the packet takes a
// detour through a switch z of the same row (z differs from x and t only in dimension d) that
// is cabled to both. The extra hop is the second in dimension d, and §3.3's SL2VL rule
// separates it: VL 0 when the input port is a host's or in another dimension than the output
// port, VL 1 when both are in the same dimension. Channels are then ordered by (dimension,
// VL) along every path, so two VLs keep it deadlock-free. The rule depends only on (in port,
// out port), which is what an SL2VL table can express; every path SL is 0. Detours are chosen
// per (x, y) and spread over the candidate switches by destination.
//
// Mixed DOR (§3.3): four dimension orders, (1,2,3,4), (2,4,1,3), (3,1,4,2), (4,3,2,1) for
// N = 4 (for other N: identity, reverse and the two rotations by one), each on its own pair
// of VLs: the path SL selects the order and the VL is 2 SL (+1 for a detour hop). Since the
// LFT is per destination, the order must be a function of the destination: §3.3 takes the
// index of the destination host within its switch mod 4 (`orders=mixed`). `orders=auto` (the
// default) routes every destination in the first order that reaches it from every switch, so
// a pristine or mildly damaged fabric needs one or two VLs and a damaged one falls back to
// another order instead of failing (a missing switch blocks DOR in one order, rarely in all).
// `orders=auto` tries identity, reverse, then every rotation of the identity (for N = 4: the
// paper's four, then the rotations), so that each dimension leads one order: a destination
// next to a missing switch across dimension d is reached from every switch only in an order
// that corrects d first (on a hypercube, with no detour within a dimension, that is the only
// way round a missing switch; an 8D hypercube's eight orders fit its ports' eight VLs, as it
// has no detour VLs). Each further order costs VLs, the engine declines when the ports lack
// them, and at most 16 orders are tried (the SL has 4 bits).
// `orders=dor` uses the first order only. Where no allowed order reaches a destination switch
// from every switch (a damaged fabric), its LIDs go on the escape layer (issue 37;
// engines/common/escape_layer.hpp): Up*/Down* on the lowest SL no order or layer uses and the
// VL after theirs; the engine declines only when the ports have too few data VLs for that,
// saying how many it needs, or when the switches are not connected.
//
// Missing hypercube links (past the paper): a dimension of two switches has no switch to
// detour through, so no order joins the ends of its missing link. There x steps first into a
// later dimension j of the order, to a switch z whose link across d is there (to y's
// coordinate in j where y differs there, as short as DOR; else the path comes back across j
// later, two hops more). That step leaves the order, so DOR's argument no longer covers those
// paths: each (source switch, destination) path through such a step goes on the first of
// further VL layers whose channel dependencies stay acyclic with it (DFSSSP's way;
// engines/direct/dependency_layer.hpp), every hop on the layer's VL, selected by path SL. A few
// missing links need one layer; the engine declines beyond 8 VLs in all.
#include "engines/common/escape_layer.hpp"
#include "engines/direct/dependency_layer.hpp"
#include "engines/direct/direct_lids.hpp"
#include "engines/direct/distance_based.hpp"
#include "engines/direct/neighbor_ports.hpp"
#include "engines/engine.hpp"
#include "engines/flatfly/adaptive_routings.hpp"
#include "engines/flatfly/row_detours.hpp"
#include "fabric/display_name.hpp"
#include "fabric/end_ports.hpp"
#include "mapping/map_fabric.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

namespace ibrt {
namespace {

using mapping::kNone;

struct Grid {
    std::vector<int> k;
    std::vector<std::size_t> stride;
    std::vector<std::uint32_t> at; // position -> dense switch, kNone where missing
    std::size_t index(const std::vector<int>& c) const {
        std::size_t i = 0;
        for (std::size_t d = 0; d < c.size(); ++d) i += std::size_t(c[d]) * stride[d];
        return i;
    }
};

// The dimension orders of Mixed DOR (§3.3), at most `count` of them: for N = 4 the paper's
// four; otherwise identity, reverse and the rotations by one, without repeats. With
// `every_leading_dim` (orders=auto) the rotations by one are replaced by all rotations of the
// identity, so each dimension leads one order; for N = 2 and 3 this is the same list, and for
// N = 4 the rotations come after the paper's four.
std::vector<std::vector<std::size_t>> dimension_orders(std::size_t nd, std::size_t count,
                                                       bool every_leading_dim) {
    std::vector<std::vector<std::size_t>> all;
    std::vector<std::size_t> id(nd);
    for (std::size_t d = 0; d < nd; ++d) id[d] = d;
    const auto rotation = [&](std::size_t r) {
        std::vector<std::size_t> rot(nd);
        for (std::size_t d = 0; d < nd; ++d) rot[d] = (d + r) % nd;
        return rot;
    };
    if (nd == 4) {
        all = {{0, 1, 2, 3}, {1, 3, 0, 2}, {2, 0, 3, 1}, {3, 2, 1, 0}};
    } else {
        all.push_back(id);
        all.push_back({id.rbegin(), id.rend()});
        if (!every_leading_dim && nd > 0) {
            all.push_back(rotation(1));
            all.push_back(rotation(nd - 1));
        }
    }
    if (every_leading_dim)
        for (std::size_t r = 1; r < nd; ++r) all.push_back(rotation(r));
    std::vector<std::vector<std::size_t>> out;
    for (auto& o : all)
        if (out.size() < count && std::find(out.begin(), out.end(), o) == out.end())
            out.push_back(o);
    return out;
}

// DOR in `order` with one detour per dimension: the next switch from x toward y, kNone where
// there is none. Detours within a row count into `detours`; where a row has no switch to detour
// through (a hypercube's dimension of two), x steps first into a later dimension, which sets
// cross[x * n + y] and counts into `cross_detours`.
template <class Linked>
std::vector<std::uint32_t> dor_next(const mapping::Shape& s, const Grid& grid,
                                    const std::vector<std::size_t>& order, std::size_t n,
                                    const Linked& linked, std::size_t& detours,
                                    std::vector<std::uint8_t>& cross, std::size_t& cross_detours) {
    std::vector<std::uint32_t> next(n * n, kNone);
    cross.assign(n * n, 0);
    // The switch at x's grid position with coordinate w in dimension d (kNone if missing).
    const auto moved = [&](std::size_t at, int from, int w, std::size_t d) {
        return grid.at[at + std::size_t(w) * grid.stride[d] - std::size_t(from) * grid.stride[d]];
    };
    std::vector<std::size_t> index(n); // grid position of each switch
    for (std::uint32_t v = 0; v < n; ++v) index[v] = grid.index(s.coord[v]);
    std::vector<std::uint32_t> via;
    for (std::uint32_t x = 0; x < n; ++x) {
        const std::vector<int>& cx = s.coord[x];
        for (std::uint32_t y = 0; y < n; ++y) {
            if (x == y) continue;
            const std::vector<int>& cy = s.coord[y];
            std::size_t i = 0;
            while (cx[order[i]] == cy[order[i]]) ++i;
            const std::size_t d = order[i];
            // The switch with x's coordinates but y's in dimension d, and the row's others.
            const auto in_row = [&](int w) {
                return grid.at[index[x] + std::size_t(w) * grid.stride[d] -
                               std::size_t(cx[d]) * grid.stride[d]];
            };
            const std::uint32_t t = in_row(cy[d]);
            if (t == kNone) continue; // the DOR switch is missing: no path in this order
            if (linked(x, t)) {
                next[std::size_t(x) * n + y] = t;
                continue;
            }
            flatfly::row_detours(grid.k[d], cx[d], cy[d], in_row, linked, via);
            if (!via.empty()) {
                next[std::size_t(x) * n + y] = via[y % via.size()];
                ++detours;
                continue;
            }
            // Step into a later dimension j first (x -> z), where z's link across d is there:
            // preferably to y's coordinate in j (as short as DOR), else and back later (2 hops
            // more). The step leaves the order, so these paths get VL layers of their own.
            std::uint32_t best = kNone;
            bool best_short = false;
            for (std::size_t jj = i + 1; jj < order.size() && !best_short; ++jj) {
                const std::size_t j = order[jj];
                for (int w = 0; w < grid.k[j]; ++w) {
                    if (w == cx[j]) continue;
                    const std::uint32_t z = moved(index[x], cx[j], w, j);
                    if (z == kNone || !linked(x, z)) continue;
                    const std::uint32_t tz = moved(index[z], cx[d], cy[d], d);
                    if (tz == kNone || !linked(z, tz)) continue;
                    if (best == kNone || (w == cy[j] && !best_short)) {
                        best = z;
                        best_short = w == cy[j];
                    }
                }
            }
            if (best == kNone) continue;
            next[std::size_t(x) * n + y] = best;
            cross[std::size_t(x) * n + y] = 1;
            ++cross_detours;
        }
    }
    return next;
}

// The index of the CA on `port` among the CAs of switch `sw` (port order): §3.3's d.
std::size_t host_index(const Fabric& f, NodeId sw, PortNum port) {
    std::size_t i = 0;
    for (PortNum p = 1; p < port; ++p) {
        const Port& q = f.port(sw, p);
        i += q.connected() && !f.node(q.peer_node).is_switch();
    }
    return i;
}

constexpr std::string_view kOrderChoices[] = {"auto", "dor", "mixed"};
constexpr EngineParam kParams[] = {
    {"orders", EngineParam::Kind::Choice, "auto",
     "dimension orders: auto (the first that reaches each destination; more VLs only where "
     "needed), dor (one order), mixed (paper 003 §3.3: the destination host's index mod 4)",
     0, 0, kOrderChoices},
    direct::kDistanceBasedParam,
    direct::kDeflectionParam,
    direct::kAdaptiveLinksParam,
    flatfly::kAdaptiveParam,
    flatfly::kTwistParam,
};

class FlatflyEngine final : public Engine {
  public:
    std::string_view name() const override { return "flatfly"; }
    std::span<const EngineParam> params() const override { return kParams; }

  protected:
    // orders=auto takes further orders before the escape VL; where that needs more VLs than
    // the ports have (or more than 8), one order and the escape VL for the rest may still fit
    // (a degraded 4x4x4 HyperX: 8 VLs with orders, 3 or 4 with one), so that is tried before
    // declining. The decline is then the one-order plan's, which needs the fewest VLs.
    Routing compute(const Fabric& f, const Lids* preassigned,
                    const EngineOptions& opt) const override {
        if (param_choice(opt, "orders") == "auto") {
            try {
                Routing r = compute_orders(f, preassigned, opt);
                if (r.data_vls <= fewest_port_data_vls(f, opt.default_data_vls)) return r;
            } catch (const RoutingError&) {
            }
            EngineOptions one = opt;
            one.params["orders"] = "dor";
            Routing r = compute_orders(f, preassigned, one);
            r.stats.emplace_back("one_order_for_the_vls", 1);
            return r;
        }
        return compute_orders(f, preassigned, opt);
    }

  private:
    Routing compute_orders(const Fabric& f, const Lids* preassigned,
                           const EngineOptions& opt) const {
        const mapping::SwitchLinks g = mapping::switch_links(f);
        const mapping::Shape s = mapping::map_fabric(f, g, mapping::link_classes(g));
        if (s.family != mapping::Family::FlatFly && s.family != mapping::Family::Hypercube)
            throw RoutingError("flatfly: the fabric is not a FlatFly, HyperX or hypercube (" +
                               mapping::why_not_wanted(s) + ")");
        const std::size_t n = g.num_switches(), nd = s.dims.size();
        Grid grid;
        grid.k.resize(nd);
        grid.stride.resize(nd);
        std::size_t points = 1;
        for (std::size_t d = nd; d-- > 0;) {
            grid.k[d] = s.dims[d].k;
            grid.stride[d] = points;
            points *= std::size_t(s.dims[d].k);
        }
        grid.at.assign(points, kNone);
        for (std::uint32_t v = 0; v < n; ++v) grid.at[grid.index(s.coord[v])] = v;

        const direct::NeighborPorts ports(f, g);
        const auto linked = [&](std::uint32_t v, std::uint32_t t) { return ports.linked(v, t); };

        const std::string_view order_choice = param_choice(opt, "orders");
        const std::vector<std::vector<std::size_t>> orders =
            order_choice == "auto" ? dimension_orders(nd, 16, true)
                                   : dimension_orders(nd, order_choice == "dor" ? 1 : 4, false);
        // next[o][x * n + y]: the switch x forwards to toward y in order o; computed when needed.
        std::vector<std::vector<std::uint32_t>> next(orders.size());
        std::vector<std::vector<std::uint8_t>> cross(orders.size());
        std::size_t detours = 0, cross_detours = 0;
        const auto table = [&](std::size_t o) -> const std::vector<std::uint32_t>& {
            if (next[o].empty())
                next[o] = dor_next(s, grid, orders[o], n, linked, detours, cross[o], cross_detours);
            return next[o];
        };
        // The order of each destination switch (SL), kNone when none reaches it.
        const auto reaches = [&](std::size_t o, std::uint32_t y) {
            const auto& t = table(o);
            for (std::uint32_t x = 0; x < n; ++x)
                if (x != y && t[std::size_t(x) * n + y] == kNone) return false;
            return true;
        };
        const bool mixed = param_choice(opt, "orders") == "mixed";
        const bool auto_order = param_choice(opt, "orders") == "auto";
        Routing r;
        r.lids = direct::direct_lids(f, preassigned, opt, "flatfly", r.lmc);
        std::vector<std::uint8_t> sl_of_lid(std::size_t(r.lids.max_lid()) + 1, 0);
        std::size_t used_orders = 1;
        // The switch each LID's port hangs off (kNone for a CA port not cabled to a switch).
        const std::size_t lids = std::size_t(r.lids.max_lid()) + 1;
        r.lft.assign(f.num_nodes(), {});
        for (NodeId sw : f.switches()) r.lft[sw].assign(lids, kNoPath);
        // Each LID's destination switch, the port there, and its order (the SL).
        const std::vector<direct::LidTarget> target = direct::lid_targets(f, g, r.lids);
        std::vector<std::int8_t> reach_cache(orders.size() * n, -1);
        // Destination switches no order reaches from every switch, and their LIDs.
        std::vector<char> escaped(n, 0);
        std::vector<Lid> escape_lids;
        std::string first_escaped;
        const auto reaches_cached = [&](std::size_t o, std::uint32_t y) {
            std::int8_t& c = reach_cache[o * n + y];
            if (c < 0) c = reaches(o, y) ? 1 : 0;
            return c == 1;
        };
        for (Lid lid = 1; lid < lids; ++lid) {
            const std::uint32_t y = target[lid].sw;
            const PortNum last = target[lid].port;
            if (y == kNone) continue;
            // §3.3 Mixed: the index of the destination host within its switch, mod 4.
            std::size_t o = 0;
            if (mixed && last != 0) o = host_index(f, g.node[y], last) % orders.size();
            if (auto_order)
                while (o < orders.size() && !reaches_cached(o, y)) ++o;
            if (o == orders.size() || !reaches_cached(o, y)) {
                // No order serves y from every switch: y goes on the escape layer (below).
                if (!escaped[y] && first_escaped.empty()) {
                    const auto& t = table(std::min(o, orders.size() - 1));
                    std::uint32_t x = 0;
                    while (x == y || t[std::size_t(x) * n + y] != kNone) ++x;
                    first_escaped = fmt::format(
                        "no dimension-order path with one detour per dimension from {} to {} "
                        "(LID {}) in {}",
                        display_name(f, g.node[x]), display_name(f, g.node[y]), lid,
                        auto_order ? "any of its dimension orders" : "its dimension order");
                }
                escaped[y] = 1;
                escape_lids.push_back(lid);
                continue;
            }
            sl_of_lid[lid] = static_cast<std::uint8_t>(o);
            used_orders = std::max(used_orders, o + 1);
        }
        // The tables, a switch at a time (each LFT written in order).
        for (std::uint32_t x = 0; x < n; ++x) {
            Lft& lft = r.lft[g.node[x]];
            for (Lid lid = 1; lid < lids; ++lid) {
                const std::uint32_t y = target[lid].sw;
                if (y == kNone || escaped[y]) continue;
                lft[lid] =
                    y == x ? target[lid].port
                           : ports.spread(x, table(sl_of_lid[lid])[std::size_t(x) * n + y], lid);
            }
        }

        // Paths with a step into a later dimension leave their order, so DOR's argument does
        // not cover them: each such (source switch, LID) path goes on the first layer of VLs
        // whose dependencies stay acyclic with it (engines/direct/dependency_layer.hpp), every
        // hop on that layer's VL, selected by path SL first_layer_sl + layer. When the orders
        // and layers need more than 8 VLs (a missing switch of a hypercube calls for an order
        // led by each dimension next to it, and missing links then add layers), every path
        // outside the first order goes into the layers instead: the orders share VLs where
        // their dependencies allow, and only the first order keeps VLs of its own.
        std::vector<direct::DependencyLayer> layers;
        std::vector<std::vector<std::uint8_t>> sl_row;
        std::size_t first_layer_sl = used_orders;
        const auto build_layers = [&](bool every_other_order) {
            layers.clear();
            sl_row.assign(n, sl_of_lid);
            std::vector<std::uint32_t> chain;
            for (std::uint32_t x = 0; x < n; ++x)
                for (Lid lid = 1; lid < lids; ++lid) {
                    const std::uint32_t y = target[lid].sw;
                    if (y == kNone || escaped[y]) continue;
                    const std::size_t o = sl_of_lid[lid];
                    if (y == x) {
                        if (every_other_order) sl_row[x][lid] = 0; // a host hop only
                        continue;
                    }
                    const auto& t = table(o);
                    bool crossed = false;
                    chain.clear();
                    for (std::uint32_t v = x; v != y;) {
                        const std::uint32_t w = t[std::size_t(v) * n + y];
                        crossed |= cross[o][std::size_t(v) * n + y] != 0;
                        chain.push_back(g.channel(v, w));
                        v = w;
                    }
                    if (!crossed && !(every_other_order && o != 0)) continue;
                    const std::size_t layer =
                        direct::place_on_layer(layers, chain, g.incidences.size());
                    sl_row[x][lid] = static_cast<std::uint8_t>(first_layer_sl + layer);
                }
        };
        if (cross_detours > 0) build_layers(false);

        // SL2VL by (in port, out port, SL): order SL on VLs 2 SL and 2 SL + 1, the second
        // for a hop in the same dimension as the one before (§3.3); a detour layer's SL on a
        // VL of its own after those, for every hop.
        const bool two_per_order = detours > 0;
        // Ports have at most 8 data VLs; the escape layer, if any, takes the one after ours.
        const std::size_t own_vls_max = escape_lids.empty() ? 8 : 7;
        const std::size_t orders_used = used_orders;
        if (auto_order && used_orders > 1 &&
            used_orders * (two_per_order ? 2 : 1) + layers.size() > own_vls_max) {
            used_orders = first_layer_sl = 1;
            build_layers(true);
        }
        const std::size_t base_vls = used_orders * (two_per_order ? 2 : 1);
        const std::size_t vls = base_vls + layers.size();
        if (vls > own_vls_max)
            throw RoutingError(fmt::format(
                "flatfly: the routes need {} VLs ({} dimension orders, {} layers for the detours "
                "around missing hypercube links{}), more than 8: too much is missing",
                vls + (escape_lids.empty() ? 0 : 1), used_orders, layers.size(),
                escape_lids.empty() ? "" : ", 1 escape VL"));
        const std::size_t sls = used_orders + layers.size();
        if (vls > 1) {
            // A switch port's class is the dimension of its link, -1 for a host or port 0.
            const auto dimension = [&](PortId p) {
                const std::uint32_t v = g.dense[f.port_node(p)];
                const Port& port = f.port(p);
                if (f.port_num(p) == 0 || !port.connected() || g.dense[port.peer_node] == kNone)
                    return -1;
                const std::uint32_t t = g.dense[port.peer_node];
                int d = 0;
                while (s.coord[v][std::size_t(d)] == s.coord[t][std::size_t(d)]) ++d;
                return d;
            };
            const unsigned per_order = two_per_order ? 2 : 1;
            r.sl2vl = direct::sl2vl_by_port(
                f, g, dimension,
                [&](int in, int out, unsigned sl) {
                    // With one order and no layer every SL is alike (below): SLs past the
                    // first are not detour layers then, and mapping them to VL 1 + SL named
                    // VLs past the ports' (VL 15, 16) on a hypercube with a few links gone.
                    if (sls > 1 && sl >= used_orders) // a detour layer
                        return static_cast<std::uint8_t>(base_vls + sl - used_orders);
                    const unsigned extra = two_per_order && in >= 0 && in == out ? 1 : 0;
                    return static_cast<std::uint8_t>((sls > 1 ? sl : 0) * per_order + extra);
                },
                // One order: the rule ignores the SL, so every SL works alike and the SA's SL
                // (opensm's QoS policy) is kept; several: the SL is the order (or the layer).
                sls > 1 ? static_cast<unsigned>(sls) : 16u);
            r.data_vls = static_cast<std::uint8_t>(vls);
        }
        if (!layers.empty()) {
            r.path_sls = PathSlTable(f.num_port_slots(), r.lids.max_lid());
            for (std::uint32_t x = 0; x < n; ++x)
                r.path_sls.set_switch_row(f, g.node[x], sl_row[x]);
        } else if (used_orders > 1) {
            r.path_sls = PathSlTable(f.num_port_slots(), r.lids.max_lid(), sl_of_lid);
        }
        r.stats.emplace_back("dimension_orders", double(orders_used));
        r.stats.emplace_back("orders_sharing_layers", double(used_orders < orders_used));
        r.stats.emplace_back("dimensions", double(nd));
        r.stats.emplace_back("detour_switch_pairs", double(detours));
        r.stats.emplace_back("cross_dimension_detours", double(cross_detours));
        r.stats.emplace_back("detour_layers", double(layers.size()));
        if (!escape_lids.empty()) {
            // The lowest SL no path uses (orders and layers take 0 .. sls - 1), never 15; the
            // VL after every one the orders and layers use.
            const std::uint16_t used = r.path_sls.sl_mask();
            std::uint8_t esl = 1;
            while (esl < 15 && (used >> esl & 1)) ++esl;
            if (esl == 15)
                throw RoutingError(fmt::format("flatfly: {} destination switch(es) need the "
                                               "escape VL ({}), but the paths use every SL 0-14",
                                               std::count(escaped.begin(), escaped.end(), 1),
                                               first_escaped));
            const auto evl = static_cast<std::uint8_t>(vls);
            escape::route_on_escape_layer(f, {}, escape_lids,
                                          {.sl = esl, .vl = evl, .what = "flatfly"}, r);
            // Ports run 1, 2, 4 or 8 data VLs (OperVLs): ask for the count that holds them all.
            r.data_vls = static_cast<std::uint8_t>(std::bit_ceil(unsigned(evl) + 1));
            r.stats.emplace_back("escaped_switches",
                                 double(std::count(escaped.begin(), escaped.end(), 1)));
            r.stats.emplace_back("escape_sl", esl);
            r.stats.emplace_back("escape_vl", evl);
        }
        direct::add_adaptive_sets(*this, opt, f, r);
        const bool twist_in_n = param_choice(opt, "twist") == "n";
        if (twist_in_n && !param_choice(opt, "adaptive").starts_with("twisted-mixed"))
            throw std::invalid_argument("flatfly: twist=n applies to adaptive=twisted-mixed-dor "
                                        "and twisted-mixed-ador only");
        if (const std::string_view a = param_choice(opt, "adaptive"); a != "none") {
            if (r.forwarding_sets)
                throw std::invalid_argument("flatfly: adaptive=" + std::string(a) +
                                            " is a routing of its own; give it without "
                                            "distance_based or adaptive_links");
            r.forwarding_sets =
                flatfly::adaptive_sets(f, r.lids, flatfly::adaptive_routing(a), twist_in_n);
        }
        return r;
    }
};

} // namespace

std::unique_ptr<Engine> make_flatfly_engine() {
    return std::make_unique<FlatflyEngine>();
}

} // namespace ibrt
