// read_ibnetdiscover: ibnetdiscover output (plain, -f, -g) and ibsim net files, with the
// exact values ibsim itself reports for the same files (checked by running ibsim +
// ibnetdiscover on test-fabrics/samples), and exact error messages.
#include "fabric/input_error.hpp"
#include "formats/ibnetdiscover.hpp"
#include "test_ibnetdiscover_compare.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace ibrt;

namespace {

const std::string kSamples = std::string(IBRT_SOURCE_DIR) + "/test-fabrics/samples/";

Fabric read_text(const std::string& text, const std::string& name = "topo.net") {
    std::istringstream in(text);
    return read_ibnetdiscover(in, name);
}

NodeId by_id(const Fabric& f, std::string_view id) {
    const auto n = f.find_node_by_id(id);
    REQUIRE(n);
    return *n;
}

// The error message for a text, or "" if it parsed.
std::string error_of(const std::string& text) {
    try {
        (void)read_text(text);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST_CASE("reads real ibnetdiscover output of an ibsim fabric (opensm lmc 1)") {
    const Fabric f = read_ibnetdiscover_file(kSamples + "ibsim-2sw2path4hca.ibnetdiscover.topo");
    REQUIRE(f.num_nodes() == 6);
    REQUIRE(f.switches().size() == 2);
    REQUIRE(f.cas().size() == 4);
    REQUIRE(f.num_links() == 6);

    const NodeId s1 = by_id(f, "S-0000000000200000");
    const NodeId s2 = by_id(f, "S-0000000000200001");
    const NodeId h4 = by_id(f, "H-0000000000100009");
    CHECK(s2 == 0); // file order
    CHECK(f.node(s1).guid == 0x200000);
    CHECK(f.node(s1).desc == "Switch1");
    CHECK(f.node(s1).num_ports == 8);
    CHECK(f.node(s1).sysimg_guid == 0x200000);
    CHECK_FALSE(f.node(s1).enhanced_port0);
    CHECK(f.port(s1, 0).base_lid == 1);
    CHECK(f.port(s2, 0).base_lid == 4);
    CHECK(f.end_port_guid(f.port_id(s1, 0)) == 0x200000);

    CHECK(f.node(h4).type == NodeType::CA);
    CHECK(f.node(h4).desc == "Hca4");
    CHECK(f.node(h4).num_ports == 2);
    CHECK(f.port(h4, 1).guid == 0x10000a);
    CHECK(f.port(h4, 2).guid == 0x10000b); // unlisted: ibsim's node GUID + port
    CHECK(f.port(h4, 1).base_lid == 10);
    CHECK(f.port(h4, 1).lmc == 1);
    CHECK_FALSE(f.port(h4, 2).connected());
    CHECK(f.port(h4, 1).peer_node == s2);
    CHECK(f.port(h4, 1).peer_port == 2);
    CHECK(f.port(s2, 2).peer_node == h4);

    CHECK(f.port(s1, 3).peer_node == s2);
    CHECK(f.port(s1, 3).peer_port == 3);
    CHECK(f.port(s1, 5).peer_port == 5);
    CHECK(f.port(s1, 5).width == 4);
    CHECK(f.port(s1, 5).speed == LinkSpeed::SDR);
    CHECK_FALSE(f.port(s1, 4).connected());
    CHECK(*f.find_port_by_guid(0x100001) == f.port_id(by_id(f, "H-0000000000100000"), 1));
}

TEST_CASE("ibnetdiscover, ibnetdiscover -f and -g output of one fabric read the same") {
    const Fabric plain =
        read_ibnetdiscover_file(kSamples + "ibsim-2sw2path4hca.ibnetdiscover.topo");
    CHECK(test::fabric_diff(
              plain,
              read_ibnetdiscover_file(kSamples + "ibsim-2sw2path4hca.ibnetdiscover-f.topo")) == "");
    CHECK(test::fabric_diff(
              plain,
              read_ibnetdiscover_file(kSamples + "ibsim-2sw2path4hca.ibnetdiscover-g.topo")) == "");
}

TEST_CASE("ibsim net file with names, sequential GUIDs, include and link defaults") {
    // Values as `ibnetdiscover` reports them when ibsim runs this file.
    const Fabric f = read_ibnetdiscover_file(kSamples + "ibsim-ft2-names.net");
    REQUIRE(f.num_nodes() == 8);
    REQUIRE(f.num_links() == 8);
    CHECK(f.node(0).id == "host-0"); // the include comes first
    CHECK(f.node(by_id(f, "host-0")).guid == 0x2c90300a10000);
    CHECK(f.node(by_id(f, "host-1")).guid == 0x2c90300a10002);
    CHECK(f.node(by_id(f, "host-3")).guid == 0x2c90300a10006);
    CHECK(f.port(by_id(f, "host-3"), 1).guid == 0x2c90300a10007);
    CHECK(f.node(by_id(f, "spine-0")).guid == 0x200000);
    CHECK(f.node(by_id(f, "spine-1")).guid == 0x200001);
    CHECK(f.node(by_id(f, "leaf-0")).guid == 0x200002);
    CHECK(f.node(by_id(f, "leaf-1")).guid == 0x200003);
    CHECK(f.node(by_id(f, "spine-0")).desc == "spine-0"); // no comment: desc = id
    CHECK(f.node(by_id(f, "leaf-0")).desc == "leaf-0 (rack A)");
    CHECK(f.node(by_id(f, "host-3")).desc == "host-3 mlx5_0");

    const NodeId l0 = by_id(f, "leaf-0"), l1 = by_id(f, "leaf-1");
    CHECK(f.port(l0, 4).peer_node == by_id(f, "spine-1"));
    CHECK(f.port(l0, 4).width == 4); // w=2 on both ends: 4x only
    CHECK(f.port(l0, 4).speed == LinkSpeed::QDR);
    CHECK(f.port(l0, 3).width == 12); // width=8 default: 12x
    CHECK(f.port(l0, 3).speed == LinkSpeed::QDR);
    CHECK(f.port(l1, 1).peer_node == by_id(f, "host-2"));
    CHECK(f.port(l1, 1).peer_port == 1); // `[1] "host-2"` without a remote port
    CHECK(f.port(l1, 0).base_lid == 0);
}

TEST_CASE("module prefix, relative GUID base, vendid/devid scope, unquoted description") {
    const Fabric f = read_ibnetdiscover_file(kSamples + "ibsim-module-relguid.net");
    REQUIRE(f.num_nodes() == 3);
    const NodeId sw = by_id(f, "rack7#sw"), h0 = by_id(f, "rack7#h0"), h1 = by_id(f, "rack7#h1");
    CHECK(f.node(sw).guid == 0x2c90200400000);
    CHECK(f.node(h0).guid == 0x2c90200500000);
    CHECK(f.node(h1).guid == 0x2c90200500010); // caguid+0x10 from the last absolute base
    CHECK(f.node(sw).desc == "rack7 leaf");
    CHECK(f.node(sw).enhanced_port0);
    CHECK(f.node(h0).desc == "rack7#h0");
    CHECK(f.node(h1).desc == "h1 mlx4_0");
    CHECK(f.node(sw).vendor_id == 0x2c9);
    CHECK(f.node(h0).vendor_id == 0); // vendid applies to one node only
    CHECK(f.node(h1).vendor_id == 0x15b3);
    CHECK(f.node(h0).device_id == 0xcb20); // devid sticks
    CHECK(f.node(h1).device_id == 0xcb20);
    CHECK(f.port(sw, 1).speed == LinkSpeed::EDR); // e=3 s=7 on both ends
    CHECK(f.port(sw, 1).width == 4);
    CHECK(f.port(sw, 2).speed == LinkSpeed::SDR);
    CHECK(f.port(sw, 8).peer_node == h1);
    CHECK(f.port(sw, 8).peer_port == 2);
}

TEST_CASE("every width and speed string, routers, CA-to-CA cables, `??`") {
    const Fabric f = read_ibnetdiscover_file(kSamples + "mixed-speeds.ibnetdiscover.topo");
    REQUIRE(f.num_nodes() == 11);
    REQUIRE(f.num_links() == 12);
    const NodeId edge = by_id(f, "S-b8cef60300e01234"), spine = by_id(f, "S-b8cef60300e05678");
    const NodeId rt = by_id(f, "R-0002c90300c00000");
    const NodeId n4 = by_id(f, "H-0002c90300b10030"), n5 = by_id(f, "H-0002c90300b10040");
    auto link = [&](NodeId n, PortNum p) {
        return std::pair{int(f.port(n, p).width), f.port(n, p).speed};
    };
    CHECK(link(edge, 1) == std::pair{4, LinkSpeed::HDR});
    CHECK(link(edge, 2) == std::pair{2, LinkSpeed::HDR});
    CHECK(link(edge, 3) == std::pair{4, LinkSpeed::EDR});
    CHECK(link(edge, 5) == std::pair{4, LinkSpeed::HDR});
    CHECK(link(edge, 6) == std::pair{12, LinkSpeed::EDR});
    CHECK(link(edge, 7) == std::pair{4, LinkSpeed::FDR});
    CHECK(link(edge, 9) == std::pair{1, LinkSpeed::FDR10});
    CHECK(link(edge, 12) == std::pair{4, LinkSpeed::Unknown});
    CHECK(link(spine, 33) == std::pair{8, LinkSpeed::NDR});
    CHECK(link(spine, 34) == std::pair{4, LinkSpeed::XDR});
    CHECK(link(spine, 35) == std::pair{0, LinkSpeed::QDR});
    CHECK(link(n4, 1) == std::pair{4, LinkSpeed::QDR});
    CHECK(f.port(n4, 1).peer_node == n5);
    CHECK(f.port(n5, 1).peer_node == n4);
    CHECK(f.port(n4, 2).peer_node == edge);
    CHECK(f.port(n4, 1).guid == 0x2c90300b10031);
    CHECK(f.port(n4, 1).base_lid == 14);
    CHECK(f.port(n4, 1).lmc == 0);
    CHECK(f.port(n4, 2).base_lid == 12);
    CHECK(f.port(n4, 2).lmc == 1);
    CHECK(f.node(n4).sysimg_guid == 0x2c90300b10033);
    CHECK(f.node(by_id(f, "H-0002c90300b10020")).sysimg_guid == 0); // no sysimgguid line
    CHECK(f.node(rt).type == NodeType::Router);
    CHECK(f.node(rt).desc == "router-a");
    CHECK(f.port(rt, 2).peer_node == spine);
    CHECK(f.port(rt, 2).peer_port == 35);
    CHECK(f.port(rt, 2).guid == 0x2c90300c00002);
    CHECK(f.port(rt, 1).base_lid == 10);
    CHECK(f.node(edge).enhanced_port0);
    CHECK(f.node(edge).device_id == 0xd2f0);
    CHECK(f.port(spine, 0).base_lid == 2);
}

TEST_CASE("chassis output (ibnetdiscover -g): ext port numbers on both sides") {
    const Fabric f = read_ibnetdiscover_file(kSamples + "voltaire-chassis.ibnetdiscover-g.topo");
    REQUIRE(f.num_nodes() == 5);
    REQUIRE(f.num_links() == 5);
    const NodeId line1 = by_id(f, "S-0008f10400411f5c"), isr = by_id(f, "S-0005442ba00003080");
    const NodeId hca = by_id(f, "H-0008f10403960558");
    CHECK(f.port(line1, 1).ext_num == 1);
    CHECK(f.port(line1, 2).ext_num == 2);
    CHECK(f.port(line1, 19).ext_num == 0);
    CHECK(f.port(isr, 10).peer_node == line1);
    CHECK(f.port(isr, 10).width == 1);
    CHECK(f.port(hca, 2).guid == 0x8f1040396055a);
    CHECK(f.port(hca, 2).base_lid == 14);
    CHECK(f.node(line1).sysimg_guid == 0x8f10400411f56);
    CHECK(f.node(line1).device_id == 0x5a30);
}

TEST_CASE("grammar corners: CRLF, comments in a record, do/pdebug, defaults, routers") {
    const Fabric f = read_text("# comment\r\n"
                               "pdebug=0\r\n"
                               "do Wait\r\n"
                               "switchguid+5\r\n"
                               "Switch 3 \"a\" # \"switch a\" enhanced port 0 lid 8 lmc 2\r\n"
                               "# a comment inside the record\r\n"
                               "[1] \"r\"[2] w=1 s=2\r\n"
                               "[2]\t\"b\"[1]\t\t# \"b\" lid 3 12xDDR s=2 w=8 v=4\r\n"
                               "\r\n"
                               "extspeed=2\r\n"
                               "Rt 2 \"r\"\r\n"
                               "[2] \"a\"[1] w=3 s=3 # lid 9 lmc 0 \"switch a\" lid 8\r\n"
                               "\r\n"
                               "hcaguids=0x10\r\n"
                               "Hca 1 \"b\"  # \"\"\r\n"
                               "[1] \"a\"[2] # lid 3 lmc 0 \"switch a\" lid 8 4xDDR\r\n");
    REQUIRE(f.num_nodes() == 3);
    const NodeId a = by_id(f, "a"), r = by_id(f, "r"), b = by_id(f, "b");
    CHECK(f.node(a).guid == 0x200005); // relative to the default switch base
    CHECK(f.node(a).desc == "switch a");
    CHECK(f.port(a, 0).base_lid == 8);
    CHECK(f.port(a, 0).lmc == 2);
    CHECK(f.node(r).guid == ~std::uint64_t{0}); // ibsim's router default base
    CHECK(f.port(r, 2).guid == 1);              // ... plus the port number, wrapped
    CHECK(f.port(r, 2).base_lid == 9);
    CHECK(f.node(b).guid == 0x10);
    CHECK(f.node(b).desc == "b");                // empty description: the id, as ibsim does
    CHECK(f.port(a, 1).width == 1);              // w=1 vs w=3: 1x
    CHECK(f.port(a, 1).speed == LinkSpeed::DDR); // s=2 vs s=3
    CHECK(f.port(a, 2).width == 4);              // 12x enables 1x|4x|12x, 4x enables 1x|4x
    CHECK(f.port(a, 2).speed == LinkSpeed::DDR);
}

TEST_CASE("exact error messages name the file and line") {
    CHECK(error_of("Switch 8 \"sw\"\n"
                   "[1] \"h\"[1]\n"
                   "[2] \"nope\"[1]\n"
                   "\n"
                   "Ca 1 \"h\"\n"
                   "[1] \"sw\"[1]\n") == "topo.net:3: unknown remote node \"nope\"");
    CHECK(error_of("Switch 8 \"sw\"\n"
                   "[1] \"h\"[1]\n"
                   "[9] \"h\"[1]\n") == "topo.net:3: port 9 does not exist on \"sw\" (8 ports)");
    CHECK(error_of("Switch 8 \"sw\"\n"
                   "[1] \"h\"[3]\n"
                   "\n"
                   "Ca 2 \"h\"\n"
                   "[1] \"sw\"[1]\n") == "topo.net:2: port 3 does not exist on \"h\" (2 ports)");
    CHECK(error_of("Switch 8 \"sw\"\n"
                   "[1] \"h\"[1]\n"
                   "[2] \"h\"[2]\n"
                   "\n"
                   "Ca 2 \"h\"\n"
                   "[1] \"sw\"[1]\n") == "topo.net:3: \"sw\" port 2 names \"h\" port 2 as its "
                                         "peer, but that port does not name it back");
    CHECK(error_of("Switch 8 \"sw\"\n[1] \"sw\"[1]\n") ==
          "topo.net:2: \"sw\" port 1 is cabled to itself");
    CHECK(error_of("caguid=0xZZ\n") == "topo.net:1: bad GUID \"0xZZ\"");
    CHECK(error_of("switchguid=0x12g4\n") == "topo.net:1: bad GUID \"0x12g4\"");
    CHECK(error_of("switchguid=0x10(12x)\n") == "topo.net:1: bad port GUID in parentheses");
    CHECK(error_of("Switch 8 \"sw\"\n"
                   "[1] \"h\"[1]   # \"h\" lid 2 5xSDR\n") ==
          "topo.net:2: bad link width in \"5xSDR\"");
    CHECK(error_of("Switch 8 \"sw\"\n"
                   "[1] \"h\"[1]   # \"h\" lid 2 4xQDX\n") ==
          "topo.net:2: bad link speed in \"4xQDX\"");
    CHECK(error_of("Switch 8 \"sw\"\n"
                   "[1] \"h\"[1] w=1\n"
                   "\n"
                   "Ca 1 \"h\"\n"
                   "[1] \"sw\"[1] w=2\n") ==
          "topo.net:2: link width mismatch: the two ends enable no common width");
    CHECK(error_of("Switch 8 \"sw\"\n"
                   "[1] \"h\"[1] w=40\n") == "topo.net:2: bad link width option w=40");
    CHECK(error_of("Switch 8 \"sw\"\n"
                   "[1] \"h\"[1] x=1\n") == "topo.net:2: unknown port option x=1");
    CHECK(error_of("Switch 8 \"sw\"\n"
                   "[1] \"h\"[1]\n"
                   "[1] \"h\"[2]\n") ==
          "topo.net:3: port 1 of \"sw\" is listed twice (first at line 2)");
    CHECK(error_of("Switch 8 \"sw\"\n"
                   "\n"
                   "Ca 1 \"sw\"\n") ==
          "topo.net:3: duplicate node id \"sw\" (first defined at line 1)");
    CHECK(error_of("switchguid=0x10\n"
                   "Switch 8 \"a\"\n"
                   "switchguid=0x10\n"
                   "Switch 8 \"b\"\n") == "topo.net:4: duplicate node GUID 0x0000000000000010");
    CHECK(error_of("Switch 8 \"sw\"\n"
                   "\n"
                   "[1] \"h\"[1]\n") == "topo.net:3: port line outside a node record (a blank or "
                                        "other line ended the record)");
    CHECK(error_of("Switch 0 \"sw\"\n") == "topo.net:1: bad port count 0 (1..254)");
    CHECK(error_of("Switch 8 \"sw\n") == "topo.net:1: unterminated quoted string");
    CHECK(error_of("Switch 8 \"sw\"\n[0] \"h\"[1]\n") == "topo.net:2: port 0 cannot be cabled");
    CHECK(error_of("Swich 8 \"sw\"\n") == "topo.net:1: unrecognised line \"Swich 8 \"sw\"\"");
    CHECK(error_of("Switch 8 \"sw\" # \"d\" lid 70000\n") == "topo.net:1: bad LID \"70000\"");
    CHECK(error_of("Ca 1 \"h\"\n[1] \"sw\"[1] # lid 3 lmc 9 \"d\" lid 1 4xSDR\n") ==
          "topo.net:2: bad LMC \"9\"");
    // A base LID not aligned to 2^LMC (issue 12): IBA and opensm reject it.
    CHECK(error_of("Ca 1 \"h\"\n[1] \"sw\"[1] # lid 3 lmc 1 \"d\" lid 1 4xSDR\n") ==
          "topo.net:2: base LID 3 (0x0003) with LMC 1 is not a multiple of 2^LMC = 2: IBA "
          "requires a port's base LID aligned to its 2^LMC LIDs, and opensm drops such a record "
          "(aligned: 2 or 4)");
    CHECK(error_of("Switch 8 \"sw\" # \"d\" enhanced port 0 lid 9 lmc 2\n") ==
          "topo.net:1: base LID 9 (0x0009) with LMC 2 is not a multiple of 2^LMC = 4: IBA "
          "requires a port's base LID aligned to its 2^LMC LIDs, and opensm drops such a record "
          "(aligned: 8 or 12)");
    CHECK(error_of("Switch 8 \"sw\" # \"d\" enhanced port 0 lmc 1 lid 1\n") ==
          "topo.net:1: base LID 1 (0x0001) with LMC 1 is not a multiple of 2^LMC = 2: IBA "
          "requires a port's base LID aligned to its 2^LMC LIDs, and opensm drops such a record "
          "(aligned: 2)");
    CHECK(error_of("Switch 8 \"a#b\"\n") ==
          "topo.net:1: '#' is reserved in node ids (ibsim module prefixes)");
    CHECK(error_of("Switch 8 \"sw\"\n@[1] \"alias\"\n") ==
          "topo.net:2: ibsim port aliases ('@') are not supported");
    CHECK(error_of("Ca 1 \"h\"\n[1](10001) \"sw\"[1]\n\nCa 1 \"sw\"\n[1] \"h\"[1](10002)\n") ==
          "topo.net:5: port GUID 0x0000000000010002 given for \"h\" port 1 differs from "
          "0x0000000000010001 on its own line");
}

TEST_CASE("include errors name the included file") {
    std::istringstream in("include \"ibsim-ft2-hosts.inc\"\n");
    try {
        (void)read_ibnetdiscover(in, "main.net", kSamples);
        FAIL("no error");
    } catch (const InputError& e) {
        CHECK(e.file() == kSamples + "ibsim-ft2-hosts.inc");
        CHECK(e.line() == 4);
        CHECK(e.problem() == "unknown remote node \"leaf-0\"");
    }
    CHECK(
        error_of("include \"/nonexistent/x.net\"\n") ==
        "topo.net:1: include file \"/nonexistent/x.net\": cannot open: No such file or directory");
    CHECK_THROWS_WITH(read_ibnetdiscover_file("/nonexistent/y.net"),
                      "/nonexistent/y.net: cannot open: No such file or directory");
}

TEST_CASE("an include cycle is cut off") {
    const std::string dir = std::string(IBRT_BINARY_DIR) + "/test-include-cycle";
    std::filesystem::create_directories(dir);
    {
        std::ofstream(dir + "/a.net") << "include \"b.net\"\n";
        std::ofstream(dir + "/b.net") << "# b\ninclude \"a.net\"\n";
    }
    try {
        (void)read_ibnetdiscover_file(dir + "/a.net");
        FAIL("no error");
    } catch (const InputError& e) {
        CHECK(e.problem() == "includes nested too deeply (an include cycle?)");
        CHECK(e.line() == 1); // a.net is open for the fifth time when the limit hits
        CHECK(e.file() == dir + "/a.net");
    }
}

TEST_CASE("a cable between two ports of one switch") {
    const Fabric f = read_text("Switch 8 \"sw\"\n[1] \"sw\"[2]\n[2] \"sw\"[1]\n");
    CHECK(f.num_links() == 1);
    CHECK(f.port(0, 1).peer_node == 0);
    CHECK(f.port(0, 1).peer_port == 2);
}

TEST_CASE("input without nodes is an error, not an empty fabric (issue 12)") {
    const std::string msg = "x: no nodes: the file has no Switch, Ca or Rt record (is it an "
                            "ibnetdiscover topology?)";
    CHECK_THROWS_WITH(read_text("", "x"), msg);
    CHECK_THROWS_WITH(read_text("#\n# nothing\n\n", "x"), msg);
    CHECK(read_text("Ca 1 \"h\"\n").num_nodes() == 1);
}
