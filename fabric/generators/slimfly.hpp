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
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/generators/switch_graph.hpp"

namespace ibrt::gen {

struct SlimFlyParams {
    int q = 5;
    int cas_per_switch = -1; // -1: ceil(degree / 2), the usual Slim Fly concentration
    int parallel = 1;        // L, cables per neighbour pair
    int radix = 0;           // 0: C + L * degree
};

// The MMS switch graph alone (vertex index t*q^2 + x*q + y).
Adjacency mms_graph(int q);
Fabric slimfly(const SlimFlyParams& params);

} // namespace ibrt::gen
