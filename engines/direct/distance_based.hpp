// Distance Based routing (paper 003 §3.7), the topology-agnostic adaptive routing of the
// extended switch: a source gives a packet the VL D + E, where D is the switch distance to
// the destination and E the extra hops allowed; every switch-to-switch hop takes the VL one
// lower; at a switch at distance d from the destination with input VL v, the candidates are
//   - the ports toward switches at distance d - 1 (high priority: shortest path),
//   - toward switches at distance d if d <= v - 1 (medium: sideways; Distance Based +E),
//   - toward switches at distance d + 1 if d + 1 <= v - 1 and deflection is on (low:
//     Deflection +E).
// So the input VL is the hop budget left: no packet takes more than D + E hops, and since the
// VL strictly falls along every path, the extended channel dependency graph is acyclic — no
// deadlock, on any topology, degraded ones included — as long as no VL wraps: the paper's
// "mod 8" would wrap past 8 VLs, so the generator declines when diameter + E exceeds the VLs
// (IBA allows up to 15 data VLs; the simulator takes them all).
//
// Built as forwarding sets keyed by the input VL, VL2VL tables (switch to switch: v -> v - 1;
// to a CA: v -> v) and the source SLs (D + E, which the CA's SL2VL maps to VL D + E: SL mod
// VLs is the identity below the VL count). The direct engines (torus, flatfly, dragonfly,
// slimfly) add them with the engine options distance_based=E and deflection=true; opensm
// installs only the engines' LFTs, which are unchanged.
#pragma once

#include "engines/direct/parallel_links.hpp"
#include "engines/engine.hpp"
#include "fabric/routing_function.hpp"

#include <memory>

namespace ibrt::direct {

inline constexpr EngineParam kDistanceBasedParam{
    "distance_based",
    EngineParam::Kind::Integer,
    "-1",
    "also produce forwarding sets for Distance Based +E routing (paper 003 §3.7) with E extra "
    "hops, for `ibrt sim` and the forwarding-sets file (-1: none); needs diameter + E + 1 VLs",
    -1,
    14,
    {},
    kForwardingSetsOnly};
inline constexpr EngineParam kDeflectionParam{
    "deflection",
    EngineParam::Kind::Flag,
    "false",
    "with distance_based: also allow hops away from the destination at low priority "
    "(Deflection +E)",
    0,
    0,
    {},
    kForwardingSetsOnly};

// Throws RoutingError when the switches are not connected or diameter + E + 1 exceeds 15 VLs.
std::shared_ptr<const RoutingFunction> distance_based_sets(const Fabric& f, const Lids& lids,
                                                           int extra_hops, bool deflection);

// The direct engines' options for the extended switch, for their params().
inline constexpr EngineParam kDistanceParams[] = {kDistanceBasedParam, kDeflectionParam,
                                                  kAdaptiveLinksParam};

// Adds forwarding sets to `r` when `engine`'s options ask for them: distance_based >= 0, or
// adaptive_links (parallel_links.hpp); both at once is an error.
void add_adaptive_sets(const Engine& engine, const EngineOptions& opt, const Fabric& f, Routing& r);

} // namespace ibrt::direct
