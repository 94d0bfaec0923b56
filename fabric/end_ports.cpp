// The end-port rule; see end_ports.hpp.
#include "fabric/end_ports.hpp"

namespace ibrt {

bool is_end_port(const Fabric& f, PortId p, const Lids* lids) {
    const NodeId n = f.port_node(p);
    if (f.node(n).is_switch() || f.port_num(p) == 0) return false;
    if (!f.port(p).connected()) return false;
    return lids == nullptr || lids->has_lid(p);
}

std::vector<PortId> end_ports(const Fabric& f, NodeId n, const Lids* lids) {
    std::vector<PortId> out;
    if (f.node(n).is_switch()) return out;
    for (PortNum p = 1; p <= f.node(n).num_ports; ++p)
        if (is_end_port(f, f.port_id(n, p), lids)) out.push_back(f.port_id(n, p));
    return out;
}

PortId first_end_port(const Fabric& f, NodeId n, const Lids* lids) {
    if (f.node(n).is_switch()) return kNoPort;
    for (PortNum p = 1; p <= f.node(n).num_ports; ++p)
        if (is_end_port(f, f.port_id(n, p), lids)) return f.port_id(n, p);
    return kNoPort;
}

std::vector<PortId> all_end_ports(const Fabric& f, const Lids* lids) {
    std::vector<PortId> out;
    for (NodeId n : f.cas())
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p)
            if (is_end_port(f, f.port_id(n, p), lids)) out.push_back(f.port_id(n, p));
    return out;
}

} // namespace ibrt
