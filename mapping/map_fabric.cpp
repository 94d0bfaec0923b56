// Mapping by ε and ε_i (paper 003 §2.1, §2.2); see map_fabric.hpp.
#include "mapping/map_fabric.hpp"

#include "fabric/display_name.hpp"
#include "mapping/dragonfly_groups.hpp"
#include "mapping/dragonfly_plus_map.hpp"
#include "mapping/slimfly_map.hpp"
#include "mapping/slimfly_product_map.hpp"
#include "mapping/union_find.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <set>

namespace ibrt::mapping {

std::string_view family_name(Family f) {
    switch (f) {
    case Family::FlatFly:
        return "flatfly";
    case Family::Hypercube:
        return "hypercube";
    case Family::Torus:
        return "torus";
    case Family::Mixed:
        return "torus x flatfly";
    case Family::Dragonfly:
        return "dragonfly";
    case Family::DragonflyPlus:
        return "dragonfly+";
    case Family::SlimFly:
        return "slimfly";
    case Family::Unknown:
        return "unknown";
    }
    return "?";
}

std::string why_not_wanted(const Shape& s) {
    return s.family == Family::Unknown ? s.why_not
                                       : "it maps as a " + std::string(family_name(s.family));
}

int most_common(const std::vector<int>& values) {
    std::map<int, std::size_t> count;
    for (int v : values) ++count[v];
    int best = 0;
    std::size_t n = 0;
    for (const auto& [v, c] : count)
        if (c > n) {
            best = v;
            n = c;
        }
    return best;
}

namespace {

Shape unknown(Shape s, std::string why) {
    s.family = Family::Unknown;
    s.why_not = std::move(why);
    s.dims.clear();
    s.coord.clear();
    s.group.clear();
    s.index_in_group.clear();
    s.unplaced.clear();
    s.missing_switches.clear();
    s.missing_links.clear();
    return s;
}

std::string link_name(const Fabric& f, const SwitchLinks& g, std::uint32_t l) {
    return fmt::format("{} - {}", display_name(f, g.node[g.links[l].a]),
                       display_name(f, g.node[g.links[l].b]));
}

// The groups that the dense classes leave out (below): a small group whose local links are too
// few for the density test, and lone switches with one or two local links. First the lone
// switches that the one-link-per-pair rule places (dragonfly_groups.hpp). Then the classes of
// two or more links (a triangle or rectangle holds them together, which a single global link
// between two lone switches never has) whose switches are all still lone: joined, three
// switches or more that reach no group twice are a group. Then the rule again, from them.
void complete_groups(const SwitchLinks& g, const LinkClasses& c, UnionFind& uf) {
    const std::size_t n = g.num_switches();
    std::vector<std::uint32_t> grp, size(n, 0), group(n, kNone);
    uf.classes(grp);
    for (std::uint32_t v = 0; v < n; ++v) ++size[grp[v]];
    for (std::uint32_t v = 0; v < n; ++v)
        if (size[grp[v]] > 1) group[v] = grp[v];
    place_lone_switches(g, group);
    std::vector<bool> all_lone(c.count, true);
    for (std::uint32_t l = 0; l < g.links.size(); ++l)
        if (group[g.links[l].a] != kNone || group[g.links[l].b] != kNone)
            all_lone[c.of_link[l]] = false;
    // A global class among lone switches (a triangle of three damaged groups' routers) meets
    // a group's classes at one switch each; two classes of one group (the opposite sides of
    // a 4-cycle) share their switches. So classes sharing two switches or more are one piece.
    std::vector<std::vector<std::uint32_t>> spanned(c.count); // switches of each class, sorted
    for (std::uint32_t l = 0; l < g.links.size(); ++l) {
        const std::uint32_t k = c.of_link[l];
        if (!all_lone[k] || c.links_in[k] < 2) continue;
        spanned[k].push_back(g.links[l].a);
        spanned[k].push_back(g.links[l].b);
    }
    std::vector<std::vector<std::uint32_t>> at(n); // eligible classes at each switch
    for (std::uint32_t k = 0; k < c.count; ++k) {
        auto& sw = spanned[k];
        std::sort(sw.begin(), sw.end());
        sw.erase(std::unique(sw.begin(), sw.end()), sw.end());
        for (std::uint32_t v : sw) at[v].push_back(k);
    }
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> shared;
    UnionFind same_piece(c.count);
    for (const auto& ks : at)
        for (std::size_t i = 0; i < ks.size(); ++i)
            for (std::size_t j = i + 1; j < ks.size(); ++j)
                if (++shared[{ks[i], ks[j]}] == 2) same_piece.unite(ks[i], ks[j]);
    std::map<std::uint32_t, std::vector<std::uint32_t>> members; // piece -> its switches
    for (std::uint32_t k = 0; k < c.count; ++k)
        for (std::uint32_t v : spanned[k]) members[same_piece.find(k)].push_back(v);
    // Larger pieces first; a piece that reaches some group twice (a global class joined it
    // to another group's) is tried again class by class.
    std::vector<std::vector<std::uint32_t>> tries;
    for (auto& [root, m] : members) {
        std::sort(m.begin(), m.end());
        m.erase(std::unique(m.begin(), m.end()), m.end());
        tries.push_back(std::move(m));
    }
    const auto larger = [](const auto& x, const auto& y) { return x.size() > y.size(); };
    std::stable_sort(tries.begin(), tries.end(), larger);
    std::vector<std::vector<std::uint32_t>> classes_alone;
    for (const auto& sw : spanned)
        if (sw.size() >= 3) classes_alone.push_back(sw);
    std::stable_sort(classes_alone.begin(), classes_alone.end(), larger);
    tries.insert(tries.end(), classes_alone.begin(), classes_alone.end());
    bool added = false;
    std::uint32_t next_id = static_cast<std::uint32_t>(n);
    for (const auto& m : tries) {
        if (m.size() < 3) continue;
        bool free = true; // no switch taken by an earlier piece
        for (std::uint32_t v : m) free &= group[v] == kNone;
        if (!free) continue;
        std::vector<std::uint32_t> reach;
        for (std::uint32_t v : m)
            for (const auto& x : g.around(v))
                if (group[x.peer] != kNone) reach.push_back(group[x.peer]);
        std::sort(reach.begin(), reach.end());
        if (std::adjacent_find(reach.begin(), reach.end()) != reach.end()) continue;
        for (std::uint32_t v : m) group[v] = next_id;
        ++next_id;
        added = true;
    }
    if (added) place_lone_switches(g, group);
    std::map<std::uint32_t, std::uint32_t> first;
    for (std::uint32_t v = 0; v < n; ++v)
        if (group[v] != kNone) uf.unite(v, first.emplace(group[v], v).first->second);
}

// A Dragonfly from its groups (grp: dense group ids 0..groups-1 per switch): sizes, globals,
// what is missing against the complete shape. nullopt when two groups are joined twice (more
// often than most pairs with `several_per_pair`) or more than half of the local links are
// missing: not a Dragonfly.
std::optional<Shape> dragonfly_shape(const SwitchLinks& g, const std::vector<std::uint32_t>& grp,
                                     int groups, Shape s, bool several_per_pair = false) {
    const std::size_t n = g.num_switches();
    s.groups = groups;
    s.family = Family::Dragonfly;
    s.group.assign(grp.begin(), grp.end());
    s.index_in_group.assign(n, 0);
    std::vector<int> size(s.groups, 0), globals(n, 0);
    for (std::size_t v = 0; v < n; ++v) s.index_in_group[v] = size[s.group[v]]++;
    s.group_size = *std::max_element(size.begin(), size.end());
    std::map<std::pair<int, int>, int> joined;
    for (std::uint32_t l = 0; l < g.links.size(); ++l) {
        const auto& k = g.links[l];
        const int ga = s.group[k.a], gb = s.group[k.b];
        if (ga == gb) continue; // local
        ++globals[k.a];
        ++globals[k.b];
        if (++joined[{std::min(ga, gb), std::max(ga, gb)}] > 1 && !several_per_pair)
            return std::nullopt;
    }
    std::vector<int> per_pair;
    for (const auto& [pair, c] : joined) per_pair.push_back(c);
    s.links_per_pair = most_common(per_pair);
    if (std::any_of(per_pair.begin(), per_pair.end(), [&](int c) { return c > s.links_per_pair; }))
        return std::nullopt;
    s.globals_per_switch = *std::max_element(globals.begin(), globals.end()); // as designed
    for (std::uint32_t v = 0; v < n; ++v)
        if (s.group_size > 1 && size[s.group[v]] == 1) s.unplaced.push_back(v);
    for (int gr = 0; gr < s.groups; ++gr)
        for (int i = size[gr]; i < s.group_size && (size[gr] > 1 || s.group_size == 1); ++i)
            s.missing_switches.push_back({gr, i});
    // Local links: every two switches of a group.
    std::vector<std::vector<std::uint32_t>> members(s.groups);
    for (std::uint32_t v = 0; v < n; ++v) members[s.group[v]].push_back(v);
    std::size_t expected = 0;
    for (const auto& m : members)
        for (std::size_t i = 0; i < m.size(); ++i)
            for (std::size_t j = i + 1; j < m.size(); ++j) {
                ++expected;
                if (g.link_between(m[i], m[j]) == kNone) s.missing_links.push_back({m[i], m[j], 0});
            }
    if (2 * s.missing_links.size() > expected) return std::nullopt;
    if (joined.empty()) return std::nullopt;
    const std::size_t pairs = std::size_t(s.groups) * (s.groups - 1) / 2;
    s.missing_global_links = pairs - joined.size();
    return s;
}

// §2.2 reads every class of more than one link as a group's local links. With several
// global links per switch that fails: three groups pairwise joined through three switches
// form a triangle of global links, four form a rectangle, and rules 3 and 4 merge global
// links into classes as large as a group's (measured: no single-link class at all on
// K = 16, G = 8). What tells them apart is density: a group's local links join most pairs of
// its switches (a clique less what is missing). A class is dense when it touches S >= 3
// switches with at least two thirds of a clique's S(S-1)/2 links and more than S^2/4 (by
// Mantel's theorem it then holds a triangle, so the complete bipartite K_{m,m} that a fat
// tree's rectangles make is never dense). Groups are what the dense group classes join (see
// below for which dense classes are groups). The reading is kept only if it is a Dragonfly:
// two or more groups, each pair of groups joined by at most one global link, at least one
// global link, and at least half of each group's local links present.
std::optional<Shape> try_dragonfly(const SwitchLinks& g, const LinkClasses& c, Shape s) {
    const std::size_t n = g.num_switches();
    std::vector<std::pair<std::uint32_t, std::uint32_t>> touch; // (class, switch)
    for (std::uint32_t l = 0; l < g.links.size(); ++l) {
        touch.emplace_back(c.of_link[l], g.links[l].a);
        touch.emplace_back(c.of_link[l], g.links[l].b);
    }
    std::sort(touch.begin(), touch.end());
    touch.erase(std::unique(touch.begin(), touch.end()), touch.end());
    std::vector<std::uint32_t> spans(c.count, 0); // switches each class touches
    for (const auto& t : touch) ++spans[t.first];
    const auto dense = [&](std::uint32_t k) {
        const double sw = spans[k], e = c.links_in[k];
        return sw >= 3 && 3 * e >= sw * (sw - 1) && 4 * e > sw * sw;
    };
    // Dense classes at each switch. Global links can be dense too: the "absolute" global
    // cabling joins router r of h+1 consecutive groups pairwise, a clique of h+1 switches, so
    // a switch may have a group class and a global clique. The two kinds alternate at every
    // switch, so in each connected set of dense classes they are the two sides of a
    // bipartition, and the groups are the side with the larger mean span (K against G+1:
    // damage shrinks both, which is why one switch's two spans cannot decide it).
    std::vector<std::vector<std::uint32_t>> at(n);
    for (std::uint32_t v = 0; v < n; ++v) {
        for (const auto& i : g.around(v)) {
            const std::uint32_t k = c.of_link[i.link];
            if (dense(k)) at[v].push_back(k);
        }
        std::sort(at[v].begin(), at[v].end());
        at[v].erase(std::unique(at[v].begin(), at[v].end()), at[v].end());
    }
    std::vector<std::vector<std::uint32_t>> meets(c.count); // dense classes sharing a switch
    for (const auto& ks : at)
        for (std::uint32_t x : ks)
            for (std::uint32_t y : ks)
                if (x != y) meets[x].push_back(y);
    // Damage leaves small global cliques (a triangle of three groups' routers) that meet two
    // global classes at a switch whose group class is too sparse to be dense: an odd cycle.
    // So each set is coloured from its largest classes out (larger first), and a class that
    // then meets one of its own side is set aside (neither side; its switches are placed by
    // complete_groups). Only a few may be: a FlatFly's rows of three or more dimensions meet
    // in triangles everywhere, and that is not a Dragonfly.
    std::vector<int> side(c.count, -1);
    std::vector<bool> is_group(c.count, false), aside(c.count, false);
    std::vector<std::uint32_t> by_span;
    for (std::uint32_t k = 0; k < c.count; ++k)
        if (dense(k)) by_span.push_back(k);
    std::stable_sort(by_span.begin(), by_span.end(),
                     [&](std::uint32_t x, std::uint32_t y) { return spans[x] > spans[y]; });
    const auto larger = [&](std::uint32_t x, std::uint32_t y) {
        return spans[x] != spans[y] ? spans[x] > spans[y] : x < y;
    };
    for (std::uint32_t k0 : by_span) {
        if (side[k0] >= 0) continue;
        std::vector<std::uint32_t> comp;
        std::set<std::uint32_t, decltype(larger)> todo(larger); // larger classes first
        side[k0] = 0;
        todo.insert(k0);
        while (!todo.empty()) {
            const std::uint32_t x = *todo.begin();
            todo.erase(todo.begin());
            comp.push_back(x);
            for (std::uint32_t y : meets[x])
                if (side[y] < 0) {
                    side[y] = 1 - side[x];
                    todo.insert(y);
                }
        }
        std::size_t links_aside = 0, links_all = 0;
        for (std::uint32_t x : comp) {
            links_all += c.links_in[x];
            for (std::uint32_t y : meets[x])
                if (side[y] == side[x] && larger(x, y) && !aside[y]) {
                    aside[y] = true;
                    links_aside += c.links_in[y];
                }
        }
        if (20 * links_aside > links_all) return std::nullopt; // not two sides
        double sum[2] = {0, 0}, cnt[2] = {0, 0};
        for (std::uint32_t k : comp) {
            if (aside[k]) continue;
            sum[side[k]] += spans[k];
            cnt[side[k]] += 1;
        }
        const int groups_side =
            cnt[1] == 0 || sum[0] / cnt[0] >= sum[1] / std::max(cnt[1], 1.0) ? 0 : 1;
        for (std::uint32_t k : comp) is_group[k] = side[k] == groups_side && !aside[k];
    }
    std::vector<std::uint32_t> local(n, kNone);
    for (std::uint32_t v = 0; v < n; ++v)
        for (std::uint32_t k : at[v])
            if (is_group[k] && (local[v] == kNone || spans[k] > spans[local[v]])) local[v] = k;
    const auto is_local = [&](std::uint32_t l) {
        const std::uint32_t k = c.of_link[l];
        return local[g.links[l].a] == k && local[g.links[l].b] == k;
    };
    UnionFind uf(n);
    for (std::uint32_t l = 0; l < g.links.size(); ++l)
        if (is_local(l)) uf.unite(g.links[l].a, g.links[l].b);
    std::vector<std::uint32_t> grp;
    const std::uint32_t first = uf.classes(grp);
    if (first < 2 || std::size_t(first) == n) return std::nullopt;
    complete_groups(g, c, uf);
    const int groups = static_cast<int>(uf.classes(grp));
    return dragonfly_shape(g, grp, groups, std::move(s));
}

// The same from triangles (dragonfly_groups.hpp: any global arrangement); each switch the
// cabling does not place is a group of its own, as Shape::unplaced says.
std::optional<Shape> try_dragonfly_by_triangles(const SwitchLinks& g, Shape s,
                                                bool several_per_pair = false) {
    std::optional<std::vector<std::uint32_t>> grp = groups_by_triangles(g, several_per_pair);
    if (!grp) return std::nullopt;
    // Dense ids in switch order (the reading's ids have gaps), then one per switch left out.
    std::map<std::uint32_t, std::uint32_t> id;
    for (std::uint32_t x : *grp)
        if (x != kNone) id.emplace(x, 0);
    std::uint32_t groups = 0;
    for (std::uint32_t& x : *grp)
        if (x != kNone) {
            auto it = id.find(x);
            if (it->second == 0) it->second = ++groups;
            x = it->second - 1;
        }
    for (std::uint32_t& x : *grp)
        if (x == kNone) x = groups++;
    return dragonfly_shape(g, *grp, static_cast<int>(groups), std::move(s), several_per_pair);
}

// A ring of 4 is the graph K2 x K2 and a ring of 3 is K3, so ε finds those; on a fabric with
// rings (a torus), they are given back as rings: K3 is marked a ring, and two K2 dimensions
// of one width become a ring of 4 (Gray code: 00, 01, 11, 10 are positions 0..3). Then the
// dimensions are put in the order the paper writes shapes (4 x 8 x 8 x 8): by K, then L.
void present_as_torus(Shape& s) {
    std::vector<Dimension> dims;
    std::vector<std::vector<int>> coord(s.coord.size());
    const auto keep = [&](std::size_t d) {
        dims.push_back(s.dims[d]);
        for (std::size_t v = 0; v < coord.size(); ++v) coord[v].push_back(s.coord[v][d]);
    };
    const bool rings = std::any_of(s.dims.begin(), s.dims.end(), [](auto& d) { return d.ring; });
    std::vector<bool> done(s.dims.size(), false);
    for (std::size_t d = 0; d < s.dims.size(); ++d) {
        if (done[d]) continue;
        done[d] = true;
        if (rings && s.dims[d].k == 2) {
            std::size_t e = d + 1;
            while (e < s.dims.size() && (done[e] || s.dims[e].k != 2 || s.dims[e].ring ||
                                         s.dims[e].width != s.dims[d].width))
                ++e;
            if (e < s.dims.size()) {
                done[e] = true;
                dims.push_back({4, s.dims[d].width, true});
                for (std::size_t v = 0; v < coord.size(); ++v) {
                    const int a = s.coord[v][d], b = s.coord[v][e];
                    coord[v].push_back(a == 0 ? b : 3 - b);
                }
                continue;
            }
        }
        keep(d);
        if (rings && dims.back().k == 3) dims.back().ring = true;
    }
    std::vector<std::size_t> order(dims.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
        return std::pair(dims[x].k, dims[x].width) < std::pair(dims[y].k, dims[y].width);
    });
    s.dims.clear();
    for (std::size_t d : order) s.dims.push_back(dims[d]);
    for (std::size_t v = 0; v < coord.size(); ++v) {
        s.coord[v].clear();
        for (std::size_t d : order) s.coord[v].push_back(coord[v][d]);
    }
}

// Whether coordinates x and y are one step apart: equal but in one dimension, where a ring
// moves by one (mod K) and a complete dimension by any amount.
bool one_step(const Shape& s, const std::vector<int>& x, const std::vector<int>& y) {
    int differ = 0;
    for (std::size_t d = 0; d < x.size(); ++d) {
        if (x[d] == y[d]) continue;
        const int step = std::abs(x[d] - y[d]);
        if (s.dims[d].ring && step != 1 && step != s.dims[d].k - 1) return false;
        ++differ;
    }
    return differ == 1;
}

// Switches left with a coordinate of -1 (floating hyperplanes of a ring) are placed where
// their placed neighbours say: the one free position one step from all of them and agreeing
// with what is known. Repeated while that places switches; false if any stays unplaced.
bool place_floating(const SwitchLinks& g, Shape& s) {
    const auto known = [&](std::uint32_t v) {
        return std::none_of(s.coord[v].begin(), s.coord[v].end(), [](int c) { return c < 0; });
    };
    std::set<std::vector<int>> taken;
    std::vector<std::uint32_t> floating;
    for (std::uint32_t v = 0; v < g.num_switches(); ++v)
        (known(v) ? (void)taken.insert(s.coord[v]) : floating.push_back(v));
    for (bool progress = true; progress && !floating.empty();) {
        progress = false;
        for (auto it = floating.begin(); it != floating.end();) {
            const std::uint32_t v = *it;
            std::set<std::vector<int>> cands;
            for (const auto& u : g.around(v)) {
                if (!known(u.peer)) continue;
                for (std::size_t d = 0; d < s.dims.size(); ++d)
                    for (int val = 0; val < s.dims[d].k; ++val) {
                        std::vector<int> x = s.coord[u.peer];
                        x[d] = val;
                        bool ok = !taken.count(x);
                        for (std::size_t e = 0; ok && e < x.size(); ++e)
                            ok = s.coord[v][e] < 0 || s.coord[v][e] == x[e];
                        for (const auto& w : g.around(v))
                            if (ok && known(w.peer)) ok = one_step(s, x, s.coord[w.peer]);
                        if (ok) cands.insert(x);
                    }
            }
            if (cands.size() == 1) {
                s.coord[v] = *cands.begin();
                taken.insert(s.coord[v]);
                it = floating.erase(it);
                progress = true;
            } else {
                ++it;
            }
        }
    }
    return floating.empty();
}

Shape map_cartesian(const Fabric& f, const SwitchLinks& g, const LinkClasses& c, Shape s) {
    const std::size_t n = g.num_switches();
    // Classes that meet at a switch without forming a rectangle are one dimension (a ring's
    // positions); classes that do form one are different dimensions. That needs rectangles:
    // a class of a link or two whose squares are all missing has met nothing in one and would
    // join every dimension it touches, so classes much smaller than the typical one (a
    // quarter of the class size at the median link) are placed later, by the coordinates.
    // A ring of 3 is a triangle, and its dimension is one class of n links, while a position
    // of a ring of K >= 5 is a class of n / K: with rings of 3, the median link would be in a
    // ring of 3 and every other ring's positions would look small. So the median is taken
    // over the links on no triangle when they are a fifth of the links or more (rings of 4
    // and more, K2 rows; not the few leftovers of a damaged FlatFly's rows).
    std::vector<bool> in_triangle_class(c.count, false);
    for (std::uint32_t l = 0; l < g.links.size(); ++l) {
        const auto na = g.around(g.links[l].a), nb = g.around(g.links[l].b);
        for (std::size_t i = 0, j = 0; i < na.size() && j < nb.size();) // sorted by peer
            if (na[i].peer < nb[j].peer) {
                ++i;
            } else if (nb[j].peer < na[i].peer) {
                ++j;
            } else {
                in_triangle_class[c.of_link[l]] = true;
                break;
            }
    }
    std::vector<std::uint32_t> by_link;
    for (std::size_t l = 0; l < c.of_link.size(); ++l)
        if (!in_triangle_class[c.of_link[l]]) by_link.push_back(c.links_in[c.of_link[l]]);
    if (5 * by_link.size() < c.of_link.size()) {
        by_link.clear();
        for (std::size_t l = 0; l < c.of_link.size(); ++l)
            by_link.push_back(c.links_in[c.of_link[l]]);
    }
    std::nth_element(by_link.begin(), by_link.begin() + by_link.size() / 2, by_link.end());
    const std::uint32_t major_from = std::max(1u, by_link[by_link.size() / 2] / 4);
    const auto major = [&](std::uint32_t k) { return c.links_in[k] >= major_from; };
    // Two classes of one dimension are orthogonal to the same classes of the others; a
    // missing square can hide the orthogonality of two classes of different dimensions (on a
    // 2D torus each pair of positions has only one square), but their partners stay apart.
    std::vector<std::vector<std::uint32_t>> partners(c.count);
    for (const auto& [x, y] : c.orthogonal) {
        partners[x].push_back(y);
        partners[y].push_back(x);
    }
    for (auto& p : partners) std::sort(p.begin(), p.end());
    const auto alike = [&](std::uint32_t a, std::uint32_t b) {
        const auto& pa = partners[a];
        const auto& pb = partners[b];
        std::size_t common = 0;
        for (std::size_t i = 0, j = 0; i < pa.size() && j < pb.size();)
            if (pa[i] < pb[j])
                ++i;
            else if (pb[j] < pa[i])
                ++j;
            else
                ++common, ++i, ++j;
        return 2 * common >= std::min(pa.size(), pb.size());
    };
    UnionFind dim_uf(c.count);
    for (std::uint32_t v = 0; v < n; ++v) {
        const auto nb = g.around(v);
        for (std::size_t i = 0; i < nb.size(); ++i)
            for (std::size_t j = i + 1; j < nb.size(); ++j) {
                const std::uint32_t a = c.of_link[nb[i].link], b = c.of_link[nb[j].link];
                if (a != b && major(a) && major(b) && !c.are_orthogonal(a, b) && alike(a, b))
                    dim_uf.unite(a, b);
            }
    }
    std::vector<std::uint32_t> dim_of_class(c.count, kNone), root_dim(c.count, kNone);
    std::uint32_t ndims = 0;
    for (std::uint32_t k = 0; k < c.count; ++k) {
        if (!major(k)) continue;
        std::uint32_t& d = root_dim[dim_uf.find(k)];
        if (d == kNone) d = ndims++;
        dim_of_class[k] = d;
    }
    std::vector<std::uint32_t> classes_in(ndims, 0);
    for (std::uint32_t k = 0; k < c.count; ++k)
        if (major(k)) ++classes_in[dim_of_class[k]];
    // kNone for a minor link until the coordinates place it.
    std::vector<std::uint32_t> link_dim(g.links.size());
    for (std::uint32_t l = 0; l < g.links.size(); ++l) link_dim[l] = dim_of_class[c.of_link[l]];
    const auto dim_of_link = [&](std::uint32_t l) { return link_dim[l]; };

    s.dims.assign(ndims, {});
    s.coord.assign(n, std::vector<int>(ndims, 0));
    for (std::uint32_t d = 0; d < ndims; ++d) {
        // ε_d: the ends of every link of another dimension share the d-th coordinate.
        UnionFind plane_uf(n);
        for (std::uint32_t l = 0; l < g.links.size(); ++l)
            if (dim_of_link(l) != d && dim_of_link(l) != kNone)
                plane_uf.unite(g.links[l].a, g.links[l].b);
        std::vector<std::uint32_t> plane;
        std::uint32_t k = 0;
        std::vector<int> widths;
        std::vector<std::set<std::uint32_t>> next; // hyperplanes joined by this dimension
        for (int pass = 0;; ++pass) {              // until no pieces join (a few passes)
            k = plane_uf.classes(plane);
            widths.clear();
            next.assign(k, {});
            for (std::uint32_t l = 0; l < g.links.size(); ++l) {
                if (dim_of_link(l) != d) continue;
                widths.push_back(static_cast<int>(g.links[l].cables));
                const std::uint32_t pa = plane[g.links[l].a], pb = plane[g.links[l].b];
                if (pa == pb)
                    return unknown(std::move(s),
                                   fmt::format("link {} of dimension {} joins two switches that "
                                               "other links put in one hyperplane",
                                               link_name(f, g, l), d + 1));
                next[pa].insert(pb);
                next[pb].insert(pa);
            }
            // On a ring, a hyperplane whose switches lost the links that held it together
            // (their other links are minor, or missing) falls into pieces. A class of this
            // dimension is one position of the ring, the links between coordinates j and
            // j+1, so every hyperplane it reaches from one hyperplane is at the same
            // coordinate: those pieces are rejoined.
            if (pass == 8 || classes_in[d] < 2) break;
            std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> across;
            bool merged = false;
            for (std::uint32_t l = 0; l < g.links.size(); ++l) {
                if (dim_of_link(l) != d) continue;
                const std::uint32_t cls = c.of_link[l];
                for (const auto& [from, to] : {std::pair(g.links[l].a, g.links[l].b),
                                               std::pair(g.links[l].b, g.links[l].a)}) {
                    const auto [it, fresh] = across.emplace(std::pair(plane[from], cls), to);
                    if (!fresh) merged |= plane_uf.unite(to, it->second);
                }
            }
            if (!merged) break;
        }
        Dimension& dim = s.dims[d];
        dim.k = static_cast<int>(k);
        dim.width = most_common(widths);
        // Several classes in one dimension are a ring's positions, as long as the hyperplanes
        // form a ring; a FlatFly row split into classes by missing links stays complete.
        std::size_t most = 0;
        for (const auto& x : next) most = std::max(most, x.size());
        dim.ring = classes_in[d] > 1 && most <= 2 && k > 3;
        std::vector<int> pos(k, -1);
        if (!dim.ring) {
            // A hyperplane with no link of this dimension floats (below); the others are the
            // values of a complete dimension, in any order.
            int value = 0;
            for (std::uint32_t p = 0; p < k; ++p)
                if (!next[p].empty()) pos[p] = value++;
            dim.k = value;
        } else {
            // A ring visits every hyperplane once; with a whole position missing it is a path,
            // walked from one end.
            // A hyperplane with no link of this dimension (a switch whose links all lost their
            // rectangles, so that none is placed) floats: it is placed by its neighbours below.
            // Only the ring holding most switches is walked: a few switches cut off with
            // their own links of this dimension also float.
            std::vector<std::uint32_t> comp(k, kNone), weight;
            std::vector<std::uint32_t> size(k, 0);
            for (std::uint32_t v = 0; v < n; ++v) ++size[plane[v]];
            for (std::uint32_t p0 = 0; p0 < k; ++p0) {
                if (comp[p0] != kNone) continue;
                weight.push_back(0);
                std::vector<std::uint32_t> todo{p0};
                comp[p0] = static_cast<std::uint32_t>(weight.size() - 1);
                while (!todo.empty()) {
                    const std::uint32_t p = todo.back();
                    todo.pop_back();
                    weight.back() += size[p];
                    for (std::uint32_t q : next[p])
                        if (comp[q] == kNone) {
                            comp[q] = comp[p0];
                            todo.push_back(q);
                        }
                }
            }
            const std::uint32_t main = static_cast<std::uint32_t>(
                std::max_element(weight.begin(), weight.end()) - weight.begin());
            std::uint32_t start = kNone;
            for (std::uint32_t p = 0; p < k; ++p)
                if (comp[p] == main && (start == kNone || next[p].size() < 2)) start = p;
            std::uint32_t prev = kNone, cur = start;
            for (int i = 0; cur != kNone && pos[cur] < 0; ++i) {
                pos[cur] = i;
                std::uint32_t to = kNone;
                for (std::uint32_t x : next[cur])
                    if (x != prev && pos[x] < 0) {
                        to = x;
                        break;
                    }
                prev = cur;
                cur = to;
            }
            std::uint32_t placed = 0;
            for (std::uint32_t p = 0; p < k; ++p) {
                if (pos[p] >= 0)
                    ++placed;
                else if (comp[p] == main)
                    return unknown(std::move(s),
                                   fmt::format("dimension {} looks like a ring, but its {} "
                                               "hyperplanes do not form one",
                                               d + 1, k));
            }
            dim.k = static_cast<int>(placed);
        }
        for (std::uint32_t v = 0; v < n; ++v) s.coord[v][d] = pos[plane[v]];
    }

    if (!place_floating(g, s))
        return unknown(std::move(s), "some switches have no link left that a rectangle places, "
                                     "and their neighbours do not say where they are");

    // The check: distinct coordinates, and each link a step in its own dimension.
    std::map<std::vector<int>, std::uint32_t> at;
    for (std::uint32_t v = 0; v < n; ++v) {
        const auto [it, fresh] = at.emplace(s.coord[v], v);
        if (!fresh)
            return unknown(std::move(s), fmt::format("{} and {} map to the same coordinates",
                                                     display_name(f, g.node[it->second]),
                                                     display_name(f, g.node[v])));
    }
    for (std::uint32_t l = 0; l < g.links.size(); ++l) {
        const auto& x = s.coord[g.links[l].a];
        const auto& y = s.coord[g.links[l].b];
        if (link_dim[l] == kNone) // a minor link: the dimension its ends differ in
            for (std::uint32_t e = 0; e < ndims; ++e)
                if (x[e] != y[e]) link_dim[l] = e;
        const std::uint32_t d = dim_of_link(l);
        if (d == kNone)
            return unknown(std::move(s), fmt::format("link {} joins switches that the recovered "
                                                     "shape gives the same coordinates",
                                                     link_name(f, g, l)));
        for (std::uint32_t e = 0; e < ndims; ++e) {
            const int diff = std::abs(x[e] - y[e]);
            const bool ok =
                e != d ? diff == 0
                       : diff != 0 && (!s.dims[d].ring || diff == 1 || diff == s.dims[d].k - 1);
            if (!ok)
                return unknown(std::move(s),
                               fmt::format("link {} is not a step in one dimension of the "
                                           "recovered {}-dimensional shape",
                                           link_name(f, g, l), ndims));
        }
    }

    present_as_torus(s);
    at.clear();
    for (std::uint32_t v = 0; v < n; ++v) at.emplace(s.coord[v], v);
    const std::size_t nd = s.dims.size();

    bool all_ring = true, all_complete = true, all_two = true;
    for (const Dimension& d : s.dims) {
        all_ring &= d.ring;
        all_complete &= !d.ring;
        all_two &= d.k == 2;
    }
    s.family = all_complete ? (all_two && nd > 1 ? Family::Hypercube : Family::FlatFly)
               : all_ring   ? Family::Torus
                            : Family::Mixed;

    // Against the complete shape: every coordinate tuple, and every neighbour pair.
    double points = 1;
    for (const Dimension& d : s.dims) points *= d.k;
    if (points > 4.0 * double(n) + 64)
        return unknown(std::move(s),
                       fmt::format("the recovered dimensions span {:.0f} positions for {} "
                                   "switches: too sparse to be this shape",
                                   points, n));
    std::vector<int> x(nd, 0);
    for (std::size_t i = 0; i < static_cast<std::size_t>(points); ++i) {
        if (!at.count(x)) s.missing_switches.push_back(x);
        for (std::uint32_t d = 0; d < nd && ++x[d] == s.dims[d].k; ++d) x[d] = 0;
    }
    std::size_t expected = 0;
    for (std::uint32_t v = 0; v < n; ++v)
        for (std::uint32_t d = 0; d < nd; ++d) {
            std::vector<int> y = s.coord[v];
            for (int val = 0; val < s.dims[d].k; ++val) {
                const int step = std::abs(val - s.coord[v][d]);
                if (step == 0) continue;
                if (s.dims[d].ring && step != 1 && step != s.dims[d].k - 1) continue;
                y[d] = val;
                const auto it = at.find(y);
                if (it == at.end() || it->second < v) continue; // absent, or seen from there
                ++expected;
                const std::uint32_t l = g.link_between(v, it->second);
                const int cables = l == kNone ? 0 : static_cast<int>(g.links[l].cables);
                if (cables < s.dims[d].width) s.missing_links.push_back({v, it->second, cables});
            }
        }
    std::size_t absent = 0;
    for (const MissingLink& m : s.missing_links) absent += m.cables == 0;
    if (2 * absent > expected)
        return unknown(std::move(s),
                       fmt::format("as a {} it would lack {} of its {} links between the "
                                   "switches present: too few to be this shape",
                                   family_name(s.family), absent, expected));
    return s;
}

} // namespace

