// Paper 001 §IV: the 0-1 ILP on Fig. 5 (optimum 2), on graphs whose optimum is known, and on
// small random graphs against a brute-force chromatic number; plus the reductions of
// exact.hpp (k-core, components, maximum clique, DSATUR).
#include "fig5.hpp"
#include "lidassign/exact.hpp"

#include <catch2/catch.hpp>

#include <random>

using namespace ibrt;
using namespace ibrt::lidassign;

namespace {

SplitGraph from_edges(std::uint32_t n,
                      const std::vector<std::pair<std::uint32_t, std::uint32_t>>& e) {
    std::vector<std::vector<std::uint32_t>> adj(n);
    for (auto [a, b] : e) {
        adj[a].push_back(b);
        adj[b].push_back(a);
    }
    SplitGraph g;
    for (auto& l : adj) {
        std::sort(l.begin(), l.end());
        l.erase(std::unique(l.begin(), l.end()), l.end());
        g.adj.insert(g.adj.end(), l.begin(), l.end());
        g.offset.push_back(static_cast<std::uint32_t>(g.adj.size()));
    }
    return g;
}

SplitGraph random_graph(std::uint32_t n, double p, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::bernoulli_distribution edge(p);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> e;
    for (std::uint32_t a = 0; a < n; ++a)
        for (std::uint32_t b = a + 1; b < n; ++b)
            if (edge(rng)) e.push_back({a, b});
    return from_edges(n, e);
}

// Brute force, independent of the code under test: the smallest k for which backtracking
// over vertices 0..n-1 (colour <= 1 + the largest used so far) finds a proper colouring.
bool colourable(const SplitGraph& g, std::uint32_t k, std::vector<std::uint32_t>& c,
                std::uint32_t v, std::uint32_t used) {
    if (v == g.num_vertices()) return true;
    for (std::uint32_t i = 0; i < std::min(k, used + 1); ++i) {
        bool ok = true;
        for (std::uint32_t w : g.neighbours(v))
            if (w < v && c[w] == i) ok = false;
        if (!ok) continue;
        c[v] = i;
        if (colourable(g, k, c, v + 1, std::max(used, i + 1))) return true;
    }
    return false;
}
std::uint32_t chromatic_number(const SplitGraph& g) {
    std::vector<std::uint32_t> c(g.num_vertices());
    for (std::uint32_t k = 0;; ++k)
        if (colourable(g, k, c, 0, 0)) return k;
}
std::uint32_t brute_clique(const SplitGraph& g) {
    const auto n = static_cast<std::uint32_t>(g.num_vertices());
    std::uint32_t best = 0;
    for (std::uint32_t m = 0; m < (1u << n); ++m) {
        bool ok = true;
        for (std::uint32_t a = 0; a < n && ok; ++a)
            if (m >> a & 1)
                for (std::uint32_t b = a + 1; b < n && ok; ++b)
                    if (m >> b & 1 &&
                        !std::binary_search(g.neighbours(a).begin(), g.neighbours(a).end(), b))
                        ok = false;
        if (ok) best = std::max(best, std::uint32_t(std::popcount(m)));
    }
    return best;
}
bool is_clique(const SplitGraph& g, const std::vector<std::uint32_t>& q) {
    for (std::uint32_t a : q)
        for (std::uint32_t b : q)
            if (a != b && !std::binary_search(g.neighbours(a).begin(), g.neighbours(a).end(), b))
                return false;
    return true;
}

// Mycielski graph of C5 (Grötzsch graph): triangle-free (greedy clique 2), chromatic number 4.
SplitGraph grotzsch() {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> e = {
        {0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}};
    for (std::uint32_t i = 0; i < 5; ++i) {
        const std::uint32_t u = 5 + i;
        for (std::uint32_t j : {(i + 1) % 5, (i + 4) % 5}) e.push_back({u, j});
        e.push_back({u, 10});
    }
    return from_edges(11, e);
}

} // namespace

TEST_CASE("Fig. 5: SD(2) is feasible, SD(1) is not, the optimum is 2") {
    const auto x = test::fig5();
    const SplitGraph g = build_split_graph(x.f, x.paths);
    const DecisionResult two = solve_decision(g, 2, 10);
    REQUIRE(two.feasible);
    CHECK(two.assignment.k == 2);
    CHECK(valid_assignment(g, two.assignment.config));
    // The §IV solution pairs p1 with p4 and p2 with p3; it is the only 2-colouring.
    CHECK(two.assignment.config[0] == two.assignment.config[3]);
    CHECK(two.assignment.config[1] == two.assignment.config[2]);
    CHECK(two.core_vertices == 0); // a path p1-p2-p4-p3 has an empty 2-core: no ILP at all
    CHECK(two.ilps == 0);
    const DecisionResult one = solve_decision(g, 1, 10);
    CHECK_FALSE(one.feasible);
    CHECK_FALSE(one.timed_out);
    const ExactResult r = solve_exact(g, 10);
    CHECK(r.status == ExactStatus::Optimal);
    CHECK(r.best.k == 2);
    CHECK(r.lower_bound == 2);
    CHECK(r.ilps_solved == 0); // color/L's 2 meets the clique bound {p1, p2}
}

