// The `dragonfly` engine: paper 003 §3.5's Static routing on a Dragonfly mapped from the
// cabling alone (§2.2, mapping/map_fabric.hpp): in the source group a local hop to the switch
// that has the global link to the destination group, the global hop, and in the destination
// group a local hop to the destination switch.
//
// With `adaptive=static|s|d|...|gsid` the engine also produces §3.5's Static routing and its
// G/S/I/D family as forwarding sets of the extended switch, for `ibrt sim` and `ibrt check
// --tables` (adaptive_routings.hpp; damaged ones: missing cables, not switches). The LFTs below are
// unchanged.
//
// Deadlock freedom within the IBA (§3.5: VLs from the input port's class). Channels are
// ordered local (source group) < global < local (destination group): a packet entering from a
// host or a local port leaves on VL 0; one entering from a global port leaves on VL 1. Every
// path climbs that order, so two VLs suffice and every path SL is 0.
//
// Missing global links (past the paper's text, which routes "through an intermediate group on
// further VLs"): when groups g and h are not joined, g's traffic to h goes through an
// intermediate group joined to both. When the switch arriving in that group is its gateway
// onward, that needs no further VL; otherwise the detour takes a local hop there, and then
// every detour takes a path SL and the fabric a third VL (group_detours.hpp says which and why
// that stays free of credit loops). The LFTs need nothing special: every switch forwards toward a
// group the same way whichever group the packet came from. A missing gateway switch is missing
// global links.
//
// Several global links per pair of groups (past the paper's one, issue 37): the destination
// switches of a group spread over the links to it by their index in the group, so every link
// carries destinations. The class rule holds for any choice of link. Detours through an
// intermediate group are planned on one link per pair (group_detours.hpp), so while some pair
// of groups is not joined every pair keeps one link.
//
// Missing local links (past the paper): within a group a packet goes to its target switch
// (the gateway, or the destination) by a shortest path over the local links present, so a
// local hop whose cable is missing becomes two or more. (The mapping joins a group by its
// local links, so they always connect it; a group that falls apart is read as two groups not
// joined to each other.) Two groups with no group joined to both go through more than one
// (group_detours.hpp). Every switch still forwards toward a destination the same way whatever
// the packet's source, so the LFTs stay per destination.
//
// What the VL order above cannot hold is a local hop after a local hop once the packet has
// left its source group: a switch sees a local port in and a local port out whether the
// packet is in its source group (VL 0) or in an intermediate or its destination group (VL 1
// or 2), so the input port's class no longer says where on the path the packet is.
// - In the source group, before any global hop, the local hops are all on VL 0, and VL 0 has
//   no other dependency between local links (a global hop on VL 0 leads to VL 1): such a
//   path keeps the class rule as long as the turns (local hop after local hop) of all of them
//   stay acyclic, which one DependencyLayer checks (`source_turns`).
// - The others (two local hops in a row after a global hop, more than two global hops,
//   source-group turns that would close a cycle, and, since layers are there anyway, the
//   detours with a single local hop in the intermediate group, which then take no detour SL
//   and no third VL) are put in layers, as the slimfly and flatfly engines do with theirs
//   (engines/direct/dependency_layer.hpp, DFSSSP's way): each path, by source switch and
//   destination switch, joins the first layer whose graph of dependencies between directed
//   switch links stays acyclic with it. Layer k is path SL 1 + k with every hop but the
//   first on VL 1 + k: the path SL is what tells a switch the packet's layer. The first hop,
//   entered from a host, is the one a switch can place without the SL: it goes on VL 0 like
//   every first hop, so only the hops after it are in the layer's graph (as in slimfly).
// Layer 0 shares VL 1 with the class rule: there VL 1 holds the last hops, which lead nowhere,
// and the second global hop of detours through a gateway, which leads only to a last hop, so
// layer 0's graph is seeded with those few dependencies and kept acyclic with them. No
// dependency leads from a layer's VL back to a lower one, and VL 0's are the class rule's
// plus some into the layers, so 1 + layers VLs suffice (and every path SL of the class rule
// is 0). The layers are first fit, like DFSSSP's, so there is no closed-form bound; measured
// on the paper's K = 16, G = 8 Dragonfly (docs/engines/direct.md), a single missing local
// link keeps the pristine fabric's 2 VLs, 1 % of all cables missing takes 2 to 3, 5 % takes 3
// and 10 % takes 4. A pristine fabric, or one missing only global links between groups that
// keep a common neighbour, has no such path and keeps its tables (and its 3 VLs for local-hop
// detours).
//
// Where the layers need more than the ports' data VLs (or the 16 SLs) allow (issue 37): the
// layers take one VL less, and every LID of a destination switch with a path that fits none of
// them goes on the escape layer, Up*/Down* on the VL after the layers' with an SL of its own
// (engines/common/escape_layer.hpp), as the torus and flatfly engines do.
//
// Not routed (the engine declines and names what is missing): switches that cannot reach each
// other, and fabrics whose layers need more VLs than the ports have with no VL left for the
// escape layer. opensm then routes with the next engine.
#include "engines/common/escape_layer.hpp"
#include "engines/direct/dependency_layer.hpp"
#include "engines/direct/direct_lids.hpp"
#include "engines/direct/distance_based.hpp"
#include "engines/direct/neighbor_ports.hpp"
#include "engines/dragonfly/adaptive_routings.hpp"
#include "engines/dragonfly/group_detours.hpp"
#include "engines/engine.hpp"
#include "fabric/display_name.hpp"
#include "mapping/map_fabric.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <tuple>

