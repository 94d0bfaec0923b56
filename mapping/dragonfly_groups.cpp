// Placing a Dragonfly's lone switches by the one-global-link-per-pair rule; see
// dragonfly_groups.hpp.
#include "mapping/dragonfly_groups.hpp"

#include "mapping/shape.hpp"
#include "mapping/union_find.hpp"

#include <algorithm>
#include <map>
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

// A switch cabled to two switches of one group is in that group: two groups are joined by
// one global link at most, so only local links reach a group twice. Damage that took a
// switch's triangles below tau leaves it so; placed switches are evidence for the next.
void join_by_two_links(const SwitchLinks& g, const std::vector<std::vector<std::uint32_t>>& nb,
                       std::vector<std::uint32_t>& group) {
    std::vector<std::uint32_t> seen;
    for (bool progress = true; progress;) {
        progress = false;
        for (std::uint32_t v = 0; v < g.num_switches(); ++v) {
            if (group[v] != kNone) continue;
            seen.clear();
            for (std::uint32_t w : nb[v])
                if (group[w] != kNone) seen.push_back(group[w]);
            std::sort(seen.begin(), seen.end());
            std::uint32_t pick = kNone;
            bool several = false;
            for (std::size_t i = 1; i < seen.size(); ++i)
                if (seen[i] == seen[i - 1] && seen[i] != pick) {
                    several = pick != kNone;
                    pick = seen[i];
                }
            if (pick == kNone || several) continue; // two groups twice: not a Dragonfly switch
            group[v] = pick;
            progress = true;
        }
    }
}

// How many switches are neighbours of both (a, b: sorted) and pass `keep`: the triangles on
// a link.
template <class Keep>
std::uint32_t common_neighbours(const std::vector<std::uint32_t>& a,
                                const std::vector<std::uint32_t>& b, Keep&& keep) {
    std::uint32_t c = 0;
    for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
        if (a[i] < b[j]) {
            ++i;
        } else if (b[j] < a[i]) {
            ++j;
        } else {
            c += keep(a[i]) ? 1 : 0;
            ++i;
            ++j;
        }
    }
    return c;
}

// Two switches left out, cabled to each other and each once into group G, at two switches of
// G cabled to each other: a rectangle, read as four switches of G. (Read otherwise, the two
// would be two groups of one switch each, with G and each other pairwise joined once.)
void join_pairs_on_rectangles(const SwitchLinks& g,
                              const std::vector<std::vector<std::uint32_t>>& nb,
                              std::vector<std::uint32_t>& group) {
    const auto into = [&](std::uint32_t v, std::uint32_t grp, std::uint32_t& at) {
        std::uint32_t count = 0;
        for (std::uint32_t w : nb[v])
            if (group[w] == grp) {
                ++count;
                at = w;
            }
        return count;
    };
    for (std::uint32_t u = 0; u < g.num_switches(); ++u) {
        if (group[u] != kNone) continue;
        for (std::uint32_t v : nb[u]) {
            if (v < u || group[v] != kNone) continue;
            for (std::uint32_t w : nb[u]) {
                const std::uint32_t grp = group[w];
                if (grp == kNone) continue;
                std::uint32_t a = kNone, b = kNone;
                if (into(u, grp, a) != 1 || into(v, grp, b) != 1 || a == b ||
                    !std::binary_search(nb[a].begin(), nb[a].end(), b))
                    continue;
                group[u] = group[v] = grp;
                break;
            }
            if (group[u] != kNone) break;
        }
    }
}

