// Converts opensm's discovered subnet into ibrt's Fabric and Lids, so that engines never see
// an opensm type (docs/architecture.md: only engines/opensm/ touches them).
#pragma once

#include "engines/opensm/osm_includes.hpp"
#include "fabric/fabric.hpp"
#include "fabric/lids.hpp"

#include <unordered_map>
#include <vector>

namespace ibrt::osm {

struct SubnetSnapshot {
    Fabric fabric;
    Lids lids;                            // what opensm assigned (base LID, LMC per end port)
    std::vector<osm_switch_t*> switch_of; // per NodeId; nullptr for non-switches
    std::unordered_map<std::uint64_t, NodeId> node_by_guid; // for SL2VL callbacks (edge only)
};

// Nodes are taken in ascending node GUID order so the result does not depend on opensm's
// qmap order (keys are network-order GUIDs). Only links whose both ends were discovered are
// cabled. Throws std::runtime_error on an inconsistent subnet.
SubnetSnapshot snapshot_subnet(osm_subn_t& subn);

} // namespace ibrt::osm
