// Traffic patterns of the interconnect literature (Dally & Towles ch. 3; BookSim's
// traffic.cpp definitions; paper 000 §5.2 for hot-spot, paper 002 §5 for perfect shuffle and
// hot-spot, §5.3 for the hot spot on links (hot-flows), paper 004 §4 for complement). See
// traffic.hpp for the exact definitions.
#include "sim/traffic.hpp"

#include "fabric/input_error.hpp"
#include "fabric/permutations.hpp"

#include <fmt/core.h>

#include <numeric>
#include <stdexcept>

namespace ibrt::sim {
namespace {

struct Named {
    Pattern p;
    std::string_view name;
};
// The permutations' names are fabric/permutations.hpp's, which `ibrt check --pattern` reads too.
constexpr Named kPatterns[] = {
    {Pattern::Uniform, "uniform"},
    {Pattern::Hotspot, "hotspot"},
    {Pattern::Complement, to_string(Permutation::Complement)},
    {Pattern::BitReversal, to_string(Permutation::BitReversal)},
    {Pattern::Transpose, to_string(Permutation::Transpose)},
    {Pattern::Shuffle, to_string(Permutation::Shuffle)},
    {Pattern::BitRotation, to_string(Permutation::BitRotation)},
    {Pattern::Rotation, to_string(Permutation::Rotation)},
    {Pattern::Tornado, to_string(Permutation::Tornado)},
    {Pattern::RandomPermutation, to_string(Permutation::Random)},
    {Pattern::AllToAll, "alltoall"},
    {Pattern::Pairs, "pairs"},
    {Pattern::HotFlows, "hot-flows"},
    {Pattern::BadDragon, "bad-dragon"},
};

// The permutation a fixed pattern is, if it is one.
std::optional<Permutation> permutation_of(Pattern p) {
    switch (p) {
    case Pattern::Complement:
        return Permutation::Complement;
    case Pattern::BitReversal:
        return Permutation::BitReversal;
    case Pattern::Transpose:
        return Permutation::Transpose;
    case Pattern::Shuffle:
        return Permutation::Shuffle;
    case Pattern::BitRotation:
        return Permutation::BitRotation;
    case Pattern::Rotation:
        return Permutation::Rotation;
    case Pattern::Tornado:
        return Permutation::Tornado;
    case Pattern::RandomPermutation:
        return Permutation::Random;
    default:
        return std::nullopt;
    }
}

// Whether a hot window was given (its defaults: the whole run).
bool windowed(const TrafficSpec& spec) {
    return spec.hot_start_ps > 0 || spec.hot_end_ps != ~std::uint64_t(0);
}

} // namespace

std::optional<Pattern> parse_pattern(std::string_view s) {
    for (const auto& n : kPatterns)
        if (n.name == s) return n.p;
    if (s == "centric") return Pattern::Hotspot;
    return std::nullopt;
}

std::string_view to_string(Pattern p) {
    for (const auto& n : kPatterns)
        if (n.p == p) return n.name;
    return "?";
}

std::string pattern_names() {
    std::string s;
    for (const auto& n : kPatterns) {
        if (!s.empty()) s += ", ";
        s += n.name;
    }
    return s;
}

std::optional<Injection> parse_injection(std::string_view s) {
    if (s == "bernoulli") return Injection::Bernoulli;
    if (s == "constant") return Injection::Constant;
    return std::nullopt;
}

std::string_view to_string(Injection i) {
    return i == Injection::Bernoulli ? "bernoulli" : "constant";
}

DestinationPattern::DestinationPattern(const TrafficSpec& spec, std::uint32_t n, std::uint64_t seed,
                                       std::vector<std::uint32_t> order)
    : spec_(spec), n_(n) {
    if (n == 0) throw std::invalid_argument("no end nodes to send traffic");
    if (!order.empty()) {
        std::vector<std::uint32_t> rank(n, n);
        if (order.size() != n)
            throw std::invalid_argument("host order of " + std::to_string(order.size()) +
                                        " hosts for " + std::to_string(n) + " end nodes");
        for (std::uint32_t i = 0; i < n; ++i) {
            if (order[i] >= n || rank[order[i]] != n)
                throw std::invalid_argument("host order is not a permutation");
            rank[order[i]] = i;
        }
        bool identity = true;
        for (std::uint32_t i = 0; i < n && identity; ++i) identity = order[i] == i;
        if (!identity) {
            order_ = std::move(order);
            rank_ = std::move(rank);
        }
    }
    const Pattern p = spec.pattern;
    const std::optional<Permutation> perm = permutation_of(p);
    if ((p == Pattern::Hotspot || (p == Pattern::Pairs && windowed(spec))) && spec.hot_node >= n)
        throw std::invalid_argument("hot node " + std::to_string(spec.hot_node) +
                                    " out of range (0.." + std::to_string(n - 1) + ")");
    if (has_hot_window(p) && spec.hot_start_ps >= spec.hot_end_ps)
        throw std::invalid_argument("the hot spot ends before it starts");
    if ((p == Pattern::Hotspot || p == Pattern::HotFlows) &&
        !(spec.hot_fraction >= 0 && spec.hot_fraction <= 1))
        throw std::invalid_argument("hot fraction must be in 0..1");
    if (reads_pairs(p)) {
        if (spec.pairs.empty())
            throw std::invalid_argument("pattern " + std::string(to_string(p)) + " needs pairs");
        // Counting sort by source keeps each source's pairs in the order given.
        pair_begin_.assign(n + 1, 0);
        for (const auto& [s, d] : spec.pairs) {
            if (s >= n || d >= n)
                throw std::invalid_argument("pair " + std::to_string(s) + " " + std::to_string(d) +
                                            " names an end node out of range "
                                            "(0.." +
                                            std::to_string(n - 1) + ")");
            ++pair_begin_[s + 1];
        }
        for (std::uint32_t s = 0; s < n; ++s) pair_begin_[s + 1] += pair_begin_[s];
        pair_dst_.resize(spec.pairs.size());
        std::vector<std::uint32_t> at(pair_begin_.begin(), pair_begin_.end() - 1);
        for (const auto& [s, d] : spec.pairs) pair_dst_[at[s]++] = d;
    }
    if (p == Pattern::BadDragon) {
        const std::uint32_t g = spec.group_hosts;
        if (g == 0)
            throw std::invalid_argument("pattern bad-dragon needs the hosts per group "
                                        "(--group-hosts)");
        if (n % g != 0 || n / g < 2)
            throw std::invalid_argument("pattern bad-dragon needs at least two whole groups of " +
                                        std::to_string(g) + " hosts, have " + std::to_string(n) +
                                        " end nodes");
    }
    if (p == Pattern::Rotation && spec.shift && *spec.shift % n == 0)
        throw std::invalid_argument("rotation shift " + std::to_string(*spec.shift) +
                                    " is a multiple of the " + std::to_string(n) +
                                    " end nodes: every message would go to its own source");
    // The permutations `ibrt check --pattern` also uses (fabric/permutations.hpp, which also
    // refuses the bit permutations where n does not suit them); the other patterns draw per
    // message.
    if (perm) {
        fixed_ = permutation(*perm, n, spec.shift.value_or(n / 2), seed);
    } else {
        fixed_.resize(n);
        std::iota(fixed_.begin(), fixed_.end(), 0u);
    }
    // The host order, the one mapping of every pattern's hosts to CAs: CA order[s] sends to
    // CA order[fixed(s)].
    if (!order_.empty()) {
        std::vector<std::uint32_t> by_ca(n);
        for (std::uint32_t s = 0; s < n; ++s) by_ca[order_[s]] = order_[fixed_[s]];
        fixed_ = std::move(by_ca);
    }
}

std::uint32_t DestinationPattern::next(std::uint32_t src, gen::Rng& rng, std::uint64_t counter,
                                       std::uint64_t t_ps) const {
    switch (spec_.pattern) {
    case Pattern::Uniform:
    uniform:
        if (n_ < 2) return src;
        {
            const auto d = std::uint32_t(rng.below(n_ - 1));
            return d >= src ? d + 1 : d;
        }
    case Pattern::Hotspot: {
        if (t_ps < spec_.hot_start_ps || t_ps >= spec_.hot_end_ps) goto uniform;
        // 53 random bits give an exact comparison against the fraction.
        const double u = double(rng.next() >> 11) * 0x1.0p-53;
        if (u < spec_.hot_fraction && src != spec_.hot_node) return spec_.hot_node;
        goto uniform;
    }
    case Pattern::AllToAll:
        if (n_ < 2) return src;
        if (!order_.empty()) return order_[(rank_[src] + 1 + counter % (n_ - 1)) % n_];
        return std::uint32_t((src + 1 + counter % (n_ - 1)) % n_);
    case Pattern::BadDragon: {
        const std::uint32_t g = spec_.group_hosts;
        const std::uint32_t s = order_.empty() ? src : rank_[src];
        const std::uint32_t d = (s / g + 1) % (n_ / g) * g + std::uint32_t(rng.below(g));
        return order_.empty() ? d : order_[d];
    }
    case Pattern::HotFlows: {
        // Uniform outside the window and for a source without pairs; inside, slot `counter` is
        // hot with probability hot_fraction and then goes to the slot's pair (pairs' cycle).
        const std::uint32_t b = pair_begin_[src], k = pair_begin_[src + 1] - b;
        if (k == 0 || t_ps < spec_.hot_start_ps || t_ps >= spec_.hot_end_ps) goto uniform;
        const double u = double(rng.next() >> 11) * 0x1.0p-53;
        if (u < spec_.hot_fraction) return pair_dst_[b + std::uint32_t(counter % k)];
        goto uniform;
    }
    case Pattern::Pairs: {
        const std::uint32_t b = pair_begin_[src], k = pair_begin_[src + 1] - b;
        if (k == 0) return src;
        const std::uint32_t d = pair_dst_[b + std::uint32_t(counter % k)];
        // A pair to the hot node is an idle slot outside the hot window (the hot spot appears
        // and goes within one run; with no window every slot is in it).
        if (d == spec_.hot_node && (t_ps < spec_.hot_start_ps || t_ps >= spec_.hot_end_ps))
            return src;
        return d;
    }
    default:
        return fixed_[src];
    }
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> read_pairs(std::string_view text,
                                                                const std::string& source) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
    int line = 0;
    while (!text.empty()) {
        ++line;
        const std::size_t nl = text.find('\n');
        std::string_view l = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
        if (const std::size_t hash = l.find('#'); hash != std::string_view::npos)
            l = l.substr(0, hash);
        std::uint32_t v[2];
        int got = 0;
        std::size_t i = 0;
        const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
        for (;;) {
            while (i < l.size() && blank(l[i])) ++i;
            if (i == l.size()) break;
            std::size_t j = i;
            std::uint64_t x = 0;
            while (j < l.size() && l[j] >= '0' && l[j] <= '9' && x <= (1u << 31))
                x = x * 10 + std::uint64_t(l[j++] - '0');
            if (j == i || (j < l.size() && !blank(l[j])) || x > (1u << 31) || got == 2)
                throw InputError(source, line,
                                 fmt::format("expected SOURCE DESTINATION (two CA indices), got "
                                             "'{}'",
                                             l));
            v[got++] = std::uint32_t(x);
            i = j;
        }
        if (got == 0) continue;
        if (got != 2)
            throw InputError(
                source, line,
                fmt::format("expected SOURCE DESTINATION (two CA indices), got '{}'", l));
        out.emplace_back(v[0], v[1]);
    }
    return out;
}

} // namespace ibrt::sim
