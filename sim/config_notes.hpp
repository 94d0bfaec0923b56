// What a simulation's configuration means on the routing it runs, said before it runs (issue
// 12, "ibrt sim must not call a stalled network healthy"): which DLIDs the sources use when
// destinations have several LIDs, VLs that are configured but carry no traffic (a 4-VL run
// whose paths are all on SL 0 measures a 1-VL network), and VLs that carry traffic the VL
// arbitration never serves. docs/sim-model.md, "End nodes" and "Switches".
#pragma once

#include "sim/simulator.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ibrt::sim {

// VLs (bit v) that packets can take: the SLs the sources use (every path SL of an end node's
// LIDs, or 0..VLs-1 with SlPolicy::Spread) through every SL2VL table, or the default mapping
// where a node has none. VLs the configuration drops (>= num_vls) are left out. A superset of
// what a run uses: every (in, out) pair of a table counts.
std::uint32_t vls_carrying_traffic(const Fabric& f, const Routing& r, const SimConfig& cfg);

// VLs (bit v) the VL arbitration serves: a positive weight in either table (with one VL, and
// with both tables empty, every VL).
std::uint32_t vls_served(const SimConfig& cfg);

// One sentence per note, without a prefix; empty when there is nothing to say.
std::vector<std::string> config_notes(const Fabric& f, const Routing& r, const SimConfig& cfg);

} // namespace ibrt::sim
