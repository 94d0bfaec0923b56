// The `slimfly` engine: the minimal routing of paper 003 §3.6 on a Slim Fly mapped from the
// cabling alone (mapping/slimfly_map.hpp: an MMS graph over F_q, §1.5).
//
// Minimal paths: every switch forwards each destination to a neighbour one hop closer to the
// destination switch (distances by breadth-first search over the cables present). On the
// complete MMS graph (diameter 2) that is exactly §3.6's case analysis: "y", "yy", "tt", "ty"
// or "yt"; where a pair has several minimal paths (usually two switches of one column, §3.6),
// each destination LID goes to the candidate whose port carries the fewest destinations so
// far (the lowest switch among ties), so they are used in balance and deterministically.
// Parallel cables (L > 1) share a neighbour's destinations.
//
// Deadlock freedom within the IBA on the complete fabric (§3.6): VL 0 on the first
// switch-to-switch hop and VL 1 on the second, by SL2VL on the input port alone: from a host
// (or the switch itself, port 0) VL 0, from a switch VL 1. A VL 1 channel leads only to the
// destination switch, so nothing waits on VL 1 in a cycle. Every path SL is 0 and the table
// treats all 16 SLs alike.
//
// Slim Fly x FlatFly (§1.5, SF x FF-1 and -2; mapped by mapping/slimfly_product_map.hpp): "DOR
// ... considering Slim Fly as a dimension of a Flat Fly" (§3.6). A packet first corrects its
// Slim Fly coordinates by the minimal routing above, then each FlatFly dimension in order,
// one hop each. The VL rule becomes: a hop from a Slim Fly link onto
// a Slim Fly link (or to a host) VL 1, every other hop VL 0. Deadlock free on 2 VLs: a VL 1
// channel is entered only from the first Slim Fly hop and leads only to the destination
// switch's column or to FlatFly links; Slim Fly links on VL 0 are entered only from hosts
// (the Slim Fly comes first); FlatFly links are entered in dimension order. Minimal: a
// product's distance is the Slim Fly's plus the FlatFly's.
//
// Degraded products (past the paper): where DOR's next factor has no minimal next hop (its
// link or switch is missing) the switch takes any minimal one, so the path leaves DOR's order
// and the argument above no longer covers it. Every path that leaves it (walked on the LFTs:
// its hops' factors not the Slim Fly's at most two hops then each FlatFly dimension at most
// once, in order) goes into the first of further layers (engines/direct/dependency_layer.hpp)
// whose channel dependencies stay acyclic with it; layer k is path SL 1 + k (per source switch
// and LID), its first hop (entered from a host) on VL 0 like every first hop, the rest on VL
// 2 + k. The other paths keep SL 0 and the two VLs above (they are paths of the complete
// product, so its argument holds for them; a Slim Fly link on VL 0 is still entered only from
// a host). Deadlock free: a layered path's first hop adds only dependencies from VL 0 to its
// layer's VL, and a layer's VL leads only to itself (and hosts), so a cycle would have to lie
// within VL 0 and 1 (the complete product's) or within one layer (acyclic by construction).
// A product needs 2 + layers VLs; a pristine one has no detour and keeps its tables byte for
// byte.
//
// Degraded fabrics (past the paper): with a link or a switch missing some pairs are 3 or more
// hops apart. The rule above still puts their first hop on VL 0 (it waits only on later hops)
// but a VL 1 hop of such a path may wait on another VL 1 hop, and those dependencies can close
// a cycle. So the long paths are put in layers, as DFSSSP does with its SLs: a path joins the
// first layer whose graph of dependencies between directed switch links (from its second hop
// on) stays acyclic with it; layer 0 is VL 1 itself (the second hops of 2-hop paths lead only
// to a destination and add no dependency there), layer k >= 1 is path SL k on VL 1 + k. The
// SL2VL rule becomes: from a host VL 0, else VL 1 + SL. A lightly degraded fabric often fits in
// layer 0 and keeps two VLs and SL 0 everywhere. The engine declines a fabric that is not a
// Slim Fly, switches that cannot reach each other, more than 8 layers, and (Engine::route)
// ports with fewer VLs than the layers need.
#include "engines/direct/dependency_layer.hpp"
#include "engines/direct/direct_lids.hpp"
#include "engines/direct/distance_based.hpp"
#include "engines/direct/neighbor_ports.hpp"
#include "engines/engine.hpp"
#include "fabric/display_name.hpp"
#include "mapping/map_fabric.hpp"
#include "mapping/slimfly_map.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <span>

