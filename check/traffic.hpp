// Traffic patterns for the balance check: all-to-all, shift/k (endpoint i sends to
// i + k mod N, the "shift" permutation family used to load fat trees uniformly) and a random
// permutation from a seed. Endpoints are numbered as in check/endpoints.hpp (node order).
// The permutations are fabric/permutations.hpp's, the ones `ibrt sim` uses for rotation and
// randperm: the same seed gives the same permutation in both, on every platform.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ibrt::check {

struct TrafficPattern {
    enum class Kind { AllToAll, Shift, RandomPermutation };
    Kind kind = Kind::AllToAll;
    std::uint32_t shift = 1;
    std::uint64_t seed = 1;
    std::string name() const; // "all-to-all", "shift/3", "random-permutation/seed=7"
};

// Parses "all-to-all", "shift/K" (K >= 1) or "random" / "random-permutation".
// Throws std::invalid_argument with the accepted forms.
TrafficPattern parse_pattern(std::string_view text, std::uint64_t seed);

// For permutation patterns: the destination endpoint of every source endpoint.
std::vector<std::uint32_t> permutation_targets(const TrafficPattern& p, std::uint32_t n);

} // namespace ibrt::check
