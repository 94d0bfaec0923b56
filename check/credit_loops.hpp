// Check 3 of `ibrt check`: deadlock freedom via the channel dependency graph (Dally & Seitz,
// "Deadlock-free message routing in multiprocessor interconnection networks", 1987; for
// InfiniBand with SL2VL as in DFSSSP/LASH, see opensm-plugin-api.md §4.3).
//
// A channel is (directed link, VL). A packet with SL s that enters switch X on port i over
// channel (in-link, VL_in) and leaves on port o moves to (out-link, SL2VL[X][i][o][s]); that
// is a dependency in -> out. Routing is free of credit loops iff the graph is acyclic.
// Channels out of a CA have no incoming dependency and channels into a CA no outgoing one,
// so neither can lie on a cycle: only switch-to-switch channels are built.
//
// Cost: per DLID every (switch, in port, VL) state is expanded once (epoch stamps), so a
// sweep is O(#DLIDs x #switch links); dependencies are deduplicated in a per-switch bitset
// over (in port, in VL, out port, out VL). Cycles are found with an iterative Tarjan SCC and
// one shortest cycle is reported per cyclic component.
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/routing.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ibrt::check {

struct Channel {
    PortId port = kNoPort; // the sending port of the directed link
    std::uint8_t vl = 0;
    bool operator==(const Channel&) const = default;
};

struct CreditLoop {
    std::size_t component_channels = 0; // size of the strongly connected component
    std::vector<Channel> cycle;         // one cycle through it, in dependency order
};

struct DeadlockReport {
    unsigned vls = 1;               // VLs the SL2VL tables use (1 without tables)
    std::uint64_t channels = 0;     // channels that take part in some dependency
    std::uint64_t dependencies = 0; // distinct dependencies
    std::uint64_t vl15_drops = 0;   // (switch, DLID) walks that SL2VL maps to VL15 (drop)
    std::vector<CreditLoop> loops;  // one per cyclic component, by lowest channel
};

// The VL a packet with `sl` gets from `in` to `out` on `node`: Sl2Vl::vl, the same answer the
// simulator uses (where the node has no table, SL mod `num_vls`; the check runs with the VLs
// the tables name, so one VL and VL 0 when there are no tables).
std::uint8_t sl2vl_at(const Fabric& f, const Routing& r, NodeId node, PortNum in, PortNum out,
                      std::uint8_t sl, unsigned num_vls);

DeadlockReport check_credit_loops(const Fabric& f, const Routing& r,
                                  const std::function<void(double)>& progress = {});

// "sw1":2 -> "sw2":1: the directed link out of `port`.
std::string format_link(const Fabric& f, PortId port);
// "sw1":2 -> "sw2":1 VL0: the sending node and port, the receiving node and port, the VL.
std::string format_channel(const Fabric& f, const Channel& c);

} // namespace ibrt::check
