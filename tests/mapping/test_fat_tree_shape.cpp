// Fat-tree recognition (mapping/fat_tree_shape.hpp): levels, port grouping, source
// digits and tree order on the paper's FT(m,n), and the exact refusals of non-fat-trees.
#include "generators/fat_tree.hpp"
#include "generators/pgft.hpp"
#include "generators/torus.hpp"
#include "mapping/fat_tree_shape.hpp"

#include "tests/engines/direct_checks.hpp"
#include "tests/engines/lft_walk.hpp"

#include <set>

#include <catch2/catch.hpp>

using namespace ibrt;
using ibrt::fattree::recognize_fat_tree;

TEST_CASE("FT(4,3) is recognized with paper levels, port groups and PID order") {
    const Fabric f = gen::fat_tree(4, 3);
    const auto t = recognize_fat_tree(f);
    CHECK(t.height == 3);
    CHECK(t.leaves.size() == 8);
    CHECK(t.up_radix[1] == 2);
    CHECK(t.up_radix[2] == 2);
    CHECK(t.up_radix[3] == 0);
    // Paper level l is our level n - l: SW<00,0> is the top (3), SW<00,2> a leaf (1).
    CHECK(t.level[test::node_by_desc(f, "SW<00,0>")] == 3);
    CHECK(t.level[test::node_by_desc(f, "SW<31,1>")] == 2);
    CHECK(t.level[test::node_by_desc(f, "SW<31,2>")] == 1);
    // Paper ports m/2..m-1 (IB 3, 4) lead up, 0..m/2-1 (IB 1, 2) down.
    const NodeId mid = test::node_by_desc(f, "SW<20,1>");
    std::vector<PortNum> up(t.up_ports.begin() + t.up_begin[mid],
                            t.up_ports.begin() + t.up_begin[mid + 1]);
    std::vector<PortNum> down(t.down_ports.begin() + t.down_begin[mid],
                              t.down_ports.begin() + t.down_begin[mid + 1]);
    CHECK(up == std::vector<PortNum>{3, 4});
    CHECK(down == std::vector<PortNum>{1, 2});
    const NodeId top = test::node_by_desc(f, "SW<01,0>");
    CHECK(t.up_begin[top + 1] == t.up_begin[top]);
    CHECK(t.down_begin[top + 1] - t.down_begin[top] == 4);
    // Tree order is PID order: the generator adds P(p) in PID order as CA i.
    REQUIRE(t.num_end_ports() == 16);
    for (std::size_t i = 0; i < 16; ++i) CHECK(t.end_ports[i] == f.port_id(f.cas()[i], 1));
    // Digits of P(310): digit L = p_{n-L}.
    const std::size_t i310 = t.end_index[f.port_id(test::node_by_desc(f, "P(310)"), 1)];
    CHECK(i310 == 14);
    CHECK(t.digits[i310 * 3 + 0] == 0);
    CHECK(t.digits[i310 * 3 + 1] == 1);
    CHECK(t.digits[i310 * 3 + 2] == 3);
    // P(000) and P(011) meet at level 2 (SW<0x,1>), P(000) and P(300) at the top.
    const auto leaf_of = [&](const char* d) {
        return t.end_leaf[t.end_index[f.port_id(test::node_by_desc(f, d), 1)]];
    };
    CHECK(t.lca_level(leaf_of("P(000)"), leaf_of("P(001)")) == 1);
    CHECK(t.lca_level(leaf_of("P(000)"), leaf_of("P(011)")) == 2);
    CHECK(t.lca_level(leaf_of("P(000)"), leaf_of("P(300)")) == 3);
}

TEST_CASE("a parent that lost a child does not give two siblings one digit") {
    // FT(4,3) without SW<00,1> -- SW<00,2>: SW<00,1> has one child left, SW<01,2>, which it
    // numbers 0 like SW<01,1> numbers SW<00,2>. Digits are read at the parent with the most
    // children, so the 16 end ports keep 16 distinct digit strings (ranks, paths).
    const Fabric f = test::without(gen::fat_tree(4, 3), {"SW<00,2>[3]"}, {});
    const auto t = recognize_fat_tree(f);
    std::set<std::vector<std::uint32_t>> strings;
    for (std::size_t i = 0; i < t.num_end_ports(); ++i)
        strings.insert({t.digits.begin() + i * 3, t.digits.begin() + i * 3 + 3});
    CHECK(t.num_end_ports() == 16);
    CHECK(strings.size() == 16);
}

