// ε of paper 003 §2.1 by union-find; see link_classes.hpp. Triangles and rectangles are found
// from each switch v: a triangle is two neighbours of v that are cabled; a rectangle v-a-w-b is
// two neighbours a, b of v with a common neighbour w != v, found by bucketing the second hops
// by w. With degree d that is O(n d^2) work, as the paper states.
#include "mapping/link_classes.hpp"

#include "mapping/union_find.hpp"

#include <algorithm>

namespace ibrt::mapping {

bool LinkClasses::are_orthogonal(std::uint32_t c1, std::uint32_t c2) const {
    if (c1 > c2) std::swap(c1, c2);
    return std::binary_search(orthogonal.begin(), orthogonal.end(), std::make_pair(c1, c2));
}

LinkClasses link_classes(const SwitchLinks& g) {
    const std::size_t n = g.num_switches();
    UnionFind uf(g.links.size());
    std::vector<std::pair<std::uint32_t, std::uint32_t>> corners; // link pairs at a corner

    struct Hop {
        std::uint32_t first, second; // links v-a and a-w
    };
    std::vector<std::vector<Hop>> bucket(n); // by w
    std::vector<std::uint32_t> touched;
    for (std::uint32_t v = 0; v < n; ++v) {
        const auto nb = g.around(v);
        // Rule 3: triangles v-a-b.
        for (std::size_t i = 0; i < nb.size(); ++i)
            for (std::size_t j = i + 1; j < nb.size(); ++j) {
                const std::uint32_t ab = g.link_between(nb[i].peer, nb[j].peer);
                if (ab == kNone) continue;
                uf.unite(nb[i].link, nb[j].link);
                uf.unite(nb[i].link, ab);
            }
        // Rule 4: rectangles v-a-w-b.
        for (const auto& a : nb)
            for (const auto& w : g.around(a.peer)) {
                if (w.peer == v) continue;
                if (bucket[w.peer].empty()) touched.push_back(w.peer);
                bucket[w.peer].push_back({a.link, w.link});
            }
        for (std::uint32_t w : touched) {
            const auto& hops = bucket[w];
            for (std::size_t i = 0; i < hops.size(); ++i)
                for (std::size_t j = i + 1; j < hops.size(); ++j) {
                    // Sides: v-a (hops[i].first), a-w, w-b (hops[j].second), b-v.
                    uf.unite(hops[i].first, hops[j].second);
                    uf.unite(hops[i].second, hops[j].first);
                    corners.emplace_back(hops[i].first, hops[j].first);
                }
            bucket[w].clear();
        }
        touched.clear();
    }

    LinkClasses c;
    c.count = uf.classes(c.of_link);
    c.links_in.assign(c.count, 0);
    for (std::uint32_t cl : c.of_link) ++c.links_in[cl];
    for (const auto& [x, y] : corners) {
        std::uint32_t a = c.of_link[x], b = c.of_link[y];
        if (a == b) continue;
        if (a > b) std::swap(a, b);
        c.orthogonal.emplace_back(a, b);
    }
    std::sort(c.orthogonal.begin(), c.orthogonal.end());
    c.orthogonal.erase(std::unique(c.orthogonal.begin(), c.orthogonal.end()), c.orthogonal.end());
    return c;
}

} // namespace ibrt::mapping
