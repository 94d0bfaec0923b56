// LFT dumps (formats/lft_dump.hpp): real opensm-lfts.dump, dump_fts and ibroute output from
// test-fabrics/tables/, byte-exact writer output against what opensm wrote, round trips and
// every reader/binder error with its file:line.
#include "fabric/input_error.hpp"
#include "formats/guid2lid.hpp"
#include "formats/lft_dump.hpp"
#include "tables_fixture.hpp"

#include <catch2/catch.hpp>

#include <fstream>

#include <filesystem>

#include <sstream>

using namespace ibrt;
using ibrt::test::read_text;
using ibrt::test::sample_fabric;
using ibrt::test::tables_dir;

namespace {

constexpr PortNum X = kNoPath;

LftDump parse(std::string_view text) {
    return read_lft_dump_text(text, "t");
}

Routing routing_from_samples(const Fabric& f, const std::string& prefix) {
    Routing r;
    const std::string g2l = tables_dir() + prefix + ".guid2lid";
    r.lids = bind_guid2lid(read_guid2lid_file(g2l), f, g2l);
    const std::string lfts = tables_dir() + prefix + ".opensm-lfts.dump";
    r.lft = bind_lft_dump(read_lft_dump_file(lfts), f, lfts);
    return r;
}

NodeId node(const Fabric& f, const char* id) {
    return *f.find_node_by_id(id);
}

} // namespace

TEST_CASE("opensm-lfts.dump from opensm reads exactly", "[lft_dump]") {
    const LftDump d = read_lft_dump_file(tables_dir() + "ft-rt.opensm-lfts.dump");
    CHECK(d.format == LftDumpFormat::OpenSM);
    REQUIRE(d.switches.size() == 4);
    const auto& s = d.switches[0];
    CHECK(s.guid == 0x0020000000010000);
    CHECK(s.lid == 2);
    CHECK(s.desc == "leaf-0");
    CHECK(s.line == 1);
    CHECK(s.lft == Lft{X, 1, 0, 3, 3, 4, 4, 2, 3, 4});
    CHECK(d.switches[1].line == 12);
    CHECK(d.switches[3].desc == "spine-1");
    CHECK(d.switches[3].lft == Lft{X, 1, 1, 1, 2, 0, 3, 1, 2, 2});
}

TEST_CASE("ibroute output of one switch reads exactly", "[lft_dump]") {
    const LftDump d = read_lft_dump_file(tables_dir() + "ft-rt.ibroute-2.txt");
    CHECK(d.format == LftDumpFormat::Ibroute);
    REQUIRE(d.switches.size() == 1);
    CHECK(d.switches[0].guid == 0x0020000000010000);
    CHECK(d.switches[0].lid == 2);
    CHECK(d.switches[0].desc == "leaf-0");
    CHECK(d.switches[0].lft == Lft{X, 1, 0, 3, 3, 4, 4, 2, 3, 4});
    // ibroute -M: only a multicast section, skipped.
    CHECK(read_lft_dump_file(tables_dir() + "ft-rt.ibroute-M-2.txt").switches.empty());
}

TEST_CASE("dump_fts output (DR-path headers, LMC paths) binds to the same LFTs as opensm's dump",
          "[lft_dump]") {
    const Fabric f = sample_fabric(false);
    const std::string dir = tables_dir();
    const LftDump fts = read_lft_dump_file(dir + "ft-lmc1.dump_fts.txt");
    CHECK(fts.format == LftDumpFormat::Ibroute);
    REQUIRE(fts.switches.size() == 4);
    CHECK(fts.switches[0].guid == 0x0020000000010001);
    CHECK(fts.switches[0].lid == 0); // "DR path slid 0; dlid 0; 0,1,3,2" names no LID
    CHECK(fts.switches[0].desc == "leaf-1");
    CHECK(fts.switches[0].lft == Lft{X, X, 3, 4, 3, 3, 0, 4, 4, 3, 1, 1, 2, 2});
    CHECK(fts.switches[1].line == 17);

    const auto from_osm =
        bind_lft_dump(read_lft_dump_file(dir + "ft-lmc1.opensm-lfts.dump"), f, "osm");
    CHECK(bind_lft_dump(fts, f, "fts") == from_osm);
    CHECK(bind_lft_dump(read_lft_dump_file(dir + "ft-lmc1.dump_fts-n.txt"), f, "n") == from_osm);
    // -a adds LIDs 0 and 1 with port 255 ("illegal port"), which are no path.
    CHECK(bind_lft_dump(read_lft_dump_file(dir + "ft-lmc1.dump_fts-a.txt"), f, "a") == from_osm);
    CHECK(read_lft_dump_file(dir + "ft-lmc1.dump_fts-M.txt").switches.empty());
    // spine-1 has no route to spine-0's LID 5 in this updn run.
    CHECK(from_osm[node(f, "spine-1")] == Lft{X, X, 1, 1, 1, X, 2, 0, 1, 1, 2, 2, 2, 2});
    CHECK(from_osm[node(f, "host-l0-0")].empty());
}

