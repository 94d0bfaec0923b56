// Summary numbers of a fabric for `ibrt info`: node and cable counts, switch radix, the link
// width/speed mix (IBA vol. 1 §14.2.5.6 PortInfo LinkWidthActive / LinkSpeedActive, printed the
// way ibnetdiscover does, e.g. "4xEDR"), LID/LMC coverage of the end ports (IBA §7.11.1),
// connected components, and the switch levels seen from the end nodes (graph/fabric_walks.hpp).
// A pure function of the Fabric so that it is unit-tested on builder-made fabrics.
#pragma once

#include "fabric/fabric.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ibrt {

struct FabricStats {
    std::size_t switches = 0, cas = 0, routers = 0;
    std::size_t links = 0;                 // cables, each counted once
    std::size_t switch_links = 0;          // switch <-> switch
    std::size_t end_links = 0;             // switch <-> CA/router
    std::size_t end_to_end_links = 0;      // CA/router <-> CA/router (back-to-back cables)
    std::size_t unconnected_end_nodes = 0; // CAs/routers with no cabled port

    struct Count {
        unsigned value = 0;
        std::size_t count = 0;
    };
    std::vector<Count> radix;      // switch port count -> switches, ascending
    std::vector<Count> used_ports; // cabled ports per switch -> switches, ascending

    struct LinkKind {
        std::uint8_t width = 0; // lanes, 0 = unknown
        LinkSpeed speed = LinkSpeed::Unknown;
        std::size_t count = 0;
        std::string name() const; // "4xEDR"; unknown parts print as "?" / "??"
    };
    std::vector<LinkKind> link_kinds; // ascending by width, then speed

    // End ports: switch port 0 and every cabled CA/router port (fabric/end_ports.hpp).
    std::size_t end_ports = 0;
    std::size_t end_ports_with_lid = 0;
    std::vector<Count> lmc; // LMC -> end ports with a LID, ascending
    Lid max_lid = 0;        // highest LID in use (base + 2^LMC - 1), 0 if none

    std::vector<std::size_t> component_sizes; // nodes per connected component, descending

    // switches_by_level[i] = switches at BFS distance i from the nearest end node; index 0
    // is always 0 (only end nodes are at level 0). Empty when no switch is reached.
    std::vector<std::size_t> switches_by_level;
    std::size_t unreached_switches = 0; // switches no CA/router reaches
};

FabricStats compute_fabric_stats(const Fabric& f);

} // namespace ibrt
