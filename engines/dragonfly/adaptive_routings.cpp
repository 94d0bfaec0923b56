// Paper 003 §3.5's Dragonfly routings (engines/dragonfly/adaptive_routings.hpp).
#include "engines/dragonfly/adaptive_routings.hpp"

#include "engines/direct/dead_ends.hpp"
#include "engines/direct/neighbor_ports.hpp"
#include "fabric/display_name.hpp"
#include "mapping/link_classes.hpp"
#include "mapping/map_fabric.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ibrt::dragonfly {
namespace {

using mapping::kNone;

constexpr unsigned kVls = 6;
constexpr unsigned kFresh = 4; // the VL a host sends on (see the header)

enum PortClass { kHost = 0, kLocal = 1, kGlobal = 2, kNoClass = 3 };

} // namespace

std::optional<AdaptiveLetters> parse_adaptive(std::string_view choice) {
    if (choice == "none") return std::nullopt;
    if (std::find(std::begin(kAdaptiveChoices), std::end(kAdaptiveChoices), choice) ==
        std::end(kAdaptiveChoices))
        throw std::invalid_argument("dragonfly: adaptive=" + std::string(choice) +
                                    " is not a routing of paper 003 §3.5");
    AdaptiveLetters l;
    if (choice == "static") return l;
    l.g = choice.find('g') != std::string_view::npos;
    l.s = choice.find('s') != std::string_view::npos;
    l.i = choice.find('i') != std::string_view::npos;
    l.d = choice.find('d') != std::string_view::npos;
    return l;
}

