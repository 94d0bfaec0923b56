// Single routing per destination (SRD; paper 001 §VI.D, its ref. [14], Sancho, Robles, Duato,
// ICPP 2001): Up*/Down* paths chosen so that all paths to one destination form a tree, so one
// LID per destination realises them, at the cost of balance. The baseline of Table VI.
//
// Per destination d on switch t every switch X gets one next hop, legal from wherever a path
// enters X. The walk from X must be up* down*; a switch entered by a down edge must continue
// down only. Hence: a switch from which t is reachable by down edges only ("D") takes a
// shortest down-only route, through D switches; every other switch must go up, to the neighbour
// whose walk is shortest (up edges are acyclic: switches are settled in increasing
// (level, id) order). Balance, as SRD intends: among the next hops that keep the walk
// shortest, the switch takes the directed link of least load, where load = pairs already
// routed over it (earlier destinations, and the flow of this destination's farther switches:
// switches are settled farthest first, each carrying its own CAs plus what flows into it).
// Ties: lowest PortId. Destinations in Fabric::cas() order.
#pragma once

#include "graph/updown.hpp"
#include "lidassign/paths.hpp"

namespace ibrt::lidassign {

// One DestPaths per CA in Fabric::cas() order, sources in the same order; pairs without a
// legal tree route are left out.
PathSet srd_paths(const Fabric& f, const graph::UpDown& ud);

} // namespace ibrt::lidassign
