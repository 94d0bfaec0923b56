// Checks 1 and 2 of `ibrt check`: reachability and minimality of unicast forwarding.
//
// Reachability (IBA vol. 1, 18.2.4.3): for every source CA port and every destination LID
// (all 2^LMC LIDs of every end port, switch LIDs included), the LFT walk from the source's
// switch must end at the port that owns the LID, with no loop and no dead end.
// Minimality: the walk's switch-to-switch hop count against the BFS distance from the
// source switch to the destination's switch; longer paths are reported (opensm's minhop,
// updn and ftree all promise shortest paths on fat trees).
//
// One sweep does both: per DLID a memoized DlidForest gives the outcome from every source
// switch, weighted by the number of CAs behind it; explicit paths are traced only for the
// examples that get reported.
#pragma once

#include "check/forwarding.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

namespace ibrt::check {

struct PathExample {
    PortId src = kNoPort; // source end port
    Lid dlid = 0;
    Trace trace;
    std::uint16_t hops = 0;     // minimality: switch-to-switch links walked
    std::uint16_t min_hops = 0; // minimality: BFS distance
};

struct ReachabilityReport {
    std::uint64_t pairs = 0;                                  // (source port, DLID) pairs checked
    std::uint64_t dlids = 0;                                  // DLIDs with an owner
    std::array<std::uint64_t, kNumWalkOutcomes> by_outcome{}; // pairs per outcome
    std::uint64_t dlids_with_failures = 0;
    std::vector<PathExample> examples; // failures, by DLID then source
    std::uint64_t failures() const { return pairs - by_outcome[0]; }
};

struct MinimalityReport {
    std::uint64_t pairs = 0;       // reached pairs whose distance is known
    std::uint64_t non_minimal = 0; // pairs whose path is longer than the BFS distance
    std::uint64_t max_extra_hops = 0;
    std::vector<PathExample> examples;
};

struct ForwardingReport {
    ReachabilityReport reach;
    MinimalityReport minimal;
};

struct ForwardingOptions {
    std::size_t max_examples = 10;
    std::function<void(double)> progress; // fraction done, called now and then
};

ForwardingReport check_forwarding(const Fabric& f, const Routing& r,
                                  const ForwardingOptions& opt = {});

} // namespace ibrt::check
