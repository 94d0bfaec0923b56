// FT(m,n) (paper 000 §3) and k-ary n-trees (paper 004 §2): counts, the paper's own cabling
// examples, and the structural rules checked on every cable.
#include "generators/fat_tree.hpp"
#include "generators/gen_builder.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <string>

using namespace ibrt;

namespace {

std::map<std::string, NodeId> by_desc(const Fabric& f) {
    std::map<std::string, NodeId> m;
    for (NodeId n = 0; n < f.num_nodes(); ++n) m.emplace(f.node(n).desc, n);
    return m;
}

// "peer desc[peer port]" of node `desc` port p.
std::string peer(const Fabric& f, const std::map<std::string, NodeId>& d, const std::string& desc,
                 int p) {
    const Port& port = f.port(d.at(desc), static_cast<PortNum>(p));
    if (!port.connected()) return "-";
    return f.node(port.peer_node).desc + "[" + std::to_string(port.peer_port) + "]";
}

std::uint64_t ipow(std::uint64_t b, int e) {
    std::uint64_t r = 1;
    while (e-- > 0) r *= b;
    return r;
}

} // namespace

TEST_CASE("FT(m,n) has 2(m/2)^n CAs, (2n-1)(m/2)^(n-1) switches, all switch ports cabled") {
    for (auto [m, n] : {std::pair{4, 3},
                        {4, 4},
                        {8, 3},
                        {16, 3},
                        {32, 2},
                        {36, 2},
                        {40, 2},
                        {6, 3},
                        {4, 1},
                        {2, 3},
                        {36, 3}}) {
        CAPTURE(m, n);
        const Fabric f = gen::fat_tree(m, n);
        const std::uint64_t h = m / 2;
        CHECK(f.cas().size() == 2 * ipow(h, n));
        CHECK(f.switches().size() == (2 * n - 1) * ipow(h, n - 1));
        // Every switch port is used: m * switches = 2 * ISLs + CAs.
        CHECK(f.num_links() == (f.switches().size() * m + f.cas().size()) / 2);
        for (NodeId s : f.switches()) {
            REQUIRE(f.node(s).num_ports == m);
            for (int p = 1; p <= m; ++p) REQUIRE(f.port(s, static_cast<PortNum>(p)).connected());
        }
    }
}

TEST_CASE("paper 000 Table 1 sizes") {
    CHECK(gen::fat_tree(4, 4).switches().size() == 56);
    CHECK(gen::fat_tree(4, 4).cas().size() == 32);
    CHECK(gen::fat_tree(8, 3).switches().size() == 80);
    CHECK(gen::fat_tree(8, 3).cas().size() == 128);
    CHECK(gen::fat_tree(16, 3).switches().size() == 320);
    CHECK(gen::fat_tree(16, 3).cas().size() == 1024);
    CHECK(gen::fat_tree(32, 2).switches().size() == 48);
    CHECK(gen::fat_tree(32, 2).cas().size() == 512);
}

