// Adaptive choice among parallel cables (paper 003 §3.2: "adaptive routing for tori can be only
// used to select one of the parallel output links"), for any static routing: where the LFT
// sends a DLID to a neighbouring switch over one of several parallel cables, the forwarding
// set offers all of them (the LFT's first), so the selection function picks the least busy.
// The VLs are the static routing's (SL2VL by SL: parallel cables of a direct topology are in
// one class — dimension, local or global — so their tables agree), and every packet still
// follows the static switch-level path: deadlock freedom is the static routing's. The direct
// engines add these sets with adaptive_links=true; opensm installs only the LFTs.
#pragma once

#include "engines/engine.hpp"
#include "fabric/routing_function.hpp"

#include <memory>

namespace ibrt::direct {

inline constexpr EngineParam kAdaptiveLinksParam{
    "adaptive_links",
    EngineParam::Kind::Flag,
    "false",
    "also produce forwarding sets that choose adaptively among parallel cables to the LFT's "
    "next switch (paper 003 §3.2), for `ibrt sim` and the forwarding-sets file",
    0,
    0,
    {},
    kForwardingSetsOnly};

std::shared_ptr<const RoutingFunction> parallel_link_sets(const Fabric& f, const Routing& r);

} // namespace ibrt::direct
