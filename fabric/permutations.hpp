// Permutation traffic patterns, the one implementation and the one vocabulary that the
// checker's balance report (check/traffic.hpp) and the simulator's destination patterns
// (sim/traffic.hpp) share, so that a name (and a seed) gives the same permutation in both
// (issues 11 and 41, "one answer to each question"). Endpoints are numbered 0..n-1 by the
// caller (both number end nodes in node order). The bit permutations are Dally & Towles §3.2's.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace ibrt {

// Endpoint i sends to (i + shift) mod n: the shift/rotation family that loads fat trees
// uniformly (Dally & Towles §3.2: "tornado" and "neighbour" are members).
std::vector<std::uint32_t> shift_permutation(std::uint32_t n, std::uint64_t shift);

// A random permutation with one cycle through all n endpoints (Sattolo's algorithm, so no
// endpoint sends to itself), drawn from xoshiro256** (fabric/rng.hpp): a pure
// function of (n, seed) on every platform and library version.
std::vector<std::uint32_t> random_permutation(std::uint32_t n, std::uint64_t seed);

// The permutations by name, as `ibrt sim --pattern` and `ibrt check --pattern` spell them.
enum class Permutation : std::uint8_t {
    Rotation,    // "rotation": i -> (i + shift) mod n (shift_permutation)
    Random,      // "randperm": random_permutation(n, seed)
    Complement,  // "complement": i -> n - 1 - i
    BitReversal, // "bitrev": the address bits reversed (n a power of two)
    Transpose,   // "transpose": the address's halves swapped (n a power of two, even bits)
    Shuffle,     // "shuffle": the address rotated left by one bit (n a power of two)
    BitRotation, // "bitrot": the address rotated right by one bit (n a power of two)
    Tornado,     // "tornado": i -> (i + ceil(n / 2) - 1) mod n
};
inline constexpr std::array<std::string_view, 8> kPermutationNames = {
    "rotation", "randperm", "complement", "bitrev", "transpose", "shuffle", "bitrot", "tornado"};
inline constexpr std::string_view to_string(Permutation p) {
    return kPermutationNames[std::size_t(p)];
}
std::optional<Permutation> parse_permutation(std::string_view name);

// Endpoint i's destination under p among n endpoints (`shift` for Rotation, `seed` for
// Random). Throws std::invalid_argument where p does not apply to n ("pattern bitrev needs a
// power-of-two number of end nodes, have 12").
std::vector<std::uint32_t> permutation(Permutation p, std::uint32_t n, std::uint64_t shift,
                                       std::uint64_t seed);

} // namespace ibrt
