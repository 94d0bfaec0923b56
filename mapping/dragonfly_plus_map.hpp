// Dragonfly+ (Shpiner et al., HiPINEB 2017; issue 37) from the cabling alone: groups that are
// two-level fat trees (leaves cabled to the group's spines), spines joined across groups by
// global links, in any arrangement and any number of global links per pair of groups.
//
// Leaves are the switches with CAs; spines those without. The cabling then says the groups:
// every switch-to-switch link of a leaf is local (a leaf has no global link), so a group is a
// leaf with its spines, joined through the spines they share. A switch without CAs whose
// neighbours are all spines of one group, two or more, is a leaf with no host cabled (a spine
// reaches a group twice only with several links per pair; that reading is not taken). A
// spine left with no leaf is a group of its own (the cabling does not tell its group; it is
// "not placed", as in the Dragonfly's mapping).
//
// It is a Dragonfly+ when there are two groups with leaves or more, no leaf is cabled to a leaf
// or to another group, no spine to a spine of its own group, at least half of each group's
// leaf-spine pairs are cabled, and at least half of the pairs of groups with leaves are joined
// directly (a three-level fat tree has its pods joined only through top switches; a Dragonfly
// has links between switches with CAs). Ordering: in a group, leaves come first (by dense id),
// then spines; Shape::index_in_group counts within each kind.
#pragma once

#include "fabric/fabric.hpp"
#include "mapping/shape.hpp"
#include "mapping/switch_links.hpp"

#include <optional>

namespace ibrt::mapping {

// Family::DragonflyPlus with groups, spine flags, sizes and what is missing, or nullopt (not a
// Dragonfly+) with the reason in *why when given. `base` carries the fields already known
// (cas_per_switch).
std::optional<Shape> map_dragonfly_plus(const SwitchLinks& g, Shape base,
                                        std::string* why = nullptr);

} // namespace ibrt::mapping
