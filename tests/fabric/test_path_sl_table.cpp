// PathSlTable: SL per (source end port, DLID), with shared rows.
#include "fabric/path_sl_table.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace ibrt;

TEST_CASE("path SL table: empty means SL 0 for every path and costs nothing") {
    const PathSlTable t;
    CHECK(t.empty());
    CHECK(t.sl(0, 5) == 0);
    CHECK(t.sl(kNoPort, 5) == 0);
    CHECK(t.bytes() == 0);
    CHECK(PathSlTable::by_dlid({0, 0, 0}).empty()); // an all-zero rule is no rule
}

TEST_CASE("path SL table: a per-DLID rule is one row for every source") {
    const PathSlTable t = PathSlTable::by_dlid({0, 1, 2, 3});
    CHECK(t.num_rows() == 1);
    CHECK(t.sl(7, 2) == 2);
    CHECK(t.sl(kNoPort, 3) == 3);
    CHECK(t.sl(7, 4) == 0); // past the end
    CHECK(t.max_sl() == 3);
}

TEST_CASE("path SL table: rows per source port, equal rows stored once") {
    PathSlTable t(4, 5, std::vector<std::uint8_t>{0, 1, 1, 1, 1, 1});
    const std::vector<std::uint8_t> a{0, 2, 2, 0, 0, 0}, b{0, 3};
    t.set_row(1, a);
    t.set_row(2, a);
    t.set_row(3, b); // short rows are padded with SL 0
    CHECK(t.num_rows() == 3);
    CHECK(t.sl(0, 3) == 1); // default row
    CHECK(t.sl(kNoPort, 3) == 1);
    CHECK(t.sl(1, 2) == 2);
    CHECK(t.sl(2, 1) == 2);
    CHECK(t.sl(3, 1) == 3);
    CHECK(t.sl(3, 2) == 0);
    t.set_row(3, std::vector<std::uint8_t>{0, 1, 1, 1, 1, 1}); // back to the default's content
    CHECK(t.sl(3, 1) == 1);
    CHECK_THROWS(t.set_row(4, a));
    CHECK_THROWS(t.set_row(0, std::vector<std::uint8_t>(7, 0)));
}

TEST_CASE("path SL table: a switch row covers the switch and the end ports cabled to it") {
    FabricBuilder b;
    const NodeId s = b.add_node(NodeType::Switch, 3, 0x10, "sw");
    const NodeId h = b.add_node(NodeType::CA, 2, 0x20, "h");
    const NodeId g = b.add_node(NodeType::CA, 1, 0x30, "g");
    const NodeId t = b.add_node(NodeType::Switch, 1, 0x40, "other");
    b.connect(s, 1, h, 1);
    b.connect(s, 2, g, 1);
    b.connect(s, 3, t, 1);
    const Fabric f = std::move(b).build();
    PathSlTable p(f.num_port_slots(), 4);
    p.set_switch_row(f, s, std::vector<std::uint8_t>{0, 5, 5, 5, 5});
    CHECK(p.sl(f.port_id(s, 0), 2) == 5);
    CHECK(p.sl(f.port_id(h, 1), 2) == 5);
    CHECK(p.sl(f.port_id(g, 1), 2) == 5);
    CHECK(p.sl(f.port_id(h, 2), 2) == 0); // not cabled to the switch
    CHECK(p.sl(f.port_id(t, 0), 2) == 0); // another switch keeps the default row
    CHECK(p.row_of(f.port_id(h, 1)) == p.row_of(f.port_id(g, 1)));
}
