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
// further VLs"): when groups g and h are not joined, g's traffic to h goes to an intermediate
// group i whose arriving switch w is itself i's gateway to h. The path is local, global g->i,
// global i->h, local, with no local hop in i. That needs no further VL: the second global hop
// enters from a global port and goes on VL 1, and what follows it on VL 1 is at most the
// local hop to the destination switch, which leads only to the destination. VL 1 channels
// therefore never wait on a channel that waits on them. A missing gateway switch is a missing
// global link. Intermediate groups are spread over the destination groups. A local hop in the
// intermediate group would not do: it would leave for the second global hop from a local
// port, exactly as the first global hop does, so (in port, out port, SL) could not give the
// two different VLs, and the first global hop would wait on the second.
// How often such an intermediate exists depends on the global cabling. On the "absolute"
// arrangement (fabric/generators/dragonfly.hpp) global links form cliques of h+1 routers, and
// only a missing link inside a clique has intermediates (its other members): in the
// (a, h, p) = (6, 3, 3) Dragonfly, 9 of the 72 single global links of groups 0-3 can fail and
// be routed. Routing the rest within the IBA needs more than (in port, out port, SL) can say.
//
// Not routed (the engine declines and names the pair): a group whose switches are not all
// cabled to each other, where a local hop would need a detour and the order above has no
// VL for it, and pairs of groups with no usable intermediate group. opensm then routes with
// the next engine.
#include "engines/direct/direct_lids.hpp"
#include "engines/direct/neighbor_ports.hpp"
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

  protected:
    Routing compute(const Fabric& f, const Lids* preassigned,
                    const EngineOptions& opt) const override {
        const mapping::SwitchLinks g = mapping::switch_links(f);
        const mapping::Shape s = mapping::map_fabric(f, g, mapping::link_classes(g));
        if (s.family != mapping::Family::Dragonfly)
            throw RoutingError(
                fmt::format("dragonfly: the fabric is not a Dragonfly ({})",
                            s.family == mapping::Family::Unknown
                                ? s.why_not
                                : "it maps as a " + std::string(mapping::family_name(s.family))));
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
        // via[g * groups + h]: g's intermediate group toward h, g itself when joined directly.
        std::vector<std::size_t> via(groups * groups, groups);
        for (std::size_t a = 0; a < groups; ++a)
            for (std::size_t h = 0; h < groups; ++h) {
                if (a == h) continue;
                if (gate[a * groups + h] != kNone) {
                    via[a * groups + h] = a;
                    continue;
                }
                std::vector<std::size_t> cand;
                for (std::size_t i = 0; i < groups; ++i)
                    if (i != a && i != h && gate[a * groups + i] != kNone &&
                        peer[a * groups + i] == gate[i * groups + h])
                        cand.push_back(i);
                if (cand.empty())
                    throw RoutingError(fmt::format(
                        "dragonfly: groups {} and {} are not joined, and no group's switch "
                        "reached from {} has the global link to {}",
                        a, h, a, h));
                via[a * groups + h] = cand[(a + h) % cand.size()];
            }

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
        r.data_vls = 2;
        r.stats.emplace_back("groups", double(groups));
        std::size_t indirect = 0;
        for (std::size_t a = 0; a < groups; ++a)
            for (std::size_t h = 0; h < groups; ++h) indirect += a != h && via[a * groups + h] != a;
        r.stats.emplace_back("group_pairs_via_intermediate", double(indirect));
        return r;
    }
};

} // namespace

std::unique_ptr<Engine> make_dragonfly_engine() {
    return std::make_unique<DragonflyEngine>();
}

} // namespace ibrt
