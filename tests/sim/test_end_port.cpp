// The simulator's endpoints are the end ports (fabric/end_ports.hpp: cabled, with a LID), as
// `ibrt check` has them: a dual-port HCA whose port 1 has no LID sends and receives on port 2
// alone; one cabled twice is two endpoints, each sending from its own port.
#include "check/endpoints.hpp"
#include "engines/engine.hpp"
#include "fabric/display_name.hpp"
#include "fabric/end_ports.hpp"
#include "sim/run_json.hpp"
#include "sim/simulator.hpp"

#include <algorithm>
#include <random>
#include <set>
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

namespace {

// A two-level tree drawn by its own random stream (not ibrt's generators): 4 leaves of 8 ports
// (up to 6 hosts each, 2 uplinks) under 2 spines, every leaf's ports shuffled, random GUIDs,
// hosts single-port or dual-port HCAs, a dual-port one cabled to two different leaves, to one
// leaf only (either port), or twice to the same leaf.
Fabric random_dual_port_tree(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    const auto below = [&](std::uint32_t n) { return std::uint32_t(rng() % n); };
    FabricBuilder b;
    std::vector<NodeId> leaves, spines;
    std::vector<std::vector<PortNum>> free(4); // each leaf's free ports, shuffled
    std::set<std::uint64_t> guids;
    const auto guid = [&] {
        std::uint64_t g;
        do g = (rng() >> 16) | 1;
        while (!guids.insert(g).second);
        return g;
    };
    for (int l = 0; l < 4; ++l) {
        leaves.push_back(b.add_node(NodeType::Switch, 8, guid(), "L" + std::to_string(l)));
        for (PortNum p = 1; p <= 8; ++p) free[l].push_back(p);
        std::shuffle(free[l].begin(), free[l].end(), rng);
    }
    for (int s = 0; s < 2; ++s)
        spines.push_back(b.add_node(NodeType::Switch, 4, guid(), "S" + std::to_string(s)));
    for (int l = 0; l < 4; ++l)
        for (int s = 0; s < 2; ++s) {
            b.connect(leaves[l], free[l].back(), spines[s], PortNum(l + 1));
            free[l].pop_back();
        }
    const std::uint32_t hosts = 5 + below(8);
    for (std::uint32_t h = 0; h < hosts; ++h) {
        const bool two = below(2) == 1;
        const NodeId c = b.add_node(NodeType::CA, two ? 2 : 1, guid(), "h" + std::to_string(h));
        const std::uint32_t l0 = below(4);
        std::uint32_t l1 = below(4);
        if (free[l0].empty() || (two && free[l1].size() < (l1 == l0 ? 2u : 1u))) continue;
        const PortNum first = two ? PortNum(1 + below(2)) : 1; // one-leaf dual: either port
        b.connect(c, first, leaves[l0], free[l0].back());
        free[l0].pop_back();
        if (two && below(3) != 0) { // cabled twice: other leaf or the same one
            b.connect(c, first == 1 ? 2 : 1, leaves[l1], free[l1].back());
            free[l1].pop_back();
        }
    }
    return std::move(b).build();
}

} // namespace

TEST_CASE("random trees with dual-port HCAs: the simulator's endpoints are check's, and every "
          "packet reaches its port") {
    std::size_t twice = 0; // end ports beyond one per CA, over the seeds
    for (std::uint64_t seed = 1; seed <= 25; ++seed) {
        CAPTURE(seed);
        const Fabric f = random_dual_port_tree(seed);
        const Routing r = make_engine("slid")->route(f, nullptr, {});
        SimConfig c;
        c.traffic.load = 0.2;
        c.flow_stats = true;
        c.seed = seed;
        const SimResult res = simulate(f, r, c);
        const std::vector<PortId> ends = check::collect_endpoints(f, r.lids).ports;
        CHECK(res.endpoints == ends);
        twice += ends.size() - f.cas().size();
        CHECK(res.misdelivered == 0);
        CHECK(res.dropped == 0);
        CHECK(res.generated == res.delivered + res.in_flight);
        // Every end port both sends and receives, the second ports of dual-port HCAs too.
        std::vector<int> sent(ends.size(), 0), got(ends.size(), 0);
        for (const FlowStat& x : res.flows)
            if (x.accepted_fraction > 0) ++sent[x.src], ++got[x.dst];
        for (std::size_t i = 0; i < ends.size(); ++i) {
            CAPTURE(i);
            CHECK(sent[i] > 0);
            CHECK(got[i] > 0);
        }
    }
    CHECK(twice >= 25); // the draw does cable dual-port HCAs twice, often
}
