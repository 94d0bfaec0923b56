// Whether a recovered shape is the one a generator built, up to the topology's symmetries:
// the tests, the robustness study (paper 003 §2.1-2.2: "mapped correctly with 20 % switches
// and 15 % links missing") and the benchmark all judge a mapping by this one function.
//   - Cartesian families: the same number of dimensions, and a pairing of recovered with
//     generated dimensions under which each dimension's values correspond one to one (any
//     relabelling of a complete dimension; a rotation or reflection of a ring).
//   - Dragonfly: the same partition of switches into groups.
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

bool matches_generator(const Shape& s, const std::vector<std::vector<int>>& want);

} // namespace ibrt::mapping
