// The cabling that mapping looks at (paper 003 §2: "a routing engine is given only a list of
// nodes and links"): switches as dense ids 0..n-1 and the switch-to-switch links, one per
// pair of cabled switches with the number of parallel cables (paper 003 rule 2 makes parallel
// cables one element; rule 1 makes the two directions one). Node descriptions, GUIDs and port
// numbers play no part in what is recovered: mapping must survive any relabelling of them.
// GUIDs only order the dense ids, so that labels and ties are the same whatever order a file
// or opensm lists the nodes in.
#pragma once

#include "fabric/fabric.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace ibrt::mapping {

inline constexpr std::uint32_t kNone = UINT32_MAX;

struct SwitchLinks {
    struct Link {
        std::uint32_t a = 0, b = 0; // dense switch ids, a < b
        std::uint32_t cables = 0;
    };
    struct Incidence {
        std::uint32_t peer = 0, link = 0;
    };
    std::vector<NodeId> node;          // dense id -> NodeId (Fabric::switches() order)
    std::vector<std::uint32_t> dense;  // NodeId -> dense id, kNone for end nodes
    std::vector<std::uint32_t> cas;    // CAs cabled to each switch
    std::vector<Link> links;           // sorted by (a, b)
    std::vector<std::uint32_t> start;  // CSR: incidences of switch s are [start[s], start[s+1])
    std::vector<Incidence> incidences; // each switch's sorted by peer

    std::size_t num_switches() const { return node.size(); }
    std::span<const Incidence> around(std::uint32_t s) const {
        return {incidences.data() + start[s], incidences.data() + start[s + 1]};
    }
    // The link between two switches, kNone if they are not cabled.
    std::uint32_t link_between(std::uint32_t s, std::uint32_t t) const;
    // The directed link s -> t as an incidence index (start[s] + its place in around(s)): a
    // channel id for channel dependency graphs; kNone if they are not cabled.
    std::uint32_t channel(std::uint32_t s, std::uint32_t t) const;
};

SwitchLinks switch_links(const Fabric& f);

// Hop counts among `members` (dense switch ids, each once) over the links between members
// only: hops[t * k + x] is the distance from member x to member t (k = members.size(); links
// run both ways, so also from t to x), kFarHops where the members do not join them: the one
// breadth-first search the direct engines' tables start from (a Dragonfly's group, a whole
// Slim Fly). 8 bits keep a k x k table per group small; a distance above 254 throws
// std::length_error.
inline constexpr std::uint8_t kFarHops = 255;
std::vector<std::uint8_t> member_hops(const SwitchLinks& g, std::span<const std::uint32_t> members);

} // namespace ibrt::mapping
