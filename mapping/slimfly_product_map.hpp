// Recognising a Slim Fly x FlatFly product (paper 003 §1.5: SF x FF-1 and SF x FF-2) from the
// cabling alone, past the paper's §2, which maps only FlatFlies and Dragonflies.
//
// In a Cartesian product every link lies in one factor, and ε keeps the factors apart: a
// triangle lies within one factor, and a rectangle with links of both has them on opposite
// sides. So each FlatFly dimension is a class of ε whose pieces are cliques of K_n >= 3
// switches (the triangles of K_n join its links; the rectangles join the copies). Every other
// link is a Slim Fly link. Then:
//   - the FlatFly links join each Slim Fly vertex's copy of the FlatFly: contracting each copy
//     to one vertex leaves the MMS graph, which slimfly_map.hpp embeds (t, x, y);
//   - the n-th FlatFly coordinate is the class of ε_n, which joins the ends of every link not
//     in dimension n (as for a FlatFly, §2.1).
// The columns of some Slim Flies hold cliques too (q = 8: K4s in one subgraph; q = 3:
// triangles at every switch): a FlatFly dimension's class has a clique at every switch, and
// subsets of such classes are tried until the contraction is a Slim Fly.
// The result is checked against the cabling: distinct coordinates, every FlatFly link a step
// in one dimension between switches of one copy, every Slim Fly link joining switches with the
// same FlatFly coordinates.
// Degraded products (past the paper; issue 13 asks every engine to route degraded fabrics):
// missing cables and a few missing switches only take triangles and rectangles away, so the
// FlatFly classes survive as near-cliques (at least half the pieces complete, none larger) and
// a missing switch leaves one piece per dimension a switch smaller; two copies of the FlatFly
// are then joined by fewer Slim Fly links than a copy has switches, never more. The
// contraction must still be a complete Slim Fly (no copy wholly missing, no pair of copies
// wholly cut apart). After the check above, every FlatFly tuple of every copy that no switch
// has is a missing switch, and every pair of present switches one step apart in one factor
// (a FlatFly dimension, or an MMS link between their copies) with fewer cables than that
// factor's width a missing link, as for the other families; more than 1 in 8 switches or 1 in
// 4 links missing is too little to be this shape. Hypercube factors (K_n = 2 has no triangle
// to tell its links from the Slim Fly's) are not recognised.
#pragma once

#include "fabric/fabric.hpp"
#include "mapping/link_classes.hpp"
#include "mapping/shape.hpp"
#include "mapping/switch_links.hpp"

#include <optional>

namespace ibrt::mapping {

// nullopt when the cabling does not look like a product (no clique class, nothing else, or
// copies of the FlatFly that do not contract to a graph of a Slim Fly's size and degree); a Shape
// of family SlimFly with `dims` (the FlatFly factor) and coord (t, x, y, c_1..c_N) per switch when
// it is one; Family::Unknown with the reason when it looked like one but is not.
std::optional<Shape> try_slimfly_product(const Fabric& f, const SwitchLinks& g,
                                         const LinkClasses& c, Shape s);

} // namespace ibrt::mapping
