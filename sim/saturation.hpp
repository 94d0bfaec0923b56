// Saturation search by bisection over the offered load. It reports the two figures the
// literature calls "saturation", each under its own name:
//   - the onset: the highest offered load whose accepted traffic stays within a tolerance of
//     it (Dally & Towles §23.1: the load at which accepted traffic falls below offered);
//   - the saturation throughput: the maximum accepted rate over the loads run (what BookSim and
//     most papers quote).
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
    double tolerance = 0.05;
    // The highest configured load found unsaturated (0 if none) and its accepted fraction.
    double onset_load = 0;
    double onset_accepted = 0;
    // The highest accepted fraction over all runs, and the load of that run.
    double max_accepted = 0;
    double max_accepted_load = 0;
    std::vector<SaturationPoint> runs; // in the order they were run
};

// A run is saturated when it does not progress (a verdict of deadlock, delivered-nothing or
// stuck) or accepts less than
// (1 - tolerance) of what it offered. Bisects [0, hi] `steps` times (resolution hi / 2^steps).
Saturation find_saturation(const Fabric& f, const Routing& r, SimConfig cfg, double hi = 1.0,
                           int steps = 7, double tolerance = 0.05, const ProgressFn& progress = {});

bool is_saturated(const SimResult& r, double tolerance);

} // namespace ibrt::sim
