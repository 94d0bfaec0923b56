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
// The result is exactly the first k loopless legal routes in that order (what Yen's algorithm
// with this tie-breaking returns; tests/graph/test_yen.cpp compares with brute force).
//
// How (issue 12: Yen's spur searches, one reverse BFS per spur node, were 70 % of `separate` on
// a 1,056-host Dragonfly): one reverse BFS per destination switch gives every state's hop
// distance h to it, ignoring looplessness, and is reused by every source. Routes of length L
// are then enumerated by a depth-first walk in ascending PortId order that only enters a state
// when hops so far + 1 + h <= L and never revisits a switch (IDA*: h is a lower bound, so no
// route of length L is missed, and the walk order is lexicographic), for L = h(src), h(src)+1,
// ... until k routes are found or no longer loopless route exists.
#pragma once

#include "graph/updown.hpp"

#include <vector>

namespace ibrt::graph {

// Up to k loopless legal switch-level routes from switch src (entered from a CA, so phase 0)
// to switch dst, as sequences of out PortIds (switch-to-switch edges only), shortest first.
// src == dst gives the single empty route; unreachable gives none.
std::vector<std::vector<PortId>> yen_k_shortest(const Fabric& f, const UpDown& ud, NodeId src,
                                                NodeId dst, int k);

// Reusable scratch space: the distances to the last destination are kept, so calls grouped by
// destination cost one BFS per destination, and the hot loop allocates nothing.
class YenSearch {
  public:
    YenSearch(const Fabric& f, const UpDown& ud);
    std::vector<std::vector<PortId>> run(NodeId src, NodeId dst, int k);
    // The same routes appended to flat storage: route i of this call is
    // edges[off[o + i], off[o + i + 1]) where o = off.size() - 1 before the call (off must
    // hold at least its leading 0). Returns how many (no allocation per route).
    struct Flat {
        std::vector<PortId> edges;
        std::vector<std::uint32_t> off{0};
    };
    int run(NodeId src, NodeId dst, int k, Flat& out);

  private:
    void distances_to(NodeId dst);
    // Routes of exactly `len` hops from state (n, phase), `hops` taken so far, into out.
    void walk(NodeId n, int phase, std::uint32_t hops, std::uint32_t len, Flat& out, int k);

    const Fabric& f_;
    const UpDown& ud_;
    // Switch-to-switch edges per node in port order, with their Up*/Down* directions.
    struct Arc {
        PortId edge;
        NodeId peer;
        bool up;      // edge goes up
        bool back_up; // the reverse edge (peer -> node) goes up
    };
    std::vector<std::uint32_t> adj_off_;
    std::vector<Arc> adj_;
    NodeId target_ = kNoNode;
    std::vector<std::uint32_t> dist_;    // per state node * 2 + phase, to target_
    std::vector<std::uint32_t> on_path_; // epoch stamp: switch on the current prefix
    std::uint32_t epoch_ = 0;
    std::vector<std::uint32_t> queue_;
    std::vector<PortId> prefix_;
    std::uint32_t next_len_ = kFar; // smallest length a state skipped as too far could reach
    // Whether a loopless legal route other than the found_ routes of this run (from
    // out.off[base] on) exists: Yen's deviation test, one BFS per node of each found route.
    bool another_route(NodeId src, const Flat& out, std::size_t base);
    std::vector<std::uint32_t> block_, seen_, bfs_; // epoch stamps per node / state, queue
    std::vector<PortId> blocked_;
    std::uint32_t bfs_epoch_ = 0;
    int found_ = 0; // routes found by this run
};

} // namespace ibrt::graph