TEST_CASE("the ILP proves chromatic number 4 where the clique bound is only 2") {
    const SplitGraph g = grotzsch();
    CHECK(greedy_clique(g).size() == 2);
    CHECK(max_clique(g).clique.size() == 2);
    CHECK(max_clique(g).proven);
    // Every vertex has degree >= 3 and the graph is connected: one ILP on all 11 vertices.
    const DecisionResult three = solve_decision(g, 3, 30);
    CHECK_FALSE(three.feasible);
    CHECK_FALSE(three.timed_out);
    CHECK(three.core_vertices == 11);
    CHECK(three.ilps == 1);
    const DecisionResult four = solve_decision(g, 4, 30);
    REQUIRE(four.feasible);
    CHECK(valid_assignment(g, four.assignment.config));
    const ExactResult r = solve_exact(g, 30);
    CHECK(r.status == ExactStatus::Optimal);
    CHECK(r.best.k == 4);
    CHECK(r.lower_bound == 4);
    CHECK(r.ilps_solved >= 1);
    CHECK(valid_assignment(g, r.best.config));
}

TEST_CASE("exact mode improves on color/L: the crown graph needs 2, color/L takes 5") {
    // Crown graph S_5: K_{5,5} minus a perfect matching, u_i = i, v_i = 5 + i. All degrees
    // tie, so color/L takes u_0, which removes v_1..v_4; then v_0 has the largest working
    // degree and removes u_1..u_4: colour 0 = {u_0, v_0}, and the rest is S_4 again.
    const std::uint32_t n = 5;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> e;
    for (std::uint32_t i = 0; i < n; ++i)
        for (std::uint32_t j = 0; j < n; ++j)
            if (i != j) e.push_back({i, n + j});
    const SplitGraph g = from_edges(2 * n, e);
    const Assignment cl = color(g, true);
    CHECK(cl.k == 5);
    // S_2 = {u_3 v_4, u_4 v_3} then takes u_3 and u_4 together, v_3 and v_4 together.
    CHECK(cl.config == std::vector<std::uint32_t>{0, 1, 2, 3, 3, 0, 1, 2, 4, 4});
    // DSATUR colours a bipartite graph with 2, which meets the clique bound: no ILP.
    CHECK(dsatur(g).k == 2);
    const ExactResult r = solve_exact(g, 30);
    CHECK(r.status == ExactStatus::Optimal);
    CHECK(r.best.k == 2);
    CHECK(r.lower_bound == 2);
    CHECK(r.ilps_solved == 0);
    CHECK(valid_assignment(g, r.best.config));
    // The ILP alone (SD(4) .. SD(2) as the plain §VI.B search from color/L would ask).
    for (std::uint32_t k = 2; k <= 4; ++k) {
        const DecisionResult d = solve_decision(g, k, 30);
        REQUIRE(d.feasible);
        CHECK(d.assignment.k <= k);
        CHECK(valid_assignment(g, d.assignment.config));
    }
}

TEST_CASE("an empty or edgeless split graph needs one configuration without any ILP") {
    SplitGraph g;
    g.offset = {0, 0, 0, 0};
    const ExactResult r = solve_exact(g, 1);
    CHECK(r.best.k == 1);
    CHECK(r.status == ExactStatus::Optimal);
    CHECK(r.ilps_solved == 0);
}

TEST_CASE("max_clique and dsatur on small random graphs") {
    for (double p : {0.2, 0.4, 0.6, 0.8})
        for (std::uint64_t seed = 1; seed <= 10; ++seed) {
            const SplitGraph g = random_graph(14, p, seed);
            INFO("p " << p << " seed " << seed);
            const CliqueResult q = max_clique(g);
            CHECK(q.proven);
            CHECK(is_clique(g, q.clique));
            CHECK(q.clique.size() == brute_clique(g));
            const Assignment d = dsatur(g);
            CHECK(valid_assignment(g, d.config));
            CHECK(d.k >= q.clique.size());
        }
}

TEST_CASE("the node limit stops max_clique with a clique at least as large as the greedy one") {
    const SplitGraph g = random_graph(60, 0.5, 7);
    const CliqueResult q = max_clique(g, 1);
    CHECK_FALSE(q.proven);
    CHECK(is_clique(g, q.clique));
    CHECK(q.clique.size() >= greedy_clique(g).size());
}

