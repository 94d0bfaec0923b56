// read_subnet_lst on a real opensm-subnet.lst (written by OpenSM 3.3.23 on the ibsim fabric
// whose ibnetdiscover output is the sibling sample), inline lines for every speed and width
// string, and exact errors.
#include "fabric/input_error.hpp"
#include "fabric/lids.hpp"
#include "formats/ibnetdiscover.hpp"
#include "formats/subnet_lst_reader.hpp"
#include "formats/subnet_lst_writer.hpp"
#include "tables_fixture.hpp"
#include "test_ibnetdiscover_compare.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace ibrt;

namespace {

const std::string kSamples = std::string(IBRT_SOURCE_DIR) + "/test-fabrics/samples/";

Fabric lst(const std::string& text) {
    std::istringstream in(text);
    return read_subnet_lst(in, "subnet.lst");
}

std::string error_of(const std::string& text) {
    try {
        (void)lst(text);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

std::string side(const char* type, int ports, const char* guid, const char* port_guid,
                 const char* desc, const char* lid, int pn) {
    return std::string("{ ") + type + " Ports:" + (ports < 16 ? "0" : "") +
           fmt::format("{:X}", ports) + " SystemGUID:" + guid + " NodeGUID:" + guid +
           " PortGUID:" + port_guid + " VenID:0002C9 DevID:1017 Rev:000000A1 {" + desc +
           "} LID:" + lid + " PN:" + fmt::format("{:02X}", pn) + " } ";
}

} // namespace

TEST_CASE("opensm-subnet.lst reads to the fabric ibnetdiscover reported") {
    const Fabric f = read_subnet_lst_file(kSamples + "ibsim-2sw2path4hca.opensm-subnet.lst");
    REQUIRE(f.num_nodes() == 6);
    REQUIRE(f.num_links() == 6);
    const Fabric d = read_ibnetdiscover_file(kSamples + "ibsim-2sw2path4hca.ibnetdiscover.topo");
    // The dump has no LMC (the CAs run LMC 1); everything else is the same.
    CHECK(test::fabric_diff(d, f, {.lids = false}) == "");
    const NodeId s1 = *f.find_node_by_id("S-0000000000200000");
    const NodeId h4 = *f.find_node_by_id("H-0000000000100009");
    CHECK(f.node(s1).desc == "Switch1");
    CHECK(f.port(s1, 0).base_lid == 1);
    CHECK(f.port(h4, 1).base_lid == 10);
    CHECK(f.port(h4, 1).lmc == 0);
    CHECK(f.port(h4, 1).guid == 0x10000a);
    CHECK(f.port(s1, 3).peer_port == 3);
    CHECK(f.port(s1, 3).speed == LinkSpeed::SDR);
    CHECK(f.port(s1, 3).width == 4);
    CHECK(f.node(0).id == "H-0000000000100000"); // first line's local node
}

TEST_CASE("subnet.lst speed and width strings") {
    const char* sw = "0002c90000000100";
    const char* ca = "0002c90000001000";
    std::string text;
    const std::pair<const char*, const char*> links[] = {
        {"1x", "2.5"}, {"4x", "5"},  {"8x", "10"},  {"12x", "FDR10"},
        {"2x", "14"},  {"4x", "25"}, {"12x", "50"}, {"??", "??"}};
    for (int p = 1; p <= 8; ++p) {
        const std::string pg = fmt::format("0002c9000000100{}", p);
        const std::string lid = fmt::format("{:04X}", 0x10 + p);
        const auto [w, s] = links[p - 1];
        const std::string tail = std::string("PHY=") + w + " LOG=ACT SPD=" + s + "\n";
        text += side("SW-SM", 8, sw, sw, "sw", "0001", p) +
                side("CA", 8, ca, pg.c_str(), "host", lid.c_str(), p) + tail;
        text += side("CA", 8, ca, pg.c_str(), "host", lid.c_str(), p) +
                side("SW", 8, sw, sw, "sw", "0001", p) + tail;
    }
    const Fabric f = lst(text);
    REQUIRE(f.num_links() == 8);
    const NodeId s = *f.find_node_by_guid(0x2c90000000100);
    const NodeId h = *f.find_node_by_guid(0x2c90000001000);
    auto link = [&](PortNum p) { return std::pair{int(f.port(s, p).width), f.port(s, p).speed}; };
    CHECK(link(1) == std::pair{1, LinkSpeed::SDR});
    CHECK(link(2) == std::pair{4, LinkSpeed::DDR});
    CHECK(link(3) == std::pair{8, LinkSpeed::QDR});
    CHECK(link(4) == std::pair{12, LinkSpeed::FDR10});
    CHECK(link(5) == std::pair{2, LinkSpeed::FDR});
    CHECK(link(6) == std::pair{4, LinkSpeed::EDR});
    CHECK(link(7) == std::pair{12, LinkSpeed::HDR});
    CHECK(link(8) == std::pair{0, LinkSpeed::Unknown});
    CHECK(f.port(h, 5).guid == 0x2c90000001005);
    CHECK(f.port(h, 5).base_lid == 0x15);
    CHECK(f.node(h).vendor_id == 0x2c9);
    CHECK(f.node(h).device_id == 0x1017);
    CHECK(f.node(h).id == "H-0002c90000001000");
}

TEST_CASE("subnet.lst errors name the line") {
    const char* sw = "0000000000000020";
    const char* ca = "0000000000000010";
    const std::string ok = side("SW", 8, sw, sw, "sw", "0001", 1) +
                           side("CA", 1, ca, "0000000000000011", "h", "0002", 1) +
                           "PHY=4x LOG=ACT SPD=2.5\n";
    CHECK(error_of(ok) == "subnet.lst:1: switch 'sw' (GUID 0x0000000000000020) port 1 names CA "
                          "'h' (GUID 0x0000000000000010) port 1 as its peer, but that port does "
                          "not name it back");
    CHECK(error_of(ok.substr(0, ok.size() - 4) + "3.5\n") ==
          "subnet.lst:1: bad link speed \"3.5\"");
    CHECK(error_of(ok.substr(0, ok.find("PHY=")) + "PHY=3x LOG=ACT SPD=2.5\n") ==
          "subnet.lst:1: bad link width \"3x\"");
    CHECK(error_of("\n{ XX Ports:08 }\n") == "subnet.lst:2: unknown node type \"XX\"");
    CHECK(error_of("{ SW Ports:08 SystemGUID:00000000000000zz NodeGUID:0\n") ==
          "subnet.lst:1: bad SystemGUID value \"00000000000000zz\"");
    CHECK(error_of(side("SW", 8, sw, sw, "sw", "0001", 9)) ==
          "subnet.lst:1: port 9 does not exist on switch 'sw' (GUID 0x0000000000000020) (8 "
          "ports)");
    CHECK(error_of(ok + ok) == "subnet.lst:2: port 1 of switch 'sw' (GUID 0x0000000000000020) is "
                               "listed twice (first at line 1)");
    CHECK(error_of(ok + side("SW", 4, ca, ca, "h", "0002", 1) +
                   side("SW", 8, sw, sw, "sw", "0001", 1) + "PHY=4x LOG=ACT SPD=2.5\n") ==
          "subnet.lst:2: switch 'h' (GUID 0x0000000000000010) is a Switch with 4 ports here but "
          "a CA with 1 ports at line 1");
    CHECK(error_of(ok.substr(0, ok.find(" SPD=")) + " SPX=2.5\n") ==
          "subnet.lst:1: expected \" SPD=\" at \" SPX=2.5\"");
}

TEST_CASE("old subnet.lst dumps without SPD= read, with the speed unknown") {
    // ibdiagnet and old opensm versions end each line at LOG=; a 2008-era dump was rejected.
    const std::string real = test::read_text(kSamples + "ibsim-2sw2path4hca.opensm-subnet.lst");
    std::string old;
    std::istringstream in(real);
    for (std::string line; std::getline(in, line);)
        old += line.substr(0, line.find(" SPD=")) + "\n";
    REQUIRE(old.find("SPD=") == std::string::npos);
    const Fabric f = lst(old);
    const Fabric d = read_subnet_lst_file(kSamples + "ibsim-2sw2path4hca.opensm-subnet.lst");
    CHECK(test::fabric_diff(d, f, {.lids = false, .speeds = false}) == "");
    for (PortId p = 0; p < f.num_port_slots(); ++p)
        if (f.port(p).connected()) CHECK(f.port(p).speed == LinkSpeed::Unknown);
}

TEST_CASE("an 8-digit DevID is the 16-bit DevID shifted left, as opensm prints the peer half") {
    const char* sw = "0000000000000020";
    const char* ca = "0000000000000010";
    std::string a = side("SW", 8, sw, sw, "sw", "0001", 1);
    std::string b = side("CA", 1, ca, "0000000000000011", "h", "0002", 1);
    const std::string tail = "PHY=4x LOG=ACT SPD=2.5\n";
    // Old dumps print the local half's DevID with 8 digits too.
    const std::string wide = "DevID:10170000";
    const auto widen = [&](std::string s) { return s.replace(s.find("DevID:1017"), 10, wide); };
    const Fabric f = lst(widen(a) + widen(b) + tail + b + a + tail);
    CHECK(f.node(*f.find_node_by_guid(0x20)).device_id == 0x1017);
    CHECK(f.node(*f.find_node_by_guid(0x10)).device_id == 0x1017);
    CHECK(f.node(*f.find_node_by_guid(0x10)).revision == 0xA1);
}

TEST_CASE("opensm-subnet.lst writer matches opensm byte for byte") {
    // The sample run's SM sat on LID 1 (`SW-SM`); the dump has no LMC, and prints base LIDs.
    const std::string path = kSamples + "ibsim-2sw2path4hca.opensm-subnet.lst";
    const Fabric f = read_subnet_lst_file(path);
    std::ostringstream out;
    write_subnet_lst(out, f, Lids::from_fabric(f), 1);
    CHECK(out.str() == test::read_text(path));
    // Node order does not matter: the writer sorts as opensm's GUID map does.
    const Fabric d = read_ibnetdiscover_file(kSamples + "ibsim-2sw2path4hca.ibnetdiscover.topo");
    std::ostringstream from_disc;
    write_subnet_lst(from_disc, d, Lids::from_fabric(d), 1);
    std::string want = test::read_text(path);
    for (std::size_t at; (at = want.find("Rev:000000A1")) != std::string::npos;)
        want.replace(at, 12, "Rev:00000000"); // ibnetdiscover does not report the revision
    CHECK(from_disc.str() == want);
}

TEST_CASE("subnet.lst writer output reads back to the same fabric") {
    const Fabric d = read_ibnetdiscover_file(kSamples + "mixed-speeds.ibnetdiscover.topo");
    std::ostringstream out;
    write_subnet_lst(out, d, Lids::from_fabric(d));
    std::istringstream in(out.str());
    const Fabric f = read_subnet_lst(in, "w");
    // What subnet.lst cannot hold: LMCs, NDR/XDR speeds (`??`), ids, enhanced port 0; a missing
    // system image GUID is written as the node GUID (subnet_lst_writer.hpp).
    CHECK(test::fabric_diff(
              d, f,
              {.ids = false, .lids = false, .sysimg = false, .speeds = false, .enhanced = false}) ==
          "");
    for (NodeId n = 0; n < d.num_nodes(); ++n) {
        const Node& x = d.node(n);
        CHECK(f.node(*f.find_node_by_guid(x.guid)).sysimg_guid ==
              (x.sysimg_guid ? x.sysimg_guid : x.guid));
    }
}
