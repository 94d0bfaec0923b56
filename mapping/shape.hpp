// What mapping recovers from the cabling (paper 003 §2): the family of a direct topology, its
// parameters in the paper's notation (§1: N dimensions of K_n switches and links L_n cables
// wide, C CAs per switch; Dragonfly groups of K switches with G global links each), every
// switch's coordinates, and what is missing against the complete shape. Past the paper's §2:
// Slim Fly (§1.5), by its MMS graph parameter q and (t, x, y) coordinates.
#pragma once

#include "fabric/fabric.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ibrt::mapping {

enum class Family { FlatFly, Hypercube, Torus, Mixed, Dragonfly, DragonflyPlus, SlimFly, Unknown };
std::string_view family_name(Family f);

struct Dimension {
    int k = 0;         // K_n: coordinates 0..k-1
    int width = 0;     // L_n: cables per link (the most common count)
    bool ring = false; // a torus ring (neighbours x +- 1 mod k), else complete (any two cabled)
};

struct MissingLink {
    std::uint32_t a = 0, b = 0; // dense switch ids (SwitchLinks) of two present switches
    int cables = 0;             // cables present (0: none), fewer than the dimension's width
};

struct Shape {
    Family family = Family::Unknown;
    std::string why_not;    // Family::Unknown: why the cabling is none of the families
    int cas_per_switch = 0; // C: the most common number of CAs on a switch
    // Cartesian families (FlatFly, hypercube, torus, mixed).
    std::vector<Dimension> dims;
    std::vector<std::vector<int>> coord; // per dense switch: one coordinate per dimension
    // Dragonfly, Dragonfly+.
    int groups = 0, group_size = 0, globals_per_switch = 0;
    std::vector<int> group, index_in_group; // per dense switch
    // Dragonfly+ (mapping/dragonfly_plus_map.hpp): a group's leaves and spines, the most common
    // counts; spine[v] tells a spine; index_in_group counts within the kind. links_per_pair:
    // global links between two joined groups, the most common count.
    int leaves_per_group = 0, spines_per_group = 0, links_per_pair = 0;
    std::vector<std::uint8_t> spine;
    // Dense ids of the switches whose group the cabling does not tell (mapping/
    // dragonfly_groups.hpp: no local link left, or more than one group they could be in).
    // Each is a group of its own above, which keeps every pair of groups joined at most once,
    // so the engine routes them; they are not counted against the complete shape.
    std::vector<std::uint32_t> unplaced;
    // Slim Fly (mapping/slimfly_map.hpp): the MMS graph's q; coord holds (t, x, y) per switch:
    // subgraph t, column x, row y; 2 subgraphs of q columns of q switches when complete.
    int q = 0;
    int link_width = 0; // L: cables per cabled pair (the most common count)
    // Against the complete shape.
    // Coordinates (Dragonfly: {group, index}; Dragonfly+: {group, 0 leaf | 1 spine, index}).
    std::vector<std::vector<int>> missing_switches;
    std::vector<MissingLink> missing_links;
    std::size_t missing_global_links = 0; // Dragonfly(+): pairs of groups not joined
};

// Why a shape is not the family an engine wanted: the mapping's reason when it is none of the
// families, else "it maps as a <family>" (for the engines' declines).
std::string why_not_wanted(const Shape& s);

// The most common value (the smallest among ties); 0 for none.
int most_common(const std::vector<int>& values);

} // namespace ibrt::mapping
