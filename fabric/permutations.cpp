// Permutation traffic patterns; see permutations.hpp.
#include "fabric/permutations.hpp"

#include "fabric/rng.hpp"

#include <numeric>
#include <stdexcept>
#include <string>
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

std::optional<Permutation> parse_permutation(std::string_view name) {
    for (std::size_t i = 0; i < kPermutationNames.size(); ++i)
        if (kPermutationNames[i] == name) return Permutation(i);
    return std::nullopt;
}

std::vector<std::uint32_t> permutation(Permutation p, std::uint32_t n, std::uint64_t shift,
                                       std::uint64_t seed) {
    if (p == Permutation::Rotation) return shift_permutation(n, shift);
    if (p == Permutation::Random) return random_permutation(n, seed);
    int bits = 0;
    while ((std::uint64_t(1) << bits) < n) ++bits;
    const bool pow2 = (std::uint64_t(1) << bits) == n;
    if ((p == Permutation::BitReversal || p == Permutation::Transpose ||
         p == Permutation::Shuffle || p == Permutation::BitRotation) &&
        !pow2)
        throw std::invalid_argument("pattern " + std::string(to_string(p)) +
                                    " needs a power-of-two number of end nodes, have " +
                                    std::to_string(n));
    if (p == Permutation::Transpose && bits % 2 != 0)
        throw std::invalid_argument("pattern transpose needs an even number of address bits, "
                                    "have " +
                                    std::to_string(n) + " end nodes");
    std::vector<std::uint32_t> to(n);
    for (std::uint32_t s = 0; s < n; ++s) {
        switch (p) {
        case Permutation::Complement:
            to[s] = n - 1 - s;
            break;
        case Permutation::BitReversal: {
            std::uint32_t r = 0;
            for (int i = 0; i < bits; ++i) r |= ((s >> i) & 1u) << (bits - 1 - i);
            to[s] = r;
            break;
        }
        case Permutation::Transpose: {
            const int h = bits / 2;
            to[s] = ((s & ((1u << h) - 1)) << h) | (s >> h);
            break;
        }
        case Permutation::Shuffle:
            to[s] = bits == 0 ? s : (((s << 1) | (s >> (bits - 1))) & (n - 1));
            break;
        case Permutation::BitRotation:
            to[s] = bits == 0 ? s : ((s >> 1) | ((s & 1u) << (bits - 1)));
            break;
        case Permutation::Tornado:
            to[s] = (s + (n + 1) / 2 - 1) % n;
            break;
        default:
            to[s] = s;
        }
    }
    return to;
}

} // namespace ibrt
