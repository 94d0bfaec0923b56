// guid2lid (formats/guid2lid.hpp): opensm-written files from test-fabrics/tables/, the
// byte-exact writer, round trips, and every way opensm would misread a file reported with
// file:line (above all the missing blank lines between records).
#include "fabric/input_error.hpp"
#include "formats/guid2lid.hpp"
#include "tables_fixture.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace ibrt;
using ibrt::test::read_text;
using ibrt::test::sample_fabric;
using ibrt::test::tables_dir;

namespace {

std::vector<Guid2LidEntry> parse(std::string_view text) {
    return read_guid2lid_text(text, "g");
}

PortId ca_port(const Fabric& f, const char* id, PortNum p = 1) {
    return f.port_id(*f.find_node_by_id(id), p);
}

} // namespace

TEST_CASE("guid2lid written by opensm reads and binds exactly", "[guid2lid]") {
    const auto e = read_guid2lid_file(tables_dir() + "ft-lmc1.guid2lid");
    REQUIRE(e.size() == 8);
    CHECK(e[0].guid == 0x0010000000000101);
    CHECK(e[0].min == 2);
    CHECK(e[0].max == 3);
    CHECK(e[0].line == 1);
    CHECK(e[1].line == 3);
    CHECK(e[7].guid == 0x0010000000000301);
    CHECK(e[7].min == 0xa);
    CHECK(e[7].max == 0xb);

    const Fabric f = sample_fabric(false);
    const Lids lids = bind_guid2lid(e, f, "g");
    CHECK(lids.base(ca_port(f, "host-l0-0")) == 2);
    CHECK(lids.lmc(ca_port(f, "host-l0-0")) == 1);
    CHECK(lids.owner(3) == ca_port(f, "host-l0-0"));
    CHECK(lids.base(ca_port(f, "host-l1-1")) == 12);
    CHECK(lids.base(ca_port(f, "leaf-0", 0)) == 4);
    CHECK(lids.lmc(ca_port(f, "leaf-0", 0)) == 0);
    CHECK(lids.base(ca_port(f, "spine-1", 0)) == 7);
    CHECK_FALSE(lids.has_lid(ca_port(f, "host-l1-0", 2)));
    CHECK(lids.max_lid() == 13);
    CHECK(lids.aligned());
}

TEST_CASE("hand-written guid2lid: decimal, hex and (as strtoul) octal", "[guid2lid]") {
    const auto e = read_guid2lid_file(tables_dir() + "ft-pin64.pin.guid2lid");
    REQUIRE(e.size() == 8);
    CHECK(e[0].min == 1);
    CHECK(e[3].min == 64);
    const auto o = parse("0x10 010 0x0f\n\n42 8 9\n");
    REQUIRE(o.size() == 2);
    CHECK(o[0].guid == 0x10);
    CHECK(o[0].min == 8);
    CHECK(o[0].max == 15);
    CHECK(o[1].guid == 42);
    CHECK(o[1].line == 3);
}

TEST_CASE("write_guid2lid reproduces opensm's file byte for byte", "[guid2lid]") {
    // opensm writes in its hash order; build the fabric in that order.
    const Fabric f = sample_fabric(true, {"host-l0-0", "host-l1-1", "spine-0", "spine-1",
                                          "host-l0-1", "gw-0", "leaf-0", "leaf-1", "host-l1-0"});
    const std::string path = tables_dir() + "ft-rt.guid2lid";
    const Lids lids = bind_guid2lid(read_guid2lid_file(path), f, path);
    std::ostringstream out;
    write_guid2lid(out, f, lids);
    CHECK(out.str() == read_text(path));
}

TEST_CASE("write_guid2lid: node order, LMC ranges, ports without LIDs", "[guid2lid]") {
    FabricBuilder b;
    const NodeId sw = b.add_node(NodeType::Switch, 2, 0x20, "sw");
    const NodeId ca = b.add_node(NodeType::CA, 2, 0x10, "ca");
    b.port(ca, 1).guid = 0x11;
    b.port(ca, 2).guid = 0x12;
    b.connect(sw, 1, ca, 1);
    b.connect(sw, 2, ca, 2);
    const Fabric f = std::move(b).build();
    Lids lids(f);
    lids.assign(f.port_id(ca, 2), 8, 2);
    lids.assign(f.port_id(sw, 0), 0xbfff, 0);
    std::ostringstream out;
    write_guid2lid(out, f, lids);
    CHECK(out.str() == "0x0000000000000020 0xbfff 0xbfff\n\n"
                       "0x0000000000000012 0x0008 0x000b\n\n");
    const Lids back = bind_guid2lid(parse(out.str()), f, "g");
    CHECK(back.base(f.port_id(ca, 2)) == 8);
    CHECK(back.lmc(f.port_id(ca, 2)) == 2);
    CHECK(back.base(f.port_id(sw, 0)) == 0xbfff);
    CHECK_FALSE(back.has_lid(f.port_id(ca, 1)));
    // Unaligned (paper-mode) ranges are refused: IBA requires base LIDs aligned to 2^LMC.
    CHECK_THROWS_WITH(bind_guid2lid(parse("0x11 5 6\n"), f, "g"),
                      "g:1: LID range: base LID 5 (0x0005) with LMC 1 is not a multiple of 2^LMC "
                      "= 2: IBA requires a port's base LID aligned to its 2^LMC LIDs, and opensm "
                      "drops such a record (aligned: 4 or 6)");
}

