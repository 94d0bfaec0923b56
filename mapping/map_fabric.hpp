// Mapping a direct topology from its cabling alone (paper 003 §2; `ibrt map`, and the
// coordinates the direct-topology engines route by).
//   - Dragonfly (§2.2): the local links of a group are a class of ε; every other link is
//     global. Global links form classes too (triangles and rectangles through several
//     groups), so groups are the dense classes on one side of a bipartition (map_fabric.cpp);
//     the switches and small groups these leave out are placed by the one-global-link-per-
//     pair rule (dragonfly_groups.hpp), or said to be unplaced (Shape::unplaced).
//   - FlatFly / HyperX / hypercube (§2.1): each class of ε is a dimension D_i; the switches'
//     i-th coordinates are the classes of ε_i, which joins the ends of every link not in D_i.
//   - Past the paper, tori: a class of ε is one position of a ring (see link_classes.hpp);
//     classes that meet at a switch but never as two sides of one rectangle are positions of
//     the same ring, and each ring is ordered by walking it from hyperplane to hyperplane.
//     A ring of 4 is the graph K2 x K2 and a ring of 3 is K3; on a torus they are given
//     back as rings. With no ring of 5 or more the torus is a FlatFly or hypercube as a
//     graph, and maps as that (the same fabric for routing: docs/engines/direct.md).
//   - Damage: classes too small to have met the others in rectangles are placed by the
//     coordinates afterwards; hyperplane pieces of one ring position are rejoined.
//   - Past the paper, Dragonfly+ (issue 37): leaves with CAs, spines without, groups joined
//     through spines (dragonfly_plus_map.hpp), tried first.
//   - Past the paper, Slim Fly (§1.5): an embedding into the MMS graph (slimfly_map.hpp),
//     tried first when the switch count and degree are a Slim Fly's.
// The result is checked against the cabling before it is returned: distinct coordinates for
// distinct switches, and every link joining switches that differ in exactly its dimension
// (by one, mod K, on a ring). What fails the check is Family::Unknown with the reason.
#pragma once

#include "fabric/fabric.hpp"
#include "mapping/link_classes.hpp"
#include "mapping/shape.hpp"
#include "mapping/switch_links.hpp"

namespace ibrt::mapping {

Shape map_fabric(const Fabric& f, const SwitchLinks& g, const LinkClasses& c);
Shape map_fabric(const Fabric& f);

} // namespace ibrt::mapping
