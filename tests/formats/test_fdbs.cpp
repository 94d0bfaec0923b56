// opensm.fdbs (formats/fdbs_writer.cpp, read by formats/lft_dump_reader.cpp): the writer byte for
// byte against what opensm 3.3.23 wrote for the same tables (test-fabrics/tables), the hop
// columns where an entry is not minimal or leads to a CA, round trips, and reader errors.
#include "fabric/input_error.hpp"
#include "formats/guid2lid.hpp"
#include "formats/lft_dump.hpp"
#include "tables_fixture.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <sstream>

using namespace ibrt;
using ibrt::test::read_text;
using ibrt::test::sample_fabric;
using ibrt::test::tables_dir;

namespace {

constexpr PortNum X = kNoPath;

Routing routing_from_samples(const Fabric& f, const std::string& prefix) {
    Routing r;
    const std::string g2l = tables_dir() + prefix + ".guid2lid";
    r.lids = bind_guid2lid(read_guid2lid_file(g2l), f, g2l);
    const std::string lfts = tables_dir() + prefix + ".opensm-lfts.dump";
    r.lft = bind_lft_dump(read_lft_dump_file(lfts), f, lfts);
    return r;
}

std::string fdbs(const Fabric& f, const Routing& r) {
    std::ostringstream o;
    write_opensm_fdbs(o, f, r);
    return o.str();
}

std::string error_of(std::string_view text) {
    try {
        (void)read_lft_dump_text(text, "t");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

// The block of one switch in a written fdbs.
std::string block_of(const std::string& text, const char* guid) {
    const std::size_t at = text.find(std::string("Switch 0x") + guid);
    REQUIRE(at != std::string::npos);
    const std::size_t end = text.find("dump_ucast_routes:", at);
    return text.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

} // namespace

TEST_CASE("opensm.fdbs lines read to the LFT they list", "[fdbs]") {
    const LftDump d = read_lft_dump_text("dump_ucast_routes: Switch 0x0020000000010000\n"
                                         "LID    : Port : Hops : Optimal\n"
                                         "0x0001 : 000  : 00   : yes\n"
                                         "0x0002 : UNREACHABLE\n"
                                         "0x0003 : 003  : 02   : yes\n"
                                         "0x000A : 001  : HOPS UNKNOWN\n"
                                         "0x000B : 004  : 03   : No 1 hop path possible via "
                                         "port 3!\n"
                                         "dump_ucast_routes: Switch 0x0020000000020000\n"
                                         "LID    : Port : Hops : Optimal\n"
                                         "0x0001 : 001  : 01   : yes\n",
                                         "t");
    CHECK(d.format == LftDumpFormat::Fdbs);
    REQUIRE(d.switches.size() == 2);
    CHECK(d.switches[0].guid == 0x0020000000010000);
    CHECK(d.switches[0].lid == 0);
    CHECK(d.switches[0].line == 1);
    CHECK(d.switches[0].lft == Lft{X, 0, X, 3, X, X, X, X, X, X, 1, 4});
    CHECK(d.switches[1].line == 8);
    CHECK(d.switches[1].lft == Lft{X, 1});
}

TEST_CASE("old osm.fdbs: unpadded GUID, no column header, lower-case LIDs", "[fdbs]") {
    // The layout ibdm's parser was written against (ibdm Fabric.cpp parseFdbFile).
    const LftDump d = read_lft_dump_text("dump_ucast_routes: Switch 0x2c90000213700\n"
                                         "0x0001 : 006  : 01   : yes\n"
                                         "0x000a : 002  : 02   : yes\n",
                                         "t");
    CHECK(d.format == LftDumpFormat::Fdbs);
    REQUIRE(d.switches.size() == 1);
    CHECK(d.switches[0].guid == 0x2c90000213700);
    CHECK(d.switches[0].lft == Lft{X, 6, X, X, X, X, X, X, X, X, 2});
}

TEST_CASE("opensm.fdbs writer matches opensm byte for byte", "[fdbs]") {
    // ft-lmc1: updn, LMC 1; opensm.fdbs is the same run's dump (test-fabrics/tables/README.md).
    const Fabric f = sample_fabric(false, {"host-l1-1", "spine-1", "leaf-1", "host-l0-0", "leaf-0",
                                           "spine-0", "host-l0-1", "host-l1-0"});
    const Routing r = routing_from_samples(f, "ft-lmc1");
    CHECK(fdbs(f, r) == read_text(tables_dir() + "ft-lmc1.opensm.fdbs"));
}

TEST_CASE("opensm.fdbs hop columns for non-minimal entries and entries towards a CA", "[fdbs]") {
    const Fabric f = sample_fabric(false);
    Routing r = routing_from_samples(f, "ft-lmc1");
    const NodeId spine0 = *f.find_node_by_id("spine-0");
    const NodeId leaf0 = *f.find_node_by_id("leaf-0");
    const Lid leaf0_lid = r.lids.base(f.port_id(leaf0, 0));
    const Lid spine1_lid = r.lids.base(f.port_id(*f.find_node_by_id("spine-1"), 0));
    const Lid host = r.lids.base(f.port_id(*f.find_node_by_id("host-l0-0"), 1));
    // spine-0 reaches leaf-0 through leaf-1 (port 2): 3 hops where port 1 takes 1.
    r.lft[spine0][leaf0_lid] = 2;
    // leaf-0 sends spine-1's LID to its CA on port 1: opensm has no hop count for that port.
    r.lft[leaf0][spine1_lid] = 1;
    // leaf-0 sends its own CA's LID up: a CA behind the switch itself counts as 1 hop anyway.
    r.lft[leaf0][host] = 3;
    const std::string text = fdbs(f, r);
    const std::string sp = block_of(text, "0020000000020000");
    CHECK(sp.find(fmt::format("0x{:04X} : 002  : 03   : No 1 hop path possible via port 1!\n",
                              leaf0_lid)) != std::string::npos);
    const std::string lf = block_of(text, "0020000000010000");
    CHECK(lf.find(fmt::format("0x{:04X} : 001  : HOPS UNKNOWN\n", spine1_lid)) !=
          std::string::npos);
    CHECK(lf.find(fmt::format("0x{:04X} : 003  : 01   : yes\n", host)) != std::string::npos);
    CHECK(lf.find(fmt::format("0x{:04X} : 000  : 00   : yes\n", leaf0_lid)) != std::string::npos);
}

TEST_CASE("opensm.fdbs round trips to the LFTs on every assigned LID", "[fdbs]") {
    const Fabric f = sample_fabric(true);
    const Routing r = routing_from_samples(f, "ft-rt");
    const std::string text = fdbs(f, r);
    const LftDump d = read_lft_dump_text(text, "w");
    CHECK(d.format == LftDumpFormat::Fdbs);
    const std::vector<Lft> back = bind_lft_dump(d, f, "w");
    for (NodeId s : f.switches())
        for (std::uint32_t lid = 1; lid <= r.lids.max_lid(); ++lid) {
            INFO("switch " << f.node(s).desc << " LID " << lid);
            const bool owned = r.lids.owner(Lid(lid)) != kNoPort;
            CHECK(back[s][lid] == (owned ? r.out_port(s, Lid(lid)) : X));
        }
}

TEST_CASE("opensm.fdbs reader errors name file:line", "[fdbs]") {
    const std::string h = "dump_ucast_routes: Switch 0x0020000000010000\n";
    CHECK(error_of("dump_ucast_routes: Switch 0xzz\n") ==
          "t:1: cannot parse the opensm.fdbs switch header 'dump_ucast_routes: Switch 0xzz' "
          "(expected 'dump_ucast_routes: Switch 0x<GUID>')");
    CHECK(error_of(h + "0x0001 001 : 01 : yes\n") ==
          "t:2: expected '0x<LID> : <port> : <hops> : <optimal>' or '0x<LID> : UNREACHABLE', "
          "got '0x0001 001 : 01 : yes'");
    CHECK(error_of(h + "0x0001 : 1x1 : 01 : yes\n") ==
          "t:2: cannot parse the out port '1x1' of LID '0x0001'");
    CHECK(error_of(h + "0x0001 : 001\n") ==
          "t:2: expected ': <hops> : <optimal>' or ': HOPS UNKNOWN' after the port: "
          "'0x0001 : 001'");
    CHECK(error_of(h + "0x0001 : UNREACHABLE now\n") ==
          "t:2: text after UNREACHABLE: '0x0001 : UNREACHABLE now'");
    CHECK(error_of(h + "0xC000 : 001  : 01   : yes\n") ==
          "t:2: LID 0xc000 is not a unicast LID (1..0xbfff)");
    CHECK(error_of(h + "0x0001 : 001  : 01   : yes\n0x0001 : UNREACHABLE\n") ==
          "t:3: LID 0x0001 is listed twice for switch 0x0020000000010000");
    CHECK(error_of(h + "3 lids dumped\n") == "t:2: 'lids dumped' trailer in an opensm.fdbs block");
    CHECK(error_of("LID    : Port : Hops : Optimal\n") ==
          "t:1: opensm.fdbs column header outside a 'dump_ucast_routes:' switch block");
    CHECK(error_of(h + "Unicast lids [0-3] of switch Lid 1 guid 0x0020000000020000 ('s'):\n") ==
          "t:2: opensm-lfts.dump switch header in a dump that started in opensm.fdbs format at "
          "line 1");
    CHECK(error_of("Unicast lids [0-3] of switch Lid 1 guid 0x0020000000020000 ('s'):\n3 lids "
                   "dumped\n" +
                   h) ==
          "t:3: opensm.fdbs switch header in a dump that started in opensm-lfts.dump format at "
          "line 1");
    CHECK(error_of(h + h) ==
          "t:2: switch GUID 0x0020000000010000 is listed twice (first at line 1)");
    // The hop count is a byte opensm writes in decimal (0xff = no path): NaN, a sign or a
    // value it cannot hold means the file is not an opensm.fdbs (issue 35).
    for (const char* hops : {"nan", "-1", "+1", "1e9", "255", "99999999999999999999", "0x02"})
        CHECK(error_of(h + "0x0001 : 001  : " + hops + "   : yes\n") ==
              fmt::format("t:2: cannot parse the hop count '{}' (expected 0..254 or HOPS "
                          "UNKNOWN): '0x0001 : 001  : {}   : yes'",
                          hops, hops));
    CHECK(error_of(h + "0x0001 : 001  : 01\n") ==
          "t:2: expected ': yes' or ': No <n> hop path possible via port <p>!' after the hop "
          "count: '0x0001 : 001  : 01'");
    CHECK(error_of(h + "0x0001 : 001  : 01   : maybe\n") ==
          "t:2: expected ': yes' or ': No <n> hop path possible via port <p>!' after the hop "
          "count: '0x0001 : 001  : 01   : maybe'");
    CHECK(error_of(h + "0x0001 : 001  : HOPS KNOWN\n") ==
          "t:2: cannot parse the hop count 'HOPS' (expected 0..254 or HOPS UNKNOWN): '0x0001 : "
          "001  : HOPS KNOWN'");
}
