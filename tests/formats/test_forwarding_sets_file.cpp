// The forwarding-sets file (formats/forwarding_sets_file.hpp): a hand-written file reads into
// the lookups it says, writes back to text that reads to the same, and every malformed line
// is an InputError naming its line.
#include "fabric/input_error.hpp"
#include "formats/forwarding_sets_file.hpp"
#include "tables_fixture.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace ibrt;

namespace {

constexpr Lid kMaxLid = 13;

NodeId node(const Fabric& f, std::uint64_t guid) {
    return *f.find_node_by_guid(guid);
}

const char* kKeyed = R"(# keyed by input VL and port, VL2VL by input VL
vl-keys 2
in-port-keys yes
vl-by in-vl
switch 0x0020000000010000
dlid 10-13 vl 0 in 1 : 3 4/1
dlid 0xa-0xd vl 1 in 2 : 4
vl2vl in 3 out 1 : 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
)";

} // namespace

TEST_CASE("forwarding-sets file: keys, priorities and VL2VL read as written") {
    const Fabric f = test::sample_fabric(false);
    const RoutingFunction rf = read_forwarding_sets_text(kKeyed, "t", f, kMaxLid);
    const NodeId leaf = node(f, 0x0020000000010000);
    CHECK(rf.vl_keys() == 2);
    CHECK(rf.by_in_port());
    CHECK(rf.vl_by_in_vl);
    const auto s = rf.set(rf.lookup(leaf, 0, 1, 11));
    REQUIRE(s.size() == 2);
    CHECK(s[0] == Candidate{3, 0});
    CHECK(s[1] == Candidate{4, 1});
    CHECK(rf.set(rf.lookup(leaf, 1, 2, 12)).size() == 1);
    CHECK(rf.lookup(leaf, 1, 1, 12) == RoutingFunction::kNoSet); // not given: no route
    CHECK(rf.lookup(leaf, 0, 2, 12) == RoutingFunction::kNoSet);
    CHECK(rf.vl2vl.vl(leaf, 4, 3, 1, 7, 8) == 7);
    CHECK(rf.vl2vl.vl(leaf, 4, 1, 3, 7, 8) == 15); // a pair not listed drops
    std::ostringstream once, twice;
    write_forwarding_sets(once, f, rf);
    const RoutingFunction back = read_forwarding_sets_text(once.str(), "w", f, kMaxLid);
    write_forwarding_sets(twice, f, back);
    CHECK(twice.str() == once.str());
    CHECK(once.str().find("dlid 10-13 vl 0 in 1 : 3 4/1") != std::string::npos);
}

TEST_CASE("forwarding-sets file: malformed lines name the line") {
    const Fabric f = test::sample_fabric(false);
    const auto error = [&](const std::string& text) {
        try {
            read_forwarding_sets_text(text, "fs", f, kMaxLid);
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    const std::string sw = "switch 0x0020000000010000\n";
    CHECK(error("bogus 1\n") ==
          "fs:1: unknown line 'bogus 1' (expected vl-keys, in-port-keys, vl-by, tree-height, "
          "switch, dlid, vl2vl, ca, source-sl or source-vl)");
    CHECK(error("dlid 1 : 1\n") == "fs:1: dlid line before any switch line");
    CHECK(error(sw + "dlid 14 : 1\n") == "fs:2: bad DLID '14' (expected 0..13)");
    CHECK(error(sw + "dlid 3 : 99\n").starts_with("fs:2: bad port '99' (expected 0.."));
    CHECK(error(sw + "dlid 3 : 1/16\n") == "fs:2: bad priority '16' (expected 0..15)");
    CHECK(error(sw + "dlid 3 vl 1 : 1\n") == "fs:2: `vl` given but vl-keys is 1");
    CHECK(error("in-port-keys yes\n" + sw + "dlid 3 : 1\n") ==
          "fs:3: this file keys tables by input port: `in P` is needed");
    CHECK(error(sw + "vl-keys 2\n") == "fs:2: vl-keys must come before the first switch line");
    CHECK(error(sw + "dlid 3 :\n") == "fs:2: a dlid line needs at least one candidate port");
    CHECK(error("switch 0x0010000000000100\n")
              .ends_with("(GUID 0x0010000000000100) is not a switch"));
    CHECK(error(sw + "vl2vl in 1 out 2 : 0 1\n") == "fs:2: bad VL '' (expected 0..15)");
    CHECK(error("tree-height 1\n" + sw) ==
          "fs: tree-height is given but end node 0x0010000000000100 has no `ca ... digits` line");
}
