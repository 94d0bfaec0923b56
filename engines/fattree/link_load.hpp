// Static link load of a routing under all-to-all traffic: every ordered pair of distinct CAs
// sends one flow along the path its selected DLID (Routing::dlid_choice, else the base LID)
// takes through the LFTs; each switch-to-switch link direction counts the flows crossing it.
// This is the balance measure of paper 000 §4 (Figures 7-9) without the simulator, used by
// `ibrt route` reports and to compare LMC policies (docs/engines/mlid.md).
#pragma once

#include "fabric/routing.hpp"

#include <cstdint>
#include <vector>

namespace ibrt::fattree {

struct LinkLoad {
    std::vector<std::uint64_t> flows; // per PortId of the sending switch port
    std::uint64_t max = 0, min = 0;   // over switch-to-switch link directions
    double mean = 0;
    std::size_t links = 0;      // switch-to-switch link directions
    std::uint64_t unrouted = 0; // flows that did not arrive
};

// Cost O(CAs^2 + CAs * 2^LMC * leaves * hops): flows are counted per (source switch, DLID)
// and each such bundle is walked once.
LinkLoad all_to_all_load(const Fabric& f, const Routing& r);

} // namespace ibrt::fattree
