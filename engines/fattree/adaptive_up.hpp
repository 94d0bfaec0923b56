// Adaptive up phase for fat trees (paper 004 §2): a packet climbs adaptively to one of the
// nearest common ancestors of source and destination and comes down deterministically. The
// engines (mlid, slid) produce it as forwarding sets for the simulator's extended switch when
// asked (`adaptive_up=true`); opensm cannot install it, so the plugin never asks.
//
// At a switch whose LFT sends a destination up, the candidates are the up ports whose
// neighbour still reaches the destination's leaf by going up and then down (in a degraded
// tree not every parent does), in the recogniser's up-port order (round robin over
// neighbours: the order of paper 004's ascending links k..2k-1 on a k-ary n-tree); all have
// priority 0, since every one is minimal on a complete tree. Where the LFT goes down, the LFT's
// port is the only candidate. The tree coordinates the preferred-link selection functions key
// on (SSP, SDP, SOP, SADP) come from the recogniser's digits, so they need no labels.
#pragma once

#include "engines/engine.hpp"
#include "fabric/routing_function.hpp"
#include "mapping/fat_tree_shape.hpp"

#include <memory>

namespace ibrt::fattree {

inline constexpr EngineParam kAdaptiveUpParam{
    "adaptive_up",
    EngineParam::Kind::Flag,
    "false",
    "also produce forwarding sets for an adaptive up phase (paper 004), for `ibrt sim` and "
    "`ibrt route`'s forwarding-sets file; the LFTs are unchanged and opensm installs only them",
    0,
    0,
    {},
    kForwardingSetsOnly};

std::shared_ptr<const RoutingFunction> adaptive_up_sets(const Fabric& f, const FatTreeShape& t,
                                                        const Routing& r);

} // namespace ibrt::fattree
