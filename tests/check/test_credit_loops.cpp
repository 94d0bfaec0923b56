// Channel dependency graph: a clockwise ring has a credit loop over exactly its four ring
// channels; moving half of the destinations to VL1 through path SL + SL2VL breaks it.
#include "check/credit_loops.hpp"
#include "fabric/display_name.hpp"
#include "fixtures.hpp"

#include <catch2/catch.hpp>

using namespace ibrt;
using namespace ibrt::check;
using namespace ibrt::test;

namespace {

// SL2VL = identity (VL = SL) for every (in, out) pair of every switch.
void identity_sl2vl(const Fabric& f, Routing& r) {
    r.sl2vl.tables.assign(f.num_nodes(), {});
    for (NodeId s : f.switches()) {
        const std::size_t n = f.node(s).num_ports + 1u;
        Sl2VlTable t{};
        for (int sl = 0; sl < 16; ++sl) t[sl] = static_cast<std::uint8_t>(sl == 15 ? 15 : sl);
        r.sl2vl.tables[s].assign(n * n, t);
    }
}

} // namespace

TEST_CASE("clockwise ring: one credit loop of exactly the four ring channels") {
    const Routed x = clockwise_ring();
    const DeadlockReport rep = check_credit_loops(x.f, x.r);
    CHECK(rep.vls == 1);
    CHECK(rep.dependencies == 4);
    CHECK(rep.channels == 4);
    CHECK(rep.vl15_drops == 0);
    REQUIRE(rep.loops.size() == 1);
    const graph::CreditLoop& l = rep.loops[0];
    CHECK(l.component_channels == 4);
    REQUIRE(l.cycle.size() == 4);
    const Fabric& f = x.f;
    CHECK(l.cycle[0] == graph::Channel{f.port_id(A, 2), 0});
    CHECK(l.cycle[1] == graph::Channel{f.port_id(B, 2), 0});
    CHECK(l.cycle[2] == graph::Channel{f.port_id(C, 2), 0});
    CHECK(l.cycle[3] == graph::Channel{f.port_id(D, 2), 0});
    CHECK(display_channel(f, l.cycle[0].port, l.cycle[0].vl) ==
          "switch 'A' (GUID 0x0000000000000500) port 2 -> switch 'B' (GUID 0x0000000000000501) "
          "port 3 VL 0");
}

TEST_CASE("clockwise ring with half the destinations on VL1 is free of credit loops") {
    Routed x = clockwise_ring();
    identity_sl2vl(x.f, x.r);
    // hA, hB and switches A, B on SL1 (-> VL1); hC, hD, C, D on SL0.
    x.r.path_sls = PathSlTable::by_dlid({0, 1, 1, 0, 0, 1, 1, 0, 0});
    const DeadlockReport rep = check_credit_loops(x.f, x.r);
    CHECK(rep.vls == 15); // the identity table names VLs up to 14
    CHECK(rep.loops.empty());
    // VL1: (BC,CD) (CD,DA) (DA,AB); VL0: (DA,AB) (AB,BC) (BC,CD).
    CHECK(rep.dependencies == 6);
    CHECK(rep.channels == 8);
}

TEST_CASE("SL2VL that maps everything to VL0 keeps the loop") {
    Routed x = clockwise_ring();
    identity_sl2vl(x.f, x.r); // SL 0 everywhere -> VL0
    const DeadlockReport rep = check_credit_loops(x.f, x.r);
    REQUIRE(rep.loops.size() == 1);
    CHECK(rep.loops[0].cycle.size() == 4);
}

TEST_CASE("a port-based VL change alone does not break the ring's loop") {
    // D moves packets that come from C (in 3) and go on to A (out 2) to VL1, but A moves them
    // back to VL0: AB@0 -> BC@0 -> CD@0 -> DA@1 -> AB@0 is still a cycle. SL2VL maps by SL,
    // not by the arriving VL, which is why a dateline needs the SL (torus-2QoS) to carry it.
    Routed x = clockwise_ring();
    const Fabric& f = x.f;
    x.r.sl2vl.tables.assign(f.num_nodes(), {});
    for (NodeId s = A; s <= D; ++s) x.r.sl2vl.tables[s].assign(16, Sl2VlTable{});
    x.r.sl2vl.tables[D][3 * 4 + 2][0] = 1;
    const DeadlockReport rep = check_credit_loops(f, x.r);
    CHECK(rep.vls == 2);
    // (AB,BC) (BC,CD) (CD,DA@1) (DA@1,AB) and, for packets injected at D, (DA@0,AB).
    CHECK(rep.dependencies == 5);
    REQUIRE(rep.loops.size() == 1);
    CHECK(rep.loops[0].component_channels == 4);
    REQUIRE(rep.loops[0].cycle.size() == 4);
    CHECK(rep.loops[0].cycle[0] == graph::Channel{f.port_id(A, 2), 0});
    CHECK(rep.loops[0].cycle[3] == graph::Channel{f.port_id(D, 2), 1});
}

TEST_CASE("SL2VL VL15 drops are counted") {
    Routed x = clockwise_ring();
    const Fabric& f = x.f;
    x.r.sl2vl.tables.assign(f.num_nodes(), {});
    for (NodeId s = A; s <= D; ++s) x.r.sl2vl.tables[s].assign(16, Sl2VlTable{});
    x.r.sl2vl.tables[B][3 * 4 + 2][0] = 15; // B drops what comes from A and goes on to C
    const DeadlockReport rep = check_credit_loops(f, x.r);
    // Packets entering B from A and going on: DLIDs of hC, hD, C and D. Per DLID the state
    // (B, in port 3, VL0) is expanded once, however many sources share it.
    CHECK(rep.vl15_drops == 4);
    CHECK(rep.loops.empty()); // (AB,BC) never forms
}