TEST_CASE("the exact optimum equals a brute-force chromatic number on small random graphs") {
    int hard = 0; // instances where the optimum is above the clique and below DSATUR
    for (std::uint32_t n : {12u, 14u, 16u})
        for (double p : {0.15, 0.3, 0.5, 0.7})
            for (std::uint64_t seed = 1; seed <= 6; ++seed) {
                const SplitGraph g = random_graph(n, p, 1000 * n + seed);
                INFO("n " << n << " p " << p << " seed " << seed);
                const std::uint32_t chi = chromatic_number(g);
                const ExactResult r = solve_exact(g, 30);
                CHECK(r.status == ExactStatus::Optimal);
                CHECK(r.best.k == chi);
                CHECK(r.lower_bound == chi);
                CHECK(valid_assignment(g, r.best.config));
                // SD(chi) is feasible with exactly chi configurations, SD(chi - 1) is not;
                // both through the k-core / component reduction.
                const DecisionResult yes = solve_decision(g, chi, 30);
                REQUIRE(yes.feasible);
                CHECK(yes.assignment.k == chi);
                CHECK(valid_assignment(g, yes.assignment.config));
                const DecisionResult no = solve_decision(g, chi - 1, 30);
                CHECK_FALSE(no.feasible);
                CHECK_FALSE(no.timed_out);
                hard += no.ilps > 0;
            }
    CHECK(hard > 0); // the ILP itself proved some of the infeasibilities
}

TEST_CASE("k-core and components: peeled paths and separate components are coloured validly") {
    // K4 (0..3) with a pendant path 3-4-5, and a Grötzsch graph (6..16) as a second
    // component. SD(4): every degree < 4 once peeling cascades (the hub's 5 drops as its
    // degree-3 neighbours go), so no ILP; SD(3): the path goes, the K4 component is refuted
    // by its clique.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> e;
    for (std::uint32_t a = 0; a < 4; ++a)
        for (std::uint32_t b = a + 1; b < 4; ++b) e.push_back({a, b});
    e.push_back({3, 4});
    e.push_back({4, 5}); // pendant path 3-4-5
    const SplitGraph gz = grotzsch();
    for (std::uint32_t v = 0; v < gz.num_vertices(); ++v)
        for (std::uint32_t w : gz.neighbours(v))
            if (v < w) e.push_back({6 + v, 6 + w});
    const SplitGraph g = from_edges(17, e);
    CHECK(chromatic_number(g) == 4);

    const DecisionResult four = solve_decision(g, 4, 30);
    REQUIRE(four.feasible);
    CHECK(four.assignment.k == 4);
    CHECK(valid_assignment(g, four.assignment.config));
    CHECK(four.core_vertices == 0);
    CHECK(four.ilps == 0);

    const DecisionResult three = solve_decision(g, 3, 30);
    CHECK_FALSE(three.feasible);
    CHECK_FALSE(three.timed_out);
    CHECK(three.core_vertices == 4 + 11); // the pendant path goes, K4 and Grötzsch stay

    // A triangle with a pendant instead of the K4: SD(3) peels it entirely and is decided by
    // one ILP on the Grötzsch component (clique 2, and no 3-colouring for DSATUR to find).
    std::vector<std::pair<std::uint32_t, std::uint32_t>> e2 = {{0, 1}, {1, 2}, {0, 2}, {2, 3}};
    for (std::uint32_t v = 0; v < gz.num_vertices(); ++v)
        for (std::uint32_t w : gz.neighbours(v))
            if (v < w) e2.push_back({4 + v, 4 + w});
    const SplitGraph g2 = from_edges(15, e2);
    const DecisionResult d3 = solve_decision(g2, 3, 30);
    CHECK_FALSE(d3.feasible);
    CHECK_FALSE(d3.timed_out);
    CHECK(d3.core_vertices == 11); // the triangle has degree 2 < 3 and goes
    CHECK(d3.ilps == 1);
    const DecisionResult d4 = solve_decision(g2, 4, 30);
    REQUIRE(d4.feasible);
    CHECK(d4.assignment.k == 4);
    CHECK(valid_assignment(g2, d4.assignment.config));
    const ExactResult r = solve_exact(g2, 30);
    CHECK(r.status == ExactStatus::Optimal);
    CHECK(r.best.k == 4);
}

TEST_CASE("Optimal without an ILP when the maximum clique meets the upper bound") {
    // A 5-wheel (hub + C5) has clique 3 but chromatic number 4; add a K4 elsewhere so the
    // maximum clique (4) meets DSATUR's 4. The greedy clique starts at the hub (degree 5) and
    // only finds a triangle, so only the exact maximum clique proves it without an ILP.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> e;
    for (std::uint32_t i = 0; i < 5; ++i) {
        e.push_back({0, 1 + i});
        e.push_back({1 + i, 1 + (i + 1) % 5});
    }
    for (std::uint32_t a = 6; a < 10; ++a)
        for (std::uint32_t b = a + 1; b < 10; ++b) e.push_back({a, b});
    const SplitGraph g = from_edges(10, e);
    CHECK(greedy_clique(g).size() == 3);
    CHECK(max_clique(g).clique.size() == 4);
    const ExactResult r = solve_exact(g, 30);
    CHECK(r.status == ExactStatus::Optimal);
    CHECK(r.best.k == 4);
    CHECK(r.lower_bound == 4);
    CHECK(r.ilps_solved == 0);
    CHECK(valid_assignment(g, r.best.config));
}
