// LIDs for the direct-topology engines; see direct_lids.hpp.
#include "engines/direct/direct_lids.hpp"

#include "fabric/display_name.hpp"
#include "fabric/end_ports.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ibrt::direct {

Lids direct_lids(const Fabric& f, const Lids* preassigned, const EngineOptions& opt,
                 std::string_view engine, std::uint8_t& lmc) {
    if (preassigned) {
        int most = 0;
        for (PortId p : all_end_ports(f)) {
            if (!preassigned->has_lid(p))
                throw RoutingError(fmt::format("{}: {} has no preassigned LID", engine,
                                               display_port(f, f.port_node(p), f.port_num(p))));
            most = std::max<int>(most, preassigned->lmc(p));
        }
        for (NodeId s : f.switches())
            if (!preassigned->has_lid(f.port_id(s, 0)))
                throw RoutingError(
                    fmt::format("{}: {} has no preassigned LID", engine, display_name(f, s)));
        lmc = static_cast<std::uint8_t>(most);
        return *preassigned;
    }
    const int want = opt.lmc ? *opt.lmc : 0;
    if (want < 0 || want > kMaxLmc)
        throw RoutingError(fmt::format("{}: LMC {} is outside 0..{}", engine, want, kMaxLmc));
    // End ports grouped by the switch they hang off, switches in GUID order (the mapping's),
    // so that one switch's destinations are consecutive LIDs: spreading DLIDs over parallel
    // cables by DLID mod the bundle size then spreads each switch's destinations evenly.
    std::vector<NodeId> switches(f.switches().begin(), f.switches().end());
    std::stable_sort(switches.begin(), switches.end(),
                     [&](NodeId a, NodeId b) { return f.node(a).guid < f.node(b).guid; });
    std::vector<PortId> order;
    std::vector<bool> taken(f.num_port_slots(), false);
    for (NodeId sw : switches)
        for (PortNum p = 1; p <= f.node(sw).num_ports; ++p) {
            const Port& port = f.port(sw, p);
            if (!port.connected() || f.node(port.peer_node).is_switch()) continue;
            const PortId e = f.port_id(port.peer_node, port.peer_port);
            if (is_end_port(f, e) && !taken[e]) {
                taken[e] = true;
                order.push_back(e);
            }
        }
    for (PortId e : all_end_ports(f))
        if (!taken[e]) order.push_back(e);
    // Aligned blocks of 2^lmc from LID `block` on; switches fill LIDs 1..block-1, then follow
    // the last block.
    const std::uint32_t block = 1u << want;
    const std::uint64_t above = f.switches().size() > block - 1 ? f.switches().size() : 0;
    if (std::uint64_t(order.size() + 1) * block + above > kMaxUnicastLid)
        throw RoutingError(fmt::format("{}: {} end ports at LMC {} and {} switches need more "
                                       "than the {} unicast LIDs",
                                       engine, order.size(), want, f.switches().size(),
                                       kMaxUnicastLid));
    Lids lids(f);
    std::uint32_t next = block;
    for (PortId e : order) {
        lids.assign(e, static_cast<Lid>(next), static_cast<std::uint8_t>(want));
        next += block;
    }
    std::uint32_t low = 1;
    for (NodeId sw : switches) {
        std::uint32_t& l = low < block ? low : next;
        lids.assign(f.port_id(sw, 0), static_cast<Lid>(l++), 0);
    }
    lmc = static_cast<std::uint8_t>(want);
    return lids;
}

} // namespace ibrt::direct