TEST_CASE("FT(4,3) follows the paper's connection examples (paper port k = IB port k+1)") {
    const Fabric f = gen::fat_tree(4, 3);
    const auto d = by_desc(f);
    REQUIRE(f.num_nodes() == 36);
    // §3: SW<01,0>_1 <-> SW<10,1>_3.
    CHECK(peer(f, d, "SW<01,0>", 2) == "SW<10,1>[4]");
    CHECK(peer(f, d, "SW<10,1>", 4) == "SW<01,0>[2]");
    // §3: leaf port 1 holds P(211); by the rule (w = p0p1 = 21) that leaf is SW<21,2>.
    CHECK(peer(f, d, "SW<21,2>", 2) == "P(211)[1]");
    CHECK(peer(f, d, "SW<20,2>", 2) == "P(201)[1]");
    CHECK(peer(f, d, "P(211)", 1) == "SW<21,2>[2]");
    // §4.3 path Q from P(000) to P(300): SW<00,2> 1->3, SW<00,1> 1->3, SW<00,0> 1->4,
    // SW<30,1> 3->1, SW<30,2> 3->1.
    CHECK(peer(f, d, "P(000)", 1) == "SW<00,2>[1]");
    CHECK(peer(f, d, "SW<00,2>", 3) == "SW<00,1>[1]");
    CHECK(peer(f, d, "SW<00,1>", 3) == "SW<00,0>[1]");
    CHECK(peer(f, d, "SW<00,0>", 4) == "SW<30,1>[3]");
    CHECK(peer(f, d, "SW<30,1>", 1) == "SW<30,2>[3]");
    CHECK(peer(f, d, "SW<30,2>", 1) == "P(300)[1]");
    // The root level has 4 switches SW<00,0>..SW<11,0>, levels 1 and 2 have 8 each.
    for (const char* s : {"SW<00,0>", "SW<01,0>", "SW<10,0>", "SW<11,0>", "SW<31,1>", "SW<31,2>"})
        CHECK(d.count(s) == 1);
    CHECK(d.count("SW<20,0>") == 0);
}

TEST_CASE("FT(m,n) cabling obeys the paper's rule on every cable") {
    for (auto [m, n] : {std::pair{4, 3}, {6, 3}, {8, 2}, {4, 4}}) {
        CAPTURE(m, n);
        const Fabric f = gen::fat_tree(m, n);
        const int h = m / 2;
        // Parse SW<w,l> back into digits (all single digits for these sizes).
        auto parse = [](const std::string& s, std::string& w, int& l) {
            const auto comma = s.find(',');
            w = s.substr(3, comma - 3);
            l = std::stoi(s.substr(comma + 1));
        };
        for (NodeId s : f.switches()) {
            std::string w;
            int l;
            parse(f.node(s).desc, w, l);
            for (int k = 0; k < m; ++k) {
                const Port& port = f.port(s, static_cast<PortNum>(k + 1));
                const Node& peer_node = f.node(port.peer_node);
                if (!peer_node.is_switch()) {
                    REQUIRE(l == n - 1);
                    // P(p) with p0..p_{n-2} = w and p_{n-1} = k.
                    CHECK(peer_node.desc == "P(" + w + std::to_string(k) + ")");
                    continue;
                }
                std::string w2;
                int l2;
                parse(peer_node.desc, w2, l2);
                const int k2 = port.peer_port - 1;
                if (l2 == l + 1) { // down link: k = w2_l, k2 = w_{n-2} + m/2
                    CHECK(k == w2[l] - '0');
                    CHECK(k2 == (w[n - 2] - '0') + h);
                    CHECK(w.substr(0, n - 2) == w2.substr(0, l) + w2.substr(l + 1));
                } else {
                    REQUIRE(l2 == l - 1);
                    CHECK(k2 == w[l2] - '0');
                    CHECK(k == (w2[n - 2] - '0') + h);
                }
            }
        }
    }
}

TEST_CASE("FT node order: CA NodeId = PID, switches by level") {
    const Fabric f = gen::fat_tree(4, 3);
    CHECK(f.node(0).desc == "P(000)");
    CHECK(f.node(12).desc == "P(300)");
    CHECK(f.node(15).desc == "P(311)");
    CHECK(f.node(16).desc == "SW<00,0>");
    CHECK(f.node(20).desc == "SW<00,1>");
    CHECK(f.node(35).desc == "SW<31,2>");
}

