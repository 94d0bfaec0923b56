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
    }
    return "?";
}

TrafficPattern parse_pattern(std::string_view text, std::uint64_t seed) {
    TrafficPattern p;
    p.seed = seed;
    if (text == "all-to-all") return p;
    if (text == "random" || text == "random-permutation") {
        p.kind = TrafficPattern::Kind::RandomPermutation;
        return p;
    }
    if (text.starts_with("shift/")) {
        const std::string_view k = text.substr(6);
        std::uint32_t v = 0;
        auto [end, ec] = std::from_chars(k.data(), k.data() + k.size(), v);
        if (ec == std::errc() && end == k.data() + k.size() && v >= 1) {
            p.kind = TrafficPattern::Kind::Shift;
            p.shift = v;
            return p;
        }
    }
    throw std::invalid_argument("unknown traffic pattern \"" + std::string(text) +
                                "\" (expected all-to-all, shift/K with K >= 1, or random)");
}

std::vector<std::uint32_t> permutation_targets(const TrafficPattern& p, std::uint32_t n) {
    // The permutations `ibrt sim --pattern rotation|randperm` also uses (fabric/permutations).
    if (p.kind == TrafficPattern::Kind::Shift) return shift_permutation(n, p.shift);
    return random_permutation(n, p.seed);
}

} // namespace ibrt::check
