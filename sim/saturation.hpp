// Saturation search: the highest offered load the network still accepts, found by bisection
// over the offered load (the usual definition in interconnect studies, e.g. Dally & Towles
// §23.1: throughput is the offered load at which accepted traffic falls below offered).
#pragma once

#include "sim/simulator.hpp"

#include <vector>

namespace ibrt::sim {

struct SaturationPoint {
    double load = 0; // the offered load that was configured
    SimResult result;
    bool saturated = false;
};

struct Saturation {
    double load = 0;                   // highest configured load found unsaturated (0 if none)
    double accepted = 0;               // accepted fraction at that load
    double max_accepted = 0;           // highest accepted fraction over all runs
    std::vector<SaturationPoint> runs; // in the order they were run
};

// A run is saturated when it deadlocks or accepts less than (1 - tolerance) of what it
// offered. Bisects [0, hi] `steps` times (resolution hi / 2^steps).
Saturation find_saturation(const Fabric& f, const Routing& r, SimConfig cfg, double hi = 1.0,
                           int steps = 7, double tolerance = 0.05, const ProgressFn& progress = {});

bool is_saturated(const SimResult& r, double tolerance);

} // namespace ibrt::sim
