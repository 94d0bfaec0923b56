// Failure injection, LID pre-assignment, GUID scheme, writer round trip and determinism.
#include "fabric/lids.hpp"
#include "formats/ibnetdiscover.hpp"
#include "gen_test_util.hpp"
#include "generators/failures.hpp"
#include "generators/fat_tree.hpp"
#include "generators/gen_builder.hpp"
#include "generators/lid_preassign.hpp"
#include "generators/pgft.hpp"
#include "generators/slimfly.hpp"
#include "generators/torus.hpp"
#include "graph/fabric_walks.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace ibrt;
using namespace ibrt::gentest;

namespace {
std::string text_of(const Fabric& f) {
    std::ostringstream s;
    write_ibnetdiscover(s, f);
    return s.str();
}
} // namespace

TEST_CASE("GUID scheme: disjoint switch and CA ranges, CA port GUID = node GUID + port") {
    const Fabric f = gen::fat_tree(4, 2);
    CHECK(f.node(0).guid == 0x0010000000000100ull); // first CA
    CHECK(f.port(0, 1).guid == 0x0010000000000101ull);
    CHECK(f.node(f.switches()[0]).guid == 0x0020000000000100ull);
    CHECK(f.node(f.switches()[1]).guid == 0x0020000000000200ull);
    CHECK(f.end_port_guid(f.port_id(f.switches()[0], 0)) == 0x0020000000000100ull);
    CHECK(f.node(0).id == "P(00)");
}

TEST_CASE("explicit switch failure drops its CAs and reports them") {
    const Fabric f = gen::fat_tree(4, 3);
    gen::FailureSpec spec;
    spec.switch_names = {"SW<00,2>"};
    gen::FailureReport r;
    const Fabric g = gen::inject_failures(f, spec, r);
    CHECK(r.removed_switches == std::vector<std::string>{"SW<00,2>"});
    CHECK(r.dropped_cas == std::vector<std::string>{"P(000)", "P(001)"});
    CHECK(r.removed_links.empty());
    CHECK(g.switches().size() == 19);
    CHECK(g.cas().size() == 14);
    CHECK(g.num_links() == 48 - 4);
    CHECK(r.components == 1);
    CHECK(cables_consistent(g));
    const auto d = by_desc(g);
    CHECK(peer(g, d, "SW<00,1>", 1) == "-");
    CHECK(d.count("P(000)") == 0);
}

TEST_CASE("explicit cable failure: named by either end, both ends disappear") {
    const Fabric f = gen::fat_tree(4, 3);
    gen::FailureSpec spec;
    spec.link_names = {"SW<00,0>[1]", "SW<30,2>[3]"};
    gen::FailureReport r;
    const Fabric g = gen::inject_failures(f, spec, r);
    CHECK(r.removed_links ==
          std::vector<std::string>{"SW<00,0>[1] <-> SW<00,1>[3]", "SW<30,1>[1] <-> SW<30,2>[3]"});
    CHECK(g.num_links() == 46);
    const auto d = by_desc(g);
    CHECK(peer(g, d, "SW<00,1>", 3) == "-");
    CHECK(peer(g, d, "SW<30,2>", 3) == "-");
    CHECK(cables_consistent(g));
    // A CA cable: the CA loses its only cable and is dropped.
    gen::FailureSpec ca;
    ca.link_names = {"P(311)[1]"};
    gen::FailureReport r2;
    const Fabric h = gen::inject_failures(f, ca, r2);
    CHECK(r2.dropped_cas == std::vector<std::string>{"P(311)"});
    CHECK(h.cas().size() == 15);
}

TEST_CASE("random failures: fraction or count, deterministic per seed, consistent") {
    const Fabric f = gen::fat_tree(8, 3); // 128 CAs, 80 switches, 256 ISLs
    REQUIRE(isl_count(f) == 256);
    gen::FailureSpec spec;
    spec.links = 0.25;
    spec.seed = 7;
    gen::FailureReport r1, r2, r3;
    const Fabric a = gen::inject_failures(f, spec, r1);
    CHECK(r1.removed_links.size() == 64);
    CHECK(isl_count(a) == 192);
    CHECK(cables_consistent(a));
    CHECK(text_of(gen::inject_failures(f, spec, r2)) == text_of(a));
    spec.seed = 8;
    CHECK(text_of(gen::inject_failures(f, spec, r3)) != text_of(a));

    gen::FailureSpec sw;
    sw.switches = 3;
    sw.links = 10;
    sw.seed = 1;
    gen::FailureReport r4;
    const Fabric b = gen::inject_failures(f, sw, r4);
    CHECK(r4.removed_switches.size() == 3);
    CHECK(r4.removed_links.size() == 10);
    CHECK(b.switches().size() == 77);
    // Each removed leaf (level 2) takes its 4 CAs along; other switches take none.
    std::size_t leaves = 0;
    for (const std::string& s : r4.removed_switches) leaves += s.find(",2>") != std::string::npos;
    CHECK(r4.dropped_cas.size() == 4 * leaves);
    CHECK(b.cas().size() == 128 - 4 * leaves);
    CHECK(cables_consistent(b));
}

TEST_CASE("keep-connected failures leave one component") {
    const Fabric f = gen::torus({{4, 4}, {}, 1, false, 0}); // a mesh: 24 cables, tree needs 15
    gen::FailureSpec spec;
    spec.links = 9;
    spec.keep_connected = true;
    spec.seed = 3;
    gen::FailureReport r;
    const Fabric g = gen::inject_failures(f, spec, r);
    CHECK(isl_count(g) == 15);
    CHECK(r.components == 1);
    CHECK(connected_components(g).count == 1);
    spec.links = 10;
    CHECK_THROWS_WITH(gen::inject_failures(f, spec, r),
                      "--fail-links: cannot remove that many cables and keep the switches "
                      "connected");
}

