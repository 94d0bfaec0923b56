// Traffic patterns for the balance check: all-to-all, and every permutation of
// fabric/permutations.hpp by `ibrt sim --pattern`'s name (shift/k: endpoint i sends to
// i + k mod N, the family used to load fat trees uniformly; a random permutation from a seed;
// complement, the bit permutations, tornado). Endpoints are numbered as in check/endpoints.hpp
// (node order): end ports, which are `ibrt sim`'s endpoints too. The same name and seed give
// the same permutation in both, on every platform.
#pragma once

#include "fabric/permutations.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ibrt::check {

struct TrafficPattern {
    // Shift and RandomPermutation are the rotation and randperm of Permutation, kept apart for
    // their names in reports; Fixed is any other permutation of fabric/permutations.hpp.
    enum class Kind { AllToAll, Shift, RandomPermutation, Fixed };
    Kind kind = Kind::AllToAll;
    std::uint32_t shift = 1;
    std::uint64_t seed = 1;
    Permutation fixed = Permutation::Complement; // Kind::Fixed
    // "all-to-all", "shift/3", "random-permutation/seed=7", "complement", "bitrev", ...
    std::string name() const;
};

// Parses "all-to-all" (or `ibrt sim`'s "alltoall"), "shift/K" or "rotation/K" (K >= 1),
// "random", "random-permutation" or "randperm", and every other permutation by `ibrt sim
// --pattern`'s name (fabric/permutations.hpp: complement, bitrev, transpose, shuffle, bitrot,
// tornado): one vocabulary for both commands. Throws std::invalid_argument with the forms.
TrafficPattern parse_pattern(std::string_view text, std::uint64_t seed);

// For permutation patterns: the destination endpoint of every source endpoint.
std::vector<std::uint32_t> permutation_targets(const TrafficPattern& p, std::uint32_t n);

} // namespace ibrt::check