TEST_CASE("read(write(x)) == x on the pinned sample", "[guid2lid]") {
    const Fabric f = sample_fabric(false);
    const Lids lids =
        bind_guid2lid(read_guid2lid_file(tables_dir() + "ft-pin64.pin.guid2lid"), f, "pin");
    std::ostringstream out;
    write_guid2lid(out, f, lids);
    const Lids back = bind_guid2lid(parse(out.str()), f, "g");
    for (PortId p = 0; p < f.num_port_slots(); ++p) {
        CHECK(back.base(p) == lids.base(p));
        CHECK(back.lmc(p) == lids.lmc(p));
    }
    CHECK(back.max_lid() == 64);
}

TEST_CASE("a path-selection file given as guid2lid is named as such", "[guid2lid]") {
    CHECK_THROWS_WITH(parse("# ibrt path selection: the DLID each source port uses\n"),
                      "g:1: this is an ibrt path-selection file, not a guid2lid (give it with "
                      "--path-selection)");
    CHECK_THROWS_WITH(parse("# other\n"),
                      "g:1: guid2lid has no comments: opensm would take '#...' as a GUID");
}

TEST_CASE("guid2lid reader diagnoses what opensm would misread", "[guid2lid]") {
    CHECK_THROWS_WITH(parse("0x0010000000000101 0x01f4 0x01f4\n"
                            "0x0010000000000201 0x01f5 0x01f5\n"),
                      "g:2: no blank line between this line and the record at line 1: opensm "
                      "would append it to that record and lose this GUID (guid2lid records must "
                      "be separated by blank lines)");
    CHECK_THROWS_WITH(parse("0x1 1 1\n\n 0x2 2 2\n"),
                      "g:3: record starts with a blank: opensm stops reading the file here");
    CHECK_THROWS_WITH(parse("0x1 1 1\n  \n0x2 2 2\n"),
                      "g:2: line holds only blanks: opensm needs empty lines between records (this "
                      "one does not end a record, and at a record start it stops reading)");
    CHECK_THROWS_WITH(parse("0x1 1 1\n\n\t\n"),
                      "g:3: line holds only blanks: opensm needs empty lines between records (this "
                      "one does not end a record, and at a record start it stops reading)");
    CHECK_THROWS_WITH(parse("0x1 1 1\r\n\r\n"), "g:1: line ends with CR (DOS line endings): "
                                                "opensm does not see the blank lines between "
                                                "records");
    CHECK_THROWS_WITH(parse("# pinned LIDs\n"),
                      "g:1: guid2lid has no comments: opensm would take '#...' as a GUID");
}

TEST_CASE("guid2lid reader rejects bad values with file:line", "[guid2lid]") {
    CHECK_THROWS_WITH(parse("0xg1 1 1\n"), "g:1: cannot parse GUID '0xg1'");
    CHECK_THROWS_WITH(parse("0x10000000000000000 1 1\n"),
                      "g:1: cannot parse GUID '0x10000000000000000'");
    CHECK_THROWS_WITH(parse("0 1 1\n"), "g:1: GUID 0 is not a port GUID");
    CHECK_THROWS_WITH(parse("0x1 1\n"), "g:1: record needs '<guid> <min lid> <max lid>'");
    CHECK_THROWS_WITH(parse("0x1\n"), "g:1: record needs '<guid> <min lid> <max lid>'");
    CHECK_THROWS_WITH(parse("0x1 1 x2\n"), "g:1: cannot parse max LID 'x2'");
    CHECK_THROWS_WITH(parse("0x1 09 9\n"), "g:1: cannot parse min LID '09'"); // octal, as opensm
    CHECK_THROWS_WITH(parse("\n\n0x1 0xc000 0xc000\n"),
                      "g:3: min LID 0xc000 is not below 0xc000 (opensm rejects the record)");
    CHECK_THROWS_WITH(parse("0x1 1 49152\n"),
                      "g:1: max LID 0xc000 is not below 0xc000 (opensm rejects the record)");
    CHECK_THROWS_WITH(parse("0x1 0 5\n"), "g:1: min LID is 0 (reserved; opensm writes 0x0000 "
                                          "0x0000 only for a port it gave no LID)");
    CHECK_THROWS_WITH(parse("0x1 5 0\n"), "g:1: max LID is 0 (reserved; opensm writes 0x0000 "
                                          "0x0000 only for a port it gave no LID)");
    CHECK_THROWS_WITH(parse("0x1 5 4\n"), "g:1: min LID 0x0005 is above max LID 0x0004");
    CHECK_THROWS_WITH(parse("0x1 4 5 6\n"), "g:1: unexpected text after the max LID: '6'");
    CHECK_THROWS_WITH(parse("0x1 4 4\n\n1 6 6\n"),
                      "g:3: GUID 0x0000000000000001 is listed twice (first at line 1); opensm "
                      "drops the second record");
    CHECK_THROWS_WITH(read_guid2lid_file("/nonexistent/guid2lid"),
                      "/nonexistent/guid2lid: cannot open: No such file or directory");
}

