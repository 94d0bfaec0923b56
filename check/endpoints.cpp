// Endpoint collection; see endpoints.hpp.
#include "check/endpoints.hpp"

#include "fabric/end_ports.hpp"

namespace ibrt::check {

Endpoints collect_endpoints(const Fabric& f, const Lids& lids) {
    Endpoints e;
    e.count_at.assign(f.num_nodes(), 0);
    e.first_at.assign(f.num_nodes(), Endpoints::kNone);
    e.index_of_port.assign(f.num_port_slots(), Endpoints::kNone);
    const auto cas = f.cas();
    for (std::uint32_t ci = 0; ci < cas.size(); ++ci) {
        const NodeId n = cas[ci];
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
            const PortId id = f.port_id(n, p);
            if (!is_end_port(f, id, &lids)) continue;
            const Port& port = f.port(id);
            const auto idx = static_cast<std::uint32_t>(e.ports.size());
            const bool to_switch = f.node(port.peer_node).is_switch();
            e.ports.push_back(id);
            e.switch_of.push_back(to_switch ? port.peer_node : kNoNode);
            e.ca_index.push_back(ci);
            e.index_of_port[id] = idx;
            if (to_switch) {
                if (e.count_at[port.peer_node]++ == 0) e.first_at[port.peer_node] = idx;
            } else {
                e.has_direct_ca_links = true;
            }
        }
    }
    for (NodeId n : f.switches())
        if (e.count_at[n] > 0) e.source_switches.push_back(n);
    return e;
}

} // namespace ibrt::check