std::shared_ptr<const RoutingFunction> adaptive_sets(const Fabric& f, const Lids& lids,
                                                     AdaptiveLetters letters) {
    const mapping::SwitchLinks g = mapping::switch_links(f);
    const mapping::Shape shape = mapping::map_fabric(f, g, mapping::link_classes(g));
    if (shape.family != mapping::Family::Dragonfly)
        throw RoutingError("adaptive Dragonfly routing: the fabric is not a Dragonfly (" +
                           mapping::why_not_wanted(shape) + ")");
    // Missing cables are routed round by the same rules over the cables present, pruned of
    // dead ends (see the header); missing switches decline.
    bool damaged = !shape.missing_links.empty() || shape.missing_global_links > 0;
    if (!shape.missing_switches.empty())
        throw RoutingError(fmt::format(
            "adaptive Dragonfly routing needs a complete Dragonfly ({} switches, {} local and "
            "{} global links are missing); use distance_based for damaged fabrics",
            shape.missing_switches.size(), shape.missing_links.size(), shape.missing_global_links));
    const std::size_t n = g.num_switches(), groups = std::size_t(shape.groups);
    const direct::NeighborPorts ports(f, g);
    std::vector<std::vector<std::uint32_t>> members(groups);
    for (std::uint32_t v = 0; v < n; ++v) members[std::size_t(shape.group[v])].push_back(v);
    const auto group = [&](std::uint32_t v) { return std::size_t(shape.group[v]); };

    // gate[a * groups + b]: the switch of group a cabled to group b (kNone: not joined).
    std::vector<std::uint32_t> gate(groups * groups, kNone);
    for (const auto& l : g.links)
        if (group(l.a) != group(l.b)) {
            gate[group(l.a) * groups + group(l.b)] = l.a;
            gate[group(l.b) * groups + group(l.a)] = l.b;
        }
    // A pair of groups not joined or a group not complete is damage too, whatever the
    // mapping's counts say.
    for (std::size_t a = 0; a < groups; ++a)
        for (std::size_t b = 0; b < groups; ++b) damaged |= a != b && gate[a * groups + b] == kNone;
    for (const auto& m : members)
        for (std::uint32_t u : m)
            for (std::uint32_t w : m) damaged |= u != w && !ports.linked(u, w);

    // Each switch port's class, and each switch's global ports with the group they lead to.
    std::vector<std::vector<std::uint8_t>> port_class(n);
    std::vector<std::vector<std::pair<PortNum, std::size_t>>> globals(n);
    for (std::uint32_t x = 0; x < n; ++x) {
        const NodeId sw = g.node[x];
        auto& pc = port_class[x];
        pc.assign(std::size_t(f.node(sw).num_ports) + 1, kNoClass);
        for (PortNum p = 1; p <= f.node(sw).num_ports; ++p) {
            const Port& q = f.port(sw, p);
            if (!q.connected()) continue;
            const std::uint32_t y = g.dense[q.peer_node];
            if (y == kNone) {
                pc[p] = kHost;
            } else if (group(y) == group(x)) {
                pc[p] = kLocal;
            } else {
                pc[p] = kGlobal;
                globals[x].push_back({p, group(y)});
            }
        }
    }

    const std::vector<direct::LidTarget> target = direct::lid_targets(f, g, lids);
    const Lid max_lid = lids.max_lid();
    std::vector<std::vector<Lid>> lids_of(n); // the end-port LIDs each switch delivers
    for (Lid l = 1; l <= max_lid; ++l)
        if (target[l].sw != kNone && target[l].port != 0) lids_of[target[l].sw].push_back(l);

    auto rf = std::make_shared<RoutingFunction>(f, max_lid, kVls, false);
    rf->vl_by_in_vl = true;
    std::vector<Candidate> cands;
    // Toward another group the set depends on the group only: one per (group, VL) and switch.
    std::vector<std::uint32_t> to_group(groups * kVls);
    for (std::uint32_t x = 0; x < n; ++x) {
        const NodeId sw = g.node[x];
        const std::size_t gx = group(x);
        const auto add_local = [&](std::uint32_t y, std::uint8_t prio) {
            if (y == kNone) return; // a damaged fabric's missing gateway
            for (PortNum p : ports.to(x, y)) cands.push_back({p, prio});
        };
        // Damaged: where the minimal local hop's cable is missing, the hop S, I or D would
        // take instead (where the letter is not there to offer it), to the switches of the
        // group cabled to its target (see the header).
        const auto detour_to = [&](std::uint32_t to) {
            if (!damaged || !cands.empty() || to == kNone) return;
            for (std::uint32_t y : members[gx])
                if (y != x && y != to && ports.linked(y, to)) add_local(y, 1);
        };
        std::fill(to_group.begin(), to_group.end(), RoutingFunction::kNoSet);
        for (std::uint32_t t = 0; t < n; ++t) {
            if (lids_of[t].empty()) continue;
            if (t == x) { // deliver, whatever the VL
                for (Lid l : lids_of[t]) {
                    const Candidate c{target[l].port, 0};
                    const std::uint32_t id = rf->intern({&c, 1});
                    for (unsigned v = 0; v < kVls; ++v) rf->set_entry(sw, v, 0, l, id);
                }
                continue;
            }
            const std::size_t gt = group(t);
            for (unsigned v = 0; v < kVls; ++v) {
                std::uint32_t& cached = to_group[gt * kVls + v];
                if (gx != gt && cached != RoutingFunction::kNoSet) {
                    for (Lid l : lids_of[t]) rf->set_entry(sw, v, 0, l, cached);
                    continue;
                }
                cands.clear();
                if (gx == gt) {
                    // Destination group: VL 1 or 3 just arrived by a global hop (D offered).
                    add_local(t, 0);
                    if (((v == 1 || v == 3) && !letters.d) || v == kFresh) detour_to(t);
                    if (letters.d && (v == 1 || v == 3))
                        for (std::uint32_t y : members[gx])
                            if (y != x && y != t) add_local(y, 1);
                } else {
                    const std::uint32_t gw = gate[gx * groups + gt];
                    if (x == gw) {
                        for (const auto& [p, h] : globals[x])
                            if (h == gt) cands.push_back({p, 0});
                    } else {
                        add_local(gw, 0);
                        if ((v == kFresh && !letters.s) || (v == 1 && !letters.i)) detour_to(gw);
                    }
                    // S: fresh from the host; from the gateway only with G (see the header).
                    if (letters.s && v == kFresh && (x != gw || letters.g))
                        for (std::uint32_t y : members[gx])
                            if (y != x && y != gw) add_local(y, 1);
                    // I: VL 1 off the gateway is a packet just arrived in an intermediate group
                    // (two source-group local hops end at the gateway).
                    if (letters.i && v == 1 && x != gw)
                        for (std::uint32_t y : members[gx])
                            if (y != x && y != gw) add_local(y, 1);
                    // G: in the source group with at most one local hop taken.
                    if (letters.g && (v == kFresh || v == 0))
                        for (const auto& [p, h] : globals[x])
                            if (h != gt) cands.push_back({p, 1});
                }
                const std::uint32_t id = rf->intern(cands);
                if (gx != gt) cached = id;
                for (Lid l : lids_of[t]) rf->set_entry(sw, v, 0, l, id);
            }
        }
    }
    rf->compact();

    // VL2VL by (input port class, output port class, input VL); what no path takes is dropped,
    // so that a table that led a packet there would show in `ibrt check --tables` as stuck.
    Sl2VlTable to_host = kSl2VlDropAll, host_local = kSl2VlDropAll, local_local = kSl2VlDropAll,
               global_local = kSl2VlDropAll, host_global = kSl2VlDropAll,
               local_global = kSl2VlDropAll, global_global = kSl2VlDropAll;
    for (unsigned v = 0; v < kVls; ++v) to_host[v] = std::uint8_t(v);
    host_local[kFresh] = 0;                // first source-group local hop
    local_local[0] = 1;                    // second one
    local_local[2] = 3;                    // second after a global hop
    local_local[4] = 5;                    // second in the destination group
    global_local[1] = 2;                   // first after the first global hop
    global_local[3] = 4;                   // first after the second
    host_global[kFresh] = 1;               // out of the source group
    local_global[0] = local_global[1] = 1; // out of the source group
    local_global[2] = local_global[3] = 3; // out of the intermediate group
    global_global[1] = 3;                  // through an intermediate's gateway
    const Sl2VlTable* rule[3][3] = {{&to_host, &host_local, &host_global},
                                    {&to_host, &local_local, &local_global},
                                    {&to_host, &global_local, &global_global}};
    rf->vl2vl.tables.assign(f.num_nodes(), {});
    for (std::uint32_t x = 0; x < n; ++x) {
        const NodeId sw = g.node[x];
        const PortNum np = f.node(sw).num_ports;
        auto& tab = rf->vl2vl.tables[sw];
        tab.assign(Sl2Vl::size(np), kSl2VlDropAll);
        for (PortNum in = 1; in <= np; ++in)
            for (PortNum out = 1; out <= np; ++out) {
                const std::uint8_t ci = port_class[x][in], co = port_class[x][out];
                if (ci == kNoClass || co == kNoClass) continue;
                tab[Sl2Vl::index(np, in, out)] = *rule[ci][co];
            }
    }
    // Hosts send on VL 4 whatever the SL.
    Sl2VlTable fresh;
    fresh.fill(std::uint8_t(kFresh));
    for (NodeId ca : f.cas()) {
        const PortNum np = f.node(ca).num_ports;
        auto& tab = rf->vl2vl.tables[ca];
        tab.assign(Sl2Vl::size(np), kSl2VlDropAll);
        for (PortNum p = 1; p <= np; ++p) tab[Sl2Vl::index(np, 0, p)] = fresh;
    }
    if (damaged) return direct::prune_dead_ends(f, lids, *rf, kVls, "adaptive Dragonfly routing");
    return rf;
}

} // namespace ibrt::dragonfly
