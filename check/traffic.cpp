// Traffic patterns; see traffic.hpp.
#include "check/traffic.hpp"

#include "fabric/permutations.hpp"

#include <charconv>
#include <stdexcept>

namespace ibrt::check {

std::string TrafficPattern::name() const {
    switch (kind) {
    case Kind::AllToAll:
        return "all-to-all";
    case Kind::Shift:
        return "shift/" + std::to_string(shift);
    case Kind::RandomPermutation:
        return "random-permutation/seed=" + std::to_string(seed);
    case Kind::Fixed:
        return std::string(to_string(fixed));
    }
    return "?";
}

TrafficPattern parse_pattern(std::string_view text, std::uint64_t seed) {
    TrafficPattern p;
    p.seed = seed;
    if (text == "all-to-all" || text == "alltoall") return p;
    if (text == "random" || text == "random-permutation" || text == "randperm") {
        p.kind = TrafficPattern::Kind::RandomPermutation;
        return p;
    }
    if (text.starts_with("shift/") || text.starts_with("rotation/")) {
        const std::string_view k = text.substr(text.find('/') + 1);
        std::uint32_t v = 0;
        auto [end, ec] = std::from_chars(k.data(), k.data() + k.size(), v);
        if (ec == std::errc() && end == k.data() + k.size() && v >= 1) {
            p.kind = TrafficPattern::Kind::Shift;
            p.shift = v;
            return p;
        }
    }
    if (const auto perm = parse_permutation(text);
        perm && *perm != Permutation::Rotation && *perm != Permutation::Random) {
        p.kind = TrafficPattern::Kind::Fixed;
        p.fixed = *perm;
        return p;
    }
    throw std::invalid_argument(
        "unknown traffic pattern \"" + std::string(text) +
        "\" (expected all-to-all, shift/K with K >= 1, random, complement, bitrev, transpose, "
        "shuffle, bitrot or tornado; as in ibrt sim, alltoall, rotation/K and randperm too)");
}

std::vector<std::uint32_t> permutation_targets(const TrafficPattern& p, std::uint32_t n) {
    // The permutations `ibrt sim --pattern` uses too (fabric/permutations.hpp).
    if (p.kind == TrafficPattern::Kind::Shift)
        return permutation(Permutation::Rotation, n, p.shift, 0);
    if (p.kind == TrafficPattern::Kind::Fixed) return permutation(p.fixed, n, 0, 0);
    return permutation(Permutation::Random, n, 0, p.seed);
}

} // namespace ibrt::check