TEST_CASE("dump_fts drops the top LID when it is a multiple of 64, the reader keeps that",
          "[lft_dump]") {
    const Fabric f = sample_fabric(false);
    const auto osm =
        bind_lft_dump(read_lft_dump_file(tables_dir() + "ft-pin64.opensm-lfts.dump"), f, "osm");
    const auto fts =
        bind_lft_dump(read_lft_dump_file(tables_dir() + "ft-pin64.dump_fts.txt"), f, "fts");
    for (NodeId sw : f.switches()) {
        REQUIRE(osm[sw].size() == 65);
        REQUIRE(fts[sw].size() == 65);
        CHECK(fts[sw][64] == kNoPath);
        CHECK(osm[sw][64] != kNoPath);
        CHECK(Lft(fts[sw].begin(), fts[sw].end() - 1) == Lft(osm[sw].begin(), osm[sw].end() - 1));
    }
    CHECK(osm[node(f, "leaf-0")][64] == 4);
}

TEST_CASE("write_lft_dump reproduces opensm's dumps byte for byte", "[lft_dump]") {
    for (const auto& [prefix, router] :
         {std::pair{"ft-rt", true}, std::pair{"ft-lmc1", false}, std::pair{"ft-pin64", false}}) {
        INFO(prefix);
        const Fabric f = sample_fabric(router);
        const Routing r = routing_from_samples(f, prefix);
        std::ostringstream out;
        write_lft_dump(out, f, r);
        CHECK(out.str() == read_text(tables_dir() + prefix + ".opensm-lfts.dump"));
    }
}

TEST_CASE("write_lft_dump: unknown owners, dropped entries and port 0", "[lft_dump]") {
    FabricBuilder b;
    const NodeId sw = b.add_node(NodeType::Switch, 2, 0xa1, "sw");
    const NodeId ca = b.add_node(NodeType::CA, 1, 0xb0, "ca");
    b.port(ca, 1).guid = 0xb1;
    b.connect(sw, 1, ca, 1);
    const Fabric f = std::move(b).build();
    Routing r;
    r.lids = Lids(f);
    r.lids.assign(f.port_id(sw, 0), 1, 0);
    r.lids.assign(f.port_id(ca, 1), 4, 1); // LIDs 4, 5
    r.lft.resize(2);
    //          0  1  2  3  4  5
    r.lft[sw] = {1, 0, 2, 1, 1, 7};
    std::ostringstream out;
    write_lft_dump(out, f, r);
    CHECK(out.str() == "Unicast lids [0-5] of switch Lid 1 guid 0x00000000000000a1 ('sw'):\n"
                       "0x0000 001 # unknown node and type\n"
                       "0x0001 000 # Switch portguid 0x00000000000000a1: 'sw'\n"
                       "0x0002 002 # unknown node and type\n"
                       "0x0003 001 # unknown node and type\n"
                       "0x0004 001 # Channel Adapter portguid 0x00000000000000b1: 'ca'\n"
                       "5 lids dumped\n");
    // Round trip: the LID 5 entry (port 7 > 2 ports) is gone, the rest is kept.
    const auto back = bind_lft_dump(parse(out.str()), f, "t");
    CHECK(back[sw] == Lft{1, 0, 2, 1, 1, X});
    CHECK(back[ca].empty());
}

TEST_CASE("read(write(x)) == x on the sample routing", "[lft_dump]") {
    const Fabric f = sample_fabric(true);
    Routing r = routing_from_samples(f, "ft-rt");
    // Make it less regular: drops and port-0 entries survive the round trip.
    r.lft[node(f, "leaf-0")][7] = kNoPath;
    r.lft[node(f, "spine-0")][9] = 0;
    std::ostringstream out;
    write_lft_dump(out, f, r);
    CHECK(bind_lft_dump(parse(out.str()), f, "t") == r.lft);
}

