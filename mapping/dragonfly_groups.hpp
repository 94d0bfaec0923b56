// Which group a switch of a damaged Dragonfly is in, when §2.2's classes do not say (paper
// 003 §2.2 reads a group as a class of local links; past its text, the switches whose local
// links are too few to be in such a class).
//
// A Dragonfly joins any two groups by at most one global link. A switch v left with one local
// link looks like it has one more global link. It can be in group G only if moving it there
// breaks that rule nowhere: v reaches no other group twice, and G is not already joined to
// another group that v reaches. When exactly one neighbouring group fits, that is v's group:
// the cabling tells it. When several fit, or v is cabled to a switch whose group is not known
// and the two could form a group of their own, the cabling does not tell. v is then not placed.
//
// The mapping (map_fabric.cpp) and the robustness measurement (shape_compare.hpp) both use this
// rule: the mapping from the groups it recovered, the measurement from the generator's, to
// tell "the cabling cannot tell" from "the mapping got it wrong".
#pragma once

#include "mapping/switch_links.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace ibrt::mapping {

// group[v]: v's group, or kNone while not known. Places every switch whose group the rule
// above decides, repeatedly (a switch placed is evidence for the next), and returns how many
// it placed. `accept(v, grp)`, when given, may refuse a placement (the switch stays kNone).
std::size_t
place_lone_switches(const SwitchLinks& g, std::vector<std::uint32_t>& group,
                    const std::function<bool(std::uint32_t, std::uint32_t)>& accept = {});

// Groups read from triangles, whatever the global arrangement (absolute, relative/palm tree,
// circulant, any bijection of group pairs to ports; issue 37). Two switches of a group share
// its other a - 2 switches as neighbours; two switches joined by a global link share only
// switches of third groups cabled to both, and none in most arrangements. So the local links
// are those on at least tau triangles: for tau from the smallest count up, the components of
// those links are taken as groups (single switches left out) until they read as a Dragonfly:
// two groups or more, every two groups joined by one cabled pair of switches at most, and at
// least half of the groups' local links present. Then, repeatedly: a switch left out with two
// links into one group is in it (only local links reach a group twice); the switches left out
// that hold together by triangles among themselves (a group too damaged to reach tau) are a
// group when they are three or more, mostly cabled to each other and reach every group once at
// most; and the rest are placed as above. nullopt when no tau gives a Dragonfly (groups of 2
// or 3 switches have too few triangles to tell; a FlatFly's rows are joined many times).
// Work: O(links x degree) for the triangles, O(links) per tau.
//
// `several_per_pair`: a Dragonfly with m > 1 global links between every two groups. The reading
// then needs every two groups joined by m links at most, m the most common count, instead of
// once; a switch left out joins a group it has two links into (each switch's global links
// reach distinct groups), the others stay out (the placements above rest on the one-link rule).
// map_fabric tries it only when no Cartesian family fits: a two-dimensional HyperX is such a
// Dragonfly as a graph (its rows joined once per column), and is better said as a HyperX.
std::optional<std::vector<std::uint32_t>> groups_by_triangles(const SwitchLinks& g,
                                                              bool several_per_pair = false);

} // namespace ibrt::mapping
