// Test support: the same cabling under other names. Node order, GUIDs, descriptions and port
// numbers are all shuffled (paper 003 §2: mapping may use only the cabling), and the original
// description of each node is kept aside so a test can compare with the generator's labels.
#pragma once

#include "fabric/fabric.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace ibrt::test {

struct Relabelled {
    Fabric fabric;
    std::vector<std::string> original_desc; // by new NodeId
};

// only_order: shuffle the node order alone (GUIDs, descriptions and ports kept), as opensm's
// snapshot of a subnet lists the nodes of an ibnetdiscover file in another order.
inline Relabelled relabel(const Fabric& f, std::uint64_t seed, bool only_order = false) {
    std::mt19937_64 rng(seed);
    std::vector<NodeId> order(f.num_nodes());
    std::iota(order.begin(), order.end(), NodeId{0});
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<NodeId> new_id(f.num_nodes());
    std::vector<std::vector<PortNum>> port_map(f.num_nodes()); // old port -> new port
    FabricBuilder b;
    Relabelled out;
    for (NodeId old : order) {
        const Node& n = f.node(old);
        std::vector<PortNum> ports(n.num_ports);
        std::iota(ports.begin(), ports.end(), PortNum{1});
        if (!only_order) std::shuffle(ports.begin(), ports.end(), rng);
        port_map[old].assign(1, 0);
        port_map[old].insert(port_map[old].end(), ports.begin(), ports.end());
        const std::uint64_t guid = (rng() | 1) << 8 >> 8 << 8; // low byte free for ports
        new_id[old] = only_order ? b.add_node(n.type, n.num_ports, n.guid, n.desc)
                                 : b.add_node(n.type, n.num_ports, guid,
                                              "node " + std::to_string(rng() % 100000));
        out.original_desc.push_back(n.desc);
    }
    for (NodeId a = 0; a < f.num_nodes(); ++a)
        for (PortNum p = 1; p <= f.node(a).num_ports; ++p) {
            const Port& port = f.port(a, p);
            if (!port.connected() || port.peer_node < a ||
                (port.peer_node == a && port.peer_port < p))
                continue;
            b.connect(new_id[a], port_map[a][p], new_id[port.peer_node],
                      port_map[port.peer_node][port.peer_port], port.width, port.speed);
        }
    out.fabric = std::move(b).build();
    return out;
}

} // namespace ibrt::test
