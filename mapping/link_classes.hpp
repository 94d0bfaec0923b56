// The equivalence relation ε on links of paper 003 §2.1, closed by union-find:
//   1. the two directions of a cable are one element, and
//   2. parallel cables between two switches are one element (both by SwitchLinks);
//   3. the three links of a triangle are equivalent (the paper's text says "rectangle" here; a
//      triangle is what its FlatFly argument needs: K_n >= 3 puts triangles in every row);
//   4. the opposite sides of a rectangle (a 4-cycle) are equivalent.
// In a FlatFly (and any subgraph of one) each class lies within one dimension, so classes
// never merge two dimensions, only split one when links are missing. In a Dragonfly each
// group's local links form one class and every global link its own (§2.2). In a torus ring of
// K >= 5 there are no triangles and the ring has no 4-cycle, so a class holds the links of one
// position of a ring (between coordinates j and j+1) across the whole torus.
//
// Besides the classes, mapping needs to know which classes meet as two adjacent sides of a
// rectangle (`orthogonal`): two different dimensions always do; the two links of one ring
// position pair at a switch never do (past the paper: this is how rings are told apart).
#pragma once

#include "mapping/switch_links.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace ibrt::mapping {

struct LinkClasses {
    std::vector<std::uint32_t> of_link; // class of each link, 0..count-1
    std::uint32_t count = 0;
    std::vector<std::uint32_t> links_in; // size of each class
    // Pairs (c1 < c2) of different classes seen as adjacent sides of a rectangle, sorted.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> orthogonal;
    bool are_orthogonal(std::uint32_t c1, std::uint32_t c2) const;
};

LinkClasses link_classes(const SwitchLinks& g);

} // namespace ibrt::mapping