Shape map_fabric(const Fabric& f, const SwitchLinks& g, const LinkClasses& c) {
    Shape s;
    std::vector<int> cas(g.cas.begin(), g.cas.end());
    s.cas_per_switch = most_common(cas);
    const std::size_t n = g.num_switches();
    if (n < 2) return unknown(std::move(s), fmt::format("{} switches: nothing to map", n));
    UnionFind parts(n);
    std::uint32_t count = static_cast<std::uint32_t>(n);
    for (const auto& l : g.links) count -= parts.unite(l.a, l.b);
    if (count > 1)
        return unknown(std::move(s),
                       fmt::format("the switches form {} separate parts; each is a fabric of "
                                   "its own",
                                   count));
    // A Dragonfly+ is told by its leaves (switches with CAs) and spines; its tests are cheap
    // and specific (dragonfly_plus_map.hpp).
    if (auto dfp = map_dragonfly_plus(g, s)) return std::move(*dfp);
    // A Slim Fly's size and degree are specific enough to try it first (an embedding holds
    // every link by construction); when it fails and nothing else fits, its reason is given.
    std::string slimfly_why;
    if (const int q = slimfly_candidate_q(g)) {
        Shape sf = map_slimfly(f, g, q, s);
        if (sf.family == Family::SlimFly) return sf;
        slimfly_why = std::move(sf.why_not);
    }
    // Two readings of a Dragonfly's groups: the classes of ε (§2.2, tuned on damaged
    // Dragonflies of the absolute arrangement) and triangles (any arrangement,
    // dragonfly_groups.hpp). Where both read one, the one that places more switches is kept,
    // the classes on a tie.
    std::optional<Shape> df = try_dragonfly(g, c, s);
    if (std::optional<Shape> tri = try_dragonfly_by_triangles(g, s))
        if (!df || tri->unplaced.size() < df->unplaced.size()) df = std::move(tri);
    if (df) return std::move(*df);
    std::string product_why;
    if (auto p = try_slimfly_product(f, g, c, s)) {
        if (p->family == Family::SlimFly) return std::move(*p);
        product_why = std::move(p->why_not);
    }
    Shape out = map_cartesian(f, g, c, s);
    // Several global links per pair of groups only where no Cartesian family fits
    // (dragonfly_groups.hpp).
    if (out.family == Family::Unknown)
        if (std::optional<Shape> multi = try_dragonfly_by_triangles(g, s, true))
            return std::move(*multi);
    if (out.family == Family::Unknown && !product_why.empty()) out.why_not = product_why;
    if (out.family == Family::Unknown && !slimfly_why.empty()) out.why_not = slimfly_why;
    return out;
}

Shape map_fabric(const Fabric& f) {
    const SwitchLinks g = switch_links(f);
    return map_fabric(f, g, link_classes(g));
}

} // namespace ibrt::mapping
