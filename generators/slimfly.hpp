// Slim Fly (Besta & Hoefler, SC'14; paper 003 §1.5): the McKay-Miller-Siran graph for a prime
// power q = 4w + delta, delta in {-1, 0, 1}. Vertices (t, x, y) in Z_2 x F_q x F_q, 2 q^2 of
// them; (0,x,y)~(0,x,y') iff y - y' in X, (1,m,c)~(1,m,c') iff c - c' in X', and
// (0,x,y)~(1,m,c) iff y = m x + c. With a primitive element xi of F_q:
//   delta =  1: X = {1, xi^2, ..., xi^(q-3)},  X' = {xi, xi^3, ..., xi^(q-2)}
//   delta =  0: X = {1, xi^2, ..., xi^(q-2)},  X' = {xi, xi^3, ..., xi^(q-1)}      (q = 2^p)
//   delta = -1: X = {1, xi^2, ..., xi^(2w-2)} u {xi^(2w-1), xi^(2w+1), ..., xi^(4w-3)},
//               X' = {xi, xi^3, ..., xi^(2w-1)} u {xi^(2w), xi^(2w+2), ..., xi^(4w-2)}
// The graph is (3q - delta)/2-regular with diameter 2. Supported q: primes >= 3 and powers of
// two 4..128 (GF(2^p) by polynomial arithmetic).
//
// Ports: 1..C CAs, then each neighbour (ascending vertex index t*q^2 + x*q + y) gets L
// consecutive ports. Labels: "sw-t.x.y", "host-t.x.y-c".
//
// Slim Fly x FlatFly (paper 003 §1.5: SF x FF-1 is q = 4, L = 2 times 8 x 8; SF x FF-2 is q = 8
// times 16): with `ff_k` set, the Cartesian product of the MMS graph and the FlatFly
// K_1 x ... x K_N (generators/hyperx.hpp), L_n cables per FlatFly neighbour. Switch
// (v, c_1..c_N) has index v * prod(K) + (c_1 .. c_N in mixed radix, c_1 most significant); its
// ports: 1..C CAs, the Slim Fly block as above, then the FlatFly dimensions' blocks as hyperx
// lays them out. Labels "sw-t.x.y-c1.c2...", "host-t.x.y-c1.c2...-c".
#pragma once

#include "fabric/fabric.hpp"
#include "generators/switch_graph.hpp"

#include <vector>

namespace ibrt::gen {

struct SlimFlyParams {
    int q = 5;
    int cas_per_switch = -1;   // -1: ceil(degree / 2), the usual Slim Fly concentration
    int parallel = 1;          // L, cables per neighbour pair
    int radix = 0;             // 0: C + L * degree
    std::vector<int> ff_k;     // FlatFly factor K_1..K_N (empty: a plain Slim Fly), each >= 2
    std::vector<int> ff_width; // L_n per FlatFly dimension (empty: all 1)
};

// The MMS switch graph alone (vertex index t*q^2 + x*q + y).
Adjacency mms_graph(int q);
Fabric slimfly(const SlimFlyParams& params);

} // namespace ibrt::gen
