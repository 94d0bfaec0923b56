// Every report names a node with fabric/display_name.hpp: check's links, traces and JSON, and
// an engine's decline name the same node the same way, with its GUID, so two HCAs that share
// a description stay apart and a control byte in a description is escaped everywhere.
#include "check/credit_loops.hpp"
#include "check/forwarding.hpp"
#include "check/report.hpp"
#include "engines/engine.hpp"
#include "fabric/display_name.hpp"
#include "fixtures.hpp"

#include <catch2/catch.hpp>

using namespace ibrt;
using namespace ibrt::check;
using namespace ibrt::test;

TEST_CASE("check's links, traces and JSON use the display name") {
    // Two CAs with one description (with a control byte) on switch sw; sw sends c's LID out
    // of its uncabled port 4.
    FabricBuilder b;
    const NodeId sw = b.add_node(NodeType::Switch, 4, 0x20, "sw");
    const NodeId a = b.add_node(NodeType::CA, 1, 0x10, "dup\x07");
    const NodeId c = b.add_node(NodeType::CA, 1, 0x11, "dup\x07");
    b.connect(sw, 1, a, 1);
    b.connect(sw, 2, c, 1);
    const Fabric f = std::move(b).build();
    Routing r;
    r.lids = Lids(f);
    r.lids.assign(f.port_id(a, 1), 1, 0);
    r.lids.assign(f.port_id(c, 1), 2, 0);
    r.lids.assign(f.port_id(sw, 0), 3, 0);
    r.lft.assign(f.num_nodes(), {});
    r.lft[sw] = {kNoPath, 1, 4, 0};

    const std::string name_a = display_name(f, a);
    REQUIRE(name_a == "CA 'dup\\x07' (GUID 0x0000000000000010)");
    CHECK(name_a != display_name(f, c));
    CHECK(display_link(f, f.port_id(sw, 1)) ==
          display_port(f, sw, 1) + " -> " + display_port(f, a, 1));
    const Trace t = trace_walk(f, r, f.port_id(a, 1), 2);
    CHECK(format_trace(f, t) == name_a + ":1 -> " + display_name(f, sw) + ":1>4");

    const CheckReport rep = run_checks(f, r);
    const nlohmann::ordered_json j = to_json(f, rep);
    const auto& e = j["checks"]["reachability"]["examples"][0];
    CHECK(e["source"]["node"] == name_a);
    CHECK(e["source"]["guid"] == guid_hex(f.node(a).guid));
}

TEST_CASE("an engine's decline names nodes the way check does") {
    // A ring is not a fat tree: mlid declines and names a switch by its display name.
    const Routed x = clockwise_ring();
    try {
        (void)make_engine("mlid")->route(x.f, nullptr, {});
        FAIL("mlid routed a ring");
    } catch (const RoutingError& e) {
        const std::string what = e.what();
        bool named = false;
        for (NodeId s : x.f.switches())
            named |= what.find(display_name(x.f, s)) != std::string::npos;
        CHECK(named);
    }
}
