// The end-port rule (fabric/end_ports.hpp): every cabled CA/router port, and once LIDs are
// known only those with a LID; a dual-port HCA cabled twice has two; an uncabled port never
// is one (the old "first cabled port, else port 1" answered port 1 for an uncabled CA).
#include "fabric/end_ports.hpp"

#include <catch2/catch.hpp>

using namespace ibrt;

namespace {

// Switch s (8 ports); dual = CA cabled on ports 1 and 2; late = CA whose port 1 is uncabled
// and port 2 cabled; nolid = CA cabled on ports 1 and 2 with a LID on port 2 only (with the
// LIDs below); idle = CA with no cable; r = router.
enum : NodeId { s = 0, dual, late, nolid, idle, r };

Fabric fabric() {
    FabricBuilder b;
    b.add_node(NodeType::Switch, 8, 0x1, "s");
    b.add_node(NodeType::CA, 2, 0x10, "dual");
    b.add_node(NodeType::CA, 2, 0x20, "late");
    b.add_node(NodeType::CA, 2, 0x30, "nolid");
    b.add_node(NodeType::CA, 1, 0x40, "idle");
    b.add_node(NodeType::Router, 1, 0x50, "r");
    b.connect(s, 1, dual, 1);
    b.connect(s, 2, dual, 2);
    b.connect(s, 3, late, 2);
    b.connect(s, 4, nolid, 1);
    b.connect(s, 5, nolid, 2);
    b.connect(s, 6, r, 1);
    return std::move(b).build();
}

Lids lids_of(const Fabric& f) {
    Lids l(f);
    l.assign(f.port_id(s, 0), 1, 0);
    l.assign(f.port_id(dual, 1), 2, 0);
    l.assign(f.port_id(dual, 2), 3, 0);
    l.assign(f.port_id(late, 2), 4, 0);
    l.assign(f.port_id(nolid, 2), 5, 0);
    l.assign(f.port_id(idle, 1), 6, 0); // a LID on an uncabled port does not make it active
    l.assign(f.port_id(r, 1), 7, 0);
    return l;
}

} // namespace

TEST_CASE("end ports before LIDs: every cabled CA/router port") {
    const Fabric f = fabric();
    auto P = [&](NodeId n, PortNum p) { return f.port_id(n, p); };
    CHECK(end_ports(f, dual) == std::vector<PortId>{P(dual, 1), P(dual, 2)});
    CHECK(end_ports(f, late) == std::vector<PortId>{P(late, 2)});
    CHECK(end_ports(f, idle).empty());
    CHECK(end_ports(f, s).empty()); // a switch's end port is port 0, not covered here
    CHECK(first_end_port(f, late) == P(late, 2));
    CHECK(first_end_port(f, idle) == kNoPort);
    CHECK(first_end_port(f, nolid) == P(nolid, 1));
    CHECK(!is_end_port(f, P(s, 0)));
    CHECK(all_end_ports(f) == std::vector<PortId>{P(dual, 1), P(dual, 2), P(late, 2), P(nolid, 1),
                                                  P(nolid, 2), P(r, 1)});
}

TEST_CASE("end ports with LIDs: cabled and owning a LID") {
    const Fabric f = fabric();
    const Lids l = lids_of(f);
    auto P = [&](NodeId n, PortNum p) { return f.port_id(n, p); };
    CHECK(end_ports(f, dual, &l) == std::vector<PortId>{P(dual, 1), P(dual, 2)});
    CHECK(end_ports(f, nolid, &l) == std::vector<PortId>{P(nolid, 2)});
    CHECK(first_end_port(f, nolid, &l) == P(nolid, 2));
    CHECK(first_end_port(f, idle, &l) == kNoPort);
    CHECK(all_end_ports(f, &l) ==
          std::vector<PortId>{P(dual, 1), P(dual, 2), P(late, 2), P(nolid, 2), P(r, 1)});
}
