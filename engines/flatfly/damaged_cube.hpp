// The hypercube routings of paper 003 §3.4 (Negative First, ABO Negative First, ABO Positive
// Last) on a hypercube with missing cables (past the paper). A dimension of a hypercube has two
// switches, so there is no switch to detour through within it: getting round a missing cable
// takes hops the complete-cube routing never makes (a non-minimal hop, or a hop of the first
// phase after one of the second).
//
// Each routing splits the hops in two phases by (dimension, direction), and its paths take
// first-phase hops before second-phase ones: Negative First, negative hops (coordinate 1 -> 0)
// then positive ones; ABO Negative First, negative hops but in dimension 1, then the rest; ABO
// Positive Last, negative hops and dimension 1, then positive hops. Within one phase any hop
// sequence without a U-turn climbs a rank: the popcount p of the coordinates outside dimension
// 1 falls along first-phase hops outside dimension 1 and rises along second-phase ones, and a
// dimension-1 hop, which keeps p, ranks between the hops into and out of its switch. So first-
// then second-phase paths, minimal or not, have an acyclic channel dependency graph on one VL
// (the turn model's argument). On a damaged cube a path may also turn from the second phase
// back to the first: that hop goes up one VL (VL2VL on (in port, out port, in VL)), so every
// path climbs (VL, phase, rank) and the extended channel dependency graph stays acyclic.
//
// Routing: per destination switch, the shortest paths over the cables present in the state
// graph (switch, VL, phase: the class of the hop the packet came in on, the first phase from a
// host), ties broken toward fewer VL turns; every hop that starts such a path is a candidate
// (priority 0). On a complete cube these are exactly the complete-cube routing's candidates
// (minimal, no turn), and the VLs used are 1 + the most turns a source needs; a shortest path
// never U-turns (the state before it had every move of the state after it). Tables are per
// input port (the phase) and input VL. Declines when a pair has no such path within 8 VLs.
#pragma once

#include "engines/flatfly/adaptive_routings.hpp"
#include "mapping/map_fabric.hpp"

namespace ibrt::flatfly {

// Whether a hop in dimension `d` (0-based, the mapping's) that is `negative` (the switch it
// leaves has coordinate 1 there) belongs to `kind`'s second phase.
bool second_phase(AdaptiveRouting kind, int d, bool negative);

// `kind` one of NegativeFirst, AboNegativeFirst, AboPositiveLast; `shape` a hypercube mapped
// from `g`, no switch missing. Throws RoutingError when a pair has no path within 8 VLs.
std::shared_ptr<const RoutingFunction> damaged_cube_sets(const Fabric& f,
                                                         const mapping::SwitchLinks& g,
                                                         const mapping::Shape& shape,
                                                         const Lids& lids, AdaptiveRouting kind);

} // namespace ibrt::flatfly