namespace ibrt {
namespace {

using mapping::kNone;

enum PortClass { kHost = 0, kLocal = 1, kGlobal = 2 };

constexpr std::uint8_t kFar = mapping::kFarHops; // no local path
constexpr std::uint8_t kOffLayer = 255;          // a path on the class rule, in no layer

constexpr EngineParam kParams[] = {direct::kDistanceBasedParam, direct::kDeflectionParam,
                                   direct::kAdaptiveLinksParam, dragonfly::kAdaptiveParam};

class DragonflyEngine final : public Engine {
  public:
    std::string_view name() const override { return "dragonfly"; }
    std::span<const EngineParam> params() const override { return kParams; }

  protected:
    Routing compute(const Fabric& f, const Lids* preassigned,
                    const EngineOptions& opt) const override {
        const mapping::SwitchLinks g = mapping::switch_links(f);
        const mapping::Shape s = mapping::map_fabric(f, g, mapping::link_classes(g));
        if (s.family != mapping::Family::Dragonfly)
            throw RoutingError("dragonfly: the fabric is not a Dragonfly (" +
                               mapping::why_not_wanted(s) + ")");
        const std::size_t n = g.num_switches(), groups = std::size_t(s.groups);
        const direct::NeighborPorts ports(f, g);
        std::vector<std::vector<std::uint32_t>> members(groups); // in dense order
        for (std::uint32_t v = 0; v < n; ++v) members[std::size_t(s.group[v])].push_back(v);
        const auto idx = [&](std::uint32_t v) { return std::size_t(s.index_in_group[v]); };

        // Local routes: per group, the next switch from each member toward each member over
        // the local links present (breadth-first from the target; among the neighbours one
        // hop closer, one spread by the pair).
        std::vector<std::vector<std::uint32_t>> local_next(groups);
        std::size_t local_detours = 0; // ordered pairs of switches of a group not cabled
        {
            std::vector<std::uint8_t> dist;
            std::vector<std::uint32_t> cand;
            for (std::size_t gi = 0; gi < groups; ++gi) {
                const auto& m = members[gi];
                const std::size_t k = m.size();
                dist = mapping::member_hops(g, m); // dist[t * k + x]
                for (std::size_t t = 0; t < k; ++t) {
                    const std::uint8_t* d = dist.data() + t * k;
                    if (std::find(d, d + k, kFar) !=
                        d + k) // the mapping's union of local links rules it out
                        throw RoutingError(fmt::format(
                            "dragonfly: the local links of group {} do not join {} to {}", gi,
                            display_name(f, g.node[m[t]]),
                            display_name(f,
                                         g.node[m[std::size_t(std::find(d, d + k, kFar) - d)]])));
                }
                auto& next = local_next[gi];
                next.assign(k * k, kNone); // next[x * k + t]
                for (std::size_t x = 0; x < k; ++x)
                    for (std::size_t t = 0; t < k; ++t) {
                        if (x == t) continue;
                        const std::uint8_t dx = dist[t * k + x];
                        local_detours += dx > 1;
                        cand.clear();
                        for (const auto& i : g.around(m[x]))
                            if (std::size_t(s.group[i.peer]) == gi &&
                                dist[t * k + idx(i.peer)] + 1 == dx)
                                cand.push_back(i.peer);
                        next[x * k + t] = cand[(x + t) % cand.size()];
                    }
            }
        }
        // gate[g * groups + h]: the switch of group g cabled to group h (kNone if none), peer
        // the switch at the other end; with several links per pair (lanes), the last one's.
        std::vector<std::uint32_t> gate(groups * groups, kNone), peer(groups * groups, kNone);
        std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> lanes(groups * groups);
        for (const auto& l : g.links) {
            const std::size_t ga = std::size_t(s.group[l.a]), gb = std::size_t(s.group[l.b]);
            if (ga == gb) continue;
            gate[ga * groups + gb] = l.a;
            peer[ga * groups + gb] = l.b;
            gate[gb * groups + ga] = l.b;
            peer[gb * groups + ga] = l.a;
            lanes[ga * groups + gb].emplace_back(l.a, l.b);
            lanes[gb * groups + ga].emplace_back(l.b, l.a);
        }
        // When some paths need layers anyway (missing local links, or groups with no common
        // neighbour), detours with a single local hop in the intermediate group go on them too,
        // rather than on detour SLs and a third VL.
        const auto linked = [&](std::uint32_t u, std::uint32_t w) { return ports.linked(u, w); };
        dragonfly::GroupDetours plan =
            dragonfly::plan_group_detours(groups, gate, peer, linked, local_detours > 0);
        if (local_detours == 0 && plan.far > 0 && plan.local_hop > 0)
            plan = dragonfly::plan_group_detours(groups, gate, peer, linked, true);
        const std::vector<std::size_t>& via = plan.via;
        // Several global links per pair of groups (past the paper's one): destination switches
        // spread over them, when every pair is joined. Detours through an intermediate group
        // are planned on one link per pair (group_detours.hpp), so with any detour every pair
        // keeps its one link.
        const bool spread_lanes = plan.indirect == 0;

        // The next switch from x toward the destination switch y.
        const auto next = [&](std::uint32_t x, std::uint32_t y) {
            const std::size_t gx = std::size_t(s.group[x]), h = std::size_t(s.group[y]);
            std::uint32_t t = y; // same group: the local route
            if (gx != h) {
                const std::size_t i = via[gx * groups + h];
                const std::size_t first = i == gx ? h : i; // the group of the global hop
                t = gate[gx * groups + first];
                std::uint32_t w = peer[gx * groups + first];
                if (spread_lanes) {
                    const auto& l = lanes[gx * groups + first];
                    std::tie(t, w) = l[idx(y) % l.size()];
                }
                if (x == t) return w;
            }
            return local_next[gx][idx(x) * members[gx].size() + idx(t)];
        };

        Routing r;
        r.lids = direct::direct_lids(f, preassigned, opt, "dragonfly", r.lmc);
        const std::size_t lids = std::size_t(r.lids.max_lid()) + 1;
        r.lft.assign(f.num_nodes(), {});
        for (NodeId sw : f.switches()) r.lft[sw].assign(lids, kNoPath);
        const std::vector<direct::LidTarget> target = direct::lid_targets(f, g, r.lids);
        std::vector<std::uint32_t> row_next(n);
        for (std::uint32_t x = 0; x < n; ++x) { // each LFT written in order
            for (std::uint32_t y = 0; y < n; ++y) row_next[y] = y == x ? kNone : next(x, y);
            Lft& lft = r.lft[g.node[x]];
            for (Lid lid = 1; lid < lids; ++lid) {
                const std::uint32_t y = target[lid].sw;
                if (y == kNone) continue;
                lft[lid] = y == x ? target[lid].port : ports.spread(x, row_next[y], lid);
            }
        }

        // Paths off the class rule's order (a local hop after a local hop once past the source
        // group, more than two global hops, or on 2 VLs a local hop between two global ones),
        // by source and destination switch, into layers (see the header).
        const unsigned base_sls =
            plan.vls > 2 ? 1u + *std::max_element(plan.sl.begin(), plan.sl.end()) : 1u;
        const unsigned max_vls = fewest_port_data_vls(f, opt.default_data_vls);
        // Layer 0 shares the class rule's last VL (see the header), each further layer adds one.
        const std::size_t max_layers = std::min<std::size_t>(
            max_vls + 1 > plan.vls ? max_vls + 1 - plan.vls : 0, 16 - base_sls);
        // The local hops before the first global hop are all on VL 0: their turns (a local
        // hop after a local hop) go in `source_turns`, which must stay acyclic; VL 0 has no
        // other dependency between local links, and a global hop on VL 0 leads to VL 1.
        direct::DependencyLayer source_turns(g.incidences.size());
        // The class rule's dependencies within its last VL, which layer 0 shares: on 3 VLs
        // none (a hop on VL 2 ends at the destination); on 2, a detour through a gateway
        // arriving from g (group_detours.hpp) takes its second global hop, w -> u, on VL 1
        // and then a local hop from u on VL 1.
        const auto seed_last_vl = [&](direct::DependencyLayer& layer) {
            if (plan.vls != 2) return;
            for (std::size_t a = 0; a < groups; ++a)
                for (std::size_t h = 0; h < groups; ++h) {
                    const std::size_t i = via[a * groups + h];
                    if (i == a || i == groups || peer[a * groups + i] != gate[i * groups + h])
                        continue;
                    const std::uint32_t w = gate[i * groups + h], u = peer[i * groups + h];
                    for (std::uint32_t t : members[h])
                        if (t != u && ports.linked(u, t))
                            layer.add_chain({g.channel(w, u), g.channel(u, t)});
                }
        };
        std::vector<direct::DependencyLayer> layers;
        std::vector<std::uint8_t> layer_of; // [x * n + y]
        std::vector<std::uint8_t> escaped;  // [y]: y's LIDs on the escape layer
        std::size_t layered = 0, turned = 0;
        std::string first_unplaced;
        // Places the paths off the class rule on at most `cap` layers; with `escape`, the
        // destinations of the paths that fit none go on the escape layer (below) instead of
        // failing.
        const auto place_paths = [&](std::size_t cap, bool escape) {
            layers.clear();
            layer_of.assign(n * n, kOffLayer);
            escaped.assign(n, 0);
            layered = turned = 0;
            source_turns = direct::DependencyLayer(g.incidences.size());
            std::vector<std::uint32_t> chain;
            for (std::uint32_t x = 0; x < n; ++x)
                for (std::uint32_t y = 0; y < n; ++y) {
                    if (y == x || escaped[y]) continue;
                    chain.clear();
                    bool off = false, last_local = false;
                    std::size_t prefix = 0; // local hops before the first global one
                    unsigned globals = 0;
                    for (std::uint32_t v = x; v != y;) {
                        if (chain.size() == n) // each hop brings y nearer: a bug if not
                            throw std::logic_error("dragonfly: a path loops");
                        const std::uint32_t w = next(v, y);
                        const bool local = s.group[v] == s.group[w];
                        if (local && globals == 0) ++prefix;
                        // A local hop after a global one is on VL 1, and on 2 VLs the
                        // global hop after it would be on VL 0.
                        off |= (local && last_local && globals > 0) || (!local && ++globals > 2) ||
                               (!local && globals == 2 && last_local && plan.vls == 2);
                        last_local = local;
                        chain.push_back(g.channel(v, w));
                        v = w;
                    }
                    if (!off && prefix < 2) continue;
                    if (!off && source_turns.add_chain({chain.begin(), chain.begin() + prefix})) {
                        ++turned;
                        continue;
                    }
                    chain.erase(chain.begin()); // the first hop is on VL 0 (from a host)
                    if (layers.empty() && cap > 0) {
                        layers.emplace_back(g.incidences.size());
                        seed_last_vl(layers[0]);
                    }
                    const std::size_t layer =
                        direct::place_on_layer(layers, chain, g.incidences.size(), cap);
                    if (layer == layers.size()) {
                        if (first_unplaced.empty())
                            first_unplaced =
                                fmt::format("from {} to {}", display_name(f, g.node[x]),
                                            display_name(f, g.node[y]));
                        if (!escape) return false;
                        escaped[y] = 1;
                        continue;
                    }
                    layer_of[std::size_t(x) * n + y] = std::uint8_t(layer);
                    ++layered;
                }
            return true;
        };
        if (local_detours > 0 || plan.far > 0 || plan.local_detour > 0) {
            // Where the layers do not fit, one VL less for them and the escape VL after them,
            // if the SLs allow (base + layers + the escape SL, never 15).
            if (!place_paths(max_layers, false) && (max_layers < 2 || base_sls + max_layers > 15 ||
                                                    !place_paths(max_layers - 1, true)))
                throw RoutingError(fmt::format(
                    "dragonfly: the paths around {} missing local and {} missing global links "
                    "need more than {}: {} VLs for the Static routing and {} layers for the "
                    "paths that leave its order ({}), the first on its last VL, the others on "
                    "one more each, or one VL less for the layers and an escape VL; too much "
                    "of the Dragonfly is missing",
                    s.missing_links.size(), s.missing_global_links,
                    base_sls + max_layers == 16 ? std::string("16 SLs")
                                                : fmt::format("the ports' {} data VLs", max_vls),
                    plan.vls, max_layers + 1, first_unplaced));
        }

        const auto port_class = [&](PortId p) {
            const Port& port = f.port(p);
            if (f.port_num(p) == 0 || !port.connected() || g.dense[port.peer_node] == kNone)
                return int(kHost);
            const std::uint32_t v = g.dense[f.port_node(p)], t = g.dense[port.peer_node];
            return s.group[v] == s.group[t] ? int(kLocal) : int(kGlobal);
        };
        // No layer: every SL alike, so the SA's SL (opensm's QoS policy) is kept; with layers,
        // SLs below base_sls follow the class rule and the next ones are the layers.
        const std::uint8_t base_vls = std::uint8_t(plan.vls);
        r.sl2vl = direct::sl2vl_by_port(
            f, g, port_class,
            [&](int in, int, unsigned sl) -> std::uint8_t {
                if (!layers.empty() && sl >= base_sls)
                    return std::uint8_t(in == kHost ? 0 : base_vls - 1 + sl - base_sls);
                return in == kGlobal ? 1 : 0;
            },
            layers.empty() ? 16u : unsigned(base_sls + layers.size()));
        r.data_vls = std::uint8_t(layers.empty() ? base_vls : base_vls - 1 + layers.size());
        if (plan.vls > 2) {
            // Each detour's SL: its second global hop on VL 1, its last hop on VL 2.
            const auto set = [&](std::uint32_t v, std::uint32_t from, auto&& outs, std::uint8_t sl,
                                 std::uint8_t vl) {
                const NodeId node = g.node[v];
                const PortNum np = f.node(node).num_ports;
                for (PortNum in : ports.to(v, from))
                    for (PortNum out : outs)
                        r.sl2vl.tables[node][Sl2Vl::index(np, in, out)][sl] = vl;
            };
            for (std::size_t a = 0; a < groups; ++a)
                for (std::size_t h = 0; h < groups; ++h) {
                    const std::uint8_t sl = plan.sl[a * groups + h];
                    if (sl == 0) continue; // joined, or on layers
                    const std::size_t i = via[a * groups + h];
                    const std::uint32_t w = gate[i * groups + h], u = peer[i * groups + h],
                                        arriving = peer[a * groups + i];
                    if (arriving != w) set(w, arriving, ports.to(w, u), sl, 1);
                    std::vector<PortNum> last; // u's ports not cabled to another group
                    for (PortNum out = 0; out <= f.node(g.node[u]).num_ports; ++out)
                        if (port_class(f.port_id(g.node[u], out)) != kGlobal) last.push_back(out);
                    set(u, w, last, sl, 2);
                }
        }
        if (plan.vls > 2 || !layers.empty()) {
            // Path SLs by (source group, destination group), or the layer, a row per switch.
            r.path_sls = PathSlTable(f.num_port_slots(), r.lids.max_lid());
            std::vector<std::uint8_t> row(lids, 0);
            for (std::uint32_t x = 0; x < n; ++x) {
                for (Lid lid = 1; lid < lids; ++lid) {
                    const std::uint32_t y = target[lid].sw;
                    if (y == kNone || y == x) {
                        row[lid] = 0;
                        continue;
                    }
                    const std::uint8_t layer =
                        layer_of.empty() ? kOffLayer : layer_of[std::size_t(x) * n + y];
                    row[lid] =
                        layer != kOffLayer
                            ? std::uint8_t(base_sls + layer)
                            : plan.sl[std::size_t(s.group[x]) * groups + std::size_t(s.group[y])];
                }
                r.path_sls.set_switch_row(f, g.node[x], row);
            }
        }
        r.stats.emplace_back("groups", double(groups));
        r.stats.emplace_back("group_pairs_via_intermediate", double(plan.indirect));
        r.stats.emplace_back("group_pairs_with_local_hop_detour", double(plan.local_hop));
        r.stats.emplace_back("missing_local_links", double(s.missing_links.size()));
        r.stats.emplace_back("missing_global_links", double(s.missing_global_links));
        r.stats.emplace_back("group_pairs_via_several_groups", double(plan.far));
        r.stats.emplace_back("switch_pairs_local_detour_in_source_group", double(turned));
        r.stats.emplace_back("switch_pairs_on_layers", double(layered));
        r.stats.emplace_back("vl_layers", double(layers.size()));
        std::size_t most_lanes = 0;
        for (const auto& l : lanes) most_lanes = std::max(most_lanes, l.size());
        r.stats.emplace_back("global_links_used_per_pair", double(spread_lanes ? most_lanes : 1));
        if (std::find(escaped.begin(), escaped.end(), 1) != escaped.end()) {
            // Every LID of those destinations on the escape layer (engines/common/
            // escape_layer.hpp): the SL after the layers', the VL after theirs.
            std::vector<Lid> escape_lids;
            for (Lid lid = 1; lid < lids; ++lid)
                if (target[lid].sw != kNone && escaped[target[lid].sw]) escape_lids.push_back(lid);
            const auto esl = std::uint8_t(base_sls + layers.size());
            const std::uint8_t evl = r.data_vls;
            escape::route_on_escape_layer(f, {}, escape_lids,
                                          {.sl = esl, .vl = evl, .what = "dragonfly"}, r);
            // Ports run 1, 2, 4 or 8 data VLs (OperVLs): ask for the count that holds them all.
            r.data_vls = std::uint8_t(std::bit_ceil(unsigned(evl) + 1));
            r.stats.emplace_back("escaped_switches",
                                 double(std::count(escaped.begin(), escaped.end(), 1)));
            r.stats.emplace_back("escape_sl", esl);
            r.stats.emplace_back("escape_vl", evl);
        }
        direct::add_adaptive_sets(*this, opt, f, r);
        if (const auto letters = dragonfly::parse_adaptive(param_choice(opt, "adaptive"))) {
            if (r.forwarding_sets)
                throw std::invalid_argument(
                    "dragonfly: adaptive=" + std::string(param_choice(opt, "adaptive")) +
                    " is a routing of its own; give it without "
                    "distance_based or adaptive_links");
            r.forwarding_sets = dragonfly::adaptive_sets(f, r.lids, *letters);
        }
        return r;
    }
};

} // namespace

std::unique_ptr<Engine> make_dragonfly_engine() {
    return std::make_unique<DragonflyEngine>();
}

} // namespace ibrt
