// Parallel-ports generalized fat trees and the Clos networks built from them.
//
// PGFT(h; m1..mh; w1..wh; p1..ph) (Zahavi, "Fat-trees routing and node ordering providing
// contention free traffic for MPI global collectives", 2012; XGFT of Öhring et al. when all
// p = 1): level 0 holds the end nodes, level l has prod_{i>l} m_i * prod_{i<=l} w_i nodes.
// A level-(l-1) node (a_h..a_l, b_{l-1}..b_1) has w_l parents (a_h..a_{l+1}, b_l, b_{l-1}..b_1),
// b_l in 0..w_l-1, each over p_l parallel cables; a level-l node has m_l children.
//
// Ports: a switch's down ports come first (child a_l, cable j -> port a_l*p_l + j + 1), then its
// up ports (parent b_{l+1}, cable j -> down + b_{l+1}*p_{l+1} + j + 1). End nodes have
// w_1*p_1 ports. Node order: end nodes, then switches level 1..h, each level by index
// A*W_l + B where A is the value of (a_h..a_{l+1}) and B of (b_l..b_1).
#pragma once

#include "fabric/fabric.hpp"

#include <string>
#include <vector>

namespace ibrt::gen {

struct PgftParams {
    std::vector<int> m, w, p; // one entry per level 1..h
    int radix = 0;            // switch port count; 0 = the most any level needs
};

// Labels: CAs "H(a_h.....a_1)", switches "L<l>(a_h...a_{l+1}|b_l...b_1)".
Fabric pgft(const PgftParams& params);

// A Clos network as deployed: `levels` = 2 (leaf/spine) or 3 (leaf/aggregation/core, pods) of
// radix-port switches. A leaf splits its ports down:up in the ratio blocking_down:blocking_up
// (1:1 = non-blocking); `parallel` cables join each connected switch pair above the leaves.
//   2 levels: PGFT(2; d, r/P; 1, u/P; 1, P)                 e.g. r = 36: 648 CAs, 54 switches
//   3 levels: PGFT(3; d, r/2P, r/P; 1, u/P, r/2P; 1, P, P)  e.g. r = 36: 11,664 CAs, 1,620
// with d + u = r leaf ports. Names follow the usual data-centre style: host-l<leaf>-<i>,
// leaf-<i>, spine-<i>; or host-p<pod>-e<edge>-<i>, edge-p<pod>-<i>, agg-p<pod>-<i>, core-<i>.
struct ClosParams {
    int radix = 36;
    int levels = 2;
    int blocking_down = 1, blocking_up = 1;
    int parallel = 1;
};
PgftParams clos_as_pgft(const ClosParams& c);
Fabric clos(const ClosParams& c);

} // namespace ibrt::gen