TEST_CASE("bind_guid2lid errors name the record's line", "[guid2lid]") {
    const Fabric f = sample_fabric(false);
    CHECK_THROWS_WITH(bind_guid2lid(parse("0x0010000000000101 2 3\n\n0xdead 4 4\n"), f, "g"),
                      "g:3: GUID 0x000000000000dead is not a port of the fabric");
    CHECK_THROWS_WITH(bind_guid2lid(parse("0x0010000000000100 2 2\n"), f, "g"),
                      "g:1: GUID 0x0010000000000100 is the node GUID of CA 'host-l0-0'; guid2lid "
                      "keys CA and router ports by port GUID");
    CHECK_THROWS_WITH(bind_guid2lid(parse("0x0010000000000101 2 4\n"), f, "g"),
                      "g:1: LID range 0x0002-0x0004 holds 3 LIDs, not a power of two (2^LMC)");
    CHECK_THROWS_WITH(bind_guid2lid(parse("0x0010000000000101 0x100 0x1ff\n"), f, "g"),
                      "g:1: LID range 0x0100-0x01ff needs LMC 8; the maximum is 7");
    // Unaligned base LID with LMC > 0 (issue 12): IBA requires base % 2^LMC == 0.
    CHECK_THROWS_WITH(bind_guid2lid(parse("0x0010000000000101 0x31 0x34\n"), f, "g"),
                      "g:1: LID range: base LID 49 (0x0031) with LMC 2 is not a multiple of "
                      "2^LMC = 4: IBA requires a port's base LID aligned to its 2^LMC LIDs, and "
                      "opensm drops such a record (aligned: 48 or 52)");
    CHECK(bind_guid2lid(parse("0x0010000000000101 0x30 0x33\n"), f, "g")
              .base(ca_port(f, "host-l0-0")) == 0x30);
    CHECK(bind_guid2lid(parse("0x0010000000000101 0x31 0x31\n"), f, "g")
              .base(ca_port(f, "host-l0-0")) == 0x31); // LMC 0: any LID
    CHECK_THROWS_WITH(bind_guid2lid(parse("0x0010000000000101 2 3\n\n"
                                          "0x0020000000010000 3 3\n"),
                                    f, "g"),
                      "g:3: LID 0x0003 is also claimed by the record at line 1");

    FabricBuilder b; // a switch whose port 0 has its own GUID: two keys for one port
    const NodeId sw = b.add_node(NodeType::Switch, 1, 0x40, "sw");
    b.port(sw, 0).guid = 0x41;
    const Fabric g = std::move(b).build();
    CHECK_THROWS_WITH(bind_guid2lid(parse("0x40 1 1\n\n0x41 2 2\n"), g, "g"),
                      "g:3: port of 'sw' already got LIDs from the record at line 1");
    CHECK(bind_guid2lid(parse("0x41 2 2\n"), g, "g").base(g.port_id(sw, 0)) == 2);
}

// opensm writes `0x0000 0x0000` for a port it ran out of LIDs for (e.g. `lmc 7` on a large
// fabric): the port has no LID, which is a fault of the subnet, not of the file.
TEST_CASE("guid2lid: a 0x0000 0x0000 record leaves its port without a LID", "[guid2lid]") {
    const Fabric f = sample_fabric(false);
    const auto e = parse("0x0010000000000101 0x0000 0x0000\n\n0x0010000000000201 0x0004 "
                         "0x0004\n");
    REQUIRE(e.size() == 2);
    CHECK(e[0].min == 0);
    CHECK(e[0].max == 0);
    const Lids l = bind_guid2lid(e, f, "g");
    CHECK_FALSE(l.has_lid(ca_port(f, "host-l0-0")));
    CHECK(l.base(ca_port(f, "host-l0-1")) == 4);
    // Still one record per port, and still a port of the fabric.
    CHECK_THROWS_WITH(
        bind_guid2lid(parse("0x0010000000000101 0 0\n\n0x0010000000000101 4 4\n"), f, "g"),
        "g:3: GUID 0x0010000000000101 is listed twice (first at line 1); opensm "
        "drops the second record");
    CHECK_THROWS_WITH(bind_guid2lid(parse("0xdead 0 0\n"), f, "g"),
                      "g:1: GUID 0x000000000000dead is not a port of the fabric");
}
