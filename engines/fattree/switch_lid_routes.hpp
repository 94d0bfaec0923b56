// Forwarding toward switch LIDs on a recognized fat tree, free of credit loops together with the
// CA routes of updown_tables.hpp (issue 19).
//
// Traffic to a switch LID that is not an SMP (performance-manager queries and other GMPs, IPoIB
// to a management port) travels on data VLs, so it must not add a channel dependency that
// closes a cycle (Dally & Seitz 1987; check/credit_loops.hpp). The CA routes are Up*/Down* in
// the level orientation (up = toward the higher level, paper 000 §4.3), so:
//  1. Legal routes. For switch X, D = X and its ancestors go down to it; every other switch
//     whose up-cone meets D goes up toward the lowest apex (fewest hops), ties spread by X's
//     LID. These add only up->up, up->down and down->down dependencies: no cycle.
//  2. Turns. On a damaged tree a leaf's up-cone can miss D: after one lost leaf uplink on
//     FT(m,3) the leaf reaches none of the m/2 roots above that uplink by an Up*/Down* path.
//     Such a leaf goes Up*/Down* to a switch z that has a legal route to X, entering z from
//     above, and turns up there: one down->up dependency (y->z, z->M) per route, found by a
//     breadth-first search from the leaf (fewest hops, then a turn taken already). A cycle in
//     the channel dependency graph needs at least one turn, and between two turns only legal
//     moves: from channel z->M up to an apex, then down to y' and z' (no U-turn: no route
//     visits a switch twice). Turns are admitted only while the graph "turn a can be followed
//     by turn b" stays acyclic, tested on ancestor bitsets (exact below M, conservative
//     above). A leaf with no admissible turn sends X to the escape layer (on FT(m,3), leaves
//     without their uplink into every plane somewhere need turns into every plane, which form
//     a cycle); the turns admitted for X's other leaves stay in the test, which only makes it
//     more conservative.
// Switches with neither a legal route nor a place on a turning leaf's route keep kNoPath (a top
// switch toward another top switch, say): only CA ports are sources of data traffic, so every
// (CA port, LID) pair is reached and `ibrt check` passes whatever this returns.
//
// Work: O(switches x cables) for the legal routes. The turn machinery is built only when some
// leaf needs a turn (no intact fat tree does): ancestor bitsets (switches^2 bits), then per
// stranded leaf a search bounded by the best route found (it stays near the leaf) and a cycle
// test per candidate turn that would shorten it, O(turns admitted x switches/64).
#pragma once

#include "fabric/routing.hpp"
#include "mapping/fat_tree_shape.hpp"

namespace ibrt::fattree {

// Fills the entries of every switch LID of r.lids in r.lft (one table per switch, already
// sized to the largest LID). Returns the LIDs of the switches some leaf reaches neither by a
// legal route nor by an admissible turn: the caller routes them on the escape layer
// (common/escape_layer.hpp).
std::vector<Lid> route_switch_lids(const Fabric& f, const FatTreeShape& t, Routing& r);

} // namespace ibrt::fattree
