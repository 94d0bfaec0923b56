// A Slim Fly recognised by embedding its cabling into the MMS graph; see slimfly_map.hpp.
#include "mapping/slimfly_map.hpp"

#include "generators/slimfly.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace ibrt::mapping {

std::optional<int> slimfly_delta(int q) {
    if (q < 3 || q > 169 || q % 4 == 2) return std::nullopt;
    bool prime = true;
    for (int d = 2; d * d <= q; ++d) prime &= q % d != 0;
    const bool two_power = (q & (q - 1)) == 0 && q >= 4 && q <= 128;
    if (!prime && !two_power) return std::nullopt;
    return q % 4 == 1 ? 1 : q % 4 == 3 ? -1 : 0;
}

namespace {

// Switches the mapping tolerates missing against 2 q^2: at least one, else one in twenty.
std::size_t tolerated_missing(std::size_t complete) {
    return std::max<std::size_t>(1, complete / 20);
}

// The depth-first embedding of g into h from `start` placed on vertex `at`, within `spare` links
// of h between placed vertices that have no cable and `steps` placements. phi on success.
std::optional<std::vector<std::uint32_t>> embed(const SwitchLinks& g, const gen::Adjacency& h,
                                                std::uint32_t start, std::uint32_t at,
                                                std::size_t spare, std::size_t steps) {
    const std::size_t n = g.num_switches(), nh = h.size();
    std::vector<std::uint32_t> phi(n, kNone), inv(nh, kNone), gcnt(n, 0), hcnt(nh, 0);
    std::size_t used = 0, placed = 0;
    const auto adjacent = [&](std::uint32_t a, std::uint32_t b) {
        return std::binary_search(h[a].begin(), h[a].end(), b);
    };
    const auto place = [&](std::uint32_t w, std::uint32_t c, std::uint32_t cost) {
        phi[w] = c;
        inv[c] = w;
        used += cost;
        ++placed;
        for (const auto& i : g.around(w)) ++gcnt[i.peer];
        for (std::uint32_t x : h[c]) ++hcnt[x];
    };
    const auto unplace = [&](std::uint32_t w, std::uint32_t c, std::uint32_t cost) {
        phi[w] = kNone;
        inv[c] = kNone;
        used -= cost;
        --placed;
        for (const auto& i : g.around(w)) --gcnt[i.peer];
        for (std::uint32_t x : h[c]) --hcnt[x];
    };
    struct Frame {
        std::uint32_t w;
        std::vector<std::pair<std::uint32_t, std::uint32_t>> cands; // (cost, vertex)
        std::size_t next = 0;
    };
    std::vector<Frame> stack;
    std::vector<std::uint32_t> placed_nbrs;
    place(start, at, 0);
    while (placed < n) {
        if (steps-- == 0) return std::nullopt;
        // The unplaced switch with the most placed neighbours (the lowest id among ties).
        std::uint32_t w = kNone;
        for (std::uint32_t v = 0; v < n; ++v)
            if (phi[v] == kNone && gcnt[v] > 0 && (w == kNone || gcnt[v] > gcnt[w])) w = v;
        if (w == kNone) return std::nullopt; // not connected
        placed_nbrs.clear();
        for (const auto& i : g.around(w))
            if (phi[i.peer] != kNone) placed_nbrs.push_back(phi[i.peer]);
        Frame fr{w, {}, 0};
        for (std::uint32_t c : h[placed_nbrs[0]]) {
            if (inv[c] != kNone) continue;
            bool ok = true;
            for (std::size_t k = 1; ok && k < placed_nbrs.size(); ++k)
                ok = adjacent(placed_nbrs[k], c);
            if (!ok) continue;
            const std::uint32_t cost = hcnt[c] - gcnt[w]; // placed h-neighbours with no cable
            if (used + cost <= spare) fr.cands.emplace_back(cost, c);
        }
        std::sort(fr.cands.begin(), fr.cands.end());
        stack.push_back(std::move(fr));
        for (;;) {
            Frame& top = stack.back();
            if (top.next < top.cands.size()) {
                const auto [cost, c] = top.cands[top.next++];
                place(top.w, c, cost);
                break;
            }
            stack.pop_back();
            if (stack.empty()) return std::nullopt;
            const Frame& prev = stack.back();
            const auto [cost, c] = prev.cands[prev.next - 1];
            unplace(prev.w, c, cost);
        }
    }
    return phi;
}

} // namespace

