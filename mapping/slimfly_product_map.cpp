// Slim Fly x FlatFly from the cabling; see slimfly_product_map.hpp.
#include "mapping/slimfly_product_map.hpp"

#include "mapping/slimfly_map.hpp"
#include "mapping/union_find.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <map>

namespace ibrt::mapping {
namespace {

// Dense labels 0..count-1 for the sets of `uf`, in order of their lowest switch.
std::vector<int> labels(UnionFind& uf, std::size_t n, int& count) {
    std::vector<int> of_root(n, -1), out(n);
    count = 0;
    for (std::uint32_t v = 0; v < n; ++v) {
        int& l = of_root[uf.find(v)];
        if (l < 0) l = count++;
        out[v] = l;
    }
    return out;
}

} // namespace

std::optional<Shape> try_slimfly_product(const Fabric& f, const SwitchLinks& g,
                                         const LinkClasses& c, Shape s) {
    const std::size_t n = g.num_switches();
    const auto fail = [&](std::string why) {
        s.family = Family::Unknown;
        s.why_not = "as a Slim Fly x FlatFly: " + std::move(why);
        return std::optional<Shape>(std::move(s));
    };
    // Clique classes: pieces (switches joined by the class's links) of at most K >= 3
    // switches, at least half of them a K_K (or one missing a few links, below). A product missing
    // cables or a switch (past the paper) keeps its FlatFly classes: a missing link only takes
    // triangles and rectangles away, and K_K without a link still has a triangle at each remaining
    // link (K = 3: the rectangles to the next copies join its two links), so a piece becomes a
    // near-clique or one switch smaller, never part of another class.
    std::vector<std::vector<std::uint32_t>> links_of(c.count);
    for (std::uint32_t l = 0; l < g.links.size(); ++l) links_of[c.of_link[l]].push_back(l);
    std::vector<std::uint32_t> cand_class; // clique classes
    std::vector<int> cand_k;
    for (std::uint32_t k = 0; k < c.count; ++k) {
        UnionFind uf(n);
        for (std::uint32_t l : links_of[k]) uf.unite(g.links[l].a, g.links[l].b);
        std::map<std::uint32_t, std::pair<std::size_t, std::size_t>> piece; // root: switches, links
        for (std::uint32_t l : links_of[k]) ++piece[uf.find(g.links[l].a)].second;
        std::vector<char> counted(n, 0);
        std::size_t touched = 0;
        for (std::uint32_t l : links_of[k])
            for (std::uint32_t v : {g.links[l].a, g.links[l].b})
                if (!counted[v]) {
                    counted[v] = 1;
                    ++touched;
                    ++piece[uf.find(v)].first;
                }
        std::size_t m = 0, complete = 0;
        for (const auto& [root, p] : piece) m = std::max(m, p.first);
        // Complete, or a clique missing at most one link in eight (K_8 keeps all its 28 links
        // with 5 % of the cables failed only one time in four; a ring of 4 has 4 of 6).
        const std::size_t need = m * (m - 1) / 2 - m * (m - 1) / 16;
        for (const auto& [root, p] : piece) complete += p.first == m && p.second >= need;
        // Every switch in a piece but a few (those whose links of the class are all missing),
        // and the pieces about n / K.
        const bool clique = m >= 3 && 2 * complete >= piece.size() && 8 * touched >= 7 * n &&
                            piece.size() * m >= touched && piece.size() * m <= n + n / 8;
        if (!clique) continue;
        cand_class.push_back(k);
        cand_k.push_back(static_cast<int>(m));
    }
    if (cand_class.empty() || cand_class.size() > 12) return std::nullopt;

    // Which clique classes are the FlatFly: the columns of some Slim Flies are cliques at every
    // switch too (q = 3: triangles), so subsets are tried, the largest first, until contracting
    // the copies of the FlatFly leaves a graph of a Slim Fly's size and degree.
    std::vector<std::uint32_t> ff_class;
    std::vector<int> ff_k;
    std::vector<char> is_ff(c.count, 0);
    std::vector<int> copy, widths;
    int num_copies = 0;
    std::size_t copy_size = 1;
    SwitchLinks sg;
    std::string near_miss; // why the most product-like reading failed
    // The contraction for the FlatFly classes in is_ff: the q it would be a Slim Fly of, or 0.
    auto contract = [&]() -> int {
        std::size_t sf_links = 0;
        for (std::uint32_t l = 0; l < g.links.size(); ++l) sf_links += !is_ff[c.of_link[l]];
        if (sf_links == 0) return 0;
        UnionFind copies(n);
        for (std::uint32_t l = 0; l < g.links.size(); ++l)
            if (is_ff[c.of_link[l]]) copies.unite(g.links[l].a, g.links[l].b);
        copy = labels(copies, n, num_copies);
        copy_size = 1;
        for (int k : ff_k) copy_size *= std::size_t(k);
        // A few switches may be missing (each takes one switch from its copy), no copy whole.
        const std::size_t full = std::size_t(num_copies) * copy_size;
        if (full < n || 8 * (full - n) > full) return 0;
        // One vertex per copy, one link per pair of copies that the Slim Fly links join,
        // switch by switch.
        std::map<std::pair<int, int>, std::size_t> joined; // copies (a < b): Slim Fly links
        widths.clear();
        for (std::uint32_t l = 0; l < g.links.size(); ++l) {
            if (is_ff[c.of_link[l]]) continue;
            const int a = copy[g.links[l].a], b = copy[g.links[l].b];
            if (a == b) return 0;
            ++joined[{std::min(a, b), std::max(a, b)}];
            widths.push_back(static_cast<int>(g.links[l].cables));
        }
        sg = {};
        sg.node.resize(num_copies);
        for (std::uint32_t v = 0; v < n; ++v) sg.node[copy[v]] = g.node[v];
        sg.cas.assign(num_copies, 0);
        std::vector<std::vector<SwitchLinks::Incidence>> around(num_copies);
        for (const auto& [ab, links] : joined) {
            // Switch by switch: copy_size links, fewer where cables or switches are missing
            // (checked against the whole product below), never more.
            if (links > copy_size) {
                int q = 3; // a Slim Fly's number of vertices, or nothing to say
                while (2 * q * q < num_copies) ++q;
                if (2 * q * q != num_copies || !slimfly_delta(q)) return 0;
                near_miss = fmt::format(
                    "two copies of the FlatFly ({} switches each) are joined by {} Slim Fly links, "
                    "not one per switch",
                    copy_size, links);
                return 0;
            }
            const auto id = static_cast<std::uint32_t>(sg.links.size());
            sg.links.push_back({std::uint32_t(ab.first), std::uint32_t(ab.second), 1});
            around[ab.first].push_back({std::uint32_t(ab.second), id});
            around[ab.second].push_back({std::uint32_t(ab.first), id});
        }
        sg.start.push_back(0);
        for (auto& x : around) {
            std::sort(x.begin(), x.end(),
                      [](const auto& i, const auto& j) { return i.peer < j.peer; });
            sg.incidences.insert(sg.incidences.end(), x.begin(), x.end());
            sg.start.push_back(static_cast<std::uint32_t>(sg.incidences.size()));
        }
        return slimfly_candidate_q(sg);
    };
    std::vector<std::uint32_t> masks;
    for (std::uint32_t m = 1; m < (1u << cand_class.size()); ++m) masks.push_back(m);
    std::stable_sort(masks.begin(), masks.end(), [](std::uint32_t a, std::uint32_t b) {
        return std::popcount(a) > std::popcount(b);
    });
    int q = 0;
    Shape sf;
    for (std::uint32_t m : masks) {
        ff_class.clear();
        ff_k.clear();
        std::fill(is_ff.begin(), is_ff.end(), 0);
        for (std::size_t i = 0; i < cand_class.size(); ++i)
            if (m >> i & 1u) {
                ff_class.push_back(cand_class[i]);
                ff_k.push_back(cand_k[i]);
                is_ff[cand_class[i]] = 1;
            }
        if ((q = contract()) == 0) continue;
        sf = map_slimfly(f, sg, q, {});
        if (sf.family == Family::SlimFly && sf.missing_switches.empty() && sf.missing_links.empty())
            break;
        near_miss = sf.family != Family::SlimFly
                        ? "the contracted graph: " + sf.why_not
                        : fmt::format("the contracted graph is a Slim Fly with q = {} missing {} "
                                      "switches and {} links; a product missing a whole copy of "
                                      "its FlatFly, or every link between two, is not mapped",
                                      q, sf.missing_switches.size(), sf.missing_links.size());
        q = 0;
    }
    if (q == 0) return near_miss.empty() ? std::nullopt : fail(near_miss);

    // FlatFly coordinates: dimension d's are the classes of ε_d.
    s.family = Family::SlimFly;
    s.q = q;
    s.link_width = most_common(widths);
    s.coord.assign(n, {});
    for (std::uint32_t v = 0; v < n; ++v) s.coord[v] = sf.coord[copy[v]];
    for (std::size_t d = 0; d < ff_class.size(); ++d) {
        UnionFind uf(n);
        std::vector<int> w;
        for (std::uint32_t l = 0; l < g.links.size(); ++l) {
            if (c.of_link[l] == ff_class[d])
                w.push_back(static_cast<int>(g.links[l].cables));
            else
                uf.unite(g.links[l].a, g.links[l].b);
        }
        int count = 0;
        const std::vector<int> x = labels(uf, n, count);
        if (count != ff_k[d])
            return fail(fmt::format("FlatFly dimension {} has cliques of {} switches but {} "
                                    "hyperplanes",
                                    d + 1, ff_k[d], count));
        for (std::uint32_t v = 0; v < n; ++v) s.coord[v].push_back(x[v]);
        s.dims.push_back({ff_k[d], most_common(w), false});
    }
    // The check: distinct coordinates, and each link a step in exactly one factor.
    std::map<std::vector<int>, std::uint32_t> seen;
    for (std::uint32_t v = 0; v < n; ++v)
        if (!seen.emplace(s.coord[v], v).second)
            return fail(fmt::format("two switches get the coordinates of one"));
    for (std::uint32_t l = 0; l < g.links.size(); ++l) {
        const auto& x = s.coord[g.links[l].a];
        const auto& y = s.coord[g.links[l].b];
        std::size_t ff_diff = 0;
        for (std::size_t i = 3; i < x.size(); ++i) ff_diff += x[i] != y[i];
        const bool sf_same = std::equal(x.begin(), x.begin() + 3, y.begin());
        if (is_ff[c.of_link[l]] ? !(sf_same && ff_diff == 1) : ff_diff != 0)
            return fail("a link is not a step in one factor of the recovered product");
    }

    // Against the complete product: every FlatFly tuple in every copy, and every pair of
    // switches one step apart in one factor (a FlatFly dimension, or an MMS link between their
    // copies, which the contraction holds) with fewer cables than that factor's width.
    std::map<std::vector<int>, std::uint32_t> at;
    for (std::uint32_t v = 0; v < n; ++v) at.emplace(s.coord[v], v);
    const std::size_t nd = s.dims.size();
    std::vector<std::vector<int>> copy_sf(num_copies);
    for (std::uint32_t v = 0; v < n; ++v) copy_sf[copy[v]] = sf.coord[copy[v]];
    for (int cp = 0; cp < num_copies; ++cp) {
        std::vector<int> x(nd, 0);
        for (std::size_t i = 0; i < copy_size; ++i) {
            std::vector<int> full = copy_sf[cp];
            full.insert(full.end(), x.begin(), x.end());
            if (!at.count(full)) s.missing_switches.push_back(std::move(full));
            for (std::size_t d = 0; d < nd && ++x[d] == s.dims[d].k; ++d) x[d] = 0;
        }
    }
    std::size_t expected = 0, absent = 0;
    const auto expect = [&](std::uint32_t v, const std::vector<int>& y, int width) {
        const auto it = at.find(y);
        if (it == at.end() || it->second < v) return; // absent, or seen from there
        ++expected;
        const std::uint32_t l = g.link_between(v, it->second);
        const int cables = l == kNone ? 0 : static_cast<int>(g.links[l].cables);
        if (cables < width) s.missing_links.push_back({v, it->second, cables});
        absent += cables == 0;
    };
    for (std::uint32_t v = 0; v < n; ++v) {
        for (std::size_t d = 0; d < nd; ++d) {
            std::vector<int> y = s.coord[v];
            for (int val = 0; val < s.dims[d].k; ++val)
                if (val != s.coord[v][3 + d]) {
                    y[3 + d] = val;
                    expect(v, y, s.dims[d].width);
                }
        }
        for (const auto& i : sg.around(std::uint32_t(copy[v]))) {
            std::vector<int> y = copy_sf[i.peer];
            y.insert(y.end(), s.coord[v].begin() + 3, s.coord[v].end());
            expect(v, y, s.link_width);
        }
    }
    if (8 * s.missing_switches.size() > n || 4 * absent > expected)
        return fail(fmt::format("it would lack {} switches and {} of its {} links between the "
                                "switches present: too many to be this shape",
                                s.missing_switches.size(), absent, expected));
    return s;
}

} // namespace ibrt::mapping