TEST_CASE("failure parameters are checked") {
    const Fabric f = gen::fat_tree(4, 3);
    gen::FailureReport r;
    gen::FailureSpec a;
    a.links = 40;
    CHECK_THROWS_WITH(gen::inject_failures(f, a, r),
                      "--fail-links: 40 requested, but only 32 available");
    gen::FailureSpec b;
    b.switch_names = {"nope"};
    CHECK_THROWS_WITH(gen::inject_failures(f, b, r), "--fail-switch: no node named \"nope\"");
    gen::FailureSpec c;
    c.link_names = {"SW<00,0>"};
    CHECK_THROWS_WITH(gen::inject_failures(f, c, r), "--fail-link: \"SW<00,0>\" is not NODE[PORT]");
    gen::FailureSpec d;
    d.switch_names = {"P(000)"};
    CHECK_THROWS_WITH(gen::inject_failures(f, d, r), "--fail-switch: \"P(000)\" is not a switch");
    gen::FailureSpec e;
    e.links = 2.5;
    CHECK_THROWS_WITH(gen::inject_failures(f, e, r),
                      "--fail-links: a value >= 1 is a count and must be whole, got 2.500000");
    gen::FailureSpec g;
    g.switch_names = {"0x0020000000000100"}; // by GUID: SW<00,0>
    gen::inject_failures(f, g, r);
    CHECK(r.removed_switches.back() == "SW<00,0>");
}

TEST_CASE("pre-assigned LIDs: aligned CA blocks, switches fill the gaps with LMC 0") {
    const Fabric f = gen::assign_lids(gen::fat_tree(4, 2), 2); // 8 CAs, 6 switches
    const Lids lids = Lids::from_fabric(f);
    CHECK(lids.aligned());
    for (NodeId c = 0; c < 8; ++c) {
        CHECK(f.port(c, 1).base_lid == 4 * (c + 1));
        CHECK(f.port(c, 1).lmc == 2);
    }
    std::vector<Lid> sw;
    for (NodeId s : f.switches()) {
        sw.push_back(f.port(s, 0).base_lid);
        CHECK(f.port(s, 0).lmc == 0);
    }
    CHECK(sw == std::vector<Lid>{1, 2, 3, 36, 37, 38});
    CHECK(lids.max_lid() == 38);
    CHECK_THROWS_WITH(gen::assign_lids(f, 8), "--lmc must be in 0..7, got 8");
}

TEST_CASE("generated fabrics survive the ibnetdiscover writer and reader") {
    std::vector<Fabric> fabrics;
    fabrics.push_back(gen::assign_lids(gen::fat_tree(4, 3), 1));
    fabrics.push_back(gen::clos({8, 2, 3, 1, 1}));
    fabrics.push_back(gen::slimfly({3, 1, 1, 0}));
    fabrics.push_back(gen::torus({{3, 3}, {1, 2}, 2, true, 0}));
    for (const Fabric& f : fabrics) {
        std::stringstream s;
        write_ibnetdiscover(s, f);
        const Fabric g = read_ibnetdiscover(s, "gen");
        REQUIRE(g.num_nodes() == f.num_nodes());
        CHECK(g.num_links() == f.num_links());
        CHECK(g.switches().size() == f.switches().size());
        for (NodeId n = 0; n < f.num_nodes(); ++n) {
            const auto m = g.find_node_by_guid(f.node(n).guid);
            REQUIRE(m);
            CHECK(g.node(*m).desc == f.node(n).desc);
            CHECK(g.node(*m).num_ports == f.node(n).num_ports);
            for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
                const Port& a = f.port(n, p);
                const Port& b = g.port(*m, p);
                REQUIRE(a.connected() == b.connected());
                if (!a.connected()) continue;
                CHECK(g.node(b.peer_node).guid == f.node(a.peer_node).guid);
                CHECK(b.peer_port == a.peer_port);
            }
        }
        CHECK(Lids::from_fabric(g).max_lid() == Lids::from_fabric(f).max_lid());
    }
}

TEST_CASE("the report names nodes so that --fail-switch/--fail-link take them back") {
    // Two HCAs with one description (as on real clusters) and no node ids: the dropped ones
    // are named by GUID, which is unambiguous, while a unique description stays readable.
    FabricBuilder b;
    const NodeId s0 = b.add_node(NodeType::Switch, 4, 0x20, "s0");
    const NodeId s1 = b.add_node(NodeType::Switch, 4, 0x21, "s1");
    const NodeId x = b.add_node(NodeType::CA, 1, 0x10, "MT4123 ConnectX6");
    const NodeId y = b.add_node(NodeType::CA, 1, 0x11, "MT4123 ConnectX6");
    b.connect(s0, 1, x, 1);
    b.connect(s1, 1, y, 1);
    b.connect(s0, 2, s1, 2);
    const Fabric f = std::move(b).build();
    gen::FailureSpec spec;
    spec.switch_names = {"s0"};
    gen::FailureReport r;
    (void)gen::inject_failures(f, spec, r);
    CHECK(r.removed_switches == std::vector<std::string>{"s0"});
    CHECK(r.dropped_cas == std::vector<std::string>{"0x0000000000000010"});
    // Given back, the GUID names that very CA: its cable is the one removed.
    gen::FailureSpec again;
    again.link_names = {r.dropped_cas[0] + "[1]"};
    gen::FailureReport r2;
    (void)gen::inject_failures(f, again, r2);
    CHECK(r2.dropped_cas == r.dropped_cas);
}
