// compute_fabric_stats on builder-made fabrics: every number of `ibrt info` checked exactly.
#include "graph/fabric_stats.hpp"

#include <catch2/catch.hpp>

using namespace ibrt;

namespace {

using Counts = std::vector<std::pair<unsigned, std::size_t>>;
Counts as_pairs(const std::vector<FabricStats::Count>& v) {
    Counts out;
    for (const auto& c : v) out.emplace_back(c.value, c.count);
    return out;
}

// Two leaves under one spine (one pair of parallel cables), a dual-port CA on both leaves, a
// router, a CA without a LID; plus islands no CA reaches (two cabled switches), a back-to-back
// CA pair and an uncabled CA.
Fabric mixed_fabric() {
    FabricBuilder b;
    const NodeId leaf0 = b.add_node(NodeType::Switch, 8, 0x20, "leaf0");
    const NodeId leaf1 = b.add_node(NodeType::Switch, 8, 0x21, "leaf1");
    const NodeId spine = b.add_node(NodeType::Switch, 4, 0x22, "spine");
    const NodeId h0 = b.add_node(NodeType::CA, 1, 0x10, "h0");
    const NodeId h1 = b.add_node(NodeType::CA, 2, 0x11, "h1");
    const NodeId h2 = b.add_node(NodeType::CA, 1, 0x12, "h2");
    const NodeId r0 = b.add_node(NodeType::Router, 1, 0x30, "r0");
    const NodeId lonely = b.add_node(NodeType::Switch, 4, 0x23, "lonely");
    const NodeId lonely2 = b.add_node(NodeType::Switch, 4, 0x24, "lonely2");
    const NodeId ca_a = b.add_node(NodeType::CA, 1, 0x13, "ca-a");
    const NodeId ca_b = b.add_node(NodeType::CA, 1, 0x14, "ca-b");
    (void)b.add_node(NodeType::CA, 1, 0x15, "idle");

    b.port(leaf0, 0).base_lid = 1;
    b.port(leaf1, 0).base_lid = 2;
    b.port(spine, 0).base_lid = 3;
    b.port(h0, 1).base_lid = 4;
    b.port(h0, 1).lmc = 1;
    b.port(h1, 1).base_lid = 6;
    b.port(h1, 1).lmc = 1;
    b.port(h1, 2).base_lid = 8;
    b.port(h1, 2).lmc = 1;
    b.port(r0, 1).base_lid = 10;

    b.connect(leaf0, 1, h0, 1, 4, LinkSpeed::EDR);
    b.connect(leaf0, 2, h1, 1, 4, LinkSpeed::EDR);
    b.connect(leaf1, 1, h1, 2, 1, LinkSpeed::SDR);
    b.connect(leaf1, 2, h2, 1, 4, LinkSpeed::EDR);
    b.connect(leaf1, 3, r0, 1, 4, LinkSpeed::EDR);
    b.connect(leaf0, 5, spine, 1, 4, LinkSpeed::HDR);
    b.connect(leaf0, 6, spine, 2, 4, LinkSpeed::HDR);
    b.connect(leaf1, 5, spine, 3, 4, LinkSpeed::HDR);
    b.connect(lonely, 1, lonely2, 1, 12, LinkSpeed::QDR);
    b.connect(ca_a, 1, ca_b, 1, 4, LinkSpeed::EDR);
    return std::move(b).build();
}

} // namespace

TEST_CASE("fabric stats count nodes, cables by kind, radix and used ports") {
    const Fabric f = mixed_fabric();
    const FabricStats s = compute_fabric_stats(f);
    CHECK(s.switches == 5);
    CHECK(s.cas == 6);
    CHECK(s.routers == 1);
    CHECK(s.links == 10);
    CHECK(s.links == f.num_links());
    CHECK(s.switch_links == 4);
    CHECK(s.end_links == 5);
    CHECK(s.end_to_end_links == 1);
    CHECK(s.unconnected_end_nodes == 1);
    CHECK(as_pairs(s.radix) == Counts{{4, 3}, {8, 2}});
    CHECK(as_pairs(s.used_ports) == Counts{{1, 2}, {3, 1}, {4, 2}});
}

TEST_CASE("fabric stats give the width/speed mix in ascending width then speed") {
    const FabricStats s = compute_fabric_stats(mixed_fabric());
    REQUIRE(s.link_kinds.size() == 4);
    CHECK(s.link_kinds[0].name() == "1xSDR");
    CHECK(s.link_kinds[0].count == 1);
    CHECK(s.link_kinds[1].name() == "4xEDR");
    CHECK(s.link_kinds[1].count == 5);
    CHECK(s.link_kinds[2].name() == "4xHDR");
    CHECK(s.link_kinds[2].count == 3);
    CHECK(s.link_kinds[3].name() == "12xQDR");
    CHECK(s.link_kinds[3].count == 1);
    CHECK(FabricStats::LinkKind{0, LinkSpeed::Unknown, 1}.name() == "?x??");
}

TEST_CASE("fabric stats cover LIDs and LMC of end ports only") {
    const FabricStats s = compute_fabric_stats(mixed_fabric());
    CHECK(s.end_ports == 12); // 5 switch port 0s + 7 cabled CA/router ports (not idle's)
    CHECK(s.end_ports_with_lid == 7);
    CHECK(as_pairs(s.lmc) == Counts{{0, 4}, {1, 3}});
    CHECK(s.max_lid == 10);
}

TEST_CASE("fabric stats give components largest first and switch levels from the CAs") {
    const FabricStats s = compute_fabric_stats(mixed_fabric());
    CHECK(s.component_sizes == std::vector<std::size_t>{7, 2, 2, 1});
    CHECK(s.switches_by_level == std::vector<std::size_t>{0, 2, 1});
    CHECK(s.unreached_switches == 2);
}

TEST_CASE("fabric stats: the top of an LMC range counts toward max_lid") {
    FabricBuilder b;
    const NodeId sw = b.add_node(NodeType::Switch, 2, 0x20, "sw");
    const NodeId h = b.add_node(NodeType::CA, 1, 0x10, "h");
    b.port(h, 1).base_lid = 0xbf80;
    b.port(h, 1).lmc = 7;
    b.port(sw, 0).base_lid = 0x0100;
    b.connect(sw, 1, h, 1, 4, LinkSpeed::NDR);
    const FabricStats s = compute_fabric_stats(std::move(b).build());
    CHECK(s.max_lid == 0xbfff);
    CHECK(as_pairs(s.lmc) == Counts{{0, 1}, {7, 1}});
    CHECK(s.switches_by_level == std::vector<std::size_t>{0, 1});
    CHECK(as_pairs(s.used_ports) == Counts{{1, 1}});
}

TEST_CASE("fabric stats of an empty fabric are all zero") {
    const FabricStats s = compute_fabric_stats(FabricBuilder{}.build());
    CHECK(s.switches + s.cas + s.routers + s.links + s.end_ports == 0);
    CHECK(s.max_lid == 0);
    CHECK(s.radix.empty());
    CHECK(s.link_kinds.empty());
    CHECK(s.component_sizes.empty());
    CHECK(s.switches_by_level.empty());
}
