// Paper 001 §IV: the 0-1 ILP on Fig. 5 (optimum 2) and on graphs whose optimum is known.
#include "fig5.hpp"
#include "lidassign/exact.hpp"

#include <catch2/catch.hpp>

using namespace ibrt;
using namespace ibrt::lidassign;

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
    const DecisionResult one = solve_decision(g, 1, 10);
    CHECK_FALSE(one.feasible);
    CHECK_FALSE(one.timed_out);
    const ExactResult r = solve_exact(g, 10);
    CHECK(r.status == ExactStatus::Optimal);
    CHECK(r.best.k == 2);
    CHECK(r.lower_bound == 2);
    CHECK(r.ilps_solved == 0); // color/L's 2 meets the clique bound {p1, p2}
}

namespace {
// Mycielski graph of C5 (Grötzsch graph): triangle-free (greedy clique 2), chromatic number 4.
SplitGraph grotzsch() {
    std::vector<std::pair<int, int>> e = {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}};
    for (int i = 0; i < 5; ++i) {
        const int u = 5 + i;
        for (int j : {(i + 1) % 5, (i + 4) % 5}) e.push_back({u, j});
        e.push_back({u, 10});
    }
    std::vector<std::vector<std::uint32_t>> adj(11);
    for (auto [a, b] : e) {
        adj[a].push_back(b);
        adj[b].push_back(a);
    }
    SplitGraph g;
    for (auto& l : adj) {
        std::sort(l.begin(), l.end());
        g.adj.insert(g.adj.end(), l.begin(), l.end());
        g.offset.push_back(static_cast<std::uint32_t>(g.adj.size()));
    }
    return g;
}
} // namespace

TEST_CASE("the ILP proves chromatic number 4 where the clique bound is only 2") {
    const SplitGraph g = grotzsch();
    CHECK(greedy_clique(g).size() == 2);
    CHECK_FALSE(solve_decision(g, 3, 30).feasible);
    const DecisionResult four = solve_decision(g, 4, 30);
    REQUIRE(four.feasible);
    CHECK(valid_assignment(g, four.assignment.config));
    const ExactResult r = solve_exact(g, 30);
    CHECK(r.status == ExactStatus::Optimal);
    CHECK(r.best.k == 4);
    CHECK(r.lower_bound == 4);
    CHECK(valid_assignment(g, r.best.config));
}

TEST_CASE("exact mode improves on color/L: the crown graph needs 2, color/L takes 5") {
    // Crown graph S_5: K_{5,5} minus a perfect matching, u_i = i, v_i = 5 + i. All degrees
    // tie, so color/L takes u_0, which removes v_1..v_4; then v_0 has the largest working
    // degree and removes u_1..u_4: colour 0 = {u_0, v_0}, and the rest is S_4 again.
    const int n = 5;
    std::vector<std::vector<std::uint32_t>> adj(2 * n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            if (i != j) {
                adj[i].push_back(n + j);
                adj[n + j].push_back(i);
            }
    SplitGraph g;
    for (auto& l : adj) {
        std::sort(l.begin(), l.end());
        g.adj.insert(g.adj.end(), l.begin(), l.end());
        g.offset.push_back(static_cast<std::uint32_t>(g.adj.size()));
    }
    const Assignment cl = color(g, true);
    CHECK(cl.k == 5);
    // S_2 = {u_3 v_4, u_4 v_3} then takes u_3 and u_4 together, v_3 and v_4 together.
    CHECK(cl.config == std::vector<std::uint32_t>{0, 1, 2, 3, 3, 0, 1, 2, 4, 4});
    const ExactResult r = solve_exact(g, 30);
    CHECK(r.status == ExactStatus::Optimal);
    CHECK(r.best.k == 2);
    CHECK(r.lower_bound == 2);
    CHECK(r.ilps_solved == 3); // SD(4), SD(3), SD(2) feasible; SD(1) is below the clique bound
    CHECK(valid_assignment(g, r.best.config));
}

TEST_CASE("an empty or edgeless split graph needs one configuration without any ILP") {
    SplitGraph g;
    g.offset = {0, 0, 0, 0};
    const ExactResult r = solve_exact(g, 1);
    CHECK(r.best.k == 1);
    CHECK(r.status == ExactStatus::Optimal);
    CHECK(r.ilps_solved == 0);
}
