// Direct topologies: HyperX/hypercube, torus/mesh, Dragonfly, Slim Fly, random irregular.
#include "formats/ibnetdiscover.hpp"
#include "gen_test_util.hpp"
#include "generators/dragonfly.hpp"
#include "generators/gen_builder.hpp"
#include "generators/hyperx.hpp"
#include "generators/random_graph.hpp"
#include "generators/slimfly.hpp"
#include "generators/torus.hpp"
#include "graph/fabric_walks.hpp"
#include "graph/switch_distance.hpp"

#include <catch2/catch.hpp>

#include <limits>

#include <set>
#include <sstream>

using namespace ibrt;
using namespace ibrt::gentest;

TEST_CASE("HyperX 3x4, widths 1,2, 2 CAs per switch") {
    const Fabric f = gen::hyperx({{3, 4}, {1, 2}, 2, 0});
    CHECK(f.switches().size() == 12);
    CHECK(f.cas().size() == 24);
    // Degree C + sum L_n (K_n - 1) = 2 + 2 + 6.
    for (NodeId s : f.switches()) CHECK(f.node(s).num_ports == 10);
    CHECK(isl_count(f) == 12 * 2 * 1 / 2 + 12 * 3 * 2 / 2);
    CHECK(gen::graph_diameter(switch_graph(f)) == 2);
    const auto d = by_desc(f);
    CHECK(peer(f, d, "host-2.3-1", 1) == "sw-2.3[2]");
    CHECK(peer(f, d, "sw-0.0", 4) == "sw-2.0[3]");  // dim 1, v = 2
    CHECK(peer(f, d, "sw-0.0", 10) == "sw-0.3[6]"); // dim 2, v = 3, second cable
    CHECK(peer(f, d, "sw-1.2", 3) == "sw-0.2[3]");
    CHECK_THROWS_WITH(gen::hyperx({{3, 1}, {}, 1, 0}),
                      "hyperx: every dimension needs at least 2 switches");
    CHECK_THROWS_WITH(gen::hyperx({{3, 4}, {1}, 1, 0}),
                      "hyperx: give one link width per dimension (2)");
}

TEST_CASE("hypercube: 2^D switches, degree D, diameter D") {
    for (int dim : {1, 3, 5}) {
        CAPTURE(dim);
        const Fabric f = gen::hypercube(dim, 2, 1);
        CHECK(f.switches().size() == (1u << dim));
        CHECK(isl_count(f) == (1u << dim) * dim); // 2^D * D / 2 pairs, 2 cables each
        CHECK(gen::graph_diameter(switch_graph(f)) == dim);
    }
}

TEST_CASE("torus and mesh: cable counts, wrap-around, size-2 dimensions") {
    const Fabric t = gen::torus({{4, 3}, {1, 2}, 1, true, 0});
    CHECK(t.switches().size() == 12);
    CHECK(isl_count(t) == 12 * 1 + 12 * 2);
    CHECK(gen::graph_diameter(switch_graph(t)) == 3);
    for (NodeId s : t.switches()) CHECK(t.node(s).num_ports == 1 + 2 * 1 + 2 * 2);
    const auto d = by_desc(t);
    CHECK(peer(t, d, "sw-3.0", 2) == "sw-0.0[3]"); // + in dim 1 wraps to 0, lands on its - port
    CHECK(peer(t, d, "sw-0.2", 4) == "sw-0.0[6]"); // dim 2 wraps, first of two cables
    CHECK(peer(t, d, "sw-0.2", 5) == "sw-0.0[7]");
    const Fabric m = gen::torus({{4, 3}, {1, 2}, 1, false, 0});
    CHECK(isl_count(m) == 3 * 3 * 1 + 4 * 2 * 2);
    CHECK(gen::graph_diameter(switch_graph(m)) == 5);
    CHECK(peer(m, by_desc(m), "sw-3.0", 2) == "-");
    // A size-2 torus dimension has one neighbour, cabled once.
    const Fabric two = gen::torus({{2, 2}, {}, 1, true, 0});
    CHECK(isl_count(two) == 4);
    const Fabric ring = gen::torus({{5}, {}, 0, true, 0});
    CHECK(isl_count(ring) == 5);
    CHECK(ring.cas().empty());
}

