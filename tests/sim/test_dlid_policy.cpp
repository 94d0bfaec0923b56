// The source's DLID choice decides the path: base LID, path-selection table, or random among
// the LMC LIDs, on two switches joined by two parallel cables.
#include "sim/config_notes.hpp"
#include "sim/simulator.hpp"
#include "sim_fixtures.hpp"

#include <catch2/catch.hpp>

using namespace ibrt;
using namespace ibrt::sim;

namespace {

// h0 - S0 = S1 - h1, the two cables on ports 2 and 3 of both switches. LMC 1: h0 owns LIDs
// 2, 3 and h1 owns 4, 5; the even LID of each CA crosses on port 2, the odd one on port 3.
test::SimFabric parallel_links() {
    FabricBuilder b;
    b.add_node(NodeType::CA, 1, 0x100, "h0");
    b.add_node(NodeType::CA, 1, 0x101, "h1");
    b.add_node(NodeType::Switch, 3, 0x200, "S0");
    b.add_node(NodeType::Switch, 3, 0x201, "S1");
    b.connect(0, 1, 2, 1);
    b.connect(1, 1, 3, 1);
    b.connect(2, 2, 3, 2);
    b.connect(2, 3, 3, 3);
    test::SimFabric x{std::move(b).build(), {}};
    x.r = test::empty_routing(x.f);
    x.r.lmc = 1;
    x.r.lids.assign(x.f.port_id(0, 1), 2, 1);
    x.r.lids.assign(x.f.port_id(1, 1), 4, 1);
    x.r.lids.assign(x.f.port_id(2, 0), 6, 0);
    x.r.lids.assign(x.f.port_id(3, 0), 7, 0);
    x.r.lft.assign(4, {});
    x.r.lft[2] = {kNoPath, kNoPath, 1, 1, 2, 3, 0, 2};
    x.r.lft[3] = {kNoPath, kNoPath, 2, 3, 1, 1, 2, 0};
    return x;
}

double util(const SimResult& r, PortId p) {
    for (const auto& u : r.links)
        if (u.port == p) return u.utilization;
    return -1;
}

} // namespace

TEST_CASE("the DLID policy picks the cable") {
    auto x = parallel_links();
    SimConfig c;
    c.ps_per_byte = 1000;
    c.traffic.pattern = Pattern::Complement;
    c.traffic.load = 0.4;
    const PortId even = x.f.port_id(2, 2), odd = x.f.port_id(2, 3);

    c.dlid = DlidPolicy::Base; // LID 4: port 2 only
    SimResult r = simulate(x.f, x.r, c);
    CHECK(util(r, even) > 0.3);
    CHECK(util(r, odd) == 0);

    c.dlid = DlidPolicy::Table; // path selection: h0 -> h1 over LID 5, h1 -> h0 over LID 2
    x.r.dlid_choice = {0, 5, 2, 0};
    r = simulate(x.f, x.r, c);
    CHECK(util(r, even) == 0);
    CHECK(util(r, odd) > 0.3);
    CHECK(util(r, x.f.port_id(3, 2)) > 0.3); // and back over the even cable
    CHECK(util(r, x.f.port_id(3, 3)) == 0);

    c.dlid = DlidPolicy::Random; // both LIDs, about evenly
    r = simulate(x.f, x.r, c);
    CHECK(util(r, even) == Approx(util(r, odd)).epsilon(0.15));
    CHECK(util(r, even) + util(r, odd) == Approx(0.4).epsilon(0.05));
    CHECK(r.dropped == 0);
    CHECK(r.misdelivered == 0);
}

TEST_CASE("without a path selection the default spreads over the LMC LIDs, and says so") {
    auto x = parallel_links();
    SimConfig c;
    c.ps_per_byte = 1000;
    c.traffic.pattern = Pattern::Complement;
    c.traffic.load = 0.4;
    REQUIRE(c.dlid == DlidPolicy::Auto);
    CHECK(resolve_dlid_policy(c.dlid, x.f, x.r) == DlidPolicy::Random);
    const SimResult r = simulate(x.f, x.r, c);
    CHECK(r.dlid == DlidPolicy::Random);
    const PortId even = x.f.port_id(2, 2), odd = x.f.port_id(2, 3);
    CHECK(util(r, even) == Approx(util(r, odd)).epsilon(0.15));
    const auto notes = config_notes(x.f, x.r, c);
    REQUIRE(!notes.empty());
    CHECK(notes.front().rfind("LMC 1: each packet's DLID is drawn uniformly", 0) == 0);

    // A path selection is followed; LMC 0 uses the base LID.
    x.r.dlid_choice = {0, 5, 2, 0};
    CHECK(resolve_dlid_policy(c.dlid, x.f, x.r) == DlidPolicy::Table);
    CHECK(config_notes(x.f, x.r, c).front() ==
          "LMC 1: each source uses the DLID its path selection gives (--dlid table)");
    auto y = test::two_switches(1);
    CHECK(resolve_dlid_policy(c.dlid, y.f, y.r) == DlidPolicy::Base);
    CHECK(config_notes(y.f, y.r, c).empty());
}
