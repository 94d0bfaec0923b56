// Yen's k shortest loopless paths (J. Y. Yen, Management Science 17(11), 1971; paper 001
// ref. [17]) restricted to Up*/Down* legal routes, the candidate generator of paper 001 §VI's
// path selection scheme ("a maximum of 16 shortest paths (following the Up*/Down* routing
// rules)").
//
// The search runs on the legal state graph: state (switch, phase), phase 0 = may still go up,
// 1 = has gone down; an up edge is only allowed from phase 0. A route between two CAs is the
// CA's up edge into its switch, a switch-level route, and the down edge into the destination
// CA; so the candidates of every CA pair are those of its switch pair, computed once per
// switch pair. Loopless means no switch appears twice (a legal route may otherwise go up
// through a switch and come back down through it).
//
// Order (deterministic): by hop count, then lexicographically by the PortIds of the edges.
// Each spur path is the least such path from the spur state avoiding the root path's switches
// and the spur edges of earlier results with the same root; it is found by a reverse BFS over
// states followed by a lowest-PortId greedy walk down the distances.
#pragma once

#include "graph/updown.hpp"

#include <vector>

namespace ibrt::graph {

// Up to k loopless legal switch-level routes from switch src (entered from a CA, so phase 0)
// to switch dst, as sequences of out PortIds (switch-to-switch edges only), shortest first.
// src == dst gives the single empty route; unreachable gives none.
std::vector<std::vector<PortId>> yen_k_shortest(const Fabric& f, const UpDown& ud, NodeId src,
                                                NodeId dst, int k);

// Reusable scratch space so the per-switch-pair searches allocate nothing in the hot loop.
class YenSearch {
  public:
    YenSearch(const Fabric& f, const UpDown& ud);
    std::vector<std::vector<PortId>> run(NodeId src, NodeId dst, int k);

  private:
    // Least (hops, lex) legal route from state (from, phase) to dst avoiding blocked switches
    // and the blocked out edges of `from`; false if none. Appends to out.
    bool spur(NodeId from, int phase, NodeId dst, std::vector<PortId>& out);

    const Fabric& f_;
    const UpDown& ud_;
    std::vector<std::uint32_t> dist_, dist_stamp_;
    std::vector<std::uint32_t> node_block_, edge_block_;
    std::uint32_t dist_epoch_ = 0, block_epoch_ = 0;
    std::vector<std::uint32_t> queue_;
};

} // namespace ibrt::graph
