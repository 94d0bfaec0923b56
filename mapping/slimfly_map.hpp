// Recognising a Slim Fly (paper 003 §1.5: a McKay-Miller-Siran graph over F_q) from the
// cabling alone, past the paper's §2, which maps only FlatFlies and Dragonflies.
//
// Why not by link classes: the MMS graph for q = 5 is the Hoffman-Singleton graph, which is
// edge-transitive, so no rule on triangles or rectangles can tell its cross (t) links from its
// column (y) links; several decompositions into columns are equally right. What is well
// defined is an embedding: coordinates (t, x, y) for every switch under which every cable
// joins two switches adjacent in the MMS graph of generators/slimfly.hpp. Any such
// embedding is the generator's coordinates up to an automorphism of the graph, which is what
// "recovered up to the graph's symmetries" means (shape_compare.hpp checks exactly that).
//
// How: a fabric of n switches, n in [2q^2 - m, 2q^2] for a supported q (a prime >= 3 or a
// power of two, q mod 4 != 2) whose highest degree is (3q - delta)/2, is matched into the
// graph by a depth-first search. The graph's automorphisms move any vertex of a subgraph to any
// other, so one switch is placed at (0, 0, 0), or failing that at (1, 0, 0) (for some q no
// automorphism swaps the subgraphs: measured on q = 7); then always the switch with the most placed
// neighbours, on a vertex adjacent to all their places. Every vertex adjacent to a placed vertex
// with no cable between the two switches is a missing link; the search never spends more of those
// than the graph has links beyond the fabric's (|E(MMS)| - cabled pairs), so a pristine fabric is
// matched as an isomorphism and a degraded one with its few missing links and switches. The search
// is bounded (a budget of placements, a few starting switches); when it finds no embedding the
// fabric is not a Slim Fly and the reason says so.
#pragma once

#include "fabric/fabric.hpp"
#include "mapping/shape.hpp"
#include "mapping/switch_links.hpp"

#include <optional>

namespace ibrt::mapping {

// delta of q = 4w + delta (-1, 0, 1), or nullopt when the generator has no MMS graph for q.
std::optional<int> slimfly_delta(int q);

// Whether the cabling has a Slim Fly's size and highest degree, and so is worth trying: the q it
// would have, else 0.
int slimfly_candidate_q(const SwitchLinks& g);

// The Slim Fly reading of the fabric (family SlimFly, q, coord = {t, x, y} per switch,
// missing switches and links against the complete MMS graph), or Family::Unknown with why.
Shape map_slimfly(const Fabric& f, const SwitchLinks& g, int q, Shape s);

} // namespace ibrt::mapping
