#include "fabric/fabric.hpp"
#include "fabric/input_error.hpp"
#include "fabric/lids.hpp"

#include <catch2/catch.hpp>

using namespace ibrt;

TEST_CASE("builder freezes nodes and cables into flat arrays") {
    FabricBuilder b;
    NodeId sw = b.add_node(NodeType::Switch, 4, 0x20, "sw");
    NodeId h1 = b.add_node(NodeType::CA, 1, 0x10, "h1");
    NodeId h2 = b.add_node(NodeType::CA, 2, 0x11, "h2");
    b.port(h1, 1).guid = 0x101;
    b.connect(sw, 1, h1, 1, 4, LinkSpeed::EDR);
    b.connect(sw, 3, h2, 2, 1, LinkSpeed::SDR);
    Fabric f = std::move(b).build();
    REQUIRE(f.num_nodes() == 3);
    REQUIRE(f.num_links() == 2);
    REQUIRE(f.switches().size() == 1);
    REQUIRE(f.cas().size() == 2);
    CHECK(f.port(sw, 1).peer_node == h1);
    CHECK(f.port(h1, 1).peer_port == 1);
    CHECK(f.port(h2, 2).peer_node == sw);
    CHECK(f.port(h2, 2).peer_port == 3);
    CHECK_FALSE(f.port(sw, 2).connected());
    CHECK(f.port(sw, 1).gbps() == Approx(4 * 25.78125 * 64 / 66));
    CHECK(f.port_node(f.port_id(h2, 2)) == h2);
    CHECK(f.port_num(f.port_id(h2, 2)) == 2);
    CHECK(*f.find_port_by_guid(0x101) == f.port_id(h1, 1));
    CHECK(*f.find_port_by_guid(0x20) == f.port_id(sw, 0));
    CHECK(*f.find_node_by_guid(0x11) == h2);
    CHECK(f.end_port_guid(f.port_id(sw, 0)) == 0x20);
}

TEST_CASE("builder rejects a cable listed on one end only") {
    FabricBuilder b;
    NodeId a = b.add_node(NodeType::Switch, 2, 1, "a");
    NodeId c = b.add_node(NodeType::Switch, 2, 2, "c");
    b.add_half_link(a, 1, c, 2, 4, LinkSpeed::SDR, {"net", 7});
    try {
        (void)std::move(b).build();
        FAIL("no error");
    } catch (const InputError& e) {
        CHECK(e.file() == "net");
        CHECK(e.line() == 7);
        CHECK_THAT(e.what(), Catch::Contains("does not name it back"));
    }
}

TEST_CASE("builder rejects double cabling, bad ports and duplicate GUIDs") {
    {
        FabricBuilder b;
        NodeId a = b.add_node(NodeType::Switch, 2, 1, "a");
        NodeId c = b.add_node(NodeType::Switch, 2, 2, "c");
        b.connect(a, 1, c, 1);
        b.connect(a, 1, c, 2);
        CHECK_THROWS_WITH(std::move(b).build(), Catch::Contains("cabled twice"));
    }
    {
        FabricBuilder b;
        NodeId a = b.add_node(NodeType::Switch, 2, 1, "a");
        NodeId c = b.add_node(NodeType::Switch, 2, 2, "c");
        b.connect(a, 3, c, 1);
        CHECK_THROWS_WITH(std::move(b).build(), Catch::Contains("port 3 does not exist"));
    }
    {
        FabricBuilder b;
        b.add_node(NodeType::Switch, 2, 1, "a");
        CHECK_THROWS_AS(b.add_node(NodeType::CA, 1, 1, "b", {"f", 3}), InputError);
    }
}

TEST_CASE("Lids maps every LID of an LMC range to its port") {
    FabricBuilder b;
    NodeId h = b.add_node(NodeType::CA, 1, 0x10, "h");
    NodeId s = b.add_node(NodeType::Switch, 2, 0x20, "s");
    b.connect(h, 1, s, 1);
    Fabric f = std::move(b).build();
    Lids lids(f);
    lids.assign(f.port_id(h, 1), 4, 2);
    lids.assign(f.port_id(s, 0), 1, 0);
    for (Lid l = 4; l < 8; ++l) CHECK(lids.owner(l) == f.port_id(h, 1));
    CHECK(lids.owner(8) == kNoPort);
    CHECK(lids.owner(1) == f.port_id(s, 0));
    CHECK(lids.aligned());
    CHECK_THROWS(lids.assign(f.port_id(s, 0), 5, 0));      // overlap
    CHECK_THROWS(lids.assign(f.port_id(s, 0), 0xbfff, 1)); // past 49151
    lids.assign(f.port_id(s, 0), 9, 0);
    CHECK(lids.owner(1) == kNoPort);
    Lids unaligned(f);
    unaligned.assign(f.port_id(h, 1), 49, 2); // paper 000's BaseLID(P(300))
    CHECK_FALSE(unaligned.aligned());
}

#include "graph/fabric_walks.hpp"

TEST_CASE("levels from CAs and components") {
    FabricBuilder b;
    NodeId h0 = b.add_node(NodeType::CA, 1, 1, "h0");
    NodeId l0 = b.add_node(NodeType::Switch, 4, 2, "l0");
    NodeId s0 = b.add_node(NodeType::Switch, 4, 3, "s0");
    NodeId island = b.add_node(NodeType::Switch, 4, 4, "island");
    b.connect(h0, 1, l0, 1);
    b.connect(l0, 2, s0, 1);
    Fabric f = std::move(b).build();
    auto lv = levels_from_cas(f);
    CHECK(lv[h0] == 0);
    CHECK(lv[l0] == 1);
    CHECK(lv[s0] == 2);
    CHECK(lv[island] == graph::kFar);
    auto c = connected_components(f);
    CHECK(c.count == 2);
    CHECK(c.of_node[s0] == c.of_node[h0]);
    CHECK(c.of_node[island] != c.of_node[h0]);
}
