// Every module answers "which ports of a CA are its end ports" with fabric/end_ports.hpp, so
// they agree on a fabric with a dual-port HCA and a CA whose port 1 is uncabled: the engines
// give a LID to every end port and route it, `ibrt check` counts and reaches every one, the
// per-CA tables (path selection) name the first end port, and the separate engine (one port
// per CA, paper 001) routes exactly the first end ports.
#include "check/endpoints.hpp"
#include "check/reachability.hpp"
#include "check/report.hpp"
#include "engines/engine.hpp"
#include "fabric/end_ports.hpp"
#include "formats/path_selection.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <set>
#include <sstream>

using namespace ibrt;

namespace {

// A two-level fat tree: leaves L0, L1 (ports 1-4 down, 5-6 up), spines S0, S1. h0 on L0:1;
// dual (dual-port HCA) on L0:2 and L1:2; late (port 1 uncabled) port 2 on L1:1; h3 on L1:3.
enum : NodeId { h0 = 0, dual, late, h3, L0, L1, S0, S1 };

Fabric fabric() {
    FabricBuilder b;
    b.add_node(NodeType::CA, 1, 0x100, "h0");
    b.add_node(NodeType::CA, 2, 0x110, "dual");
    b.add_node(NodeType::CA, 2, 0x120, "late");
    b.add_node(NodeType::CA, 1, 0x130, "h3");
    b.add_node(NodeType::Switch, 6, 0x200, "L0");
    b.add_node(NodeType::Switch, 6, 0x201, "L1");
    b.add_node(NodeType::Switch, 2, 0x202, "S0");
    b.add_node(NodeType::Switch, 2, 0x203, "S1");
    b.connect(h0, 1, L0, 1);
    b.connect(dual, 1, L0, 2);
    b.connect(dual, 2, L1, 2);
    b.connect(late, 2, L1, 1);
    b.connect(h3, 1, L1, 3);
    b.connect(L0, 5, S0, 1);
    b.connect(L0, 6, S1, 1);
    b.connect(L1, 5, S0, 2);
    b.connect(L1, 6, S1, 2);
    return std::move(b).build();
}

} // namespace

TEST_CASE("mlid and check agree on the end ports of a dual-port HCA") {
    const Fabric f = fabric();
    const std::vector<PortId> ends = all_end_ports(f);
    REQUIRE(ends.size() == 5); // dual has two
    const Routing r = make_engine("mlid")->route(f, nullptr, {});
    for (PortId p : ends) CHECK(r.lids.has_lid(p));
    CHECK(check::collect_endpoints(f, r.lids).ports == ends);
    const check::ForwardingReport rep = check::check_forwarding(f, r);
    CHECK(rep.reach.pairs > 0);
    CHECK(rep.reach.failures() == 0);

    // The path-selection file names each CA by its first end port, late's port 2 included.
    std::ostringstream out;
    write_path_selection(out, f, r);
    std::set<std::string> named;
    for (const PathSelectionEntry& e : read_path_selection(out.str(), "ps"))
        named.insert(fmt::format("{:x}", e.src_guid));
    std::set<std::string> want;
    for (NodeId c : f.cas())
        want.insert(fmt::format("{:x}", f.end_port_guid(first_end_port(f, c))));
    CHECK(named == want);
}

TEST_CASE(
    "separate gives every end port a LID (issue 12: a dual-port HCA's second port had none)") {
    const Fabric f = fabric();
    const Routing r = make_engine("separate")->route(f, nullptr, {});
    std::vector<PortId> firsts;
    for (NodeId c : f.cas()) firsts.push_back(first_end_port(f, c));
    CHECK(firsts[late] == f.port_id(late, 2));
    CHECK(check::collect_endpoints(f, r.lids).ports == all_end_ports(f, &r.lids));
    for (PortId p : firsts) CHECK(r.lids.has_lid(p));
    CHECK(r.lids.has_lid(f.port_id(dual, 2))); // opensm gives every active port a LID
    CHECK(check::run_checks(f, r).ports_without_lid.empty());
    const check::ForwardingReport rep = check::check_forwarding(f, r);
    CHECK(rep.reach.pairs > 0);
    CHECK(rep.reach.failures() == 0);
}
