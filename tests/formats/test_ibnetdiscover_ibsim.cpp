// The written file against the real simulator: ibsim (sim_net.c) must load it, and what
// infiniband-diags' ibnetdiscover then discovers through ibsim must read back to the same
// fabric: GUIDs, descriptions, cables, widths, speeds and the LIDs preset by the comments.
// Needs the Debian packages ibsim-utils (ibsim, libumad2sim) and infiniband-diags.
#include "formats/ibnetdiscover.hpp"
#include "test_ibnetdiscover_compare.hpp"

#include "tests/test_files.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace ibrt;

namespace {

const char* kShim = "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so";

// Runs ibsim on the net file `net` (from its own directory, where its includes are) in a
// private socket namespace, then ibnetdiscover against it from a scratch directory. Returns
// the discovered topology file's path; `log` gets ibsim's output.
std::string discover_file(const std::string& net, const std::string& tag, std::string& log) {
    namespace fs = std::filesystem;
    const std::string dir =
        std::string(IBRT_BINARY_DIR) + "/ibsim-topo-" + tag + "-" + std::to_string(::getpid());
    {
        std::ofstream sh(dir + "/run.sh");
        sh << "export IBSIM_SOCKNAME=ibrt_topo_" << tag << "_" << ::getpid() << "\n"
           << "cd '" << fs::path(net).parent_path().string() << "' || exit 9\n"
           << "ibsim -s -n '" << fs::path(net).filename().string() << "' > '" << dir
           << "/ibsim.out' 2>&1 &\n"
           << "SIM=$!\n"
           << "cd '" << dir << "' || exit 9\n"
           << "for i in $(seq 200); do\n"
           << "  grep -q 'Network simulator ready' ibsim.out && break\n"
           << "  kill -0 $SIM 2>/dev/null || break\n"
           << "  sleep 0.05\n"
           << "done\n"
           << "LD_PRELOAD=" << kShim << " timeout 60 ibnetdiscover > disc.topo 2> disc.err\n"
           << "rc=$?\n"
           << "kill $SIM 2>/dev/null; wait $SIM 2>/dev/null\n"
           << "exit $rc\n";
    }
    const int rc = std::system(("bash '" + dir + "/run.sh'").c_str());
    log = test::slurp(dir + "/ibsim.out");
    INFO(log);
    INFO(test::slurp(dir + "/disc.err"));
    REQUIRE(rc == 0);
    REQUIRE(log.find("Network simulator ready") != std::string::npos);
    return dir + "/disc.topo";
}

std::string scratch_dir(const std::string& tag) {
    const std::string dir =
        std::string(IBRT_BINARY_DIR) + "/ibsim-topo-" + tag + "-" + std::to_string(::getpid());
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

// Writes `f` and runs it through ibsim + ibnetdiscover (see discover_file).
std::string discover_through_ibsim(const Fabric& f, const std::string& tag, std::string& log) {
    const std::string dir = scratch_dir(tag);
    write_ibnetdiscover_file(dir + "/net.topo", f);
    return discover_file(dir + "/net.topo", tag, log);
}

} // namespace

TEST_CASE("ibsim loads the written fat tree and ibnetdiscover reports it back unchanged",
          "[ibsim]") {
    REQUIRE(std::filesystem::exists("/usr/bin/ibsim"));
    REQUIRE(std::filesystem::exists(kShim));
    const Fabric f = test::make_fat_tree(3, 4, 2, 12, 8);
    std::string log;
    const std::string disc = discover_through_ibsim(f, "ft", log);
    const Fabric g = read_ibnetdiscover_file(disc);
    CHECK(log.find("parsing failed") == std::string::npos);
    // ibnetdiscover names nodes S-/H-<guid>, and ibsim reports a node's own GUID as its system
    // image GUID when the file gives none.
    CHECK(test::fabric_diff(f, g, {.ids = false, .sysimg = false}) == "");
    CHECK(g.node(*g.find_node_by_guid(0x0c42a10300000001ull)).sysimg_guid == 0x0c42a10300000001ull);
    std::filesystem::remove_all(std::filesystem::path(disc).parent_path());
}

TEST_CASE("ibsim reproduces every width and the speeds it knows", "[ibsim]") {
    FabricBuilder b;
    const NodeId sw = b.add_node(NodeType::Switch, 8, 0x0002c90000000100ull, "sw");
    b.node(sw).id = "sw";
    // libibnetdisc asks only known Mellanox device ids (SwitchX 0xc738, ConnectX-3 0x1003, ...)
    // for the vendor port info that carries FDR10.
    b.node(sw).vendor_id = 0x2c9;
    b.node(sw).device_id = 0xc738;
    b.port(sw, 0).base_lid = 1;
    // ibsim 0.10 (Debian) knows SDR..HDR and FDR10; NDR and XDR it cannot simulate.
    const std::pair<std::uint8_t, LinkSpeed> links[] = {
        {1, LinkSpeed::SDR},  {2, LinkSpeed::DDR}, {4, LinkSpeed::QDR}, {8, LinkSpeed::FDR10},
        {12, LinkSpeed::FDR}, {4, LinkSpeed::EDR}, {12, LinkSpeed::HDR}};
    PortNum p = 1;
    for (auto [w, s] : links) {
        const std::uint64_t g = 0x0002c90000001000ull + p * 0x10;
        const NodeId h = b.add_node(NodeType::CA, 1, g, "hca " + std::to_string(p));
        b.node(h).id = "h" + std::to_string(p);
        b.node(h).vendor_id = 0x2c9;
        b.node(h).device_id = 0x1003;
        b.port(h, 1).guid = g + 1;
        b.port(h, 1).base_lid = static_cast<Lid>(10 + p);
        b.connect(sw, p, h, 1, w, s);
        ++p;
    }
    const Fabric f = std::move(b).build();
    std::string log;
    const std::string disc = discover_through_ibsim(f, "speeds", log);
    const Fabric g = read_ibnetdiscover_file(disc);
    CHECK(test::fabric_diff(f, g, {.ids = false, .sysimg = false}) == "");
    std::filesystem::remove_all(std::filesystem::path(disc).parent_path());
}

TEST_CASE("ibsim loads 254-port nodes with 64-character ids and long descriptions", "[ibsim]") {
    FabricBuilder b;
    const std::string desc = "x=1 " + std::string(100, 'd');
    const NodeId sw = b.add_node(NodeType::Switch, 254, 0xffffffffffffff00ull, desc);
    const NodeId ca = b.add_node(NodeType::CA, 254, 0xfffffffffffff000ull, desc);
    b.node(sw).id = std::string(64, 's');
    b.node(ca).id = std::string(64, 'c');
    b.port(sw, 0).base_lid = 1;
    b.port(ca, 254).base_lid = kMaxUnicastLid;
    b.connect(sw, 254, ca, 254, 12, LinkSpeed::QDR);
    b.connect(sw, 1, ca, 1, 1, LinkSpeed::DDR);
    const Fabric f = std::move(b).build();
    std::string log;
    const std::string disc = discover_through_ibsim(f, "long", log);
    const Fabric g = read_ibnetdiscover_file(disc);
    REQUIRE(g.num_nodes() == 2);
    const NodeId gsw = *g.find_node_by_guid(0xffffffffffffff00ull);
    CHECK(g.port(gsw, 254).width == 12);
    CHECK(g.port(gsw, 254).speed == LinkSpeed::QDR);
    CHECK(g.port(gsw, 1).speed == LinkSpeed::DDR);
    CHECK(g.port(*g.find_node_by_guid(0xfffffffffffff000ull), 254).base_lid == kMaxUnicastLid);
    CHECK(g.node(gsw).desc == "x 1 " + std::string(59, 'd')); // ibsim keeps 63 bytes
    std::filesystem::remove_all(std::filesystem::path(disc).parent_path());
}

TEST_CASE("the reader builds the fabric ibsim builds from hand-written net files", "[ibsim]") {
    // GUID numbering, default remote ports, include, module prefix, link options and defaults
    // as ibsim applies them, checked against what ibnetdiscover discovers in the simulator.
    const std::string samples = std::string(IBRT_SOURCE_DIR) + "/test-fabrics/samples/";
    for (const char* name : {"ibsim-ft2-names.net", "ibsim-module-relguid.net",
                             "voltaire-chassis.ibnetdiscover-g.topo"}) {
        INFO(name);
        const std::string tag = std::string("sample") + std::to_string(name[6] - 'a');
        scratch_dir(tag);
        std::string log;
        const std::string disc = discover_file(samples + name, tag, log);
        const Fabric f = read_ibnetdiscover_file(samples + name);
        const Fabric g = read_ibnetdiscover_file(disc);
        // ibsim has no external port numbers and reports node GUIDs as system image GUIDs.
        test::CompareOptions opt{.ids = false, .sysimg = false};
        if (std::string(name).find("chassis") != std::string::npos) {
            CHECK(g.num_links() == f.num_links());
            CHECK(g.port(*g.find_node_by_guid(0x5442ba00003080), 10).width == 1);
            CHECK(g.port(*g.find_node_by_guid(0x8f10403960558), 2).base_lid == 14);
        } else {
            CHECK(test::fabric_diff(f, g, opt) == "");
        }
        std::filesystem::remove_all(std::filesystem::path(disc).parent_path());
    }
}
