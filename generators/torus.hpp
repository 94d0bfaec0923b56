// Tori and meshes, k-ary n-cubes with per-dimension sizes (paper 003 §1.1, paper 002 §5):
// switch x is cabled to x +- e_n in every dimension n (wrapping around in a torus), with L_n
// parallel cables, and holds C CAs. Degree C + 2 sum_n L_n. A dimension of size 2 has one
// neighbour per switch even in a torus (the +1 and -1 neighbours coincide), so it gets one
// bundle, not two.
//
// Ports: 1..C hold the CAs, then per dimension n a block of 2 L_n ports: the first L_n go to
// x + e_n, the next L_n to x - e_n (unused at a mesh border). Labels as in hyperx.hpp.
#pragma once

#include "fabric/fabric.hpp"

#include <vector>

namespace ibrt::gen {

struct TorusParams {
    std::vector<int> k;     // switches per dimension, each >= 1
    std::vector<int> width; // parallel cables per dimension (empty: all 1)
    int cas_per_switch = 1;
    bool wrap = true; // false: mesh
    int radix = 0;    // 0: the degree
};

Fabric torus(const TorusParams& params);

} // namespace ibrt::gen
