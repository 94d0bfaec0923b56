// Check 4 of `ibrt check`: link load balance of a traffic pattern over the routing.
//
// The one all-to-all (and permutation) link-load computation: `ibrt check`'s balance and
// `ibrt route`'s report.json link_load are both this function.
//
// Every source end port (fabric/end_ports.hpp) sends one unit to each of its destinations.
// How the unit picks the destination's DLID is DlidUse: Selection follows the routing's path
// selection (Routing::dlid_choice, as in the MLID paper's path selection by rank) and the base
// LID where there is none, which is what Routing, the path-selection file and `ibrt sim
// --dlid table` mean; Spread divides it evenly over the destination's 2^LMC LIDs, the
// expected load of sources that pick at random, for tables whose path selection is unknown.
// A unit whose walk does not arrive loads nothing and counts as unrouted. The load of a
// directed link is the sum of the units crossing it; statistics are taken over directed
// switch-to-switch links (max, min, mean, population stddev, max/mean), overall and per
// (level, level) pair with levels counted from the CAs (graph/fabric_walks.hpp). LID usage says
// how many of each destination's LIDs carry traffic.
//
// Cost: flows are folded into injections per (DLID, source switch), and each is walked once,
// so all-to-all on N endpoints costs O(#DLIDs x #source switches x path length).
#pragma once

#include "check/traffic.hpp"
#include "fabric/fabric.hpp"
#include "fabric/routing.hpp"
#include "graph/link_load.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ibrt::check {

using graph::LoadStats; // graph/link_load.hpp: the links and figures, defined once

struct LevelLoad {
    int from_level = 0, to_level = 0;
    LoadStats stats;
};

struct LinkLoad {
    PortId port = kNoPort; // sending port of the directed link
    double load = 0;
};

struct LidUsage {
    std::uint64_t destinations = 0;
    std::vector<std::uint64_t> by_lids_used; // [k] = destinations with k of their LIDs used
    std::uint64_t min_sources_per_lid = 0, max_sources_per_lid = 0;
    double mean_sources_per_lid = 0;
};

struct BalanceReport {
    std::string pattern;
    std::uint64_t flows = 0;               // (source, destination) pairs
    double unrouted = 0;                   // units whose walk fails (see the reachability check)
    std::uint64_t selection_fallbacks = 0; // dlid_choice entries not owned by the destination
    LoadStats links;
    std::vector<LevelLoad> levels; // by (from, to)
    std::vector<LinkLoad> hottest; // the busiest loaded switch-to-switch links, at most 5
    LidUsage lid_usage;
    std::vector<double> load; // per port slot: load of the link out of that port
};

enum class DlidUse {
    Selection, // Routing::dlid_choice; where it is empty or names no LID of the destination
               // (a dual-port HCA's other port), the destination's base LID
    Spread,    // evenly over the destination's 2^LMC LIDs; dlid_choice is not read
};

BalanceReport check_balance(const Fabric& f, const Routing& r, const TrafficPattern& p,
                            DlidUse use = DlidUse::Selection,
                            const std::function<void(double)>& progress = {});

} // namespace ibrt::check
