// The pairs the path-SL dump asks the routing engine, and how the answers become the table.
#include "engines/opensm/path_sl_dump.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <utility>

using namespace ibrt;

namespace {

// sw (LID 1) with h0 (LIDs 2-3, LMC 1) and h1 (LID 4); h2 has no LID.
struct Small {
    Fabric f;
    Lids lids;
    NodeId sw = 0, h0 = 0, h1 = 0, h2 = 0;
    Small() {
        FabricBuilder b;
        sw = b.add_node(NodeType::Switch, 3, 0x10, "sw");
        h0 = b.add_node(NodeType::CA, 1, 0x20, "h0");
        h1 = b.add_node(NodeType::CA, 1, 0x30, "h1");
        h2 = b.add_node(NodeType::CA, 1, 0x40, "h2");
        b.connect(sw, 1, h0, 1);
        b.connect(sw, 2, h1, 1);
        b.connect(sw, 3, h2, 1);
        f = std::move(b).build();
        lids = Lids(f);
        lids.assign(f.port_id(sw, 0), 1, 0);
        lids.assign(f.port_id(h0, 1), 2, 1);
        lids.assign(f.port_id(h1, 1), 4, 0);
    }
};

} // namespace

TEST_CASE("path-SL dump: every end port with a LID asks every other port's every LID") {
    const Small s;
    std::set<std::pair<Lid, Lid>> asked;
    const PathSlTable t = osm::ask_path_sls(s.f, s.lids, [&](Lid slid, Lid dlid) {
        CHECK(asked.emplace(slid, dlid).second); // each pair once
        return std::uint8_t(slid == 2 ? dlid : 0);
    });
    // From h0's base LID to the switch and h1; from h1 to the switch and both LIDs of h0. The
    // switch is not a source, h2 has no LID, and no port is asked about its own LIDs.
    CHECK(asked == std::set<std::pair<Lid, Lid>>{{2, 1}, {2, 4}, {4, 1}, {4, 2}, {4, 3}});
    const PortId h0 = s.f.port_id(s.h0, 1), h1 = s.f.port_id(s.h1, 1);
    CHECK(t.sl(h0, 1) == 1);
    CHECK(t.sl(h0, 4) == 4);
    CHECK(t.sl(h0, 2) == 0); // itself
    CHECK(t.sl(h1, 2) == 0); // h1's answers were all 0: the default row
    CHECK(t.row_of(h1) == 0);
    CHECK(t.num_rows() == 2);
}

TEST_CASE("path-SL dump: an engine without SLs gives the empty table") {
    const Small s;
    CHECK(osm::ask_path_sls(s.f, s.lids, [](Lid, Lid) { return std::uint8_t(0); }).empty());
}
