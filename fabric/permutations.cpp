// Permutation traffic patterns; see permutations.hpp.
#include "fabric/permutations.hpp"

#include "fabric/rng.hpp"

#include <numeric>
#include <utility>

namespace ibrt {

std::vector<std::uint32_t> shift_permutation(std::uint32_t n, std::uint64_t shift) {
    std::vector<std::uint32_t> to(n);
    for (std::uint32_t i = 0; i < n; ++i) to[i] = std::uint32_t((i + shift % n) % n);
    return to;
}

std::vector<std::uint32_t> random_permutation(std::uint32_t n, std::uint64_t seed) {
    std::vector<std::uint32_t> to(n);
    std::iota(to.begin(), to.end(), 0u);
    gen::Rng rng(seed ^ 0x7065726d75746521ull); // "permute!": its own stream of the seed
    for (std::uint32_t i = n > 0 ? n - 1 : 0; i > 0; --i)
        std::swap(to[i], to[std::size_t(rng.below(i))]);
    return to;
}

} // namespace ibrt