// Damage can leave a whole group below tau (few switches left, so few triangles): none of
// its switches is placed, so none joins a group by two links. Among the switches not placed,
// the components of links on triangles whose third switch is not placed either (at least
// tau2, for tau2 from tau - 1 down to 1; then links on rectangles of such switches) are new
// groups when they have three switches or more, hold at least half of their local links, and
// reach every group, old or new, once at most.
void groups_of_lone_switches(const SwitchLinks& g,
                             const std::vector<std::vector<std::uint32_t>>& nb, std::uint32_t tau,
                             std::vector<std::uint32_t>& group) {
    const std::size_t n = g.num_switches();
    std::uint32_t next = 0;
    for (std::uint32_t x : group)
        if (x != kNone) next = std::max(next, x + 1);
    const auto lone = [&](std::uint32_t v) { return group[v] == kNone; };
    // A link between switches left out on a rectangle of switches left out (a group that
    // kept four switches and lost the diagonals).
    const auto on_rectangle = [&](std::uint32_t u, std::uint32_t v) {
        for (std::uint32_t w : nb[v]) {
            if (w == u || !lone(w)) continue;
            for (std::uint32_t x : nb[w])
                if (x != v && x != u && lone(x) &&
                    std::binary_search(nb[u].begin(), nb[u].end(), x))
                    return true;
        }
        return false;
    };
    // tau2 = 0: rectangles instead of triangles.
    for (std::uint32_t tau2 = tau; tau2-- > 0;) {
        UnionFind uf(n);
        for (const auto& l : g.links) {
            if (!lone(l.a) || !lone(l.b)) continue;
            if (tau2 == 0) {
                if (on_rectangle(l.a, l.b)) uf.unite(l.a, l.b);
                continue;
            }
            if (common_neighbours(nb[l.a], nb[l.b], lone) >= tau2) uf.unite(l.a, l.b);
        }
        std::map<std::uint32_t, std::vector<std::uint32_t>> parts;
        for (std::uint32_t v = 0; v < n; ++v)
            if (lone(v)) parts[uf.find(v)].push_back(v);
        for (const auto& [root, members] : parts) {
            if (members.size() < 3) continue;
            std::size_t inside = 0;
            std::vector<std::uint32_t> reached; // groups reached by the members
            for (std::uint32_t v : members)
                for (std::uint32_t w : nb[v]) {
                    if (group[w] != kNone)
                        reached.push_back(group[w]);
                    else if (uf.find(w) == root)
                        ++inside;
                }
            inside /= 2;
            std::sort(reached.begin(), reached.end());
            if (std::adjacent_find(reached.begin(), reached.end()) != reached.end()) continue;
            if (4 * inside < members.size() * (members.size() - 1)) continue;
            for (std::uint32_t v : members) group[v] = next;
            ++next;
        }
    }
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

std::optional<std::vector<std::uint32_t>> groups_by_triangles(const SwitchLinks& g,
                                                              bool several_per_pair) {
    const std::size_t n = g.num_switches();
    // Distinct neighbours (parallel cables once), sorted: around() is sorted by peer.
    std::vector<std::vector<std::uint32_t>> nb(n);
    for (std::uint32_t v = 0; v < n; ++v) {
        for (const auto& x : g.around(v))
            if (nb[v].empty() || nb[v].back() != x.peer) nb[v].push_back(x.peer);
    }
    std::vector<std::uint32_t> common(g.links.size(), 0);
    std::vector<std::uint32_t> counts;
    for (std::uint32_t l = 0; l < g.links.size(); ++l) {
        const std::uint32_t c = common_neighbours(nb[g.links[l].a], nb[g.links[l].b],
                                                  [](std::uint32_t) { return true; });
        common[l] = c;
        if (c > 0) counts.push_back(c);
    }
    std::sort(counts.begin(), counts.end());
    counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
    std::vector<std::uint32_t> group(n), size;
    for (std::uint32_t tau : counts) {
        UnionFind uf(n);
        for (std::uint32_t l = 0; l < g.links.size(); ++l)
            if (common[l] >= tau) uf.unite(g.links[l].a, g.links[l].b);
        uf.classes(group);
        size.assign(n, 0);
        for (std::uint32_t v = 0; v < n; ++v) ++size[group[v]];
        std::size_t groups = 0, expected = 0, present = 0;
        for (std::uint32_t k = 0; k < n; ++k)
            if (size[k] >= 2) {
                ++groups;
                expected += std::size_t(size[k]) * (size[k] - 1) / 2;
            }
        if (groups < 2) continue;
        std::set<Pair> switch_pairs;
        std::map<Pair, int> joined;
        bool twice = false;
        for (const auto& l : g.links) {
            if (!switch_pairs.insert(ordered(l.a, l.b)).second) continue; // a parallel cable
            const std::uint32_t ga = group[l.a], gb = group[l.b];
            if (ga == gb) {
                ++present;
            } else if (size[ga] >= 2 && size[gb] >= 2 && ++joined[ordered(ga, gb)] > 1 &&
                       !several_per_pair) {
                twice = true;
                break;
            }
        }
        if (several_per_pair) {
            std::vector<int> per_pair;
            for (const auto& [pair, c] : joined) per_pair.push_back(c);
            const int m = most_common(per_pair);
            twice = m < 2 ||
                    std::any_of(per_pair.begin(), per_pair.end(), [&](int c) { return c > m; });
        }
        if (twice || 2 * present < expected) continue;
        for (std::uint32_t v = 0; v < n; ++v)
            if (size[group[v]] < 2) group[v] = kNone;
        join_by_two_links(g, nb, group);
        if (several_per_pair) return group;
        groups_of_lone_switches(g, nb, tau, group);
        join_by_two_links(g, nb, group);
        join_pairs_on_rectangles(g, nb, group);
        // One cable alone does not tell: it may as well be the switch's last global link.
        place_lone_switches(g, group,
                            [&](std::uint32_t v, std::uint32_t) { return nb[v].size() >= 2; });
        return group;
    }
    return std::nullopt;
}

} // namespace ibrt::mapping