namespace ibrt {
namespace {

using mapping::kNone;

enum PortClass { kHost = 0, kSwitch = 1, kFlatFly = 2 }; // kSwitch: a Slim Fly link

constexpr std::uint8_t kFar = mapping::kFarHops;

// The VL of a hop from (in port class, out port class, SL); see the header comment. On a plain
// Slim Fly the output is never a FlatFly link, so this is "from a host VL 0, else VL 1 + SL".
std::uint8_t hop_vl(int in, int out, unsigned sl) {
    return static_cast<std::uint8_t>(in == kSwitch && out != kFlatFly ? 1 + sl : 0);
}

// A degraded product's detours: SL 0 keeps the rule above, SL k >= 1 (layer k - 1) puts the
// first hop on VL 0 and every later hop on VL 1 + k, its own.
std::uint8_t product_vl(int in, int out, unsigned sl) {
    return sl == 0 || in == kHost ? hop_vl(in, out, 0) : static_cast<std::uint8_t>(1 + sl);
}

constexpr unsigned kMaxLayers = 8; // VLs 1..8: layer 0 and 7 more; a product's VLs 2..9

// Factors of a product path's hops (-1: Slim Fly, d: FlatFly dimension d): whether it keeps
// DOR's order, the Slim Fly first (at most 2 hops) then each dimension at most once, in order.
bool in_dor_order(const std::vector<int>& factors) {
    int last = -2, sf_hops = 0;
    for (int fct : factors) {
        if (fct < last || (fct == last && fct >= 0)) return false;
        sf_hops += fct < 0;
        last = fct;
    }
    return sf_hops <= 2;
}

class SlimflyEngine final : public Engine {
  public:
    std::string_view name() const override { return "slimfly"; }
    std::span<const EngineParam> params() const override { return direct::kDistanceParams; }

