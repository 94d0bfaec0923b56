// Permutation traffic patterns, the one implementation that the checker's balance report
// (check/traffic.hpp: shift/K, random) and the simulator's destination patterns
// (sim/traffic.hpp: rotation, randperm) share, so that the same seed gives the same
// permutation in both (issue 11, "one answer to each question"). Endpoints are numbered
// 0..n-1 by the caller (both number end nodes in node order).
#pragma once

#include <cstdint>
#include <vector>

namespace ibrt {

// Endpoint i sends to (i + shift) mod n: the shift/rotation family that loads fat trees
// uniformly (Dally & Towles §3.2: "tornado" and "neighbour" are members).
std::vector<std::uint32_t> shift_permutation(std::uint32_t n, std::uint64_t shift);

// A random permutation with one cycle through all n endpoints (Sattolo's algorithm, so no
// endpoint sends to itself), drawn from xoshiro256** (fabric/rng.hpp): a pure
// function of (n, seed) on every platform and library version.
std::vector<std::uint32_t> random_permutation(std::uint32_t n, std::uint64_t seed);

} // namespace ibrt
