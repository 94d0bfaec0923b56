// formats/routing_files.hpp: the one topology loader tells opensm-subnet.lst from ibnetdiscover
// by content, and a Routing loads the same from opensm's subnet.lst + opensm.fdbs as from the
// ibnetdiscover topology + opensm-lfts.dump of the same run (test-fabrics/tables/ft-lmc1.*),
// with path SLs; a subnet.lst of an LMC 1 run without guid2lid is refused, not misread (an
// LMC 0 run needs no guid2lid: tests/e2e/test_ibdmchk.sh).
#include "fabric/input_error.hpp"
#include "formats/routing_files.hpp"
#include "tables_fixture.hpp"
#include "test_ibnetdiscover_compare.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

using namespace ibrt;
using ibrt::test::tables_dir;

namespace {

std::string temp_file(const std::string& name, const std::string& text) {
    const auto p = std::filesystem::temp_directory_path() / ("ibrt-routing-files-" + name);
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
}

} // namespace

TEST_CASE("topologies are told apart by content", "[routing_files]") {
    const std::string lst = tables_dir() + "ft-lmc1.opensm-subnet.lst";
    const std::string net = tables_dir() + "ft-lmc1.net";
    CHECK(detect_topology_format(lst) == TopologyFormat::SubnetLst);
    CHECK(detect_topology_format(net) == TopologyFormat::Ibnetdiscover);
    // Comments and blank lines first, and no telling file name.
    const std::string hidden =
        temp_file("commented", "# copied from the SM host\n\n" + test::read_text(lst));
    CHECK(detect_topology_format(hidden) == TopologyFormat::SubnetLst);
    CHECK(detect_topology_format("/no/such/file") == TopologyFormat::Ibnetdiscover);
    const Fabric a = load_topology(net), b = load_topology(hidden);
    // subnet.lst has no LMC, no ids, and ibsim's system GUIDs where the net file has none.
    CHECK(test::fabric_diff(a, b, {.ids = false, .lids = false, .sysimg = false}) == "");
    CHECK_THROWS_WITH(load_topology(temp_file("bad", "{ XX\n")),
                      Catch::Contains("ibrt-routing-files-bad:1: unknown node type"));
}

TEST_CASE("subnet.lst + opensm.fdbs load the routing the ibnetdiscover + lfts dump give",
          "[routing_files]") {
    const std::string t = tables_dir() + "ft-lmc1";
    const Fabric net = load_topology(t + ".net");
    const Routing want = load_routing_files(
        net, {t + ".net", t + ".opensm-lfts.dump", t + ".guid2lid", t + ".opensm-sl2vl.dump"});
    const Fabric lst = load_topology(t + ".opensm-subnet.lst");
    const Routing got = load_routing_files(lst, {t + ".opensm-subnet.lst", t + ".opensm.fdbs",
                                                 t + ".guid2lid", t + ".opensm-sl2vl.dump"});
    REQUIRE(got.lids.max_lid() == want.lids.max_lid());
    CHECK(got.lmc == 1);
    for (NodeId sw : net.switches()) {
        const NodeId other = *lst.find_node_by_guid(net.node(sw).guid);
        for (std::uint32_t lid = 1; lid <= want.lids.max_lid(); ++lid) {
            INFO(net.node(sw).desc << " LID " << lid);
            CHECK(got.out_port(other, Lid(lid)) == want.out_port(sw, Lid(lid)));
        }
    }
    CHECK_FALSE(got.sl2vl.empty());
}

TEST_CASE("an LMC 1 subnet.lst without guid2lid is refused", "[routing_files]") {
    const std::string t = tables_dir() + "ft-lmc1";
    const Fabric lst = load_topology(t + ".opensm-subnet.lst");
    CHECK_THROWS_WITH(
        load_routing_files(lst, {t + ".opensm-subnet.lst", t + ".opensm.fdbs"}),
        t +
            ".opensm.fdbs:1: switch 'leaf-0' (GUID 0x0020000000010000) routes LID 3, which no "
            "port owns in " +
            t +
            ".opensm-subnet.lst: the subnet ran with LMC > 0, which opensm-subnet.lst does not "
            "record; give the LIDs with --guid2lid");
}

TEST_CASE("path SLs load into Routing::path_sls by source port", "[routing_files]") {
    const std::string t = tables_dir() + "ft-lmc1";
    const Fabric f = load_topology(t + ".net");
    // host-l1-1 (LID 12, behind leaf-1) is reached on SL 3 from host-l1-0; everything else SL 0.
    std::string text;
    for (Lid d : {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13})
        text += fmt::format("0x0010000000000300 {} {}\n", d, d == 12 || d == 13 ? 3 : 0);
    text += "0x0010000000000400 12 3\n0x0010000000000400 13 3\n";
    RoutingFiles files{t + ".net", t + ".opensm-lfts.dump", t + ".guid2lid"};
    files.path_sl = temp_file("psl", text);
    const Routing r = load_routing_files(f, files);
    const PortId l1_0 = f.port_id(*f.find_node_by_id("host-l1-0"), 1);
    const PortId l0_0 = f.port_id(*f.find_node_by_id("host-l0-0"), 1);
    CHECK(r.path_sl(l1_0, 12) == 3);
    CHECK(r.path_sl(l1_0, 13) == 3);
    CHECK(r.path_sl(l1_0, 10) == 0);
    CHECK(r.path_sl(l0_0, 12) == 0);
}
