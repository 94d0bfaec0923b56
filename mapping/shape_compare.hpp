// Whether a recovered shape is the one a generator built, up to the topology's symmetries:
// the tests, the robustness study (paper 003 §2.1-2.2: "mapped correctly with 20 % switches
// and 15 % links missing") and the benchmark all judge a mapping by this one function.
//   - Cartesian families: the same number of dimensions, and a pairing of recovered with
//     generated dimensions under which each dimension's values correspond one to one (any
//     relabelling of a complete dimension; a rotation or reflection of a ring).
//   - Dragonfly: the same partition into groups of every switch whose group the cabling tells
//     (dragonfly_known); a switch it does not tell may be left unplaced (Shape::unplaced), but
//     one placed with switches of another group is wrong.
//   - Slim Fly: the map from generated to recovered (t, x, y) is one to one and keeps the MMS
//     graph's adjacency (an automorphism of the graph, restricted to the switches present).
// The generator's coordinates come from its switch labels ("sw-1.0.3", "sw-g3-1"), which the
// mapping itself never reads.
#pragma once

#include "fabric/fabric.hpp"
#include "mapping/shape.hpp"
#include "mapping/switch_links.hpp"

#include <optional>
#include <string_view>
#include <vector>

namespace ibrt::mapping {

// "sw-1.0.3" -> {1, 0, 3}; "sw-g3-1" -> {3, 1}; nullopt for any other label.
std::optional<std::vector<int>> generator_coords(std::string_view label);

// The generator's coordinates of every switch of `g` (by dense id), from the descriptions.
std::vector<std::vector<int>> generator_coords(const Fabric& f, const SwitchLinks& g);

// A Dragonfly is held to dragonfly_known(g, want); without g, to every switch's group.
bool matches_generator(const Shape& s, const std::vector<std::vector<int>>& want);
bool matches_generator(const Shape& s, const SwitchLinks& g,
                       const std::vector<std::vector<int>>& want);

// Dragonfly (want[v] = {group, index}): whether the cabling tells each switch's group, so
// that a mapping which does not place it is not wrong. Known are the switches of each group's
// largest set held together by local links that lie on a triangle or a rectangle of the
// group's links (three switches or more: a single link between two switches could as well be
// global), and then whatever place_lone_switches (dragonfly_groups.hpp) decides from them,
// where it decides the generator's group.
std::vector<bool> dragonfly_known(const SwitchLinks& g, const std::vector<std::vector<int>>& want);

} // namespace ibrt::mapping
