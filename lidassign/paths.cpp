// Paper 001 §II, Definition 1 and the path model (directed multigraph, edges = out ports).
#include "lidassign/paths.hpp"

#include <stdexcept>
#include <string>

namespace ibrt::lidassign {

void validate(const Fabric& f, const DestPaths& d) {
    std::vector<std::uint32_t> seen(f.num_nodes(), 0);
    for (std::size_t i = 0; i < d.size(); ++i) {
        const auto p = d.path(i);
        const std::string where = "path " + std::to_string(i) + ": ";
        if (p.empty()) throw std::invalid_argument(where + "empty");
        const auto stamp = static_cast<std::uint32_t>(i + 1);
        for (std::size_t j = 0; j < p.size(); ++j) {
            if (p[j] >= f.num_port_slots()) throw std::invalid_argument(where + "bad port id");
            const NodeId n = f.port_node(p[j]);
            if (seen[n] == stamp) throw std::invalid_argument(where + "visits a node twice");
            seen[n] = stamp;
            const Port& port = f.port(p[j]);
            if (!port.connected()) throw std::invalid_argument(where + "uses an unconnected port");
            const NodeId next = port.peer_node;
            if (j + 1 < p.size() ? f.port_node(p[j + 1]) != next : next != d.dst)
                throw std::invalid_argument(where + "is not contiguous or misses the destination");
        }
        if (seen[d.dst] == stamp) throw std::invalid_argument(where + "visits a node twice");
    }
}

bool split(const Fabric& f, std::span<const PortId> p, std::span<const PortId> q) {
    // Paths are short (tens of hops): the quadratic scan beats any setup.
    for (PortId a : p)
        for (PortId b : q)
            if (a != b && f.port_node(a) == f.port_node(b)) return true;
    return false;
}

} // namespace ibrt::lidassign
