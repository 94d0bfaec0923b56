// Routes for the destinations an engine's own routing cannot serve deadlock-free, on a VL of
// their own: shared by the fat-tree engines (mlid, slid; issue 36) and the torus engine
// (issue 37).
//
// A fat tree with failed cables or switches can leave a leaf without an up*/down* path to
// another leaf (no common ancestor left) or to a switch's LID; a down-then-up turn would serve
// it but can close a credit loop with the tree's routes (fattree/switch_lid_routes.hpp admits
// turns only while none does). A degraded torus can leave DOR without a route (a ring cut in
// two with no later dimension to detour through), with detours that loop, or with detours
// whose turns close a credit loop (torus_engine.cpp). Rather than declining the fabric, every
// LID of such a destination (all LIDs of the end ports on its switch; the switch's own LID) is
// routed here:
//  - by Up*/Down* on a breadth-first orientation of the whole switch graph (Schroeder et al.,
//    Autonet 1991; graph/updown.hpp), which connects every pair of a connected graph: a switch
//    that reaches the destination's switch by down edges only goes down (fewest hops), any
//    other goes up toward the nearest such switch; a destination-based table can say this,
//    since every switch on a down edge's far side again goes down;
//  - on the escape SL from every source (Routing::path_sls), an SL the engine's own paths do
//    not use, which SL2VL maps to the escape VL at every port (the engine's own SLs keep their
//    VLs, all below the escape VL).
// The escape VL then carries the escape routes only (up*/down* in the BFS orientation), and
// the VLs below it the engine's routes only, which the engine keeps acyclic on their own
// (up*/down* in a fat tree's level orientation plus admitted turns; the torus's dateline and
// turn VLs with the destinations that would close a loop moved here). A packet never changes
// between the two (its SL fixes which one at every hop), so no dependency joins them and the
// whole is free of credit loops (Dally & Seitz 1987; the layering of LASH and DFSSSP,
// opensm-plugin-api.md §4.3). Routing::data_vls = escape VL + 1 makes an engine decline a
// fabric whose ports have too few data VLs, with the reason (engines/engine.hpp).
//
// The fat trees use SL 1 on VL 1 with no SL2VL of their own: the tables made here map SL 1 to
// VL 1 and every other data SL to VL 0; without QoS opensm programs no SL2VL and the switches
// keep SL s -> VL s, which puts SL 1 on VL 1 as well.
//
// Work: per distinct destination switch, O(switch links) for the down set and the distances,
// then O(switches) per LID; O(stored path-SL rows) per LID for the SLs.
#pragma once

#include "fabric/routing.hpp"

#include <cstdint>
#include <span>
#include <string_view>

namespace ibrt::escape {

struct EscapeVl {
    std::uint8_t sl = 1; // unused by the engine's own paths, not 15
    std::uint8_t vl = 1; // above every VL the engine's own routes use
    // Names the fabric in the decline when the switches are not connected ("degraded tree").
    std::string_view what = "fabric";
};

// Routes every LID of `dlids` on the escape layer: overwrites their LFT entries in every
// switch, sets their path SL to `e.sl` for every source (the other DLIDs keep theirs), sets
// SL `e.sl` to VL `e.vl` in every SL2VL table of every node (nodes without tables get ones
// mapping every other data SL to VL 0 and SL 15 to VL 15), raises data_vls to e.vl + 1, and
// adds the stat "escape_dlids". `top` orders the switches: the root of the orientation is the
// connected switch highest in it (a fat tree's top level, so that escape routes climb toward
// it as the tree's do, rather than through a leaf); empty: the lowest switch id of the largest
// component. Throws std::logic_error when r.path_sls already uses e.sl, and RoutingError when
// the switches are not connected. Nothing is changed when `dlids` is empty.
void route_on_escape_layer(const Fabric& f, std::span<const NodeId> top, std::span<const Lid> dlids,
                           const EscapeVl& e, Routing& r);

} // namespace ibrt::escape