  protected:
    Routing compute(const Fabric& f, const Lids* preassigned,
                    const EngineOptions& opt) const override {
        const mapping::SwitchLinks g = mapping::switch_links(f);
        // A Slim Fly is what map_fabric tries first; asked directly, the link classes (which
        // only the other families need) are not computed.
        const int q = mapping::slimfly_candidate_q(g);
        const mapping::Shape s = q ? mapping::map_slimfly(f, g, q, {})
                                   : mapping::map_fabric(f, g, mapping::link_classes(g));
        if (s.family != mapping::Family::SlimFly)
            throw RoutingError("slimfly: the fabric is not a Slim Fly (" +
                               mapping::why_not_wanted(s) + ")");
        const std::size_t n = g.num_switches();
        const direct::NeighborPorts ports(f, g);
        // Slim Fly x FlatFly: coordinates (t, x, y, c_1..c_N). The factor a link lies in: -1
        // for the Slim Fly, else its FlatFly dimension; the factor a packet corrects next at
        // x towards y: the Slim Fly first, then the FlatFly's dimensions in order.
        const bool product = !s.dims.empty();
        const auto factor = [&](std::uint32_t x, std::uint32_t y) {
            const auto& a = s.coord[x];
            const auto& b = s.coord[y];
            if (!std::equal(a.begin(), a.begin() + 3, b.begin())) return -1;
            for (std::size_t i = 3; i < a.size(); ++i)
                if (a[i] != b[i]) return static_cast<int>(i - 3);
            return -2; // x == y
        };
        // Per incidence (directed link), its factor: read in the candidate loop below.
        std::vector<std::int8_t> link_factor(product ? g.incidences.size() : 0);
        for (std::uint32_t x = 0; x < n && product; ++x)
            for (std::uint32_t k = 0; k < g.around(x).size(); ++k)
                link_factor[g.start[x] + k] =
                    static_cast<std::int8_t>(factor(x, g.around(x)[k].peer));

        // dist[y * n + x]: switch-to-switch hops from x to y over the cables present.
        std::vector<std::uint32_t> all(n);
        std::iota(all.begin(), all.end(), 0u);
        const std::vector<std::uint8_t> dist = mapping::member_hops(g, all);
        for (std::uint32_t y = 0; y < n; ++y)
            for (std::uint32_t x = 0; x < n; ++x)
                if (dist[std::size_t(y) * n + x] == kFar)
                    throw RoutingError(fmt::format(
                        "slimfly: {} cannot reach {}: the switches are in separate parts",
                        display_name(f, g.node[x]), display_name(f, g.node[y])));

        Routing r;
        r.lids = direct::direct_lids(f, preassigned, opt, "slimfly", r.lmc);
        const std::size_t lids = std::size_t(r.lids.max_lid()) + 1;
        r.lft.assign(f.num_nodes(), {});
        for (NodeId sw : f.switches()) r.lft[sw].assign(lids, kNoPath);
        const std::vector<direct::LidTarget> target = direct::lid_targets(f, g, r.lids);

        // The ports toward each neighbour, by incidence (g.start[x] + k for g.around(x)[k]).
        std::vector<std::span<const PortNum>> port_to(g.incidences.size());
        for (std::uint32_t x = 0; x < n; ++x)
            for (std::uint32_t k = 0; k < g.around(x).size(); ++k)
                port_to[g.start[x] + k] = ports.to(x, g.around(x)[k].peer);
        // Switch by switch (each LFT written in order): the minimal next hops toward every y
        // (distances are symmetric: dist[t * n + y] is t's distance to y), then each LID to
        // the candidate whose port has the fewest destinations so far.
        std::vector<std::uint32_t> cand, cand_start(n + 1), load;
        std::size_t multi = 0, hops[4] = {0, 0, 0, 0}, off_dor = 0;
        bool long_paths = false;
        for (std::uint32_t x = 0; x < n; ++x) {
            const auto around = g.around(x);
            const std::uint8_t* dx = dist.data() + std::size_t(x) * n;
            cand.clear();
            for (std::uint32_t y = 0; y < n; ++y) {
                cand_start[y] = static_cast<std::uint32_t>(cand.size());
                if (y == x) continue;
                const int next_factor = product ? factor(x, y) : 0;
                for (std::uint32_t k = 0; k < around.size(); ++k)
                    if (dist[std::size_t(around[k].peer) * n + y] + 1 == dx[y] &&
                        (!product || link_factor[g.start[x] + k] == next_factor))
                        cand.push_back(k);
                // A degraded product where DOR's next factor has no minimal hop (its link is
                // missing): any minimal hop; the path then leaves the order (layers below).
                if (product && cand.size() == cand_start[y]) {
                    ++off_dor;
                    for (std::uint32_t k = 0; k < around.size(); ++k)
                        if (dist[std::size_t(around[k].peer) * n + y] + 1 == dx[y])
                            cand.push_back(k);
                }
                multi += cand.size() - cand_start[y] > 1;
                ++hops[std::min<std::size_t>(dx[y], 3)];
                long_paths |= !product && dx[y] >= 3; // a product's long paths are DOR
            }
            cand_start[n] = static_cast<std::uint32_t>(cand.size());
            load.assign(around.size(), 0);
            Lft& lft = r.lft[g.node[x]];
            for (Lid lid = 1; lid < lids; ++lid) {
                const std::uint32_t y = target[lid].sw;
                if (y == kNone) continue;
                if (y == x) {
                    lft[lid] = target[lid].port;
                    continue;
                }
                std::uint32_t best = cand[cand_start[y]];
                for (std::uint32_t i = cand_start[y] + 1; i < cand_start[y + 1]; ++i)
                    if (load[cand[i]] < load[best]) best = cand[i];
                ++load[best];
                const auto p = port_to[g.start[x] + best];
                lft[lid] = p[lid % p.size()]; // NeighborPorts::spread
            }
        }

        // Long paths in layers (see the header), by source switch and LID, walking the LFTs.
        // A degraded product's paths that leave DOR's order go in layers of their own.
        const bool detours = product && off_dor > 0;
        std::vector<std::vector<std::uint8_t>> sl_row(long_paths || detours ? n : 0);
        std::vector<direct::DependencyLayer> layers;
        std::vector<std::uint32_t> chain;
        const auto next_hop = [&](std::uint32_t v, Lid lid) {
            return g.dense[f.port(g.node[v], r.lft[g.node[v]][lid]).peer_node];
        };
        for (std::uint32_t x = 0; x < n && long_paths; ++x) {
            sl_row[x].assign(lids, 0);
            const std::uint8_t* dx = dist.data() + std::size_t(x) * n;
            for (Lid lid = 1; lid < lids; ++lid) {
                const std::uint32_t y = target[lid].sw;
                if (y == kNone || y == x || dx[y] < 3) continue;
                chain.clear(); // the directed links from the second hop on
                for (std::uint32_t v = next_hop(x, lid); v != y;) {
                    const std::uint32_t t = next_hop(v, lid);
                    chain.push_back(g.channel(v, t));
                    v = t;
                }
                const std::size_t layer =
                    direct::place_on_layer(layers, chain, g.incidences.size(), kMaxLayers);
                if (layer == layers.size())
                    throw RoutingError(fmt::format(
                        "slimfly: the paths of 3 or more hops need more than {} layers of "
                        "VLs (from {} to LID {}): too much of the Slim Fly is missing",
                        kMaxLayers, display_name(f, g.node[x]), lid));
                sl_row[x][lid] = static_cast<std::uint8_t>(layer);
            }
        }

        std::vector<int> factors;
        std::size_t layered = 0;
        for (std::uint32_t x = 0; x < n && detours; ++x) {
            sl_row[x].assign(lids, 0);
            for (Lid lid = 1; lid < lids; ++lid) {
                const std::uint32_t y = target[lid].sw;
                if (y == kNone || y == x) continue;
                chain.clear(); // the directed links from the second hop on (the first is on VL 0)
                factors.clear();
                for (std::uint32_t v = x; v != y;) {
                    const std::uint32_t t = next_hop(v, lid);
                    const std::uint32_t ch = g.channel(v, t);
                    if (v != x) chain.push_back(ch);
                    factors.push_back(link_factor[ch]);
                    v = t;
                }
                if (in_dor_order(factors)) continue;
                ++layered;
                const std::size_t layer =
                    direct::place_on_layer(layers, chain, g.incidences.size(), kMaxLayers);
                if (layer == layers.size())
                    throw RoutingError(fmt::format(
                        "slimfly: the detours of the Slim Fly x FlatFly need more than {} "
                        "layers of VLs (from {} to LID {}): too much of it is missing ({} "
                        "switches, {} links)",
                        kMaxLayers, display_name(f, g.node[x]), lid, s.missing_switches.size(),
                        s.missing_links.size()));
                sl_row[x][lid] = static_cast<std::uint8_t>(1 + layer);
            }
        }

        // A product's layers are SLs 1.. beside SL 0's two VLs; a Slim Fly's layer 0 is VL 1.
        const unsigned extra = layers.empty() ? 0
                               : product      ? static_cast<unsigned>(layers.size())
                                              : static_cast<unsigned>(layers.size() - 1);
        if (extra > 0) {
            r.path_sls = PathSlTable(f.num_port_slots(), r.lids.max_lid());
            for (std::uint32_t x = 0; x < n; ++x)
                r.path_sls.set_switch_row(f, g.node[x], sl_row[x]);
        }
        const auto port_class = [&](PortId p) {
            const Port& port = f.port(p);
            if (f.port_num(p) == 0 || !port.connected() || g.dense[port.peer_node] == kNone)
                return int(kHost);
            const std::uint32_t a = g.dense[f.port_node(p)], b = g.dense[port.peer_node];
            return int(product && factor(a, b) >= 0 ? kFlatFly : kSwitch);
        };
        // One layer: the rule ignores the SL, so every SL works alike and the SA's SL (opensm's
        // QoS policy) is kept; more: SL k is layer k on VL 1 + k, the other SLs unused.
        if (extra == 0)
            r.sl2vl = direct::sl2vl_by_port(
                f, g, port_class, [](int in, int out, unsigned) { return hop_vl(in, out, 0); }, 16);
        else
            r.sl2vl =
                direct::sl2vl_by_port(f, g, port_class, product ? product_vl : hop_vl, extra + 1);
        r.data_vls = static_cast<std::uint8_t>(2 + extra);
        r.stats.emplace_back("q", double(s.q));
        r.stats.emplace_back("flatfly_dimensions", double(s.dims.size()));
        r.stats.emplace_back("missing_switches", double(s.missing_switches.size()));
        r.stats.emplace_back("missing_links", double(s.missing_links.size()));
        r.stats.emplace_back("switch_pairs_with_choice", double(multi));
        r.stats.emplace_back("switch_pairs_2_hops", double(hops[2]));
        r.stats.emplace_back("switch_pairs_3_or_more_hops", double(hops[3]));
        r.stats.emplace_back("vl_layers", double(1 + extra));
        if (product) r.stats.emplace_back("paths_off_dor", double(layered));
        direct::add_adaptive_sets(*this, opt, f, r);
        return r;
    }
};

} // namespace

std::unique_ptr<Engine> make_slimfly_engine() {
    return std::make_unique<SlimflyEngine>();
}

} // namespace ibrt
