// Traffic patterns; see traffic.hpp.
#include "check/traffic.hpp"

#include <charconv>
#include <numeric>
#include <random>
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
    std::vector<std::uint32_t> to(n);
    if (n == 0) return to;
    if (p.kind == TrafficPattern::Kind::Shift) {
        for (std::uint32_t i = 0; i < n; ++i)
            to[i] = static_cast<std::uint32_t>((std::uint64_t(i) + p.shift) % n);
        return to;
    }
    std::iota(to.begin(), to.end(), 0u);
    std::mt19937_64 rng(p.seed);
    for (std::uint32_t i = n - 1; i > 0; --i) {
        // Uniform in [0, i] by rejection: the largest multiple of (i + 1) below 2^64 bounds it.
        const std::uint64_t range = std::uint64_t(i) + 1;
        const std::uint64_t limit = ~std::uint64_t(0) - (~std::uint64_t(0) % range + 1) % range;
        std::uint64_t x;
        do x = rng();
        while (x > limit);
        std::swap(to[i], to[x % range]);
    }
    return to;
}

} // namespace ibrt::check
