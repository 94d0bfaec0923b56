// `ibrt check` for the extended switch's forwarding sets (fabric/routing_function.hpp; paper
// 003 §3.1, issue 15 "extend ibrt check to these tables"): adaptive tables are safe only if
// they are safe under *every* choice a selection function may make. Per destination LID, every
// state (switch, input port, input VL) a packet can reach from any source — following every
// candidate of every priority class with the VL from VL2VL — is expanded once, and:
//   - reachability: every reached state has a usable candidate (cabled, on a VL the ports
//     run), and every candidate toward an end node leads to the destination's;
//   - no livelock: the states a destination's packets can visit form no cycle (a packet could
//     otherwise be routed round it forever), and the longest path is the worst hop count;
//   - deadlock freedom: the channel dependencies of every reached transition form an acyclic
//     extended channel dependency graph (graph/channel_dependency.hpp, the same search the LFT
//     check uses).
// Cost: O(#DLIDs x reached states x candidates); states are stamped per DLID.
#pragma once

#include "check/credit_loops.hpp"
#include "fabric/fabric.hpp"
#include "fabric/routing.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ibrt::check {

struct ForwardingSetsReport {
    unsigned vls = 1;                  // VLs the reached states use (1 + the highest)
    std::uint64_t destinations = 0;    // DLIDs of end ports checked
    std::uint64_t states = 0;          // (switch, in port, VL, DLID) states reached
    std::uint64_t stuck = 0;           // reached states with no usable candidate
    std::uint64_t misrouted = 0;       // candidates delivering to another end node
    std::uint64_t livelocks = 0;       // destinations whose states form a cycle
    unsigned max_hops = 0;             // longest switch-to-switch path any choices give
    std::vector<std::string> examples; // the first problems, one line each
    DeadlockReport deadlock;           // the extended channel dependency graph's loops
};

ForwardingSetsReport check_forwarding_sets(const Fabric& f, const Routing& r,
                                           std::size_t max_examples = 10,
                                           const std::function<void(double)>& progress = {});

} // namespace ibrt::check
