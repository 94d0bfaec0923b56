// Random irregular switch graphs with uniformly spread machines (paper 001 §VI).
#include "generators/random_graph.hpp"

#include "fabric/rng.hpp"
#include "generators/gen_builder.hpp"
#include "generators/switch_graph.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace ibrt::gen {

namespace {

// Random spanning tree, then random extra edges up to `edges` (the default model).
Adjacency tree_graph(int S, std::uint64_t edges, int cap, Rng& rng) {
    Adjacency adj(S);
    std::unordered_set<std::uint64_t> present;
    auto key = [](std::uint32_t u, std::uint32_t v) {
        return u < v ? (std::uint64_t(u) << 32 | v) : (std::uint64_t(v) << 32 | u);
    };
    auto add_edge = [&](std::uint32_t u, std::uint32_t v) {
        adj[u].push_back(v);
        adj[v].push_back(u);
        present.insert(key(u, v));
    };
    auto full = [&](std::uint32_t u) { return int(adj[u].size()) >= cap; };
    std::vector<std::uint32_t> order(S);
    for (int i = 0; i < S; ++i) order[i] = i;
    rng.shuffle(order);
    for (int i = 1; i < S; ++i) {
        // Attach to an earlier switch with a free port; a radix too small for a tree fails.
        std::uint32_t parent = order[rng.below(i)];
        for (int tries = 0; full(parent) && tries < 4 * i; ++tries) parent = order[rng.below(i)];
        require(!full(parent), "random: the radix is too small to connect the switches");
        add_edge(order[i], parent);
    }
    std::uint64_t have = S - 1;
    // Rejection sampling while the graph is sparse; enumerate the free pairs once it is dense.
    std::uint64_t misses = 0;
    while (have < edges && misses < 64 * edges + 1024) {
        const std::uint32_t u = static_cast<std::uint32_t>(rng.below(S));
        const std::uint32_t v = static_cast<std::uint32_t>(rng.below(S));
        if (u == v || full(u) || full(v) || present.count(key(u, v))) {
            ++misses;
            continue;
        }
        add_edge(u, v);
        ++have;
    }
    if (have < edges) {
        std::vector<std::pair<std::uint32_t, std::uint32_t>> free_pairs;
        for (std::uint32_t u = 0; u < std::uint32_t(S); ++u)
            for (std::uint32_t v = u + 1; v < std::uint32_t(S); ++v)
                if (!present.count(key(u, v))) free_pairs.emplace_back(u, v);
        rng.shuffle(free_pairs);
        for (auto [u, v] : free_pairs) {
            if (have == edges) break;
            if (full(u) || full(v)) continue;
            add_edge(u, v);
            ++have;
        }
        require(have == edges, "random: the radix leaves no room for " + std::to_string(edges) +
                                   " switch-to-switch cables");
    }
    for (auto& l : adj) std::sort(l.begin(), l.end());
    return adj;
}

bool connected(const Adjacency& adj) {
    std::vector<char> seen(adj.size(), 0);
    std::vector<std::uint32_t> stack{0};
    seen[0] = 1;
    std::size_t n = 1;
    while (!stack.empty()) {
        const std::uint32_t u = stack.back();
        stack.pop_back();
        for (std::uint32_t v : adj[u])
            if (!seen[v]) {
                seen[v] = 1;
                ++n;
                stack.push_back(v);
            }
    }
    return n == adj.size();
}

// Waxman: points in the unit square, `edges` distinct edges drawn in proportion to
// exp(-d / (beta * sqrt 2)) without replacement (key u^(1/w), the largest keys win), redrawn
// until connected.
Adjacency waxman_graph(int S, std::uint64_t edges, double beta, Rng& rng) {
    auto uniform = [&] { return double(rng.next() >> 11) * 0x1.0p-53; };
    const double L = std::sqrt(2.0);
    for (int attempt = 0; attempt < 1000; ++attempt) {
        std::vector<double> x(S), y(S);
        for (int i = 0; i < S; ++i) {
            x[i] = uniform();
            y[i] = uniform();
        }
        struct Cand {
            double key;
            std::uint32_t u, v;
        };
        std::vector<Cand> cand;
        cand.reserve(std::size_t(S) * (S - 1) / 2);
        for (int u = 0; u < S; ++u)
            for (int v = u + 1; v < S; ++v) {
                const double d = std::hypot(x[u] - x[v], y[u] - y[v]);
                // log key = log(r) / w, w = exp(-d / (beta L)); r in (0, 1].
                const double r = 1.0 - uniform();
                const double logw = std::isinf(beta) ? 0.0 : -d / (beta * L);
                cand.push_back({std::log(r) * std::exp(-logw), std::uint32_t(u), std::uint32_t(v)});
            }
        std::partial_sort(cand.begin(), cand.begin() + static_cast<std::ptrdiff_t>(edges),
                          cand.end(), [](const Cand& a, const Cand& b) {
                              return a.key > b.key ||
                                     (a.key == b.key && (a.u < b.u || (a.u == b.u && a.v < b.v)));
                          });
        Adjacency adj(S);
        for (std::uint64_t i = 0; i < edges; ++i) {
            adj[cand[i].u].push_back(cand[i].v);
            adj[cand[i].v].push_back(cand[i].u);
        }
        if (!connected(adj)) continue;
        for (auto& l : adj) std::sort(l.begin(), l.end());
        return adj;
    }
    require(false, "random: no connected Waxman graph in 1000 tries (raise beta or the degree)");
    return {};
}

} // namespace