TEST_CASE("hand-written lfts_file without range and trailer", "[lft_dump]") {
    const LftDump d = parse("# switch 1\n"
                            "Unicast lids of switch guid 0x0000000000200000 ('Switch1'):\n"
                            "0x0002 001 # Channel Adapter portguid 0x0000000000100001: 'Hca1'\n"
                            "0x0003 001\n"
                            "0x0007 005 portguid 0x0000000000100004\n");
    REQUIRE(d.switches.size() == 1);
    CHECK(d.switches[0].guid == 0x200000);
    CHECK(d.switches[0].lid == 0);
    CHECK(d.switches[0].desc == "Switch1");
    CHECK(d.switches[0].line == 2);
    CHECK(d.switches[0].lft == Lft{X, X, 1, 1, X, X, X, 5});
}

TEST_CASE("multicast sections are skipped, even with MFT rows", "[lft_dump]") {
    const LftDump d = parse("Unicast lids [0x0-0x2] of switch Lid 1 guid 0x00000000000000a1 (a):\n"
                            "  Lid  Out   Destination\n"
                            "       Port     Info \n"
                            "0x0001 000 : (Switch portguid 0x00000000000000a1: 'a')\n"
                            "0x0002 002 : (Channel Adapter portguid 0x00000000000000b1: 'b')\n"
                            "2 valid lids dumped \n"
                            "Multicast mlids [0xc000-0xc3ff] of switch Lid 1 guid "
                            "0x00000000000000a1 (a):\n"
                            "            0                   1                   2 \n"
                            "     Ports: 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 \n"
                            " MLid\n"
                            "0xc000      x   x   x \n"
                            "0xc001          x \n"
                            "2 valid mlids dumped \n"
                            "Unicast lids [0x0-0x1] of switch Lid 3 guid 0x00000000000000a2 (b):\n"
                            "0x0001 004 \n"
                            "1 valid lids dumped \n");
    REQUIRE(d.switches.size() == 2);
    CHECK(d.switches[0].lft == Lft{X, 0, 2});
    CHECK(d.switches[1].guid == 0xa2);
    CHECK(d.switches[1].lid == 3);
    CHECK(d.switches[1].lft == Lft{X, 4});
}

TEST_CASE("LFT dump reader errors name file:line", "[lft_dump]") {
    const std::string h =
        "Unicast lids [0-3] of switch Lid 1 guid 0x0020000000010000 ('leaf-0'):\n";
    CHECK_THROWS_WITH(parse("0x0001 001\n"), "t:1: entry before any 'Unicast lids' switch header");
    CHECK_THROWS_WITH(parse(h + "0xzz 001\n"), "t:2: cannot parse LID '0xzz'");
    CHECK_THROWS_WITH(parse(h + "0x0002 abc\n"),
                      "t:2: cannot parse the out port 'abc' of LID '0x0002'");
    CHECK_THROWS_WITH(parse(h + "0x0002 256\n"),
                      "t:2: cannot parse the out port '256' of LID '0x0002'");
    CHECK_THROWS_WITH(parse(h + "0x0002\n"), "t:2: cannot parse the out port '' of LID '0x0002'");
    CHECK_THROWS_WITH(parse(h + "0xc000 001\n"),
                      "t:2: LID 0xc000 is above the unicast LIDs (0xbfff)");
    CHECK_THROWS_WITH(parse(h + "0x10000 001\n"), "t:2: cannot parse LID '0x10000'");
    CHECK_THROWS_WITH(parse(h + "0x0002 001\n0x2 002\n"),
                      "t:3: LID 0x0002 is listed twice for switch 0x0020000000010000");
    CHECK_THROWS_WITH(parse(h + "0x0002 001\n3 lids dumped\n" + h),
                      "t:4: switch GUID 0x0020000000010000 is listed twice (first at line 1)");
    CHECK_THROWS_WITH(parse(h + "3 lids dumped\n0x0002 001\n"),
                      "t:3: entry after the 'lids dumped' trailer of the switch block (line 2) and "
                      "before the next 'Unicast lids' header");
    CHECK_THROWS_WITH(parse(h + "4 lids dumped\n"),
                      "t:2: trailer says 4 but the header's LID range ends at 3");
    CHECK_THROWS_WITH(parse("Unicast lids [0x0-0x3] of switch Lid 1 guid 0x00000000000000a1 (a):\n"
                            "0x0001 000 : (Switch portguid 0x00000000000000a1: 'a')\n"
                            "2 valid lids dumped \n"),
                      "t:3: trailer says 2 lids but the block lists 1 (truncated or edited?)");
    CHECK_THROWS_WITH(parse(h + "ibwarn: [6156] sim_connect: attached\n"),
                      "t:2: unrecognized line 'ibwarn: [6156] sim_connect: attached'");
    CHECK_THROWS_WITH(parse("Unicast lids [0-3] of switch Lid 1 ('x'):\n"),
                      "t:1: switch header without 'guid 0x<hex>'");
    CHECK_THROWS_WITH(parse("Unicast lids [0-3] of switch Lid 1 guid 0x12z4 ('x'):\n"),
                      "t:1: cannot parse the switch GUID '12z'");
    CHECK_THROWS_WITH(parse("Unicast lids [0-49152] of switch Lid 1 guid 0x1 ('x'):\n"),
                      "t:1: LID range top 0xc000 is above the unicast LIDs (0xbfff)");
    CHECK_THROWS_WITH(parse("Unicast lids [0x0-0x3] of switch Lid 1 guid 0xa1 (a):\n" + h),
                      "t:2: opensm-lfts.dump switch header in a dump that started in "
                      "ibroute/dump_fts format at line 1");
    CHECK_THROWS_WITH(read_lft_dump_file("/nonexistent/x.dump"),
                      "/nonexistent/x.dump: cannot open: No such file or directory");
}

