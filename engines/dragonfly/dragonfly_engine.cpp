// The `dragonfly` engine: paper 003 §3.5's Static routing on a Dragonfly mapped from the
// cabling alone (§2.2, mapping/map_fabric.hpp): in the source group a local hop to the switch
// that has the global link to the destination group, the global hop, and in the destination
// group a local hop to the destination switch.
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
// Not routed (the engine declines and names the pair): a group whose switches are not all
// cabled to each other, where a local hop would need a detour and the order above has no
// VL for it, and pairs of groups with no group joined to both. opensm then routes with the
// next engine.
#include "engines/direct/direct_lids.hpp"
#include "engines/direct/distance_based.hpp"
#include "engines/direct/neighbor_ports.hpp"
#include "engines/dragonfly/group_detours.hpp"
#include "engines/engine.hpp"
#include "fabric/display_name.hpp"
#include "mapping/map_fabric.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ibrt {
namespace {

using mapping::kNone;

enum PortClass { kHost = 0, kLocal = 1, kGlobal = 2 };

class DragonflyEngine final : public Engine {
  public:
    std::string_view name() const override { return "dragonfly"; }
    std::span<const EngineParam> params() const override { return direct::kDistanceParams; }

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
        // Within a group every two switches are cabled: the local hop has no detour.
        std::vector<std::vector<std::uint32_t>> members(groups);
        for (std::uint32_t v = 0; v < n; ++v) members[std::size_t(s.group[v])].push_back(v);
        for (const auto& m : members)
            for (std::size_t i = 0; i < m.size(); ++i)
                for (std::size_t j = i + 1; j < m.size(); ++j)
                    if (!ports.linked(m[i], m[j]))
                        throw RoutingError(fmt::format(
                            "dragonfly: {} and {} are in one group but not cabled to each other: "
                            "a local hop between them would need a detour",
                            display_name(f, g.node[m[i]]), display_name(f, g.node[m[j]])));
        // gate[g * groups + h]: the switch of group g cabled to group h (kNone if none).
        std::vector<std::uint32_t> gate(groups * groups, kNone), peer(groups * groups, kNone);
        for (const auto& l : g.links) {
            const std::size_t ga = std::size_t(s.group[l.a]), gb = std::size_t(s.group[l.b]);
            if (ga == gb) continue;
            gate[ga * groups + gb] = l.a;
            peer[ga * groups + gb] = l.b;
            gate[gb * groups + ga] = l.b;
            peer[gb * groups + ga] = l.a;
        }
        const dragonfly::GroupDetours plan = dragonfly::plan_group_detours(groups, gate, peer);
        const std::vector<std::size_t>& via = plan.via;

        Routing r;
        r.lids = direct::direct_lids(f, preassigned, opt, "dragonfly", r.lmc);
        const std::size_t lids = std::size_t(r.lids.max_lid()) + 1;
        r.lft.assign(f.num_nodes(), {});
        for (NodeId sw : f.switches()) r.lft[sw].assign(lids, kNoPath);
        const std::vector<direct::LidTarget> target = direct::lid_targets(f, g, r.lids);
        for (std::uint32_t x = 0; x < n; ++x) { // each LFT written in order
            Lft& lft = r.lft[g.node[x]];
            const std::size_t gx = std::size_t(s.group[x]);
            for (Lid lid = 1; lid < lids; ++lid) {
                const std::uint32_t y = target[lid].sw;
                if (y == kNone) continue;
                if (y == x) {
                    lft[lid] = target[lid].port;
                    continue;
                }
                const std::size_t h = std::size_t(s.group[y]);
                std::uint32_t t = y; // same group: the local hop
                if (gx != h) {
                    const std::size_t i = via[gx * groups + h];
                    const std::size_t first = i == gx ? h : i; // the group of the global hop
                    const std::uint32_t a = gate[gx * groups + first];
                    t = x == a ? peer[gx * groups + first] : a;
                }
                lft[lid] = ports.spread(x, t, lid);
            }
        }

        const auto port_class = [&](PortId p) {
            const Port& port = f.port(p);
            if (f.port_num(p) == 0 || !port.connected() || g.dense[port.peer_node] == kNone)
                return int(kHost);
            const std::uint32_t v = g.dense[f.port_node(p)], t = g.dense[port.peer_node];
            return s.group[v] == s.group[t] ? int(kLocal) : int(kGlobal);
        };
        r.sl2vl = direct::sl2vl_by_port(
            f, g, port_class,
            [](int in, int, unsigned) -> std::uint8_t { return in == kGlobal ? 1 : 0; },
            16); // every SL alike: the SA's SL (opensm's QoS policy) is kept
        r.data_vls = plan.vls;
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
                    const std::size_t i = via[a * groups + h];
                    if (i == a || i == groups) continue;
                    const std::uint8_t sl = plan.sl[a * groups + h];
                    const std::uint32_t w = gate[i * groups + h], u = peer[i * groups + h],
                                        arriving = peer[a * groups + i];
                    if (arriving != w) set(w, arriving, ports.to(w, u), sl, 1);
                    std::vector<PortNum> last; // u's ports not cabled to another group
                    for (PortNum out = 0; out <= f.node(g.node[u]).num_ports; ++out)
                        if (port_class(f.port_id(g.node[u], out)) != kGlobal) last.push_back(out);
                    set(u, w, last, sl, 2);
                }
            // Path SLs by (source group, destination group), a row per switch.
            r.path_sls = PathSlTable(f.num_port_slots(), r.lids.max_lid());
            std::vector<std::uint8_t> row(lids, 0);
            for (std::uint32_t x = 0; x < n; ++x) {
                const std::size_t gx = std::size_t(s.group[x]);
                for (Lid lid = 1; lid < lids; ++lid)
                    row[lid] = target[lid].sw == kNone
                                   ? 0
                                   : plan.sl[gx * groups + std::size_t(s.group[target[lid].sw])];
                r.path_sls.set_switch_row(f, g.node[x], row);
            }
        }
        r.stats.emplace_back("groups", double(groups));
        r.stats.emplace_back("group_pairs_via_intermediate", double(plan.indirect));
        r.stats.emplace_back("group_pairs_with_local_hop_detour", double(plan.local_hop));
        direct::add_adaptive_sets(*this, opt, f, r);
        return r;
    }
};

} // namespace

std::unique_ptr<Engine> make_dragonfly_engine() {
    return std::make_unique<DragonflyEngine>();
}

} // namespace ibrt
