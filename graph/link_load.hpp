// Routed load on links and its statistics, defined once: which links a balance figure is taken
// over (directed switch-to-switch links; a CA's own link carries that CA's traffic whatever the
// routing) and the figures (max, min, mean, population stddev, max/mean). `ibrt check`'s
// balance and `ibrt route`'s report.json (check/balance.hpp) and paper 001's maximum link load
// (lidassign/path_compute.hpp, §VI) all use these, so they cannot disagree (a test holds the
// separate engine's figure equal to the checker's over its tables).
#pragma once

#include "fabric/fabric.hpp"

#include <cstdint>
#include <vector>

namespace ibrt::graph {

// Port p (its sending side) is a cabled port of a switch whose peer is a switch.
bool is_switch_link(const Fabric& f, PortId p);

struct LoadStats {
    std::uint64_t links = 0;
    double max = 0, min = 0, mean = 0, stddev = 0;
    double spread = 0; // max / mean; 0 when nothing is loaded
};

// The statistics of the loads of some links (all zero for none).
LoadStats load_stats(const std::vector<double>& loads);

} // namespace ibrt::graph
