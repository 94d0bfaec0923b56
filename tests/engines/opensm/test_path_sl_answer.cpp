// The plugin's path_sl answer: per (SLID's port, DLID), opensm's hint when no SLs are set.
#include "engines/opensm/path_sl_answer.hpp"

#include <catch2/catch.hpp>

using namespace ibrt;

TEST_CASE("path_sl answers per source port, not per destination only") {
    FabricBuilder b;
    const NodeId s = b.add_node(NodeType::Switch, 3, 0x10, "sw");
    const NodeId h0 = b.add_node(NodeType::CA, 1, 0x20, "h0");
    const NodeId h1 = b.add_node(NodeType::CA, 1, 0x30, "h1");
    b.connect(s, 1, h0, 1);
    b.connect(s, 2, h1, 1);
    const Fabric f = std::move(b).build();
    Routing r;
    r.lids = Lids(f);
    r.lids.assign(f.port_id(s, 0), 1, 0);
    r.lids.assign(f.port_id(h0, 1), 2, 0);
    r.lids.assign(f.port_id(h1, 1), 3, 0);
    CHECK(osm::answer_path_sl(r, 7, 2, 3) == 7); // no SLs set: opensm's QoS SL stands

    PathSlTable t(f.num_port_slots(), 3);
    t.set_row(f.port_id(h0, 1), std::vector<std::uint8_t>{0, 4, 4, 4});
    t.set_row(f.port_id(h1, 1), std::vector<std::uint8_t>{0, 5, 5, 5});
    r.path_sls = t;
    CHECK(osm::answer_path_sl(r, 7, 2, 3) == 4);  // from h0 (SLID 2)
    CHECK(osm::answer_path_sl(r, 7, 3, 2) == 5);  // from h1 (SLID 3), same switch, other SL
    CHECK(osm::answer_path_sl(r, 7, 1, 2) == 0);  // the switch: default row
    CHECK(osm::answer_path_sl(r, 7, 40, 2) == 0); // unknown SLID: default row
}