TEST_CASE("Dragonfly: a*h+1 groups, one global cable per group pair") {
    for (auto [a, h, p, groups] :
         {std::tuple{4, 2, 2, 0}, {2, 1, 1, 0}, {4, 2, 2, 8}, {6, 3, 3, 0}}) {
        CAPTURE(a, h, p, groups);
        const Fabric f = gen::dragonfly({a, h, p, groups, 0});
        const int g = groups ? groups : a * h + 1;
        CHECK(f.switches().size() == std::size_t(g) * a);
        CHECK(f.cas().size() == std::size_t(g) * a * p);
        for (NodeId s : f.switches()) CHECK(f.node(s).num_ports == p + a - 1 + h);
        // Classify the switch cables by the groups of their ends.
        auto group_of = [&](NodeId n) {
            const std::string& s = f.node(n).desc; // sw-g<G>-<r>
            return std::stoi(s.substr(4, s.find('-', 4) - 4));
        };
        std::size_t local = 0;
        std::map<std::pair<int, int>, int> global;
        std::size_t free_global = 0;
        for (NodeId s : f.switches())
            for (PortNum q = 1; q <= f.node(s).num_ports; ++q) {
                const Port& port = f.port(s, q);
                if (!port.connected()) {
                    CHECK(q > p + a - 1); // only global ports may stay free
                    ++free_global;
                    continue;
                }
                if (!f.node(port.peer_node).is_switch()) continue;
                const int g1 = group_of(s), g2 = group_of(port.peer_node);
                if (g1 == g2) {
                    ++local;
                    CHECK((q > p && q <= p + a - 1));
                } else {
                    CHECK(q > p + a - 1);
                    if (g1 < g2) ++global[{g1, g2}];
                }
            }
        CHECK(local / 2 == std::size_t(g) * a * (a - 1) / 2);
        CHECK(global.size() == std::size_t(g) * (g - 1) / 2);
        for (auto& [pair, n] : global) CHECK(n == 1);
        CHECK(free_global == std::size_t(g) * (a * h - (g - 1)));
        CHECK(gen::graph_diameter(switch_graph(f)) == (g == 1 ? 1 : 3));
    }
    // Paper 003's set-up K = 16, G = 8 with K*G groups: 2,048 switches, radix C + G + K - 1.
    const Fabric big = gen::dragonfly({16, 8, 8, 128, 0});
    CHECK(big.switches().size() == 2048);
    CHECK(big.node(big.switches()[0]).num_ports == 8 + 8 + 15);
    CHECK_THROWS_WITH(gen::dragonfly({4, 2, 2, 10, 0}),
                      "dragonfly: the group count must be in 1..9 (a*h+1), got 10");
}

TEST_CASE("Slim Fly: 2q^2 switches, (3q - delta)/2-regular, diameter 2") {
    for (int q : {3, 4, 5, 7, 8, 11, 13, 16}) {
        CAPTURE(q);
        const gen::Adjacency adj = gen::mms_graph(q);
        CHECK(adj.size() == std::size_t(2) * q * q);
        const int delta = q % 4 == 1 ? 1 : q % 4 == 3 ? -1 : 0;
        for (const auto& nb : adj) REQUIRE(int(nb.size()) == (3 * q - delta) / 2);
        CHECK(gen::graph_diameter(adj) == 2);
    }
    const Fabric f = gen::slimfly({5, -1, 1, 0});
    CHECK(f.switches().size() == 50);
    CHECK(f.cas().size() == 50 * 4); // ceil(7 / 2) CAs per switch
    CHECK(isl_count(f) == 50 * 7 / 2);
    CHECK(gen::graph_diameter(switch_graph(f)) == 2);
    const Fabric two = gen::slimfly({4, 1, 2, 0});
    CHECK(isl_count(two) == 32 * 6); // 32 * 6 / 2 pairs, 2 cables each
    CHECK(two.node(two.switches()[0]).num_ports == 13);
    CHECK_THROWS_WITH(gen::mms_graph(9),
                      "slimfly: q must be a prime >= 3 or a power of two in 4..128, got 9");
    CHECK_THROWS_WITH(gen::mms_graph(6),
                      "slimfly: q = 4w + delta needs delta in {-1, 0, 1}, got q = 6");
    CHECK_THROWS_WITH(gen::mms_graph(2), "slimfly: q must be in 3..169, got 2");
}

