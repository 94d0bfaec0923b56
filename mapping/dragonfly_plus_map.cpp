// Dragonfly+ groups, leaves and spines from the cabling; see dragonfly_plus_map.hpp.
#include "mapping/dragonfly_plus_map.hpp"

#include "mapping/union_find.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace ibrt::mapping {

std::optional<Shape> map_dragonfly_plus(const SwitchLinks& g, Shape s, std::string* why) {
    const auto no = [&](std::string reason) -> std::optional<Shape> {
        if (why) *why = std::move(reason);
        return std::nullopt;
    };
    const std::size_t n = g.num_switches();
    std::vector<std::uint8_t> leaf(n, 0);
    std::size_t hosted = 0;
    for (std::uint32_t v = 0; v < n; ++v) hosted += leaf[v] = g.cas[v] > 0;
    if (hosted == 0 || hosted == n)
        return no("not a Dragonfly+: it needs switches with CAs (leaves) and without (spines)");
    UnionFind uf(n);
    for (std::uint32_t v = 0; v < n; ++v)
        if (leaf[v])
            for (const auto& i : g.around(v)) {
                if (leaf[i.peer]) return no("not a Dragonfly+: two switches with CAs are cabled");
                uf.unite(v, i.peer);
            }
    // Spines seen from a leaf; a switch without CAs whose neighbours are all such spines of one
    // group (two or more) is a leaf with no host cabled.
    std::vector<std::uint8_t> seen(n, 0);
    for (std::uint32_t v = 0; v < n; ++v)
        if (leaf[v])
            for (const auto& i : g.around(v)) seen[i.peer] = 1;
    for (std::uint32_t v = 0; v < n; ++v) {
        if (leaf[v] || seen[v] || g.around(v).size() < 2) continue;
        const std::uint32_t first = uf.find(g.around(v)[0].peer);
        if (std::all_of(g.around(v).begin(), g.around(v).end(),
                        [&](const auto& i) { return seen[i.peer] && uf.find(i.peer) == first; })) {
            leaf[v] = 1;
            uf.unite(v, first);
        }
    }
    std::vector<std::uint32_t> grp;
    const std::uint32_t groups = uf.classes(grp);
    s.family = Family::DragonflyPlus;
    std::vector<int> cas;
    for (std::uint32_t v = 0; v < n; ++v)
        if (leaf[v]) cas.push_back(int(g.cas[v]));
    s.cas_per_switch = most_common(cas); // per leaf
    s.groups = int(groups);
    s.group.assign(grp.begin(), grp.end());
    s.spine.assign(n, 0);
    for (std::uint32_t v = 0; v < n; ++v) s.spine[v] = !leaf[v];
    std::vector<int> leaves(groups, 0), spines(groups, 0);
    s.index_in_group.assign(n, 0);
    for (std::uint32_t v = 0; v < n; ++v)
        s.index_in_group[v] = (leaf[v] ? leaves : spines)[grp[v]]++;
    std::vector<int> with_leaves;
    for (std::uint32_t x = 0; x < groups; ++x)
        if (leaves[x] > 0) with_leaves.push_back(spines[x]);
    if (with_leaves.size() < 2)
        return no("not a Dragonfly+: the leaves and their spines form one group");

    // Links: leaf-spine within a group, spine-spine across groups.
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> joined;
    std::vector<int> globals(n, 0);
    for (const auto& l : g.links) {
        const std::uint32_t ga = grp[l.a], gb = grp[l.b];
        if (leaf[l.a] || leaf[l.b]) continue; // local, by construction of the groups
        if (ga == gb) return no("not a Dragonfly+: two spines of one group are cabled");
        ++joined[{std::min(ga, gb), std::max(ga, gb)}];
        ++globals[l.a];
        ++globals[l.b];
    }
    std::vector<int> per_pair, leaf_counts, spine_counts, spine_globals;
    for (const auto& [pair, c] : joined) per_pair.push_back(c);
    for (std::uint32_t x = 0; x < groups; ++x)
        if (leaves[x] > 0) {
            leaf_counts.push_back(leaves[x]);
            spine_counts.push_back(spines[x]);
        }
    for (std::uint32_t v = 0; v < n; ++v)
        if (!leaf[v]) spine_globals.push_back(globals[v]);
    s.leaves_per_group = most_common(leaf_counts);
    s.spines_per_group = most_common(spine_counts);
    s.links_per_pair = most_common(per_pair);
    s.globals_per_switch = *std::max_element(spine_globals.begin(), spine_globals.end());
    s.group_size = s.leaves_per_group + s.spines_per_group;

    // Against the complete shape: every leaf of a group cabled to every spine, every two
    // groups joined. Spines with no leaf (groups of their own) are not placed.
    std::vector<std::vector<std::uint32_t>> members(groups);
    for (std::uint32_t v = 0; v < n; ++v) members[grp[v]].push_back(v);
    std::size_t pairs_with_leaves = 0, joined_with_leaves = 0;
    for (std::uint32_t x = 0; x < groups; ++x) {
        if (leaves[x] == 0) {
            s.unplaced.insert(s.unplaced.end(), members[x].begin(), members[x].end());
            continue;
        }
        std::size_t expected = 0, missing = 0;
        for (std::uint32_t a : members[x])
            for (std::uint32_t b : members[x])
                if (leaf[a] && !leaf[b]) {
                    ++expected;
                    if (g.link_between(a, b) == kNone) {
                        ++missing;
                        s.missing_links.push_back({std::min(a, b), std::max(a, b), 0});
                    }
                }
        if (2 * missing > expected)
            return no(fmt::format("not a Dragonfly+: {} of the {} leaf-spine pairs of a group "
                                  "are not cabled",
                                  missing, expected));
        for (int i = leaves[x]; i < s.leaves_per_group; ++i)
            s.missing_switches.push_back({int(x), 0, i});
        for (int i = spines[x]; i < s.spines_per_group; ++i)
            s.missing_switches.push_back({int(x), 1, i});
        for (std::uint32_t y = x + 1; y < groups; ++y)
            if (leaves[y] > 0) {
                ++pairs_with_leaves;
                joined_with_leaves += joined.count({x, y});
            }
    }
    if (2 * joined_with_leaves < pairs_with_leaves)
        return no(fmt::format("not a Dragonfly+: only {} of the {} pairs of groups are joined "
                              "directly",
                              joined_with_leaves, pairs_with_leaves));
    s.missing_global_links = pairs_with_leaves - joined_with_leaves;
    return s;
}

} // namespace ibrt::mapping
