// Routes for the destinations a degraded fat tree's up*/down* cannot serve (issue 36), on a VL
// of their own.
//
// A fat tree with failed cables or switches can leave a leaf without an up*/down* path to
// another leaf (no common ancestor left) or to a switch's LID; a down-then-up turn would serve
// it but can close a credit loop with the tree's routes (switch_lid_routes.hpp admits turns
// only while none does). Rather than declining the tree, every LID of such a destination (all
// LIDs of the end ports on a stranded leaf; a switch's LID) is routed here:
//  - by Up*/Down* on a breadth-first orientation of the whole switch graph (Schroeder et al.,
//    Autonet 1991; graph/updown.hpp), which connects every pair of a connected graph: a switch
//    that reaches the destination's switch by down edges only goes down (fewest hops), any
//    other goes up toward the nearest such switch; a destination-based table can say this,
//    since every switch on a down edge's far side again goes down;
//  - on SL 1 from every source (Routing::path_sls), which SL2VL maps to VL 1 at every port and
//    every other SL to VL 0.
// VL 0 then carries the fat tree's routes only (up*/down* in the level orientation, plus the
// admitted turns), VL 1 the escape routes only (up*/down* in the BFS orientation): each VL's
// channel dependencies are acyclic on their own, so the whole is free of credit loops with two
// data VLs (Dally & Seitz 1987; the layering of LASH and DFSSSP, opensm-plugin-api.md §4.3).
// Routing::data_vls = 2 makes an engine decline a fabric whose ports have one data VL, with
// the reason (engines/engine.hpp). Without QoS opensm programs no SL2VL and the switches keep
// SL s -> VL s, which puts SL 1 on VL 1 as well.
//
// Work: per distinct destination switch, O(switch links) for the down set and the distances,
// then O(switches) per LID.
#pragma once

#include "fabric/routing.hpp"

#include <span>

namespace ibrt::fattree {

// The SL (and VL) of the escape routes.
inline constexpr std::uint8_t kEscapeSl = 1;

// Routes every LID of `dlids` on the escape layer: overwrites their LFT entries in every
// switch, sets their path SL to kEscapeSl for every source, sets the SL2VL tables and
// data_vls = 2, and adds the stat "escape_dlids". `top` orders the switches: the root of the
// orientation is the connected switch highest in it (a fat tree's top level, so that escape
// routes climb toward it as the tree's do, rather than through a leaf). r.path_sls must be
// empty (the tree's routes are all on SL 0). Throws RoutingError when the switches are not
// connected.
void route_on_escape_layer(const Fabric& f, std::span<const NodeId> top, std::span<const Lid> dlids,
                           Routing& r);

} // namespace ibrt::fattree
