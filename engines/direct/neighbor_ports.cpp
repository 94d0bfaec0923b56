// Ports toward neighbours and SL2VL tables from a port rule; see neighbor_ports.hpp.
#include "engines/direct/neighbor_ports.hpp"

#include <algorithm>

namespace ibrt::direct {

NeighborPorts::NeighborPorts(const Fabric& f, const mapping::SwitchLinks& g)
    : peers_(g.num_switches()), ports_(g.num_switches()) {
    for (std::uint32_t v = 0; v < g.num_switches(); ++v) {
        const NodeId node = g.node[v];
        std::vector<std::pair<std::uint32_t, PortNum>> cables;
        for (PortNum p = 1; p <= f.node(node).num_ports; ++p) {
            const Port& port = f.port(node, p);
            if (port.connected() && g.dense[port.peer_node] != mapping::kNone)
                cables.emplace_back(g.dense[port.peer_node], p);
        }
        std::sort(cables.begin(), cables.end());
        for (const auto& [t, p] : cables) {
            peers_[v].push_back(t);
            ports_[v].push_back(p);
        }
    }
}

std::span<const PortNum> NeighborPorts::to(std::uint32_t v, std::uint32_t t) const {
    const auto& peers = peers_[v];
    const auto [lo, hi] = std::equal_range(peers.begin(), peers.end(), t);
    return {ports_[v].data() + (lo - peers.begin()), std::size_t(hi - lo)};
}

std::vector<LidTarget> lid_targets(const Fabric& f, const mapping::SwitchLinks& g,
                                   const Lids& lids) {
    std::vector<LidTarget> out(std::size_t(lids.max_lid()) + 1);
    for (Lid lid = 1; lid <= lids.max_lid(); ++lid) {
        const PortId owner = lids.owner(lid);
        if (owner == kNoPort) continue;
        const std::uint32_t y = g.dense[f.port_node(owner)];
        if (y != mapping::kNone) {
            out[lid] = {y, 0};
            continue;
        }
        const Port& p = f.port(owner);
        if (p.connected() && g.dense[p.peer_node] != mapping::kNone)
            out[lid] = {g.dense[p.peer_node], p.peer_port};
    }
    return out;
}

Sl2Vl sl2vl_by_port(const Fabric& f, const mapping::SwitchLinks& g,
                    const std::function<int(PortId)>& port_class,
                    const std::function<std::uint8_t(int in, int out, unsigned sl)>& vl,
                    unsigned used_sls) {
    Sl2Vl s;
    s.tables.assign(f.num_nodes(), {});
    for (std::uint32_t v = 0; v < g.num_switches(); ++v) {
        const NodeId node = g.node[v];
        const PortNum np = f.node(node).num_ports;
        auto& tables = s.tables[node];
        tables.assign(Sl2Vl::size(np), Sl2VlTable{});
        for (PortNum in = 0; in <= np; ++in) {
            const int ci = port_class(f.port_id(node, in));
            for (PortNum out = 0; out <= np; ++out) {
                const int co = port_class(f.port_id(node, out));
                Sl2VlTable& t = tables[Sl2Vl::index(np, in, out)];
                for (unsigned sl = 0; sl < 16; ++sl) t[sl] = sl < used_sls ? vl(ci, co, sl) : 15;
            }
        }
    }
    return s;
}

} // namespace ibrt::direct
