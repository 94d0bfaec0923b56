// Shared by the Cartesian direct topologies (HyperX, torus/mesh): coordinates of switch
// index i (first dimension most significant) and the labels "sw-x1.x2..." / "host-...-c".
#pragma once

#include "fabric/fabric.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ibrt::gen {

class GenBuilder;

struct Grid {
    std::vector<int> k;                // sizes
    std::vector<std::uint64_t> weight; // index stride of each dimension
    std::uint64_t size = 1;

    explicit Grid(std::vector<int> sizes);
    int coord(std::uint64_t index, std::size_t dim) const {
        return static_cast<int>(index / weight[dim] % k[dim]);
    }
    std::string coords(std::uint64_t index) const;
};

// One switch "sw-<coords>" of `radix` ports per grid point, with `cas_per_switch` hosts
// "host-<coords>-c" on its ports 1..cas_per_switch; returns the switches by grid index.
std::vector<NodeId> grid_switches_with_cas(GenBuilder& b, const Grid& g, int radix,
                                           int cas_per_switch);

} // namespace ibrt::gen
