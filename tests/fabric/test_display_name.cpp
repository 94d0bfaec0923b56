// display_name / display_port: kind, description and GUID, control bytes escaped; the one
// way nodes are named for a person (errors, check reports, diff, engine declines).
#include "fabric/display_name.hpp"
#include "fabric/input_error.hpp"

#include <catch2/catch.hpp>

using namespace ibrt;

TEST_CASE("display names: kind, description, GUID, control bytes escaped") {
    FabricBuilder b;
    const NodeId sw = b.add_node(NodeType::Switch, 4, 0x0002c90300001234, "leaf-3");
    const NodeId ca = b.add_node(NodeType::CA, 1, 0x10, "");
    const NodeId rt = b.add_node(NodeType::Router, 1, 0x11, "gw\x1b[31m");
    const Fabric f = std::move(b).build();
    CHECK(display_name(f, sw) == "switch 'leaf-3' (GUID 0x0002c90300001234)");
    CHECK(display_name(f, ca) == "CA 0x0000000000000010");
    CHECK(display_name(f, rt) == "router 'gw\\x1b[31m' (GUID 0x0000000000000011)");
    CHECK(display_port(f, sw, 7) == "switch 'leaf-3' (GUID 0x0002c90300001234) port 7");
    CHECK(display_name(f.node(sw)) == display_name(f, sw));
    CHECK(guid_hex(0x10) == "0x0000000000000010");
}

TEST_CASE("FabricBuilder's errors name nodes by display name") {
    FabricBuilder b;
    const NodeId sw = b.add_node(NodeType::Switch, 2, 0x20, "sw");
    const NodeId h = b.add_node(NodeType::CA, 1, 0x10, "h");
    b.connect(sw, 3, h, 1, 4, LinkSpeed::SDR, {"t.net", 7});
    CHECK_THROWS_WITH(std::move(b).build(),
                      "t.net:7: port 3 does not exist on switch 'sw' (GUID 0x0000000000000020), "
                      "which has 2 ports");
}
