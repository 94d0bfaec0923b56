// The channel dependency graph and its cycle search (Dally & Seitz, "Deadlock-free message
// routing in multiprocessor interconnection networks", 1987; for InfiniBand with SL2VL as in
// DFSSSP/LASH, see opensm-plugin-api.md §4.3). `ibrt check` fills it from forwarding tables
// (check/credit_loops.hpp); an engine that assigns SLs or VLs fills it from its own routes.
//
// A channel is (directed link, VL), named by the sending port of the link. A packet that
// enters switch X on port i over channel (in-link, VL_in) and leaves on port o on VL_out is a
// dependency (in-link, VL_in) -> (out-link, VL_out). Routing is free of credit loops iff the
// graph is acyclic. Channels out of a CA have no incoming dependency and channels into a CA
// no outgoing one, so only switch-to-switch channels ever lie on a cycle.
//
// Cost: dependencies are deduplicated in a per-switch bitset over (in port, in VL, out port,
// out VL) while that fits in 256 MiB, else in a vector compacted whenever it doubles. Cycles
// are found with an iterative Tarjan SCC and one shortest cycle (BFS) is reported per cyclic
// component.
#pragma once

#include "fabric/fabric.hpp"

#include <cstdint>
#include <vector>

namespace ibrt::graph {

struct Channel {
    PortId port = kNoPort; // the sending port of the directed link
    std::uint8_t vl = 0;
    bool operator==(const Channel&) const = default;
};

struct CreditLoop {
    std::size_t component_channels = 0; // size of the strongly connected component
    std::vector<Channel> cycle;         // one cycle through it, in dependency order
};

struct CreditLoops {
    std::uint64_t channels = 0;     // channels that take part in some dependency
    std::uint64_t dependencies = 0; // distinct dependencies
    std::vector<CreditLoop> loops;  // one per cyclic component, by lowest channel
};

// Distinct dependencies between the channels of a fabric with `vls` VLs per link.
class ChannelDependencies {
  public:
    ChannelDependencies(const Fabric& f, unsigned vls);

    // A packet enters switch `sw` on port `in` (cabled) on VL `vin` and leaves on port `out`
    // on VL `vout`; vin and vout < vls.
    void add(NodeId sw, PortNum in, unsigned vin, PortNum out, unsigned vout);

    unsigned vls() const { return nv_; }

    // The strongly connected components of the dependencies added so far and one shortest
    // cycle through each cyclic one. Consumes the set.
    CreditLoops find_loops() &&;

  private:
    std::uint64_t in_channel(NodeId sw, PortNum in, unsigned vin) const;
    void compact();
    std::vector<std::uint64_t> take();

    const Fabric& f_;
    unsigned nv_;
    bool use_bits_ = true;
    std::vector<std::uint64_t> offset_;
    std::vector<std::uint64_t> bits_;
    std::vector<std::uint64_t> pairs_;
    std::size_t compacted_ = 0;
};

} // namespace ibrt::graph