namespace {
std::string text_of(const Fabric& f) {
    std::ostringstream s;
    write_ibnetdiscover(s, f);
    return s.str();
}
} // namespace

TEST_CASE("random irregular fabric: connected, exact edge count, deterministic per seed") {
    const Fabric f = gen::random_fabric({16, 8, 64, 1, 0});
    CHECK(f.switches().size() == 16);
    CHECK(f.cas().size() == 64);
    CHECK(isl_count(f) == 64);
    CHECK(connected_components(f).count == 1);
    CHECK(cables_consistent(f));
    const std::string a = text_of(f);
    CHECK(text_of(gen::random_fabric({16, 8, 64, 1, 0})) == a);
    CHECK(text_of(gen::random_fabric({16, 8, 64, 2, 0})) != a);
    // A radix cap is respected and machines still fit.
    const Fabric capped = gen::random_fabric({16, 8, 64, 5, 14});
    for (NodeId s : capped.switches()) {
        int used = 0;
        for (PortNum p = 1; p <= capped.node(s).num_ports; ++p)
            used += capped.port(s, p).connected();
        CHECK(capped.node(s).num_ports == 14);
        CHECK(used <= 14);
    }
    CHECK(capped.cas().size() == 64);
    // Dense case: the complete graph.
    CHECK(isl_count(gen::random_fabric({6, 5, 0, 3, 0})) == 15);
    CHECK_THROWS_WITH(gen::random_fabric({16, 1, 4, 1, 0}),
                      Catch::Contains("is too low to connect 16 switches"));
}

namespace {
// Mean hop distance over ordered switch pairs.
double mean_switch_distance(const Fabric& f) {
    std::vector<std::uint32_t> dist;
    std::vector<NodeId> queue;
    double sum = 0, n = 0;
    for (NodeId s : f.switches()) {
        graph::switch_distances(f, s, dist, queue);
        for (NodeId t : f.switches())
            if (t != s) sum += dist[t], ++n;
    }
    return sum / n;
}
} // namespace

TEST_CASE("random irregular fabric, Waxman model: connected, exact edge count, local edges") {
    gen::RandomParams rp{64, 8, 128, 1, 0};
    rp.model = gen::RandomParams::Model::Waxman;
    rp.waxman_beta = 0.1;
    const Fabric f = gen::random_fabric(rp);
    CHECK(f.switches().size() == 64);
    CHECK(f.cas().size() == 128);
    CHECK(isl_count(f) == 256);
    CHECK(connected_components(f).count == 1);
    CHECK(cables_consistent(f));
    const std::string a = text_of(f);
    CHECK(text_of(gen::random_fabric(rp)) == a);
    CHECK(text_of(gen::random_fabric({64, 8, 128, 1, 0})) != a);
    // Short edges preferred: with strong locality (beta 0.05) paths are longer than on uniform
    // random graphs (beta = infinity) of the same size, over a few seeds (about 2.8 against
    // 2.2 hops; at degree 8, beta 0.1 gives only 2.4).
    double local = 0, uniform = 0;
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        rp.seed = seed;
        rp.waxman_beta = 0.05;
        local += mean_switch_distance(gen::random_fabric(rp));
        rp.waxman_beta = std::numeric_limits<double>::infinity();
        const Fabric u = gen::random_fabric(rp);
        CHECK(isl_count(u) == 256);
        CHECK(connected_components(u).count == 1);
        uniform += mean_switch_distance(u);
    }
    CHECK(local > 1.15 * uniform);
}
