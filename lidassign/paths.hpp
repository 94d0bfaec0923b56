// Paths, splits and configurations of Nienaber, Yuan, Duan, "LID Assignment in InfiniBand
// Networks" (paper 001) §II.
//
// The network is a directed multigraph; a directed edge is named by the PortId it leaves
// through (the out port), so parallel cables are distinct edges and a path is the sequence of
// its out ports. All LID assignment is per destination (§II: L = sum_d L_d), so paths are
// stored per destination in one flat CSR array.
#pragma once

#include "fabric/fabric.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace ibrt::lidassign {

// R_d: every path towards one destination node.
struct DestPaths {
    NodeId dst = kNoNode;
    std::vector<std::uint32_t> offset{0}; // path i is edges[offset[i], offset[i+1])
    std::vector<PortId> edges;            // out ports, in path order

    std::size_t size() const { return offset.size() - 1; }
    std::span<const PortId> path(std::size_t i) const {
        return {edges.data() + offset[i], edges.data() + offset[i + 1]};
    }
    void add(std::span<const PortId> p) {
        edges.insert(edges.end(), p.begin(), p.end());
        offset.push_back(static_cast<std::uint32_t>(edges.size()));
    }
};

// R: one DestPaths per destination.
using PathSet = std::vector<DestPaths>;

// Throws std::invalid_argument unless every path is a walk of cabled edges that ends at dst
// and visits no node twice (a split is defined on NODE(p), a set).
void validate(const Fabric& f, const DestPaths& d);

// Definition 1: p and q split iff they leave some shared node by different edges.
bool split(const Fabric& f, std::span<const PortId> p, std::span<const PortId> q);

// The LIDs a destination needs for k configurations under LMC: 2^ceil(lg k) (at least 1, an
// end port always has its base LID).
inline std::uint32_t lids_for(std::uint32_t k) {
    std::uint32_t n = 1;
    while (n < k) n <<= 1;
    return n;
}
inline int lmc_for(std::uint32_t k) {
    int l = 0;
    while ((1u << l) < k) ++l;
    return l;
}

} // namespace ibrt::lidassign
