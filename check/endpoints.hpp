// The end ports that send and receive traffic in every check (fabric/end_ports.hpp: CA and
// router ports that are cabled and own a LID; a dual-port HCA is two), grouped by the switch
// they hang off. Grouping is what lets the checks walk once per (source switch, DLID) and
// weight the result by the number of CAs behind that switch.
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/lids.hpp"

#include <cstdint>
#include <vector>

namespace ibrt::check {

struct Endpoints {
    std::vector<PortId> ports;                // in node order, then port order
    std::vector<NodeId> switch_of;            // the switch each port is cabled to; kNoNode if a CA
    std::vector<std::uint32_t> ca_index;      // index of the port's node in Fabric::cas()
    std::vector<std::uint32_t> count_at;      // per node: endpoints cabled to it
    std::vector<std::uint32_t> first_at;      // per node: an endpoint index cabled to it
    std::vector<NodeId> source_switches;      // switches with at least one endpoint, ascending
    std::vector<std::uint32_t> index_of_port; // per port slot: endpoint index or kNone
    bool has_direct_ca_links = false;         // some endpoint is cabled straight to a CA
    static constexpr std::uint32_t kNone = 0xffffffffu;
};

Endpoints collect_endpoints(const Fabric& f, const Lids& lids);

} // namespace ibrt::check