Fabric random_fabric(const RandomParams& P) {
    const int S = P.switches;
    require(S >= 1 && S <= 65536,
            "random: --switches must be in 1..65536, got " + std::to_string(S));
    require(P.cas >= 0 && P.cas <= (1 << 20), "random: --cas must be in 0..1048576");
    require(P.degree >= 0, "random: --degree must not be negative");
    const std::uint64_t max_edges = std::uint64_t(S) * (S - 1) / 2;
    const std::uint64_t edges = static_cast<std::uint64_t>(std::llround(S * P.degree / 2));
    require(edges + 1 >= std::uint64_t(S),
            "random: average degree " + std::to_string(P.degree) + " is too low to connect " +
                std::to_string(S) + " switches (needs >= " + std::to_string(2.0 * (S - 1) / S) +
                ")");
    require(edges <= max_edges, "random: average degree " + std::to_string(P.degree) +
                                    " needs more edges than a simple graph on " +
                                    std::to_string(S) + " switches has");
    const int cap = P.radix ? P.radix : kMaxPorts;
    require(cap <= kMaxPorts, "random: the radix must be at most 254");

    Rng rng(P.seed);
    Adjacency adj(S);
    if (P.model == RandomParams::Model::Waxman) {
        require(P.waxman_beta > 0, "random: the Waxman beta must be positive");
        adj = waxman_graph(S, edges, P.waxman_beta, rng);
        for (int s = 0; s < S; ++s)
            require(int(adj[s].size()) <= cap,
                    "random: the radix is too small for the Waxman graph");
    } else {
        adj = tree_graph(S, edges, cap, rng);
    }
    auto full = [&](std::uint32_t u) { return int(adj[u].size()) >= cap; };

    // Machines: uniform over the switches that still have a free port.
    std::vector<std::vector<int>> hosts(S);
    std::vector<std::uint32_t> open;
    for (std::uint32_t s = 0; s < std::uint32_t(S); ++s)
        if (!full(s)) open.push_back(s);
    for (int m = 0; m < P.cas; ++m) {
        require(!open.empty(), "random: the radix leaves no port for machine " + std::to_string(m));
        const std::size_t pick = rng.below(open.size());
        const std::uint32_t s = open[pick];
        hosts[s].push_back(m);
        if (int(adj[s].size() + hosts[s].size()) >= cap) open.erase(open.begin() + pick);
    }
    int radix = P.radix;
    if (!radix)
        for (int s = 0; s < S; ++s) radix = std::max(radix, int(adj[s].size() + hosts[s].size()));
    radix = std::max(radix, 1);

    GenBuilder b;
    std::vector<NodeId> sw(S), ca(P.cas);
    for (int s = 0; s < S; ++s) sw[s] = b.add_switch("sw-" + std::to_string(s), radix);
    for (int m = 0; m < P.cas; ++m) ca[m] = b.add_ca("host-" + std::to_string(m));
    cable_switch_graph(b, sw, adj, 1, 1);
    for (int s = 0; s < S; ++s)
        for (std::size_t i = 0; i < hosts[s].size(); ++i)
            b.link(sw[s], static_cast<int>(adj[s].size() + i) + 1, ca[hosts[s][i]], 1);
    return std::move(b).build();
}

} // namespace ibrt::gen
