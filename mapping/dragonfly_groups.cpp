// Placing a Dragonfly's lone switches by the one-global-link-per-pair rule; see
// dragonfly_groups.hpp.
#include "mapping/dragonfly_groups.hpp"

#include <algorithm>
#include <set>
#include <utility>

namespace ibrt::mapping {

namespace {

using Pair = std::pair<std::uint32_t, std::uint32_t>;

Pair ordered(std::uint32_t a, std::uint32_t b) {
    return {std::min(a, b), std::max(a, b)};
}

// The groups of v's neighbours whose group is known, sorted (a group twice: two links to it).
std::vector<std::uint32_t>
neighbour_groups(const SwitchLinks& g, const std::vector<std::uint32_t>& group, std::uint32_t v) {
    std::vector<std::uint32_t> out;
    for (const auto& x : g.around(v))
        if (group[x.peer] != kNone) out.push_back(group[x.peer]);
    std::sort(out.begin(), out.end());
    return out;
}

// Whether v and its neighbour w, whose group is not known either, could be one group of their
// own: together they reach no group twice.
bool could_pair(const SwitchLinks& g, const std::vector<std::uint32_t>& group, std::uint32_t v,
                std::uint32_t w) {
    std::vector<std::uint32_t> both = neighbour_groups(g, group, v);
    const std::vector<std::uint32_t> other = neighbour_groups(g, group, w);
    both.insert(both.end(), other.begin(), other.end());
    std::sort(both.begin(), both.end());
    return std::adjacent_find(both.begin(), both.end()) == both.end();
}

} // namespace

std::size_t place_lone_switches(const SwitchLinks& g, std::vector<std::uint32_t>& group,
                                const std::function<bool(std::uint32_t, std::uint32_t)>& accept) {
    const std::size_t n = g.num_switches();
    std::set<Pair> joined; // groups joined by a link between switches placed
    for (const auto& l : g.links)
        if (group[l.a] != kNone && group[l.b] != kNone && group[l.a] != group[l.b])
            joined.insert(ordered(group[l.a], group[l.b]));
    std::vector<bool> refused(n, false);
    std::size_t placed = 0;
    for (bool progress = true; progress;) {
        progress = false;
        for (std::uint32_t v = 0; v < n; ++v) {
            if (group[v] != kNone || refused[v]) continue;
            const std::vector<std::uint32_t> near = neighbour_groups(g, group, v);
            if (near.empty()) continue;
            bool open = false; // a neighbour not placed could be v's group-mate
            for (const auto& x : g.around(v))
                if (group[x.peer] == kNone && could_pair(g, group, v, x.peer)) open = true;
            if (open) continue;
            std::uint32_t pick = kNone, fits = 0;
            for (std::size_t i = 0; i < near.size(); ++i) {
                const std::uint32_t cand = near[i];
                if (i > 0 && near[i - 1] == cand) continue;
                bool ok = true;
                for (std::size_t j = 0; j < near.size() && ok; ++j) {
                    const std::uint32_t y = near[j];
                    if (y == cand) continue;
                    if ((j + 1 < near.size() && near[j + 1] == y) || joined.count(ordered(cand, y)))
                        ok = false;
                }
                if (ok) {
                    pick = cand;
                    ++fits;
                }
            }
            if (fits != 1) continue;
            if (accept && !accept(v, pick)) {
                refused[v] = true;
                continue;
            }
            group[v] = pick;
            for (std::uint32_t y : near)
                if (y != pick) joined.insert(ordered(pick, y));
            ++placed;
            progress = true;
        }
    }
    return placed;
}

} // namespace ibrt::mapping