TEST_CASE("FT labels use '.' once m > 10 (p0 and w0 range over 0..m-1)") {
    const Fabric f = gen::fat_tree(24, 2);
    const auto d = by_desc(f);
    CHECK(d.count("P(23.11)") == 1);
    CHECK(d.count("SW<23,1>") == 1);
    CHECK(peer(f, d, "P(23.11)", 1) == "SW<23,1>[12]");
    // FT(16,3): p0 and w0 reach 15, so every label is dotted, none concatenated.
    const Fabric g = gen::fat_tree(16, 3);
    const auto dg = by_desc(g);
    CHECK(dg.count("P(15.0.0)") == 1);
    CHECK(dg.count("P(1.5.0)") == 1);
    CHECK(dg.count("P(150)") == 0);
    CHECK(dg.count("P(1500)") == 0);
    CHECK(peer(g, dg, "P(15.7.7)", 1) == "SW<15.7,2>[8]");
    CHECK(dg.count("SW<7.7,0>") == 1);
    CHECK(dg.count("SW<15.7,1>") == 1);
    CHECK(dg.size() == 1024 + 320); // labels are unique
    // m = 12 is the smallest dotted radix; m = 10 (digits up to 9) still concatenates.
    CHECK(by_desc(gen::fat_tree(12, 2)).count("P(11.5)") == 1);
    const auto d10 = by_desc(gen::fat_tree(10, 2));
    CHECK(d10.count("P(94)") == 1);
    CHECK(d10.count("SW<9,1>") == 1);
}

TEST_CASE("FT(m,1) is one switch holding m CAs") {
    const Fabric f = gen::fat_tree(6, 1);
    REQUIRE(f.switches().size() == 1);
    REQUIRE(f.cas().size() == 6);
    const auto d = by_desc(f);
    CHECK(peer(f, d, "SW<,0>", 6) == "P(5)[1]");
}

TEST_CASE("FT rejects bad parameters") {
    CHECK_THROWS_WITH(gen::fat_tree(5, 2),
                      "fat-tree: the port count m must be even and in 2..254, got 5");
    CHECK_THROWS_WITH(gen::fat_tree(4, 0), "fat-tree: the level count n must be in 1..16, got 0");
    CHECK_THROWS_WITH(gen::fat_tree(36, 6), "fat-tree: FT(36,6) is too large to generate");
}

TEST_CASE("k-ary n-tree has k^n nodes, n k^(n-1) switches, paper 004 Fig. 1 cabling") {
    for (auto [k, n] : {std::pair{2, 3}, {4, 3}, {3, 2}, {8, 2}, {2, 1}}) {
        CAPTURE(k, n);
        const Fabric f = gen::kary_ntree(k, n);
        CHECK(f.cas().size() == ipow(k, n));
        CHECK(f.switches().size() == n * ipow(k, n - 1));
        // k^n node links + k^n links between each pair of adjacent stages.
        CHECK(f.num_links() == ipow(k, n) * n);
    }
    // 2-ary 3-tree: node 0 (P(000)) to node 2 (P(010)) goes up from <0,00> to <1,00> or <1,01>,
    // then down link p'_1 = 1 and p'_0 = 0.
    const Fabric f = gen::kary_ntree(2, 3);
    REQUIRE(f.switches().size() == 12);
    const auto d = by_desc(f);
    CHECK(peer(f, d, "P(000)", 1) == "SW<0,00>[1]");
    CHECK(peer(f, d, "P(010)", 1) == "SW<0,01>[1]");
    CHECK(peer(f, d, "SW<0,00>", 3) == "SW<1,00>[1]"); // up link k + o'_0 = 2 -> IB 3
    CHECK(peer(f, d, "SW<0,00>", 4) == "SW<1,01>[1]");
    CHECK(peer(f, d, "SW<1,00>", 2) == "SW<0,01>[3]");
    CHECK(peer(f, d, "SW<1,01>", 2) == "SW<0,01>[4]");
    CHECK(peer(f, d, "SW<1,00>", 3) == "SW<2,00>[1]"); // stage 1 varies digit o_1
    CHECK(peer(f, d, "SW<1,00>", 4) == "SW<2,10>[1]");
    CHECK(peer(f, d, "SW<2,10>", 3) == "-"); // top-stage up links stay free
}