int slimfly_candidate_q(const SwitchLinks& g) {
    const std::size_t n = g.num_switches();
    int q = 3;
    while (2 * std::size_t(q) * q < n || !slimfly_delta(q)) {
        if (++q > 169) return 0;
    }
    const std::size_t complete = 2 * std::size_t(q) * q;
    if (n + tolerated_missing(complete) < complete) return 0;
    // Damage only lowers degrees (on a small Slim Fly a missing switch and two links can
    // make (3q - delta)/2 - 1 the most common degree), so the highest degree is the test.
    std::size_t degree = 0;
    for (std::uint32_t v = 0; v < n; ++v) degree = std::max(degree, g.around(v).size());
    const int delta = *slimfly_delta(q);
    return int(degree) == (3 * q - delta) / 2 ? q : 0;
}

Shape map_slimfly(const Fabric& f, const SwitchLinks& g, int q, Shape s) {
    (void)f;
    const auto fail = [&](std::string why) {
        s.family = Family::Unknown;
        s.why_not = std::move(why);
        return s;
    };
    const gen::Adjacency h = gen::mms_graph(q);
    const std::size_t n = g.num_switches(), nh = h.size();
    std::size_t edges = 0;
    for (const auto& l : h) edges += l.size();
    edges /= 2;
    if (g.links.size() > edges)
        return fail(fmt::format("it has the size and degree of a Slim Fly with q = {}, but {} "
                                "cabled switch pairs, more than the {} of the MMS graph",
                                q, g.links.size(), edges));
    const std::size_t spare = edges - g.links.size();
    // Starting switches: the first few of the highest degree (a complete neighbourhood).
    std::vector<std::uint32_t> order(n);
    for (std::uint32_t v = 0; v < n; ++v) order[v] = v;
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return g.around(a).size() > g.around(b).size();
    });
    std::optional<std::vector<std::uint32_t>> phi;
    // The graph's automorphisms move any vertex of a subgraph to any other (translations
    // and scalings of F_q), but for some q (delta = -1) none swaps the two subgraphs: the
    // starting switch is tried at (0, 0, 0) and at (1, 0, 0).
    const std::size_t tries = std::min<std::size_t>(4, n);
    const std::uint32_t qq = std::uint32_t(q) * std::uint32_t(q);
    for (std::size_t t = 0; t < tries && !phi; ++t)
        for (std::uint32_t at : {0u, qq})
            if (!phi) phi = embed(g, h, order[t], at, spare, 20 * n + 20000);
    if (!phi)
        return fail(fmt::format("it has the size and degree of a Slim Fly with q = {} ({} of {} "
                                "switches), but its cabling does not embed in the MMS graph "
                                "with at most {} links missing",
                                q, n, nh, spare));
    s.family = Family::SlimFly;
    s.q = q;
    const auto coords = [&](std::uint32_t c) {
        return std::vector<int>{int(c / qq), int(c % qq / std::uint32_t(q)),
                                int(c % std::uint32_t(q))};
    };
    s.coord.assign(n, {});
    std::vector<std::uint32_t> inv(nh, kNone);
    for (std::uint32_t v = 0; v < n; ++v) {
        s.coord[v] = coords((*phi)[v]);
        inv[(*phi)[v]] = v;
    }
    std::vector<int> widths;
    for (const auto& l : g.links) widths.push_back(static_cast<int>(l.cables));
    s.link_width = most_common(widths);
    for (std::uint32_t c = 0; c < nh; ++c) {
        if (inv[c] == kNone) {
            s.missing_switches.push_back(coords(c));
            continue;
        }
        for (std::uint32_t d : h[c]) {
            if (d < c || inv[d] == kNone) continue;
            const std::uint32_t a = std::min(inv[c], inv[d]), b = std::max(inv[c], inv[d]);
            const std::uint32_t l = g.link_between(a, b);
            const int cables = l == kNone ? 0 : static_cast<int>(g.links[l].cables);
            if (cables < s.link_width) s.missing_links.push_back({a, b, cables});
        }
    }
    return s;
}

} // namespace ibrt::mapping
