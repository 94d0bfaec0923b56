// The simulator's endpoints are the end ports (fabric/end_ports.hpp: cabled, with a LID), as
// `ibrt check` has them: a dual-port HCA whose port 1 has no LID sends and receives on port 2
// alone; one cabled twice is two endpoints, each sending from its own port.
#include "check/endpoints.hpp"
#include "engines/engine.hpp"
#include "fabric/display_name.hpp"
#include "fabric/end_ports.hpp"
#include "sim/run_json.hpp"
#include "sim/simulator.hpp"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

using namespace ibrt;
using namespace ibrt::sim;

namespace {

// Two leaves L0, L1 under one spine S; h0 on L0, dual on L0 (port 1) and L1 (port 2), h2 on
// L1.
constexpr NodeId h0 = 0, dual = 1, h2 = 2;
Fabric dual_port_fabric() {
    FabricBuilder b;
    REQUIRE(b.add_node(NodeType::CA, 1, 0x100, "h0") == h0);
    REQUIRE(b.add_node(NodeType::CA, 2, 0x110, "dual") == dual);
    REQUIRE(b.add_node(NodeType::CA, 1, 0x120, "h2") == h2);
    const NodeId l0 = b.add_node(NodeType::Switch, 4, 0x200, "L0");
    const NodeId l1 = b.add_node(NodeType::Switch, 4, 0x201, "L1");
    const NodeId sp = b.add_node(NodeType::Switch, 2, 0x202, "S");
    b.connect(h0, 1, l0, 1);
    b.connect(dual, 1, l0, 2);
    b.connect(dual, 2, l1, 2);
    b.connect(h2, 1, l1, 1);
    b.connect(l0, 3, sp, 1);
    b.connect(l1, 3, sp, 2);
    return std::move(b).build();
}

} // namespace

TEST_CASE("a dual-port HCA without a LID on port 1 injects through port 2") {
    const Fabric f = dual_port_fabric();
    const Routing full = make_engine("mlid")->route(f, nullptr, {});

    // The same tables with port 1 of `dual` inactive (no LID): its LIDs become unowned.
    Routing r = full;
    r.lids = Lids(f);
    for (PortId p = 0; p < f.num_port_slots(); ++p)
        if (full.lids.has_lid(p) && p != f.port_id(dual, 1))
            r.lids.assign(p, full.lids.base(p), full.lids.lmc(p));
    r.dlid_choice.clear(); // it names port 1's LIDs for `dual`
    REQUIRE(first_end_port(f, dual, &r.lids) == f.port_id(dual, 2));

    SimConfig c;
    c.traffic.load = 0.2;
    const SimResult res = simulate(f, r, c);
    CHECK(res.generated > 0);
    CHECK(res.dropped == 0);
    CHECK(res.misdelivered == 0);
    CHECK(res.generated == res.delivered + res.in_flight);
}

TEST_CASE("a dual-port HCA cabled twice is two endpoints, as ibrt check numbers them") {
    const Fabric f = dual_port_fabric();
    const Routing r = make_engine("mlid")->route(f, nullptr, {});
    REQUIRE(!r.dlid_choice.empty()); // per CA: the simulator maps it onto the end ports

    SimConfig c;
    c.traffic.load = 0.3;
    c.flow_stats = true;
    for (const DlidPolicy p : {DlidPolicy::Table, DlidPolicy::Base, DlidPolicy::Random}) {
        CAPTURE(int(p));
        c.dlid = p;
        const SimResult res = simulate(f, r, c);
        // One numbering: the end ports, in the order `ibrt check` has them.
        const std::vector<PortId> ends{f.port_id(h0, 1), f.port_id(dual, 1), f.port_id(dual, 2),
                                       f.port_id(h2, 1)};
        CHECK(res.endpoints == ends);
        CHECK(check::collect_endpoints(f, r.lids).ports == ends);
        CHECK(endpoint_names(f, res.endpoints) ==
              std::vector<std::string>{display_name(f, h0), display_port(f, dual, 1),
                                       display_port(f, dual, 2), display_name(f, h2)});
        // Both ports of `dual` send and receive: all 12 ordered pairs carry traffic, on the
        // right port (no packet misdelivered, none lost).
        CHECK(res.flows.size() == 12);
        for (const FlowStat& x : res.flows) CHECK(x.accepted_fraction > 0);
        CHECK(res.misdelivered == 0);
        CHECK(res.dropped == 0);
        CHECK(res.generated == res.delivered + res.in_flight);
    }
}
