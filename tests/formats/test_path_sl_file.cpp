// The path-SL file (formats/path_sl_file.hpp, ibdmchk -c format): what the writer lists, round
// trips through the reader and binder, the line format ibdmchk's parser matches, and every
// reader/binder error with its file:line.
#include "fabric/end_ports.hpp"
#include "fabric/input_error.hpp"
#include "formats/path_sl_file.hpp"
#include "tables_fixture.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>

using namespace ibrt;
using ibrt::test::sample_fabric;

namespace {

NodeId node(const Fabric& f, const char* id) {
    return *f.find_node_by_id(id);
}

// ft-lmc1's fabric with LIDs: switches 1..4, CAs from 5 on (LMC 1: two LIDs each).
Lids sample_lids(const Fabric& f) {
    Lids l(f);
    Lid next = 1;
    for (NodeId s : f.switches()) l.assign(f.port_id(s, 0), next++, 0);
    next = 6;
    for (NodeId c : f.cas())
        if (f.port(c, 1).connected()) {
            l.assign(f.port_id(c, 1), next, 1);
            next += 2;
        }
    return l;
}

// Leaf-0 and its CAs send on SL dlid % 4; every other source on SL 0.
Routing sample_routing(const Fabric& f) {
    Routing r;
    r.lids = sample_lids(f);
    std::vector<std::uint8_t> row(r.lids.max_lid() + 1u);
    for (std::size_t d = 0; d < row.size(); ++d) row[d] = static_cast<std::uint8_t>(d % 4);
    r.path_sls = PathSlTable(f.num_port_slots(), r.lids.max_lid());
    r.path_sls.set_switch_row(f, node(f, "leaf-0"), row);
    return r;
}

// The sources whose SLs a file can say: switch port 0 and every CA end port with a LID.
std::vector<PortId> sources(const Fabric& f, const Lids& l) {
    std::vector<PortId> out;
    for (NodeId s : f.switches()) out.push_back(f.port_id(s, 0));
    for (PortId p : all_end_ports(f, &l)) out.push_back(p);
    return out;
}

std::string written(const Fabric& f, const Routing& r, PathSlWriteStats* st = nullptr) {
    std::ostringstream o;
    const PathSlWriteStats s = write_path_sl(o, f, r);
    if (st) *st = s;
    return o.str();
}

std::string bind_error(const Fabric& f, const Lids& l, const std::string& text) {
    try {
        (void)bind_path_sl(read_path_sl_text(text, "p"), f, l, "p");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

std::string read_error(const std::string& text) {
    try {
        (void)read_path_sl_text(text, "p");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST_CASE("path-SL writer lists every source with a non-zero SL, every DLID", "[path_sl_file]") {
    const Fabric f = sample_fabric(false);
    const Routing r = sample_routing(f);
    PathSlWriteStats st;
    const std::string text = written(f, r, &st);
    // leaf-0 itself and its two CAs, each with all 4 + 4 * 2 = 12 assigned DLIDs.
    CHECK(st.sources == 3);
    CHECK(st.lines == 3 * 12);
    CHECK(st.split_nodes == 0);
    CHECK(text.find("0x0020000000010000 1 1\n") != std::string::npos);  // leaf-0
    CHECK(text.find("0x0010000000000100 7 3\n") != std::string::npos);  // host-l0-0
    CHECK(text.find("0x0010000000000200 13 1\n") != std::string::npos); // host-l0-1
    CHECK(text.find("0x0010000000000300") == std::string::npos);        // host-l1-0: leaf-1
    CHECK(text.find("0x0020000000020000") == std::string::npos);        // spine-0
    // The size `ibrt route` weighs before writing is the writer's own line count.
    CHECK(path_sl_file_lines(f, r) == st.lines);
}

TEST_CASE("path-SL lines are what ibdmchk's parser matches, the comment is not", "[path_sl_file]") {
    const Fabric f = sample_fabric(false);
    std::istringstream in(written(f, sample_routing(f)));
    // ibdm Fabric.cpp parsePSLFile: "0x([0-9a-z]+) ([0-9]+) ([0-9]+)", searched anywhere.
    const std::regex ibdm("0x([0-9a-z]+) ([0-9]+) ([0-9]+)");
    std::string line;
    int data = 0;
    while (std::getline(in, line)) {
        if (line.starts_with("#")) {
            CHECK_FALSE(std::regex_search(line, ibdm));
            continue;
        }
        CHECK(std::regex_match(line, std::regex("0x[0-9a-f]{16} [0-9]+ [0-9]+")));
        ++data;
    }
    CHECK(data == 36);
}

TEST_CASE("path-SL file round trips to the same SL on every path", "[path_sl_file]") {
    const Fabric f = sample_fabric(false);
    const Routing r = sample_routing(f);
    const PathSlTable back = bind_path_sl(read_path_sl_text(written(f, r), "w"), f, r.lids, "w");
    REQUIRE_FALSE(back.empty());
    for (PortId s : sources(f, r.lids))
        for (std::uint32_t d = 1; d <= r.lids.max_lid(); ++d) {
            if (r.lids.owner(Lid(d)) == kNoPort) continue; // no path to an unassigned LID
            INFO("source port " << s << " DLID " << d);
            CHECK(back.sl(s, Lid(d)) == r.path_sl(s, Lid(d)));
        }
    // A routing without path SLs writes only the header, which reads back as "SL 0 everywhere".
    Routing zero = r;
    zero.path_sls = {};
    const std::string z = written(f, zero);
    CHECK(z.find('\n') == z.size() - 1);
    CHECK(bind_path_sl(read_path_sl_text(z, "z"), f, r.lids, "z").empty());
}

TEST_CASE("a dual-port CA on two switches with different SLs is counted", "[path_sl_file]") {
    FabricBuilder b;
    const NodeId s0 = b.add_node(NodeType::Switch, 4, 0x100, "s0");
    const NodeId s1 = b.add_node(NodeType::Switch, 4, 0x101, "s1");
    const NodeId c = b.add_node(NodeType::CA, 2, 0x200, "dual");
    const NodeId d = b.add_node(NodeType::CA, 1, 0x300, "single");
    b.connect(s0, 1, c, 1);
    b.connect(s1, 1, c, 2);
    b.connect(s0, 2, s1, 2);
    b.connect(s1, 3, d, 1);
    const Fabric f = std::move(b).build();
    Routing r;
    r.lids = Lids(f);
    r.lids.assign(f.port_id(s0, 0), 1, 0);
    r.lids.assign(f.port_id(s1, 0), 2, 0);
    r.lids.assign(f.port_id(c, 1), 3, 0);
    r.lids.assign(f.port_id(c, 2), 4, 0);
    r.lids.assign(f.port_id(d, 1), 5, 0);
    r.path_sls = PathSlTable(f.num_port_slots(), 5);
    r.path_sls.set_switch_row(f, s1, std::vector<std::uint8_t>{0, 0, 0, 2, 2, 0});
    PathSlWriteStats st;
    const std::string text = written(f, r, &st);
    CHECK(st.split_nodes == 1);
    // "dual" gets its first port's SLs (s0: SL 0, not listed); "single" and s1 s1's.
    CHECK(st.sources == 2);
    CHECK(text.find("0x0000000000000200") == std::string::npos);
    CHECK(text.find("0x0000000000000300 3 2\n") != std::string::npos);
}

TEST_CASE("path-SL reader errors name file:line", "[path_sl_file]") {
    CHECK(read_error("# c\n0x10 1\n") ==
          "p:2: expected `0x<source node GUID> <DLID> <SL>` (ibdmchk -c format), got '0x10 1'");
    CHECK(read_error("0x10 1 2 3\n").starts_with("p:1: expected `0x<source node GUID>"));
    CHECK(read_error("\n10 1 2\n") == "p:2: bad source node GUID '10' (expected 0x<hex>)");
    CHECK(read_error("0x0 1 2\n") == "p:1: bad source node GUID '0x0' (expected 0x<hex>)");
    CHECK(read_error("0x10 0 2\n") ==
          "p:1: bad DLID '0' (expected a decimal unicast LID, 1..49151)");
    CHECK(read_error("0x10 49152 2\n") ==
          "p:1: bad DLID '49152' (expected a decimal unicast LID, 1..49151)");
    CHECK(read_error("0x10 0x5 2\n").starts_with("p:1: bad DLID '0x5'"));
    CHECK(read_error("0x10 5 16\n") == "p:1: bad SL '16' (expected 0..15)");
    CHECK(read_error("0x10 5 -1\n") == "p:1: bad SL '-1' (expected 0..15)");
    const auto e = read_path_sl_text("  # header\n\n0x10 5 3\r\n0X0020000000010000\t7 0\n", "p");
    REQUIRE(e.size() == 2);
    CHECK(e[0].node_guid == 0x10);
    CHECK(e[0].dlid == 5);
    CHECK(e[0].sl == 3);
    CHECK(e[0].line == 3);
    CHECK(e[1].node_guid == 0x0020000000010000);
    CHECK(e[1].line == 4);
}

TEST_CASE("path-SL binder errors name the line and the nodes", "[path_sl_file]") {
    const Fabric f = sample_fabric(false);
    const Lids l = sample_lids(f);
    CHECK(bind_error(f, l, "0x0000000000000bad 1 1\n") ==
          "p:1: source node GUID 0x0000000000000bad is not in the fabric (the file names nodes "
          "by node GUID, as ibdmchk does)");
    CHECK(bind_error(f, l, "0x0010000000000100 5 1\n") ==
          "p:1: DLID 5 is not assigned to any port");
    CHECK(bind_error(f, l, "0x0010000000000100 8 0\n0x0010000000000100 8 0\n") ==
          "p:2: CA 'host-l0-0' (GUID 0x0010000000000100) lists DLID 8 twice (first at line 1)");
    // The streamed file binder finds the first copy by reading the file again.
    const std::string path = "/tmp/ibrt-test-path-sl-dup";
    std::ofstream(path) << "# x\n0x0010000000000100 8 1\n0x0010000000000100 9 1\n"
                           "0x0010000000000100 8 1\n";
    std::string err;
    try {
        (void)load_path_sl_file(path, f, l);
    } catch (const InputError& e) {
        err = e.what();
    }
    std::remove(path.c_str());
    CHECK(err == path + ":4: CA 'host-l0-0' (GUID 0x0010000000000100) lists DLID 8 twice (first "
                        "at line 2)");
    // A switch's own SLs are its alone.
    const PathSlTable t =
        bind_path_sl(read_path_sl_text("0x0020000000020000 8 3\n", "p"), f, l, "p");
    CHECK(t.sl(f.port_id(node(f, "spine-0"), 0), 8) == 3);
    CHECK(t.sl(f.port_id(node(f, "leaf-0"), 0), 8) == 0);
    CHECK(t.sl(f.port_id(node(f, "spine-0"), 0), 9) == 0);
}

TEST_CASE("two CAs behind one switch may send on different SLs (dfsssp's layers)",
          "[path_sl_file]") {
    const Fabric f = sample_fabric(false);
    const Lids l = sample_lids(f);
    const PathSlTable t = bind_path_sl(
        read_path_sl_text("0x0010000000000100 10 2\n0x0010000000000200 10 3\n", "p"), f, l, "p");
    CHECK(t.sl(f.port_id(node(f, "host-l0-0"), 1), 10) == 2);
    CHECK(t.sl(f.port_id(node(f, "host-l0-1"), 1), 10) == 3);
    CHECK(t.sl(f.port_id(node(f, "host-l0-1"), 1), 8) == 0); // unlisted: SL 0
    CHECK(t.sl(f.port_id(node(f, "leaf-0"), 0), 10) == 0);
}

// `ibrt sa-path-sls --sample` writes some pairs only, and says so: the pairs it leaves out
// have no known SL (not SL 0, which made deadlock-free tables look cyclic, issue 35).
TEST_CASE("a partial path-SL file leaves unlisted pairs unknown", "[path_sl_file]") {
    const Fabric f = sample_fabric(false);
    const Lids l = sample_lids(f);
    const std::string leaf0 = fmt::format("0x{:016x}", f.node(node(f, "leaf-0")).guid);
    const std::string text = std::string(kPartialMarker) + ": pairs not listed ...\n" + leaf0 +
                             " 6 3\n" + leaf0 + " 8 0\n";
    bool partial = false;
    const auto entries = read_path_sl_text(text, "p", &partial);
    CHECK(partial);
    const PathSlTable t = bind_path_sl(entries, f, l, "p", partial);
    const PortId leaf0_port = f.port_id(node(f, "leaf-0"), 0);
    CHECK(t.sl(leaf0_port, 6) == 3);
    CHECK(t.sl(leaf0_port, 8) == 0);
    CHECK(t.sl(leaf0_port, 10) == PathSlTable::kUnknownSl); // listed node, unlisted DLID
    const PortId spine0 = f.port_id(node(f, "spine-0"), 0);
    CHECK(t.sl(spine0, 6) == PathSlTable::kUnknownSl); // unlisted node
    CHECK(t.has_unknown());
    CHECK(t.max_sl() == 3);
    // The same lines without the marker: unlisted pairs are SL 0, as ibdmchk takes them.
    const std::string whole = text.substr(text.find('\n') + 1);
    bool marked = true;
    const auto whole_entries = read_path_sl_text(whole, "w", &marked);
    const PathSlTable u = bind_path_sl(whole_entries, f, l, "w", marked);
    CHECK_FALSE(marked);
    CHECK(u.sl(leaf0_port, 10) == 0);
    CHECK(u.sl(spine0, 6) == 0);
    CHECK_FALSE(u.has_unknown());
    // A marker and no line: every pair unknown, not "SL 0 everywhere".
    CHECK(bind_path_sl({}, f, l, "e", true).has_unknown());

    // Written again, a partial table keeps its marker and lists the known pairs only; read
    // back, it is the same table.
    Routing r;
    r.lids = l;
    r.path_sls = t;
    const std::string again = written(f, r);
    CHECK(again.starts_with(std::string(kPartialMarker)));
    CHECK(again.find(leaf0 + " 6 3\n") != std::string::npos);
    CHECK(again.find(leaf0 + " 10 ") == std::string::npos);
    bool back_partial = false;
    const auto again_entries = read_path_sl_text(again, "a", &back_partial);
    const PathSlTable back = bind_path_sl(again_entries, f, l, "a", back_partial);
    CHECK(back_partial);
    for (PortId s : sources(f, l))
        for (std::uint32_t d = 1; d <= l.max_lid(); ++d)
            if (l.owner(Lid(d)) != kNoPort) CHECK(back.sl(s, Lid(d)) == t.sl(s, Lid(d)));

    // The streamed reader of a file sees the marker too.
    const std::string path = "/tmp/ibrt-test-partial-path-sl";
    std::ofstream(path) << text;
    CHECK(load_path_sl_file(path, f, l).sl(spine0, 6) == PathSlTable::kUnknownSl);
    std::remove(path.c_str());
}