TEST_CASE("path SLs are per source port: the check reads each source's own SL") {
    // One VL per source switch breaks the ring's loop (the paths from one switch cover at
    // most three of the four ring links, a chain). The default row (SL 0 for everyone) would
    // keep the loop, so a check that ignored the source would report one.
    Routed x = clockwise_ring();
    identity_sl2vl(x.f, x.r);
    PathSlTable t(x.f.num_port_slots(), x.r.lids.max_lid());
    for (NodeId s = A; s <= D; ++s)
        t.set_switch_row(x.f, s,
                         std::vector<std::uint8_t>(x.r.lids.max_lid() + 1u, std::uint8_t(s)));
    x.r.path_sls = t;
    CHECK(x.r.path_sl(x.f.port_id(hC, 1), 1) == 2); // the CA behind C shares C's row
    CHECK(x.r.path_sl(x.f.port_id(C, 0), 1) == 2);
    CHECK(check_credit_loops(x.f, x.r).loops.empty());

    // The converse: A's and C's paths on VL0, B's and D's on VL1. Two opposite sources
    // together close the ring (A's paths cover AB-BC-CD, C's CD-DA-AB), so each VL has a loop.
    PathSlTable u(x.f.num_port_slots(), x.r.lids.max_lid());
    const std::vector<std::uint8_t> sl1(x.r.lids.max_lid() + 1u, 1);
    u.set_row(x.f.port_id(hB, 1), sl1); // one source port's own row
    u.set_row(x.f.port_id(hD, 1), sl1); // hA and hC stay on the default row, SL 0
    CHECK(u.num_rows() == 2);
    x.r.path_sls = u;
    const DeadlockReport rep = check_credit_loops(x.f, x.r);
    REQUIRE(rep.loops.size() == 2); // VL0 (A and C) and VL1 (B and D)
}

// opensm without QoS programs no SL2VL table, and the switches keep the identity map; ibdmchk
// (-c without -d) assumes it too. Taking every SL to VL 0 instead reported the ring's loop for
// paths whose SLs keep them apart (issue 35).
TEST_CASE("without SL2VL tables, each path stays on the VL of its SL (identity)") {
    Routed x = clockwise_ring();
    x.r.path_sls = PathSlTable::by_dlid({0, 1, 1, 0, 0, 1, 1, 0, 0}); // as with identity tables
    const DeadlockReport rep = check_credit_loops(x.f, x.r);
    CHECK(rep.vls == 2); // SLs 0 and 1
    CHECK(rep.loops.empty());
    CHECK(rep.dependencies == 6);
    CHECK(rep.vls_used == 0b11);
    CHECK(sls_choose_vls(x.r));
    // Every path on SL 1: one VL again, VL 1, and the loop is there.
    x.r.path_sls = PathSlTable::by_dlid(std::vector<std::uint8_t>(9, 1));
    const DeadlockReport one = check_credit_loops(x.f, x.r);
    REQUIRE(one.loops.size() == 1);
    CHECK(one.loops[0].cycle[0] == graph::Channel{x.f.port_id(A, 2), 1});
}

// A partial path-SL file (`ibrt sa-path-sls --sample`) leaves pairs without an SL. Taking
// them as SL 0 made a deadlock-free routing look cyclic (issue 35); they are not walked, and
// the report counts them so that the verdict can say it could not judge.
TEST_CASE("unknown path SLs are counted, not walked, where the SL picks the VL") {
    Routed x = clockwise_ring();
    identity_sl2vl(x.f, x.r);
    const std::size_t width = x.r.lids.max_lid() + 1u;
    // One SL per source switch is free of loops (see above): A on SL 1, B on 0, C on 3; D's SLs
    // are unknown.
    PathSlTable t(x.f.num_port_slots(), x.r.lids.max_lid(),
                  std::vector<std::uint8_t>(width, PathSlTable::kUnknownSl));
    for (NodeId s = A; s <= C; ++s)
        t.set_switch_row(x.f, s,
                         std::vector<std::uint8_t>(width, std::uint8_t(s == B ? 0 : s + 1)));
    x.r.path_sls = t;
    CHECK(t.has_unknown());
    CHECK(t.max_sl() == 3);
    CHECK(t.sl_mask() == 0b1011);
    const DeadlockReport rep = check_credit_loops(x.f, x.r);
    CHECK(rep.loops.empty());
    CHECK(rep.unknown_sl_pairs == 7); // hD to the 7 LIDs it does not own
    // Had D's pairs been SL 0, B's and D's paths would close the ring on VL 0.
    PathSlTable z = t;
    z.set_switch_row(x.f, D, std::vector<std::uint8_t>(width, 0));
    x.r.path_sls = z;
    CHECK(check_credit_loops(x.f, x.r).loops.size() == 1);

    // Tables that give every SL the same VL make the SL irrelevant: unknown pairs are walked.
    x.r.path_sls = t;
    for (NodeId s = A; s <= D; ++s)
        for (Sl2VlTable& tab : x.r.sl2vl.tables[s]) tab.fill(0);
    CHECK_FALSE(sls_choose_vls(x.r));
    const DeadlockReport same = check_credit_loops(x.f, x.r);
    CHECK(same.unknown_sl_pairs == 0);
    CHECK(same.loops.size() == 1);
}