TEST_CASE("parallel cables form one group, up ports interleave over neighbours") {
    // 2-level Clos, radix 8, two parallel cables per leaf-spine pair: leaves have 4 down and
    // 4 up ports to 2 spines.
    const Fabric f = gen::clos({.radix = 8, .levels = 2, .parallel = 2});
    const auto t = recognize_fat_tree(f);
    REQUIRE(t.height == 2);
    const NodeId leaf = t.leaves[0];
    std::vector<PortNum> up(t.up_ports.begin() + t.up_begin[leaf],
                            t.up_ports.begin() + t.up_begin[leaf + 1]);
    REQUIRE(up.size() == 4);
    // Round robin: one cable to each spine before the second cable to any.
    CHECK(f.port(leaf, up[0]).peer_node != f.port(leaf, up[1]).peer_node);
    CHECK(f.port(leaf, up[0]).peer_node == f.port(leaf, up[2]).peer_node);
    CHECK(f.port(leaf, up[1]).peer_node == f.port(leaf, up[3]).peer_node);
    CHECK(t.up_radix[1] == 4);
}

TEST_CASE("k-ary 3-tree: three levels, k up ports below the top") {
    const Fabric f = gen::kary_ntree(3, 3);
    const auto t = recognize_fat_tree(f);
    CHECK(t.height == 3);
    CHECK(t.leaves.size() == 9);
    CHECK(t.up_radix[1] == 3);
    CHECK(t.up_radix[2] == 3);
    CHECK(t.num_end_ports() == 27);
}

namespace {
Fabric tiny(const std::function<void(FabricBuilder&)>& fill) {
    FabricBuilder b;
    fill(b);
    return std::move(b).build();
}
std::string refusal(const Fabric& f) {
    try {
        recognize_fat_tree(f);
    } catch (const fattree::NotAFatTree& e) {
        return e.what();
    }
    return "accepted";
}
} // namespace

TEST_CASE("a torus is refused: cables within a level") {
    const Fabric f = gen::torus({.k = {3, 3}});
    const std::string why = refusal(f);
    CHECK(why.rfind("not a fat tree: switch '", 0) == 0);
    CHECK(why.find("are both on level 1 (a cable within a level, or CAs attached above the "
                   "leaf level)") != std::string::npos);
}

TEST_CASE("CAs above the leaf level are refused naming both switches") {
    const Fabric f = tiny([](FabricBuilder& b) {
        NodeId leaf = b.add_node(NodeType::Switch, 4, 0x100, "leaf");
        NodeId spine = b.add_node(NodeType::Switch, 4, 0x200, "spine");
        NodeId a = b.add_node(NodeType::CA, 1, 0x300, "a");
        NodeId c = b.add_node(NodeType::CA, 1, 0x400, "c");
        b.connect(leaf, 1, a, 1);
        b.connect(leaf, 3, spine, 1);
        b.connect(spine, 2, c, 1);
    });
    CHECK(refusal(f) == "not a fat tree: switch 'leaf' (GUID 0x0000000000000100) port 3 and "
                        "switch 'spine' (GUID 0x0000000000000200) port 1 are both on level 1 "
                        "(a cable within a level, or CAs attached above the leaf level)");
}

TEST_CASE("disconnected fabrics, CA-to-CA cables and switchless fabrics are refused") {
    const Fabric two = tiny([](FabricBuilder& b) {
        NodeId s1 = b.add_node(NodeType::Switch, 4, 0x100, "s1");
        NodeId s2 = b.add_node(NodeType::Switch, 4, 0x200, "s2");
        NodeId a = b.add_node(NodeType::CA, 1, 0x300, "a");
        NodeId c = b.add_node(NodeType::CA, 1, 0x400, "c");
        b.connect(s1, 1, a, 1);
        b.connect(s2, 1, c, 1);
    });
    CHECK(refusal(two) == "not a fat tree: the fabric is disconnected (2 components); switch "
                          "'s2' (GUID 0x0000000000000200) is not connected to switch 's1' "
                          "(GUID 0x0000000000000100)");
    const Fabric cc = tiny([](FabricBuilder& b) {
        NodeId s1 = b.add_node(NodeType::Switch, 4, 0x100, "s1");
        NodeId a = b.add_node(NodeType::CA, 2, 0x300, "a");
        NodeId c = b.add_node(NodeType::CA, 2, 0x400, "c");
        b.connect(s1, 1, a, 1);
        b.connect(s1, 2, c, 1);
        b.connect(a, 2, c, 2);
    });
    CHECK(refusal(cc) == "not a fat tree: CA 'a' (GUID 0x0000000000000300) port 2 is cabled "
                         "directly to CA 'c' (GUID 0x0000000000000400) port 2");
    const Fabric none = tiny([](FabricBuilder& b) {
        NodeId a = b.add_node(NodeType::CA, 1, 0x300, "a");
        NodeId c = b.add_node(NodeType::CA, 1, 0x400, "c");
        b.connect(a, 1, c, 1);
    });
    CHECK(refusal(none) == "not a fat tree: the fabric has no switches");
}
