// Forwarding tables of a fat tree with one or more LIDs per end port: paper 000 §4.3,
// equations (1) and (2), generalized to any recognized fat tree.
//
// Equation (1) (the destination is below: go down toward it) needs no arithmetic once the
// tree is known: the down port is the one leading to the destination's subtree. Equation (2)
// picks the up port at level L as digit L of the path index e in the mixed radix of the up
// degrees U_1, U_2, ... (on FT(m,n) every U is m/2, and e = lid - 1 mod (m/2)^(n-1)):
//   up choice at level L = floor(e / (U_1 ... U_{L-1})) mod U_L.
// For destination end port i (tree order) with K = 2^LMC LIDs, LID base + o has
//   e = o mod P when K >= P,   e = (i * K + o) mod P when K < P,
// P = U_1 ... U_{height-1} (the number of distinct up paths). With K = P (full LMC on FT(m,n),
// m/2 a power of 2) this is the paper's scheme exactly; with K > P (m/2 = 3: 9 paths, 16 LIDs)
// offset o still takes path o, so a source keeps its path to every destination, which is what
// makes permutations such as bit complement contention-free; with K = 1 it is the d-mod-k
// spreading of the SLID baseline; in between, destinations take turns over the path space so
// all up links carry the same number of (destination, LID) routes.
//
// Degraded trees: a switch goes up only through ports whose parent can still reach the
// destination's leaf going up then down, and down only into children above that leaf. When
// those parents lead to different numbers of up*/down* paths to the leaf (a subtree lost most
// of its ways down), the up choice follows a weighted round-robin over them in proportion to
// those paths; among equal parents it is the path index modulo the ports left. If some leaf
// cannot reach another leaf that
// way (no common ancestor left), every LID of that leaf's end ports goes on the escape layer
// (common/escape_layer.hpp: its own VL), as do switch LIDs that switch_lid_routes.hpp cannot reach.
//
// Switch LIDs: switch_lid_routes.hpp (Up*/Down* too, so that they close no credit loop).
//
// Work: O(leaves x cables) for the per-leaf reachability and O(switches x LIDs) for the tables,
// all over flat arrays.
#pragma once

#include "fabric/routing.hpp"
#include "mapping/fat_tree_shape.hpp"

namespace ibrt::fattree {

// P = U_1 ... U_{height-1}: the path space of equation (2), saturated at 2^40.
std::uint64_t path_space(const FatTreeShape& t);

// Fills r.lft (one table per node, empty for non-switches) from the LIDs in r.lids, which must
// give every end port of `t` a LID. `single_path`: every LID of end port i takes path e = i mod
// P (the SLID baseline, also when preassigned LIDs carry an LMC). LIDs that go on the escape
// layer get path SL 1 and SL2VL tables; an intact tree gets neither.
void build_updown_lfts(const Fabric& f, const FatTreeShape& t, Routing& r,
                       bool single_path = false);

} // namespace ibrt::fattree
