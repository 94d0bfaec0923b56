// opensm-sl2vl.dump (formats/sl2vl_dump.hpp): real dumps from test-fabrics/tables/ (distinct
// qos_ca/swe/rtr tables in ft-rt), how they bind into Routing::sl2vl, the byte-exact writer,
// round trips and every reader/binder error with file:line.
#include "fabric/input_error.hpp"
#include "formats/guid2lid.hpp"
#include "formats/sl2vl_dump.hpp"
#include "tables_fixture.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace ibrt;
using ibrt::test::read_text;
using ibrt::test::sample_fabric;
using ibrt::test::tables_dir;

namespace {

constexpr Sl2VlTable kSwe = {1, 0, 3, 2, 5, 4, 7, 6, 0, 0, 1, 1, 2, 2, 3, 15};
constexpr Sl2VlTable kCa = {0, 1, 2, 3, 4, 5, 6, 7, 7, 6, 5, 4, 3, 2, 1, 15};
constexpr Sl2VlTable kRtr = {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2};

Sl2VlDump parse(std::string_view text) {
    return read_sl2vl_dump_text(text, "s");
}
NodeId node(const Fabric& f, const char* id) {
    return *f.find_node_by_id(id);
}

Routing routing_from_samples(const Fabric& f, const std::string& prefix) {
    Routing r;
    const std::string g2l = tables_dir() + prefix + ".guid2lid";
    r.lids = bind_guid2lid(read_guid2lid_file(g2l), f, g2l);
    const std::string d = tables_dir() + prefix + ".opensm-sl2vl.dump";
    r.sl2vl = bind_sl2vl_dump(read_sl2vl_dump_file(d), f, d);
    return r;
}

const std::string kHead = "#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15\n"
                          "#--------------------------------------------------------\n";
const std::string kSep = "#--------------------------------------------------------\n";
const std::string kRow = " : 0  1  2  3  4  5  6  7  0  1  2  3  4  5  6  7 \n";

} // namespace

TEST_CASE("opensm-sl2vl.dump from opensm reads exactly", "[sl2vl_dump]") {
    const Sl2VlDump d = read_sl2vl_dump_file(tables_dir() + "ft-rt.opensm-sl2vl.dump");
    REQUIRE(d.blocks.size() == 9);
    const auto& leaf0 = d.blocks[0];
    CHECK(leaf0.type == NodeType::Switch);
    CHECK(leaf0.port_guid == 0x0020000000010000);
    CHECK(leaf0.base_lid == 2);
    CHECK(leaf0.desc == "leaf-0");
    CHECK(leaf0.line == 1);
    REQUIRE(leaf0.rows.size() == 20); // 4 cabled out ports x in 0..4
    CHECK(leaf0.rows[0].in == 0);
    CHECK(leaf0.rows[0].out == 1);
    CHECK(leaf0.rows[0].vl == kSwe);
    CHECK(leaf0.rows[0].line == 4);
    CHECK(leaf0.rows[19].in == 4);
    CHECK(leaf0.rows[19].out == 4);
    CHECK(d.blocks[1].rows.size() == 10); // spine-0: ports 1, 2
    CHECK(d.blocks[3].rows.size() == 15); // spine-1: ports 1, 2, 3 (router)
    CHECK(d.blocks[4].type == NodeType::CA);
    CHECK(d.blocks[4].desc == "host-l0-0");
    REQUIRE(d.blocks[4].rows.size() == 1);
    CHECK(d.blocks[4].rows[0].vl == kCa);
    CHECK(d.blocks[5].type == NodeType::Router);
    CHECK(d.blocks[5].port_guid == 0x0030000000000101);
    CHECK(d.blocks[5].base_lid == 6);
    CHECK(d.blocks[5].rows[0].vl == kRtr);
}

TEST_CASE("SL2VL dump binds per node and (in, out) pair", "[sl2vl_dump]") {
    const Fabric f = sample_fabric(true);
    const std::string path = tables_dir() + "ft-rt.opensm-sl2vl.dump";
    const Sl2Vl s = bind_sl2vl_dump(read_sl2vl_dump_file(path), f, path);
    REQUIRE(s.tables.size() == f.num_nodes());
    const NodeId leaf0 = node(f, "leaf-0"), spine0 = node(f, "spine-0");
    REQUIRE(s.tables[leaf0].size() == 25);
    CHECK(*s.find(leaf0, 4, 3, 1) == kSwe);
    CHECK(*s.find(leaf0, 4, 0, 4) == kSwe);
    CHECK(*s.find(leaf0, 4, 2, 0) == kSl2VlDropAll);  // out port 0 is not in the dump
    CHECK(*s.find(spine0, 4, 1, 3) == kSl2VlDropAll); // uncabled out port 3
    CHECK(*s.find(spine0, 4, 3, 2) == kSwe);          // from an uncabled port: listed
    const NodeId h10 = node(f, "host-l1-0");          // two ports, port 2 uncabled
    REQUIRE(s.tables[h10].size() == 9);
    CHECK(*s.find(h10, 2, 0, 1) == kCa);
    CHECK(*s.find(h10, 2, 0, 2) == kSl2VlDropAll);
    CHECK(*s.find(node(f, "gw-0"), 1, 0, 1) == kRtr);
    CHECK(s.find(leaf0, 4, 4, 5) == nullptr);
}