TEST_CASE("bind_lft_dump errors name the switch header line, or the entry's in a file",
          "[lft_dump]") {
    const Fabric f = sample_fabric(false);
    CHECK_THROWS_WITH(bind_lft_dump(parse("\nUnicast lids [0-3] of switch Lid 1 guid "
                                          "0x00000000deadbeef ('x'):\n"),
                                    f, "t"),
                      "t:2: switch GUID 0x00000000deadbeef is not in the fabric");
    CHECK_THROWS_WITH(bind_lft_dump(parse("Unicast lids [0-3] of switch Lid 1 guid "
                                          "0x0010000000000100 ('x'):\n"),
                                    f, "t"),
                      "t:1: GUID 0x0010000000000100 is CA 'host-l0-0' (GUID 0x0010000000000100), "
                      "not a switch");
    CHECK_THROWS_WITH(
        bind_lft_dump(parse("Unicast lids [0-3] of switch Lid 1 guid "
                            "0x0020000000010000 ('leaf-0'):\n0x0001 004\n"
                            "0x0002 005\n"),
                      f, "t"),
        "t:1: switch 'leaf-0' (GUID 0x0020000000010000): LID 0x0002 goes out port 5 but "
        "the switch has 4 ports");
    // Read from a file, the error names the entry's own line (issue 40), found again in it.
    const std::string text = "# a dump\nUnicast lids [0-3] of switch Lid 1 guid "
                             "0x0020000000010000 ('leaf-0'):\n0x0001 004\n# note\n0x0002 005\n";
    const std::string path =
        (std::filesystem::temp_directory_path() / "ibrt-test-entry-line.lfts").string();
    {
        std::ofstream out(path);
        out << text;
    }
    CHECK_THROWS_WITH(bind_lft_dump(read_lft_dump_file(path), f, path),
                      path + ":5: switch 'leaf-0' (GUID 0x0020000000010000): LID 0x0002 goes "
                             "out port 5 but the switch has 4 ports");
    std::filesystem::remove(path);
}

TEST_CASE("a truncated or partial dump is bad input, not a routing fault", "[lft_dump]") {
    const std::string text = read_text(tables_dir() + "ft-rt.opensm-lfts.dump");
    // Cut off inside the last switch block: its trailer is gone, the others have theirs.
    const std::size_t last = text.rfind("Unicast lids");
    const std::size_t cut = text.find('\n', text.find('\n', last) + 1) + 1;
    CHECK_THROWS_WITH(parse(text.substr(0, cut)),
                      "t:34: this switch block has no 'lids dumped' trailer while the others do: "
                      "the dump is truncated or was edited");
    // Whole blocks missing: the fabric's switches without a table are named.
    const Fabric f = sample_fabric(false);
    CHECK_THROWS_WITH(require_every_switch(parse(text.substr(0, last)), f, "t"),
                      "t:23: the dump has no table for 1 of the fabric's 4 switches, e.g. switch "
                      "'spine-1' (GUID 0x0020000000020001): it is partial or from another fabric");
    CHECK_NOTHROW(require_every_switch(parse(text), f, "t"));
}
