// PGFT/XGFT and deployed Clos shapes (generators/pgft.hpp).
#include "gen_test_util.hpp"
#include "generators/gen_builder.hpp"
#include "generators/pgft.hpp"

#include <catch2/catch.hpp>

using namespace ibrt;
using namespace ibrt::gentest;

TEST_CASE("2-level 36-port Clos: 648 CAs, 36 leaves, 18 spines") {
    const Fabric f = gen::clos({36, 2, 1, 1, 1});
    CHECK(f.cas().size() == 648);
    CHECK(f.switches().size() == 54);
    CHECK(isl_count(f) == 36 * 18);
    CHECK(f.num_links() == 648 + 36 * 18);
    const auto d = by_desc(f);
    CHECK(peer(f, d, "host-l35-17", 1) == "leaf-35[18]");
    CHECK(peer(f, d, "leaf-35", 19) == "spine-0[36]");
    CHECK(peer(f, d, "leaf-0", 36) == "spine-17[1]");
    for (NodeId s : f.switches()) CHECK(f.node(s).num_ports == 36);
}

TEST_CASE("3-level 36-port Clos: 11,664 CAs and 1,620 switches") {
    const Fabric f = gen::clos({36, 3, 1, 1, 1});
    CHECK(f.cas().size() == 11664);
    CHECK(f.switches().size() == 1620);
    CHECK(isl_count(f) == 648 * 18 * 2);
    const auto d = by_desc(f);
    // Pod 35's last edge switch, its last host; its uplink 18 goes to the pod's last agg.
    CHECK(peer(f, d, "host-p35-e17-17", 1) == "edge-p35-17[18]");
    CHECK(peer(f, d, "edge-p35-17", 36) == "agg-p35-17[18]");
    CHECK(peer(f, d, "agg-p35-17", 36) == "core-323[36]");
    CHECK(d.count("core-323") == 1);
    CHECK(d.count("core-324") == 0);
}

TEST_CASE("Clos oversubscription and parallel cables") {
    // 2:1 leaves: 24 down, 12 up -> 36 leaves, 12 spines, 864 CAs.
    const Fabric b = gen::clos({36, 2, 2, 1, 1});
    CHECK(b.cas().size() == 864);
    CHECK(b.switches().size() == 48);
    CHECK(isl_count(b) == 36 * 12);
    // Two cables per leaf-spine pair: 18 leaves, 9 spines, 324 CAs.
    const Fabric p = gen::clos({36, 2, 1, 1, 2});
    CHECK(p.cas().size() == 324);
    CHECK(p.switches().size() == 27);
    CHECK(isl_count(p) == 18 * 9 * 2);
    const auto d = by_desc(p);
    CHECK(peer(p, d, "leaf-0", 19) == "spine-0[1]");
    CHECK(peer(p, d, "leaf-0", 20) == "spine-0[2]");
    CHECK(peer(p, d, "leaf-1", 19) == "spine-0[3]");
    // 3 levels with 2 parallel cables: PGFT(3; 18, 9, 18; 1, 9, 9; 1, 2, 2).
    const gen::PgftParams q = gen::clos_as_pgft({36, 3, 1, 1, 2});
    CHECK(q.m == std::vector<int>{18, 9, 18});
    CHECK(q.w == std::vector<int>{1, 9, 9});
    CHECK(q.p == std::vector<int>{1, 2, 2});
    CHECK(gen::clos({36, 3, 1, 1, 2}).cas().size() == 18 * 9 * 18);
}

TEST_CASE("Clos rejects impossible shapes") {
    CHECK_THROWS_WITH(gen::clos({36, 2, 4, 1, 1}),
                      "clos: a radix-36 leaf cannot split its ports 4:1");
    CHECK_THROWS_WITH(gen::clos({36, 4, 1, 1, 1}), "clos: --levels must be 2 or 3, got 4");
    CHECK_THROWS_WITH(gen::clos({36, 2, 1, 1, 5}),
                      "clos: --parallel 5 must divide the radix and the leaf up ports (18)");
}

TEST_CASE("PGFT counts follow prod m_i (i>l) * prod w_i (i<=l)") {
    gen::PgftParams p;
    p.m = {4, 3, 2};
    p.w = {1, 2, 3};
    p.p = {1, 1, 2};
    const Fabric f = gen::pgft(p);
    CHECK(f.cas().size() == 24);             // 4*3*2
    CHECK(f.switches().size() == 6 + 4 + 6); // 3*2*1, 2*1*2, 1*2*3
    // Level 1 -> 2: 6 nodes x w2=2 parents x p2=1; level 2 -> 3: 4 nodes x 3 x 2 cables.
    CHECK(isl_count(f) == 6 * 2 + 4 * 3 * 2);
    // Radix: level 2 needs m2 p2 + w3 p3 = 3 + 6 = 9.
    for (NodeId s : f.switches()) CHECK(f.node(s).num_ports == 9);
}

TEST_CASE("PGFT(2, 4,4, 1,2, 1,2) cabling and labels") {
    gen::PgftParams p;
    p.m = {2, 4};
    p.w = {1, 2};
    p.p = {1, 2};
    const Fabric f = gen::pgft(p);
    REQUIRE(f.cas().size() == 8);
    REQUIRE(f.switches().size() == 6);
    const auto d = by_desc(f);
    CHECK(peer(f, d, "H(31)", 1) == "L1(3|0)[2]");
    CHECK(peer(f, d, "L1(3|0)", 3) == "L2(|00)[7]");
    CHECK(peer(f, d, "L1(3|0)", 4) == "L2(|00)[8]");
    CHECK(peer(f, d, "L1(3|0)", 5) == "L2(|10)[7]");
    CHECK(peer(f, d, "L1(3|0)", 6) == "L2(|10)[8]");
    CHECK(peer(f, d, "L2(|10)", 1) == "L1(0|0)[5]");
    CHECK_THROWS_WITH(gen::pgft({{2, 4}, {1}, {1, 1}, 0}),
                      "pgft: m, w and p need one value per level (2)");
    CHECK_THROWS_WITH(gen::pgft({{2, 4}, {1, 2}, {1, 2}, 6}),
                      "pgft: the switches need 8 ports, but the radix is 6");
}