TEST_CASE("write_sl2vl_dump reproduces opensm's dumps byte for byte", "[sl2vl_dump]") {
    for (const auto& [prefix, router] : {std::pair{"ft-rt", true}, std::pair{"ft-lmc1", false}}) {
        INFO(prefix);
        const Fabric f = sample_fabric(router);
        const Routing r = routing_from_samples(f, prefix);
        std::ostringstream out;
        write_sl2vl_dump(out, f, r);
        CHECK(out.str() == read_text(tables_dir() + prefix + ".opensm-sl2vl.dump"));
    }
}

TEST_CASE("write_sl2vl_dump: exact text, nodes without tables skipped", "[sl2vl_dump]") {
    FabricBuilder b;
    const NodeId sw = b.add_node(NodeType::Switch, 2, 0xa1, "sw");
    const NodeId ca = b.add_node(NodeType::CA, 1, 0xb0, "ca");
    const NodeId ca2 = b.add_node(NodeType::CA, 1, 0xc0, "ca2");
    b.port(ca, 1).guid = 0xb1;
    b.port(ca2, 1).guid = 0xc1;
    b.connect(sw, 2, ca, 1);
    b.connect(sw, 1, ca2, 1);
    const Fabric f = std::move(b).build();
    Routing r;
    r.lids = Lids(f);
    r.lids.assign(f.port_id(sw, 0), 7, 0);
    r.lids.assign(f.port_id(ca, 1), 12, 0);
    r.sl2vl.tables.resize(3);
    r.sl2vl.tables[sw].assign(Sl2Vl::size(2), kSl2VlDropAll);
    for (unsigned i = 0; i < 9; ++i)
        for (unsigned sl = 0; sl < 16; ++sl)
            r.sl2vl.tables[sw][i][sl] = static_cast<std::uint8_t>((i + sl) % 16);
    r.sl2vl.tables[ca].assign(Sl2Vl::size(1), kSl2VlDropAll);
    r.sl2vl.tables[ca][Sl2Vl::index(1, 0, 1)] = kSwe;
    std::ostringstream out;
    write_sl2vl_dump(out, f, r);
    const std::string text = out.str();
    CHECK(text == "Switch 0x00000000000000a1, base LID 7, \"sw\"\n" + kHead +
                      "0   1   : 1  2  3  4  5  6  7  8  9  10 11 12 13 14 15 0 \n"
                      "1   1   : 4  5  6  7  8  9  10 11 12 13 14 15 0  1  2  3 \n"
                      "2   1   : 7  8  9  10 11 12 13 14 15 0  1  2  3  4  5  6 \n"
                      "0   2   : 2  3  4  5  6  7  8  9  10 11 12 13 14 15 0  1 \n"
                      "1   2   : 5  6  7  8  9  10 11 12 13 14 15 0  1  2  3  4 \n"
                      "2   2   : 8  9  10 11 12 13 14 15 0  1  2  3  4  5  6  7 \n" +
                      kSep + "\n" + "Channel Adapter 0x00000000000000b1, base LID 12, \"ca\"\n" +
                      kHead + "0   0   : 1  0  3  2  5  4  7  6  0  0  1  1  2  2  3  15\n" + kSep +
                      "\n");
    // Round trip: every pair the dump lists comes back; out port 0 is not listed.
    const Sl2Vl back = bind_sl2vl_dump(parse(text), f, "s");
    for (PortNum in = 0; in <= 2; ++in)
        for (PortNum o = 1; o <= 2; ++o)
            CHECK(*back.find(sw, 2, in, o) == r.sl2vl.tables[sw][Sl2Vl::index(2, in, o)]);
    CHECK(*back.find(sw, 2, 1, 0) == kSl2VlDropAll);
    CHECK(back.tables[ca] == r.sl2vl.tables[ca]);
    CHECK(back.tables[ca2].empty());

    std::ostringstream none;
    write_sl2vl_dump(none, f, Routing{});
    CHECK(none.str().empty());
    CHECK(bind_sl2vl_dump(parse("\n\n"), f, "s").empty());
}

TEST_CASE("read(write(x)) == x on the sample tables", "[sl2vl_dump]") {
    const Fabric f = sample_fabric(true);
    Routing r = routing_from_samples(f, "ft-rt");
    r.sl2vl.tables[node(f, "spine-1")][Sl2Vl::index(4, 2, 3)] = kCa;
    r.sl2vl.tables[node(f, "host-l1-1")][Sl2Vl::index(1, 0, 1)] = kRtr;
    std::ostringstream out;
    write_sl2vl_dump(out, f, r);
    CHECK(bind_sl2vl_dump(parse(out.str()), f, "s").tables == r.sl2vl.tables);
}

