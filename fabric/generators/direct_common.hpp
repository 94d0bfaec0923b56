// Shared by the Cartesian direct topologies (HyperX, torus/mesh): coordinates of switch
// index i (first dimension most significant) and the labels "sw-x1.x2..." / "host-...-c".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ibrt::gen {

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

} // namespace ibrt::gen
