// Fat-tree recognition: turns any Fabric into the level/up/down structure the fat-tree engines
// (mlid, slid) route on, or refuses it with NotAFatTree naming the offending node (the engines
// decline with that message). Beside the direct topologies' recognisers in mapping/: all
// topology recognition lives here.
//
// Paper 000 §3 builds FT(m,n) with level 0 at the root; here levels count from the end nodes
// (graph/fabric_walks.hpp levels_from_cas): leaves are level 1 and the top is `height`, so paper
// level l is level n - l. Nothing here reads NodeDescriptions: the structure comes from the
// cables alone, so it works for any radix, k-ary n-trees, oversubscribed and parallel-link
// (PGFT) trees and degraded trees with missing cables or switches.
//
// Source digits generalize the labels P(p0..pn-1): digit L of an end port is the index of the
// down-port group (in port order) through which a level-L ancestor reaches it. On FT(m,n) that
// is p_{n-L}, because SW<w,l> port k leads to the child whose digit l is k (paper §3). On a
// degraded tree the level-L switches may disagree (one that lost a child numbers the later
// ones one lower); digit L is then the index given to the level-(L-1) pod by the parent with
// the most children left, so two siblings do not share a digit (and a path).
#pragma once

#include "fabric/fabric.hpp"

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace ibrt::fattree {

struct FatTreeShape {
    int height = 0;                  // switch levels; leaves are 1
    std::vector<std::uint8_t> level; // per NodeId; 0 for end nodes

    // Per NodeId (empty ranges for end nodes), CSR over port numbers:
    // up ports lead to level + 1, ordered round-robin over neighbour groups (first cable of
    // every neighbour in port order, then the second cable, ...) so consecutive choices spread
    // over different switches before parallel cables; down ports lead to level - 1 (to end
    // nodes for leaves), grouped by neighbour, groups ordered by their lowest port.
    std::vector<std::uint32_t> up_begin, down_begin; // num_nodes + 1 each
    std::vector<PortNum> up_ports, down_ports;

    std::vector<NodeId> by_level;           // switches sorted by level, then NodeId
    std::vector<std::uint32_t> level_begin; // by_level index of the first switch of level L
                                            // (size height + 2; index 0 unused)
    std::vector<std::uint32_t> up_radix;    // [L]: most up ports of any switch of level L

    std::vector<NodeId> leaves;            // level-1 switches in NodeId order
    std::vector<std::uint32_t> leaf_index; // per NodeId; kNotLeaf otherwise
    // pod[(L-1) * leaves.size() + i]: the level-L pod of leaf i (connected component of the
    // switches of level <= L). Two end ports meet first at level lca = min L with equal pods.
    std::vector<std::uint32_t> pod;

    // End ports (fabric/end_ports.hpp, before LIDs), in tree order: by their digits from the top
    // down, so on FT(m,n) the index of P(p) is PID(P(p)) (paper §3, Definition 4).
    std::vector<PortId> end_ports;
    std::vector<std::uint32_t> end_leaf;  // leaf index of each end port
    std::vector<PortNum> end_leaf_port;   // port of the leaf cabled to it
    std::vector<std::uint32_t> digits;    // [i * height + L - 1]: digit L of end port i
    std::vector<std::uint32_t> end_of_ca; // per Fabric::cas() index: its first end port
    std::vector<std::uint32_t> end_index; // per PortId: index in end_ports or kNoEnd

    static constexpr std::uint32_t kNotLeaf = 0xffffffffu;
    static constexpr std::uint32_t kNoEnd = 0xffffffffu;

    std::size_t num_end_ports() const { return end_ports.size(); }
    std::uint32_t lca_level(std::uint32_t leaf_a, std::uint32_t leaf_b) const {
        const std::size_t nl = leaves.size();
        for (int L = 1; L <= height; ++L)
            if (pod[(L - 1) * nl + leaf_a] == pod[(L - 1) * nl + leaf_b])
                return static_cast<std::uint32_t>(L);
        return static_cast<std::uint32_t>(height); // unreachable on a connected fabric
    }
};

// The fabric is no fat tree; what() says why ("not a fat tree: ...").
struct NotAFatTree : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Throws NotAFatTree (disconnected, links within a level, CAs cabled to CAs, no end nodes)
// naming the node and what is wrong.
FatTreeShape recognize_fat_tree(const Fabric& f);

} // namespace ibrt::fattree