TEST_CASE("SL2VL dump reader errors name file:line", "[sl2vl_dump]") {
    const std::string sw = "Switch 0x0020000000010000, base LID 4, \"leaf-0\"\n";
    const std::string ca = "Channel Adapter 0x0010000000000101, base LID 2, \"host-l0-0\"\n";
    CHECK_THROWS_WITH(parse("0   1" + kRow),
                      "s:1: expected a block header '<Switch|Channel Adapter|Router> 0x<port "
                      "guid>, base LID <n>, \"<desc>\"', got '0   1 : 0  1  2  3  4  5  6  7  0  "
                      "1  2  3  4  5  6  7'");
    CHECK_THROWS_WITH(parse("Hub 0x1, base LID 4, \"x\"\n"),
                      "s:1: expected a block header '<Switch|Channel Adapter|Router> 0x<port "
                      "guid>, base LID <n>, \"<desc>\"', got 'Hub 0x1, base LID 4, \"x\"'");
    CHECK_THROWS_WITH(parse("Switch 0x12q, base LID 4, \"x\"\n"),
                      "s:1: cannot parse the port GUID '0x12q' of the block header");
    CHECK_THROWS_WITH(parse("Switch 0x12, LID 4, \"x\"\n"),
                      "s:1: block header without 'base LID <n>,'");
    CHECK_THROWS_WITH(parse("Switch 0x12, base LID four, \"x\"\n"),
                      "s:1: cannot parse the base LID 'four' of the block header");
    CHECK_THROWS_WITH(parse("Switch 0x12, base LID 49152, \"x\"\n"),
                      "s:1: base LID 49152 is above the unicast LIDs (49151)");
    CHECK_THROWS_WITH(parse("Switch 0x12, base LID 4, x\n"),
                      "s:1: block header without a quoted description");
    CHECK_THROWS_WITH(parse(sw + "0   1" + kRow),
                      "s:2: expected the column header '#in out : 0  1 ...' after the block "
                      "header at line 1");
    CHECK_THROWS_WITH(parse(sw + "#in out : 0\n0   1" + kRow),
                      "s:3: expected the '#---' separator of the block at line 1");
    CHECK_THROWS_WITH(parse("\n" + sw + kHead + "0   1" + kRow),
                      "s:2: block is not closed by its '#---' separator line (truncated dump?)");
    CHECK_THROWS_WITH(parse(sw + kHead + "0   1 : 0 1 2\n"), "s:4: row has 3 VLs; expected 16");
    CHECK_THROWS_WITH(parse(sw + kHead + "0   1 : 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 16\n"),
                      "s:4: cannot parse the VL '16' of SL 15");
    CHECK_THROWS_WITH(parse(sw + kHead + "0   1 : 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 3\n"),
                      "s:4: unexpected text after the 16 VLs: '3'");
    CHECK_THROWS_WITH(parse(sw + kHead + "0   1   0 1\n"),
                      "s:4: expected ':' after the in/out ports in '0   1   0 1'");
    CHECK_THROWS_WITH(parse(sw + kHead + "0   x" + kRow),
                      "s:4: cannot parse the in/out ports of row '0   x : 0  1  2  3  4  5  6  7 "
                      " 0  1  2  3  4  5  6  7'");
    CHECK_THROWS_WITH(parse(ca + kHead + "0   1" + kRow),
                      "s:4: a Channel Adapter block has only the row '0 0', not '0 1'");
    CHECK_THROWS_WITH(parse(sw + kHead + "2   1" + kRow + "2   1" + kRow),
                      "s:5: row 2 1 is listed twice in the block (first at line 4)");
    CHECK_THROWS_WITH(parse(ca + kHead + "0   0" + kRow + kSep + "\n" + ca),
                      "s:7: port guid 0x0010000000000101 has a second block (first at line 1)");
    CHECK_THROWS_WITH(read_sl2vl_dump_file("/nonexistent/sl2vl"),
                      "/nonexistent/sl2vl: cannot open: No such file or directory");
}

TEST_CASE("bind_sl2vl_dump errors name the block or row line", "[sl2vl_dump]") {
    const Fabric f = sample_fabric(false);
    CHECK_THROWS_WITH(
        bind_sl2vl_dump(parse("Switch 0x00000000deadbeef, base LID 4, \"x\"\n" + kHead + kSep), f,
                        "s"),
        "s:1: port guid 0x00000000deadbeef is not in the fabric");
    CHECK_THROWS_WITH(
        bind_sl2vl_dump(parse("Switch 0x0010000000000101, base LID 4, \"x\"\n" + kHead + kSep), f,
                        "s"),
        "s:1: block says Switch but guid 0x0010000000000101 is a Channel Adapter ('host-l0-0') "
        "in the fabric");
    CHECK_THROWS_WITH(bind_sl2vl_dump(parse("Switch 0x0020000000010000, base LID 4, \"x\"\n" +
                                            kHead + "0   1" + kRow + "5   1" + kRow + kSep),
                                      f, "s"),
                      "s:5: row 5 1: switch 'leaf-0' has ports 0..4");
}
