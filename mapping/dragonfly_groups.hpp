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
#include <vector>

namespace ibrt::mapping {

// group[v]: v's group, or kNone while not known. Places every switch whose group the rule
// above decides, repeatedly (a switch placed is evidence for the next), and returns how many
// it placed. `accept(v, grp)`, when given, may refuse a placement (the switch stays kNone).
std::size_t
place_lone_switches(const SwitchLinks& g, std::vector<std::uint32_t>& group,
                    const std::function<bool(std::uint32_t, std::uint32_t)>& accept = {});

} // namespace ibrt::mapping
