// HyperX / FlatFly (Ahn et al. SC'09; paper 003 §1.2 and §1.3): the Cartesian product of N
// complete graphs K_1 x ... x K_N, L_n parallel cables between neighbours in dimension n,
// C CAs per switch. Degree C + sum_n L_n (K_n - 1), diameter N. A hypercube is the case
// K_n = 2 for every n.
//
// Ports: 1..C hold the CAs; then dimension 1's block, dimension 2's, ...: within dimension n
// the neighbour with coordinate v (v != own x_n) uses the L_n ports starting at
// (v < x_n ? v : v - 1) * L_n. Switches are ordered by coordinates, x_1 most significant.
// Labels: switches "sw-x1.x2...", CAs "host-x1.x2...-c".
#pragma once

#include "fabric/fabric.hpp"

#include <vector>

namespace ibrt::gen {

struct HyperXParams {
    std::vector<int> k;     // switches per dimension, each >= 2
    std::vector<int> width; // parallel cables per neighbour pair, per dimension (empty: all 1)
    int cas_per_switch = 1;
    int radix = 0; // 0: the degree
};

Fabric hyperx(const HyperXParams& params);
Fabric hypercube(int dimensions, int width = 1, int cas_per_switch = 1);

} // namespace ibrt::gen
