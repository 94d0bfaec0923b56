// Selection functions (sim/selection.hpp; paper 004 §4).
#include "sim/selection.hpp"

#include <array>

namespace ibrt::sim {
namespace {

struct Named {
    Selection s;
    std::string_view name;
};
constexpr std::array<Named, 13> kNames{{
    {Selection::FirstFree, "ff"},
    {Selection::SwitchPriority, "ssp"},
    {Selection::DestinationPriority, "sdp"},
    {Selection::OriginPriority, "sop"},
    {Selection::StageDestinationPriority, "sadp"},
    {Selection::CyclicPriority, "cp"},
    {Selection::MoreCredits, "mc"},
    {Selection::RandomPriority, "rp"},
    {Selection::TwoRandomChoices, "two-choices"},
    {Selection::LeastLoaded, "least-loaded"},
    {Selection::Oblivious, "oblivious"},
    {Selection::TwoRandomOblivious, "anca"},
    {Selection::Ugal, "ugal"},
}};

// Paper 004: the preferred candidate, else the first that fits after it, round the class.
std::uint32_t rotative_search(std::span<const CandidateView> c, std::uint32_t preferred) {
    const auto k = std::uint32_t(c.size());
    // preferred < k: wrapping by a compare, not a division per candidate.
    for (std::uint32_t j = 0, i = preferred; j < k; ++j, i = i + 1 == k ? 0 : i + 1)
        if (c[i].fits) return i;
    return 0; // unreachable: the caller guarantees one fits
}

} // namespace

std::string_view to_string(Selection s) {
    for (const Named& n : kNames)
        if (n.s == s) return n.name;
    return "?";
}

std::optional<Selection> parse_selection(std::string_view name) {
    for (const Named& n : kNames)
        if (n.name == name) return n.s;
    return std::nullopt;
}

std::string selection_names() {
    std::string out;
    for (const Named& n : kNames) {
        if (!out.empty()) out += ", ";
        out += n.name;
    }
    return out;
}

bool uses_load(Selection s) {
    return s == Selection::MoreCredits || s == Selection::TwoRandomChoices ||
           s == Selection::TwoRandomOblivious || s == Selection::LeastLoaded ||
           s == Selection::Ugal;
}

bool is_oblivious(Selection s) {
    return s == Selection::Oblivious || s == Selection::TwoRandomOblivious || s == Selection::Ugal;
}

bool sees_every_class(Selection s) {
    return s == Selection::Ugal;
}

bool needs_tree_coords(Selection s) {
    return s == Selection::SwitchPriority || s == Selection::DestinationPriority ||
           s == Selection::OriginPriority || s == Selection::StageDestinationPriority;
}

std::uint32_t select_candidate(Selection s, std::span<const CandidateView> c,
                               const SelectionKey& key, gen::Rng& rng) {
    const auto k = std::uint32_t(c.size());
    switch (s) {
    case Selection::FirstFree:
        return rotative_search(c, 0);
    case Selection::SwitchPriority:
        return rotative_search(c, key.switch_digit % k);
    case Selection::DestinationPriority:
        return rotative_search(c, key.dest_digit0 % k);
    case Selection::OriginPriority:
        return rotative_search(c, key.source_digit0 % k);
    case Selection::StageDestinationPriority:
        return rotative_search(c, key.dest_stage_digit % k);
    case Selection::CyclicPriority:
        return rotative_search(c, key.counter % k);
    case Selection::RandomPriority:
        return rotative_search(c, std::uint32_t(rng.below(k)));
    case Selection::Oblivious:
        return std::uint32_t(rng.below(k));
    case Selection::TwoRandomOblivious: {
        // As BookSim's fattree_anca: two independent draws; more credits in use means less
        // room, and a tie keeps the first.
        const auto a = std::uint32_t(rng.below(k));
        const auto b = std::uint32_t(rng.below(k));
        return c[a].room_all < c[b].room_all ? b : a;
    }
    case Selection::Ugal: {
        // The candidates come by class: the best class first, then the worse ones.
        std::uint32_t nmin = 0;
        while (nmin < k && c[nmin].priority == c[0].priority) ++nmin;
        const auto m = std::uint32_t(rng.below(nmin));
        if (nmin == k || key.hops > 1) return m; // not at the source switch: minimal
        const auto n = nmin + std::uint32_t(rng.below(k - nmin));
        const std::int64_t q_min = std::int64_t(c[m].used_all) * (1 + c[m].priority);
        const std::int64_t q_non = std::int64_t(c[n].used_all) * (1 + c[n].priority);
        return ugal_takes_minimal(q_min, q_non) ? m : n;
    }
    case Selection::MoreCredits: {
        // Round the class from the counter: one division, not one per candidate.
        std::uint32_t best = k;
        for (std::uint32_t j = 0, i = key.counter % k; j < k; ++j, i = i + 1 == k ? 0 : i + 1) {
            if (c[i].fits && (best == k || c[i].room_all > c[best].room_all)) best = i;
        }
        return best;
    }
    case Selection::TwoRandomChoices: {
        // Two draws among the candidates that fit (distinct when two or more fit).
        std::uint32_t fit[64], n = 0;
        for (std::uint32_t i = 0; i < k && n < 64; ++i)
            if (c[i].fits) fit[n++] = i;
        if (n == 1) return fit[0];
        const std::uint32_t a = std::uint32_t(rng.below(n));
        std::uint32_t b = std::uint32_t(rng.below(n - 1));
        if (b >= a) ++b;
        return c[fit[b]].room_all > c[fit[a]].room_all ? fit[b] : fit[a];
    }
    case Selection::LeastLoaded: {
        std::uint32_t best = k;
        for (std::uint32_t j = 0, i = key.counter % k; j < k; ++j, i = i + 1 == k ? 0 : i + 1) {
            if (!c[i].fits) continue;
            if (best == k || c[i].queued < c[best].queued ||
                (c[i].queued == c[best].queued && c[i].room_all > c[best].room_all))
                best = i;
        }
        return best;
    }
    }
    return rotative_search(c, 0);
}

} // namespace ibrt::sim
