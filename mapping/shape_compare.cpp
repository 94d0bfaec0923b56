// Comparing a recovered shape with the generator's coordinates; see shape_compare.hpp.
#include "mapping/shape_compare.hpp"

#include "generators/slimfly.hpp"
#include "mapping/dragonfly_groups.hpp"
#include "mapping/union_find.hpp"

#include <algorithm>
#include <charconv>
#include <map>

namespace ibrt::mapping {

std::optional<std::vector<int>> generator_coords(std::string_view label) {
    if (!label.starts_with("sw-")) return std::nullopt;
    label.remove_prefix(3);
    const bool dragonfly = label.starts_with('g');
    if (dragonfly) label.remove_prefix(1);
    std::vector<int> v;
    while (!label.empty()) {
        int x = 0;
        const auto [p, ec] = std::from_chars(label.data(), label.data() + label.size(), x);
        if (ec != std::errc() || p == label.data()) return std::nullopt;
        v.push_back(x);
        label.remove_prefix(std::size_t(p - label.data()));
        if (label.empty()) break;
        // A Slim Fly x FlatFly's label: "t.x.y-c1.c2...".
        const bool product_sep = !dragonfly && v.size() == 3 && label.front() == '-';
        if (label.front() != (dragonfly ? '-' : '.') && !product_sep) return std::nullopt;
        label.remove_prefix(1);
    }
    if (v.empty() || (dragonfly && v.size() != 2)) return std::nullopt;
    return v;
}

std::vector<std::vector<int>> generator_coords(const Fabric& f, const SwitchLinks& g) {
    std::vector<std::vector<int>> out;
    for (NodeId n : g.node)
        out.push_back(generator_coords(f.node(n).desc).value_or(std::vector<int>{}));
    return out;
}

namespace {

// Whether value x of recovered dimension r and value y of generated dimension q correspond
// one to one over all switches (and, on a ring of k, as a rotation or reflection).
bool dimension_matches(const std::vector<std::vector<int>>& got, std::size_t r,
                       const std::vector<std::vector<int>>& want, std::size_t q, bool ring, int k) {
    std::map<int, int> to, from;
    for (std::size_t v = 0; v < got.size(); ++v) {
        const auto a = to.emplace(got[v][r], want[v][q]).first;
        const auto b = from.emplace(want[v][q], got[v][r]).first;
        if (a->second != want[v][q] || b->second != got[v][r]) return false;
    }
    if (!ring) return true;
    int dir = 0;
    for (const auto& [x, y] : to) {
        const auto nx = to.find((x + 1) % k);
        if (nx == to.end()) continue;
        const int step = ((nx->second - y) % k + k) % k;
        if ((step != 1 && step != k - 1) || (dir != 0 && step != dir)) return false;
        dir = step;
    }
    return true;
}

// The same groups as the generator's for the known switches; a switch not known may be
// unplaced, or in a group of no known switch (a piece of its group cut off), but not with
// known switches of another group.
bool dragonfly_matches(const Shape& s, const std::vector<std::vector<int>>& want,
                       const std::vector<bool>& known) {
    std::vector<bool> unplaced(want.size(), false);
    for (std::uint32_t v : s.unplaced) unplaced[v] = true;
    std::map<int, int> to, from; // recovered group <-> generator's group, over known switches
    for (std::size_t v = 0; v < want.size(); ++v) {
        if (!known[v]) continue;
        if (unplaced[v]) return false;
        const auto a = to.emplace(s.group[v], want[v][0]).first;
        const auto b = from.emplace(want[v][0], s.group[v]).first;
        if (a->second != want[v][0] || b->second != s.group[v]) return false;
    }
    for (std::size_t v = 0; v < want.size(); ++v) {
        if (known[v] || unplaced[v]) continue;
        const auto it = to.find(s.group[v]);
        if (it != to.end() && it->second != want[v][0]) return false;
    }
    return true;
}

bool matches(const Shape& s, const std::vector<std::vector<int>>& want,
             const std::vector<bool>& known);

} // namespace

std::vector<bool> dragonfly_known(const SwitchLinks& g, const std::vector<std::vector<int>>& want) {
    const std::size_t n = g.num_switches();
    const auto same = [&](std::uint32_t a, std::uint32_t b) { return want[a][0] == want[b][0]; };
    // Local links on a triangle or a rectangle of the group's links.
    UnionFind held(n);
    for (const auto& l : g.links) {
        if (!same(l.a, l.b)) continue;
        bool shown = false;
        for (const auto& x : g.around(l.a)) {
            if (shown) break;
            if (x.peer == l.b || !same(x.peer, l.a)) continue;
            if (g.link_between(x.peer, l.b) != kNone) shown = true; // triangle
            for (const auto& y : g.around(l.b))
                if (!shown && y.peer != l.a && y.peer != x.peer && same(y.peer, l.a) &&
                    g.link_between(x.peer, y.peer) != kNone)
                    shown = true; // rectangle a-b-y-x
        }
        if (shown) held.unite(l.a, l.b);
    }
    std::vector<std::uint32_t> part;
    const std::uint32_t parts = held.classes(part);
    std::vector<std::uint32_t> size(parts, 0);
    for (std::uint32_t v = 0; v < n; ++v) ++size[part[v]];
    std::map<int, std::uint32_t> largest; // generator's group -> its largest part
    for (std::uint32_t v = 0; v < n; ++v) {
        const auto [it, fresh] = largest.emplace(want[v][0], part[v]);
        if (!fresh && size[part[v]] > size[it->second]) it->second = part[v];
    }
    std::vector<std::uint32_t> group(n, kNone);
    for (std::uint32_t v = 0; v < n; ++v)
        if (largest[want[v][0]] == part[v] && size[part[v]] >= 3)
            group[v] = static_cast<std::uint32_t>(want[v][0]);
    place_lone_switches(g, group,
                        [&](std::uint32_t v, std::uint32_t grp) { return int(grp) == want[v][0]; });
    std::vector<bool> known(n);
    for (std::uint32_t v = 0; v < n; ++v) known[v] = group[v] != kNone;
    return known;
}

bool matches_generator(const Shape& s, const std::vector<std::vector<int>>& want) {
    return matches(s, want, std::vector<bool>(want.size(), true));
}

bool matches_generator(const Shape& s, const SwitchLinks& g,
                       const std::vector<std::vector<int>>& want) {
    if (s.family != Family::Dragonfly || want.empty() || want[0].size() != 2)
        return matches_generator(s, want);
    return matches(s, want, dragonfly_known(g, want));
}

namespace {

bool matches(const Shape& s, const std::vector<std::vector<int>>& want,
             const std::vector<bool>& known) {
    if (s.family == Family::Unknown || want.empty()) return false;
    for (const auto& w : want)
        if (w.size() != want[0].size()) return false;
    if (s.family == Family::SlimFly) {
        // A bijection between the generator's (t, x, y) and the recovered ones that keeps
        // every pair adjacent in the MMS graph adjacent: an automorphism of the graph. A
        // product's switches share (t, x, y) with their copy of the FlatFly, so the bijection
        // must only be consistent; its FlatFly dimensions are matched as a FlatFly's.
        if (want[0].size() != 3 + s.dims.size()) return false;
        const int q = s.q;
        const auto index = [q](const std::vector<int>& c) {
            return std::uint32_t((c[0] * q + c[1]) * q + c[2]);
        };
        const gen::Adjacency h = gen::mms_graph(q);
        std::vector<std::uint32_t> to(h.size(), kNone), from(h.size(), kNone);
        for (std::size_t v = 0; v < want.size(); ++v) {
            for (int k = 0; k < 3; ++k)
                if (want[v][k] < 0 || want[v][k] >= (k ? q : 2) || s.coord[v][k] < 0 ||
                    s.coord[v][k] >= (k ? q : 2))
                    return false;
            const std::uint32_t a = index(want[v]), b = index(s.coord[v]);
            if (to[a] == kNone && from[b] == kNone) {
                to[a] = b;
                from[b] = a;
            } else if (to[a] != b || from[b] != a || s.dims.empty()) {
                return false;
            }
        }
        std::vector<bool> used(s.dims.size(), false);
        for (std::size_t r = 0; r < s.dims.size(); ++r) {
            bool found = false;
            for (std::size_t d = 0; d < s.dims.size() && !found; ++d)
                if (!used[d] && dimension_matches(s.coord, 3 + r, want, 3 + d, false, s.dims[r].k))
                    used[d] = found = true;
            if (!found) return false;
        }
        for (std::uint32_t a = 0; a < h.size(); ++a)
            for (std::uint32_t c : h[a])
                if (to[a] != kNone && to[c] != kNone &&
                    !std::binary_search(h[to[a]].begin(), h[to[a]].end(), to[c]))
                    return false;
        return true;
    }
    if (s.family == Family::Dragonfly)
        return want[0].size() == 2 && dragonfly_matches(s, want, known);
    const std::size_t n = s.dims.size();
    if (want[0].size() != n) return false;
    std::vector<bool> used(n, false);
    for (std::size_t r = 0; r < n; ++r) {
        bool found = false;
        for (std::size_t q = 0; q < n && !found; ++q)
            if (!used[q] && dimension_matches(s.coord, r, want, q, s.dims[r].ring, s.dims[r].k))
                used[q] = found = true;
        if (!found) return false;
    }
    return true;
}

} // namespace

} // namespace ibrt::mapping
