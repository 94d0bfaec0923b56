// Reachability and minimality on hand-built routings with known faults.
#include "check/reachability.hpp"
#include "fixtures.hpp"

#include <catch2/catch.hpp>

using namespace ibrt;
using namespace ibrt::check;
using namespace ibrt::test;

namespace {
std::uint64_t count(const ReachabilityReport& r, WalkOutcome o) {
    return r.by_outcome[static_cast<int>(o)];
}
} // namespace

TEST_CASE("clean two-level tree: every pair reaches, on shortest paths") {
    const Routed x = two_level_tree();
    const ForwardingReport rep = check_forwarding(x.f, x.r);
    // 4 sources x 8 DLIDs, minus each CA's own LID.
    CHECK(rep.reach.pairs == 28);
    CHECK(rep.reach.dlids == 8);
    CHECK(rep.reach.failures() == 0);
    CHECK(rep.reach.dlids_with_failures == 0);
    CHECK(rep.reach.examples.empty());
    CHECK(rep.minimal.pairs == 28);
    CHECK(rep.minimal.non_minimal == 0);
}

TEST_CASE("clean two-level tree with LMC 1: all 2^LMC LIDs are checked") {
    const Routed x = two_level_tree(1);
    const ForwardingReport rep = check_forwarding(x.f, x.r);
    CHECK(rep.reach.dlids == 12);
    CHECK(rep.reach.pairs == 4 * 12 - 4 * 2);
    CHECK(rep.reach.failures() == 0);
    CHECK(rep.minimal.non_minimal == 0);
}

TEST_CASE("a forwarding loop is reported with the path walked") {
    Routed x = two_level_tree();
    x.r.lft[S0][3] = 1; // S0 sends h2's LID back down to L0, which sends it up again
    const ForwardingReport rep = check_forwarding(x.f, x.r);
    CHECK(rep.reach.failures() == 2); // h0 and h1; h2's own leaf delivers directly
    CHECK(count(rep.reach, WalkOutcome::Loop) == 2);
    CHECK(rep.reach.dlids_with_failures == 1);
    REQUIRE(rep.reach.examples.size() == 1); // one per (source switch, DLID)
    const PathExample& e = rep.reach.examples[0];
    CHECK(e.dlid == 3);
    CHECK(e.src == x.f.port_id(h0, 1));
    CHECK(e.trace.outcome == WalkOutcome::Loop);
    CHECK(format_trace(x.f, e.trace) ==
          "CA 'h0' (GUID 0x0000000000000100):1 -> switch 'L0' (GUID 0x0000000000000204):1>3 -> "
          "switch 'S0' (GUID 0x0000000000000206):1>1 -> switch 'L0' (GUID 0x0000000000000204):3");
    CHECK(rep.minimal.non_minimal == 0);
}

TEST_CASE("a missing LFT entry is a dead end") {
    Routed x = two_level_tree();
    x.r.lft[L0][4] = kNoPath;
    const ForwardingReport rep = check_forwarding(x.f, x.r);
    CHECK(rep.reach.failures() == 2);
    CHECK(count(rep.reach, WalkOutcome::NoEntry) == 2);
    REQUIRE(rep.reach.examples.size() == 1);
    CHECK(rep.reach.examples[0].dlid == 4);
    CHECK(format_trace(x.f, rep.reach.examples[0].trace) ==
          "CA 'h0' (GUID 0x0000000000000100):1 -> switch 'L0' (GUID 0x0000000000000204):1>none");
    CHECK(outcome_text(rep.reach.examples[0].trace.outcome) == "dead end: no LFT entry");
}

TEST_CASE("an LFT shorter than the DLID counts as a missing entry") {
    Routed x = two_level_tree();
    x.r.lft[S1].resize(4); // S1 knows LIDs 0..3 only: every walk for 4..8 through S1 dies there
    const ForwardingReport rep = check_forwarding(x.f, x.r);
    // Through S1: h3 from L0 (2 sources), S1's own LID 8 from every source (4).
    CHECK(count(rep.reach, WalkOutcome::NoEntry) == 6);
    CHECK(rep.reach.failures() == 6);
    CHECK(rep.reach.dlids_with_failures == 2);
}

TEST_CASE("dead ends: port beyond the count, wrong end port, port 0 of a non-owner") {
    SECTION("port out of range") {
        Routed x = two_level_tree();
        x.r.lft[L1][1] = 9;
        const ForwardingReport rep = check_forwarding(x.f, x.r);
        CHECK(count(rep.reach, WalkOutcome::PortOutOfRange) == 2); // h2, h3 -> h0
        REQUIRE(rep.reach.examples.size() == 1);
        CHECK(format_trace(x.f, rep.reach.examples[0].trace) ==
              "CA 'h2' (GUID 0x0000000000000102):1 -> switch 'L1' (GUID 0x0000000000000205):1>9");
    }
    SECTION("delivered to the wrong CA") {
        Routed x = two_level_tree();
        x.r.lft[L0][3] = 2; // h2's LID delivered to h1
        const ForwardingReport rep = check_forwarding(x.f, x.r);
        CHECK(count(rep.reach, WalkOutcome::WrongEndPort) == 2); // from h0 and from h1
        REQUIRE(rep.reach.examples.size() == 1);
        CHECK(format_trace(x.f, rep.reach.examples[0].trace) ==
              "CA 'h0' (GUID 0x0000000000000100):1 -> switch 'L0' (GUID 0x0000000000000204):1>2 -> "
              "CA 'h1' (GUID 0x0000000000000101):1");
    }
    SECTION("port 0 at a switch that does not own the LID") {
        Routed x = two_level_tree();
        x.r.lft[S0][3] = 0;
        const ForwardingReport rep = check_forwarding(x.f, x.r);
        CHECK(count(rep.reach, WalkOutcome::Port0NotOwner) == 2);
        CHECK(rep.reach.failures() == 2);
    }
}

TEST_CASE("an unconnected port is a dead end") {
    FabricBuilder b;
    const NodeId sw = b.add_node(NodeType::Switch, 3, 0x10, "sw");
    const NodeId a = b.add_node(NodeType::CA, 1, 0x20, "a");
    const NodeId c = b.add_node(NodeType::CA, 1, 0x21, "c");
    b.connect(sw, 1, a, 1);
    b.connect(sw, 2, c, 1);
    Fabric f = std::move(b).build();
    Routing r;
    r.lids = Lids(f);
    r.lids.assign(f.port_id(a, 1), 1, 0);
    r.lids.assign(f.port_id(c, 1), 2, 0);
    r.lids.assign(f.port_id(sw, 0), 3, 0);
    r.lft.assign(f.num_nodes(), {});
    r.lft[sw] = {kNoPath, 1, 3, 0}; // LID 2 goes out of the uncabled port 3
    const ForwardingReport rep = check_forwarding(f, r);
    CHECK(rep.reach.pairs == 4); // a -> 2, 3; c -> 1, 3
    CHECK(count(rep.reach, WalkOutcome::Unconnected) == 1);
    REQUIRE(rep.reach.examples.size() == 1);
    CHECK(format_trace(f, rep.reach.examples[0].trace) ==
          "CA 'a' (GUID 0x0000000000000020):1 -> switch 'sw' (GUID 0x0000000000000010):1>3");
}

TEST_CASE("a detour is reported as non-minimal with its hop counts") {
    Routed x = two_level_tree();
    // S1's LID from L0 goes over S0 and L1: 3 switch hops instead of 1.
    x.r.lft[L0][8] = 3;
    x.r.lft[S0][8] = 2;
    const ForwardingReport rep = check_forwarding(x.f, x.r);
    CHECK(rep.reach.failures() == 0);
    CHECK(rep.minimal.pairs == 28);
    CHECK(rep.minimal.non_minimal == 2); // h0 and h1
    CHECK(rep.minimal.max_extra_hops == 2);
    REQUIRE(rep.minimal.examples.size() == 1);
    const PathExample& e = rep.minimal.examples[0];
    CHECK(e.dlid == 8);
    CHECK(e.hops == 3);
    CHECK(e.min_hops == 1);
    CHECK(format_trace(x.f, e.trace) ==
          "CA 'h0' (GUID 0x0000000000000100):1 -> switch 'L0' (GUID 0x0000000000000204):1>3 -> "
          "switch 'S0' (GUID 0x0000000000000206):1>2 -> switch 'L1' (GUID 0x0000000000000205):3>4 "
          "-> switch 'S1' (GUID 0x0000000000000207):2>0");
}

TEST_CASE("examples are capped and failures still counted") {
    Routed x = two_level_tree();
    for (Lid d = 1; d <= 8; ++d) x.r.lft[L1][d] = kNoPath;
    ForwardingOptions opt;
    opt.max_examples = 3;
    const ForwardingReport rep = check_forwarding(x.f, x.r, opt);
    // Sources h2, h3 behind L1: every DLID except their own fails at L1 (8 + 8 - 2 = 14);
    // walks from L0 that pass L1 (to h2, h3, L1's LID) die there too (2 x 3 = 6).
    CHECK(count(rep.reach, WalkOutcome::NoEntry) == 20);
    CHECK(rep.reach.examples.size() == 3);
    CHECK(rep.reach.examples[0].dlid == 1);
}
