// The MLID engine (paper 000 §4): the worked example of §4.1-§4.3 exactly, equations (1) and
// (2) entry by entry on FT(m,n) in paper mode, all-pairs reachability by walking the LFTs,
// disjoint up links inside a greatest-common-prefix group, the generalized cases (radix 36/40/
// 48, k-ary n-trees, oversubscribed and parallel-link trees, preassigned and non-contiguous
// LIDs, degraded trees) and the capped-LMC policy.
#include "check/credit_loops.hpp"
#include "engines/engine.hpp"
#include "engines/fattree/tree_lids.hpp"
#include "generators/failures.hpp"
#include "generators/fat_tree.hpp"
#include "generators/lid_preassign.hpp"
#include "generators/pgft.hpp"
#include "generators/rebuild.hpp"

#include "../lft_walk.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <set>

using namespace ibrt;

namespace {

Routing route(const Fabric& f, EngineOptions opt = {}, const Lids* pre = nullptr) {
    return make_engine("mlid")->route(f, pre, opt);
}
EngineOptions paper() {
    EngineOptions o;
    o.params["paper_lids"] = "true";
    return o;
}
std::size_t ca_index(const Fabric& f, const std::string& desc) {
    const NodeId n = test::node_by_desc(f, desc);
    for (std::size_t i = 0; i < f.cas().size(); ++i)
        if (f.cas()[i] == n) return i;
    return ~std::size_t(0);
}
PortId ca_port(const Fabric& f, const std::string& desc) {
    return f.port_id(test::node_by_desc(f, desc), 1);
}
std::vector<int> label_digits(const std::string& s, std::size_t from, std::size_t to) {
    std::vector<int> d;
    for (std::size_t i = from; i < to; ++i) d.push_back(s[i] - '0');
    return d;
}

} // namespace

TEST_CASE("worked example of paper 000 §4 on FT(4,3)") {
    const Fabric f = gen::fat_tree(4, 3);
    const Routing r = route(f, paper());
    CHECK(r.lmc == 2);
    // §4.1: BaseLID(P(300)) = 49, LIDset {49, 50, 51, 52}.
    const PortId p300 = ca_port(f, "P(300)");
    CHECK(r.lids.base(p300) == 49);
    CHECK(r.lids.lmc(p300) == 2);
    for (Lid l = 49; l <= 52; ++l) CHECK(r.lids.owner(l) == p300);
    CHECK(r.lids.base(ca_port(f, "P(000)")) == 1);
    CHECK(r.lids.base(ca_port(f, "P(311)")) == 61);
    // §4.2: P(000), P(001), P(010), P(011) choose 49, 50, 51, 52.
    const std::size_t n = f.cas().size();
    const std::size_t d = ca_index(f, "P(300)");
    CHECK(r.dlid_choice[ca_index(f, "P(000)") * n + d] == 49);
    CHECK(r.dlid_choice[ca_index(f, "P(001)") * n + d] == 50);
    CHECK(r.dlid_choice[ca_index(f, "P(010)") * n + d] == 51);
    CHECK(r.dlid_choice[ca_index(f, "P(011)") * n + d] == 52);
    // §4.3: path Q, DLID 49 from P(000): SW<00,2>_1, _3, SW<00,1>_1, _3, SW<00,0>_1, _4,
    // SW<30,1>_3, _1, SW<30,2>_3, _1.
    const test::Walk w = test::walk(f, r, ca_port(f, "P(000)"), 49);
    CHECK(w.reached);
    REQUIRE(w.hops.size() == 5);
    const std::vector<std::tuple<std::string, int, int>> q = {{"SW<00,2>", 1, 3},
                                                              {"SW<00,1>", 1, 3},
                                                              {"SW<00,0>", 1, 4},
                                                              {"SW<30,1>", 3, 1},
                                                              {"SW<30,2>", 3, 1}};
    for (std::size_t i = 0; i < 5; ++i) {
        CHECK(f.node(w.hops[i].node).desc == std::get<0>(q[i]));
        CHECK(int(w.hops[i].in) == std::get<1>(q[i]));
        CHECK(int(w.hops[i].out) == std::get<2>(q[i]));
    }
}

TEST_CASE("paper mode follows equations (1) and (2) for every LFT entry") {
    for (auto [m, n] : {std::pair{4, 3}, std::pair{8, 3}, std::pair{4, 4}, std::pair{8, 2}}) {
        const Fabric f = gen::fat_tree(m, n);
        const Routing r = route(f, paper());
        const int h = m / 2;
        int hp = 1; // (m/2)^(n-1)
        for (int i = 0; i < n - 1; ++i) hp *= h;
        REQUIRE((1 << r.lmc) == hp);
        std::size_t entries = 0, mismatches = 0;
        for (NodeId s : f.switches()) {
            const std::string& lab = f.node(s).desc; // "SW<w0..w_{n-2},l>"
            const std::size_t comma = lab.find(',');
            const std::vector<int> w = label_digits(lab, 3, comma);
            const int l = std::stoi(lab.substr(comma + 1));
            for (NodeId c : f.cas()) {
                const std::string& pl = f.node(c).desc; // "P(p0..p_{n-1})"
                const std::vector<int> p = label_digits(pl, 2, pl.size() - 1);
                const PortId port = f.port_id(c, 1);
                for (int o = 0; o < hp; ++o) {
                    const int lid = r.lids.base(port) + o;
                    bool below = true; // case 1: w0..w_{l-1} = p0..p_{l-1}
                    for (int i = 0; i < l; ++i) below = below && w[i] == p[i];
                    int k = below ? p[l] + 1
                                  : ((lid - 1) /
                                     [&] {
                                         int x = 1;
                                         for (int i = 0; i < n - 1 - l; ++i) x *= h;
                                         return x;
                                     }() %
                                     h) +
                                        h + 1;
                    ++entries;
                    if (r.out_port(s, static_cast<Lid>(lid)) != k) ++mismatches;
                }
            }
        }
        INFO("FT(" << m << "," << n << ")");
        CHECK(entries == f.switches().size() * f.cas().size() * hp);
        CHECK(mismatches == 0);
    }
}

TEST_CASE("all pairs reach every LID on FT and k-ary n-trees") {
    struct Case {
        const char* name;
        Fabric f;
        int lmc;
    };
    std::vector<Case> cases;
    cases.push_back({"FT(4,3)", gen::fat_tree(4, 3), 2});
    cases.push_back({"FT(8,3)", gen::fat_tree(8, 3), 4});
    cases.push_back({"FT(4,4)", gen::fat_tree(4, 4), 3});
    cases.push_back({"FT(16,2)", gen::fat_tree(16, 2), 3});
    cases.push_back({"3-ary 3-tree", gen::kary_ntree(3, 3), 4}); // 9 paths -> 16 LIDs
    cases.push_back({"4-ary 3-tree", gen::kary_ntree(4, 3), 4});
    for (const Case& c : cases) {
        INFO(c.name);
        const Routing r = route(c.f);
        CHECK(int(r.lmc) == c.lmc);
        CHECK(r.lids.aligned());
        std::string why;
        CHECK(test::unreachable_from_leaves(c.f, r, &why) == 0);
        CHECK(why.empty());
        // And every chosen DLID, walked from the source port itself, arrives.
        const std::size_t n = c.f.cas().size();
        std::size_t bad = 0;
        for (std::size_t a = 0; a < n; ++a)
            for (std::size_t b = 0; b < n; ++b) {
                const Lid dl = r.dlid_choice[a * n + b];
                if (r.lids.owner(dl) != c.f.port_id(c.f.cas()[b], 1))
                    ++bad;
                else if (a != b && !test::walk(c.f, r, c.f.port_id(c.f.cas()[a], 1), dl).reached)
                    ++bad;
            }
        CHECK(bad == 0);
    }
}

TEST_CASE("sources of one gcp group reach a destination over disjoint up links") {
    for (auto [m, n] : {std::pair{4, 3}, std::pair{8, 3}, std::pair{4, 4}}) {
        INFO("FT(" << m << "," << n << ")");
        const Fabric f = gen::fat_tree(m, n);
        const Routing r = route(f);
        const std::size_t N = f.cas().size();
        std::size_t groups = 0, shared = 0;
        for (std::size_t b = 0; b < N; ++b) {
            const std::string& pd = f.node(f.cas()[b]).desc;
            // Group of a source relative to b: (length of the common prefix, the source's
            // prefix one digit longer) = gcpg(x p_a, a+1) of §4.2.
            std::map<std::string, std::set<PortId>> used; // group -> up links (as PortIds)
            std::map<std::string, std::size_t> members;
            for (std::size_t a = 0; a < N; ++a) {
                if (a == b) continue;
                const std::string& ps = f.node(f.cas()[a]).desc;
                std::size_t alpha = 2;
                while (ps[alpha] == pd[alpha]) ++alpha;
                const std::string group = ps.substr(0, alpha + 1);
                ++members[group];
                const test::Walk w =
                    test::walk(f, r, f.port_id(f.cas()[a], 1), r.dlid_choice[a * N + b]);
                REQUIRE(w.reached);
                for (const auto& hop : w.hops) {
                    // Paper ports m/2..m-1 (IB m/2+1..m) lead up, except on the roots <w,0>.
                    const bool root = f.node(hop.node).desc.ends_with(",0>");
                    if (!root && hop.out > m / 2 &&
                        !used[group].insert(f.port_id(hop.node, hop.out)).second)
                        ++shared;
                }
            }
            groups += members.size();
        }
        CHECK(groups > 0);
        CHECK(shared == 0);
    }
}

TEST_CASE("a LID per up path: complement and pod shifts cross no cable twice, any m") {
    // With 2^LMC >= the path count P, LID offset o takes up path o whatever the destination
    // (§4.3's equations when 2^LMC = P), so a source keeps its path and sources of one pod,
    // with distinct ranks, take distinct paths. FT(6,3): P = 9 paths on 16 LIDs; rotating
    // each destination's LIDs by 16 i mod 9 made complement traffic share cables.
    for (auto [m, n] : {std::pair{6, 3}, std::pair{4, 3}, std::pair{8, 3}, std::pair{6, 2}}) {
        INFO("FT(" << m << "," << n << ")");
        const Fabric f = gen::fat_tree(m, n);
        const Routing r = route(f);
        const std::size_t N = f.cas().size();
        std::size_t pod = 1;
        for (int l = 1; l < n; ++l) pod *= std::size_t(m / 2);
        for (std::size_t shift = pod; shift <= N; shift += pod) {
            INFO((shift == N ? "complement" : "shift ") << (shift == N ? 0 : shift));
            std::map<PortId, int> used;
            for (std::size_t a = 0; a < N; ++a) {
                const std::size_t b = shift == N ? N - 1 - a : (a + shift) % N;
                const test::Walk w =
                    test::walk(f, r, f.port_id(f.cas()[a], 1), r.dlid_choice[a * N + b]);
                REQUIRE(w.reached);
                for (const auto& hop : w.hops) ++used[f.port_id(hop.node, hop.out)];
            }
            int most = 0;
            for (const auto& [port, count] : used) most = std::max(most, count);
            CHECK(most == 1);
        }
    }
}

TEST_CASE("capped LMC: sources spread evenly over the LIDs, all LIDs still reach") {
    const Fabric f = gen::fat_tree(8, 3); // 16 paths; forced down to 4 LIDs
    EngineOptions opt;
    opt.lmc = 2;
    const Routing r = route(f, opt);
    CHECK(r.lmc == 2);
    CHECK(test::unreachable_from_leaves(f, r) == 0);
    // The 16 sources of gcpg(0,1) sending to P(700): each of its 4 LIDs is chosen 4 times.
    const std::size_t N = f.cas().size();
    const std::size_t d = ca_index(f, "P(700)");
    const Lid base = r.lids.base(ca_port(f, "P(700)"));
    std::map<Lid, int> uses;
    for (std::size_t a = 0; a < N; ++a)
        if (f.node(f.cas()[a]).desc[2] == '0') ++uses[r.dlid_choice[a * N + d]];
    CHECK(uses == std::map<Lid, int>{{base, 4}, {base + 1, 4}, {base + 2, 4}, {base + 3, 4}});
}

TEST_CASE("LMC policy: auto, 7 at most, and the unicast LID space") {
    using fattree::choose_lmc;
    CHECK(choose_lmc(16, 20, 4, std::nullopt) == 2);        // FT(4,3)
    CHECK(choose_lmc(1024, 320, 64, std::nullopt) == 5);    // FT(16,3): 64 paths do not fit
    CHECK(choose_lmc(11664, 1620, 324, std::nullopt) == 2); // FT(36,3)
    CHECK(choose_lmc(100, 10, 100000, std::nullopt) == 7);  // capped at 7
    CHECK(choose_lmc(100, 10, 9, std::nullopt) == 4);       // 9 paths -> 16 LIDs
    CHECK_THROWS_WITH(choose_lmc(11664, 1620, 324, 3),
                      "LMC 3 needs 94932 LIDs for 11664 end ports and 1620 switches, more than "
                      "the 49151 unicast LIDs");
    CHECK_THROWS_WITH(choose_lmc(10, 1, 1, 8), "LMC 8 is outside 0..7");
    CHECK_THROWS_WITH(choose_lmc(50000, 10, 1, std::nullopt),
                      "50000 end ports and 10 switches need more than the 49151 unicast LIDs");
}

TEST_CASE("default LIDs are aligned: CA i at 2^LMC (i+1), switches below and after") {
    const Fabric f = gen::fat_tree(4, 3);
    const Routing r = route(f);
    CHECK(r.lids.aligned());
    CHECK(r.lids.base(ca_port(f, "P(000)")) == 4);
    CHECK(r.lids.base(ca_port(f, "P(300)")) == 52);
    const auto sw = f.switches();
    CHECK(r.lids.base(f.port_id(sw[0], 0)) == 1);
    CHECK(r.lids.base(f.port_id(sw[2], 0)) == 3);
    CHECK(r.lids.base(f.port_id(sw[3], 0)) == 68);
    CHECK(r.lids.max_lid() == 68 + 16);
    // Switch LIDs are reachable too (management traffic).
    CHECK(test::unreachable_from_leaves(f, r) == 0);
}

TEST_CASE("any radix, oversubscribed and parallel-link trees") {
    struct Case {
        const char* name;
        Fabric f;
    };
    std::vector<Case> cases;
    cases.push_back({"radix 36, 2 levels", gen::clos({.radix = 36, .levels = 2})});
    cases.push_back({"FT(40,2)", gen::fat_tree(40, 2)});
    cases.push_back({"radix 48, 2 levels", gen::clos({.radix = 48, .levels = 2})});
    cases.push_back({"radix 12, 3 levels, 2:1",
                     gen::clos({.radix = 12, .levels = 3, .blocking_down = 2, .blocking_up = 1})});
    cases.push_back(
        {"radix 8, 3 levels, 2 parallel", gen::clos({.radix = 8, .levels = 3, .parallel = 2})});
    for (const Case& c : cases) {
        INFO(c.name);
        const Routing r = route(c.f);
        std::string why;
        std::size_t walks = 0;
        CHECK(test::unreachable_from_leaves(c.f, r, &why, &walks) == 0);
        CHECK(why.empty());
        CHECK(walks > 0);
    }
}

TEST_CASE("preassigned LIDs are honoured, also non-contiguous ones") {
    const Fabric f = gen::fat_tree(8, 2);
    SECTION("opensm-style aligned LIDs from the fabric") {
        const Fabric g = gen::assign_lids(f, 2);
        const Lids pre = Lids::from_fabric(g);
        const Routing r = route(g, {}, &pre);
        CHECK(r.lmc == 2);
        for (NodeId c : g.cas()) CHECK(r.lids.base(g.port_id(c, 1)) == pre.base(g.port_id(c, 1)));
        CHECK(test::unreachable_from_leaves(g, r) == 0);
    }
    SECTION("scattered LIDs, CAs in reverse order") {
        Lids pre(f);
        Lid next = 40000;
        for (NodeId c : f.cas()) {
            pre.assign(f.port_id(c, 1), next, 3);
            next = static_cast<Lid>(next - 24); // gaps of 16 LIDs between blocks
        }
        Lid sl = 7;
        for (NodeId s : f.switches()) pre.assign(f.port_id(s, 0), sl += 3, 0);
        const Routing r = route(f, {}, &pre);
        CHECK(r.lmc == 3);
        CHECK(r.lids.max_lid() == 40007);
        CHECK(test::unreachable_from_leaves(f, r) == 0);
    }
    SECTION("a CA without a LID is declined") {
        Lids pre(f);
        pre.assign(f.port_id(f.cas()[0], 1), 8, 3);
        CHECK_THROWS_WITH(route(f, {}, &pre),
                          "CA 'P(01)' (GUID 0x0010000000000200) port 1 has no LID among the "
                          "preassigned LIDs");
    }
}

TEST_CASE("degraded trees are routed around missing links, or declined") {
    const auto minus = [](double links) {
        gen::FailureSpec spec;
        spec.links = links;
        spec.keep_connected = true;
        spec.seed = 7;
        gen::FailureReport rep;
        return gen::inject_failures(gen::fat_tree(8, 3), spec, rep);
    };
    SECTION("FT(8,3) minus 5% of the switch cables, connected") {
        const Fabric g = minus(0.05);
        REQUIRE(g.num_links() < gen::fat_tree(8, 3).num_links());
        const Routing r = route(g);
        std::string why;
        CHECK(test::unreachable_from_leaves(g, r, &why) == 0);
        CHECK(why.empty());
    }
    SECTION("FT(8,3) minus 10%: the switch LIDs no turn reaches go on the escape VL") {
        // Leaves reach some roots only through a down-then-up turn, and with this many lost
        // cables every turn left for one of them could close a cycle with the turns taken
        // (switch_lid_routes.hpp); the tables used to route it with a credit loop, then it was
        // declined. Now those LIDs go on VL 1 (escape_layer.hpp).
        const Fabric g = minus(0.1);
        const Routing r = route(g);
        CHECK(test::unreachable_from_leaves(g, r) == 0);
        CHECK(r.data_vls == 2);
        CHECK(check::check_credit_loops(g, r).loops.empty());
        Routing one_vl = r; // the same tables with every path on VL 0 do loop
        one_vl.sl2vl = {};
        one_vl.path_sls = {};
        CHECK_FALSE(check::check_credit_loops(g, one_vl).loops.empty());
    }
    SECTION("a leaf with one up link left") {
        const Fabric f = gen::fat_tree(4, 3);
        std::vector<bool> keep_node(f.num_nodes(), true), keep(f.num_port_slots(), true);
        keep[f.port_id(test::node_by_desc(f, "SW<00,2>"), 4)] = false;
        const Fabric g = gen::rebuild(f, keep_node, keep);
        const Routing r = route(g);
        CHECK(test::unreachable_from_leaves(g, r) == 0);
        // Everything from SW<00,2> to other leaves leaves on port 3.
        const NodeId leaf = test::node_by_desc(g, "SW<00,2>");
        for (NodeId c : g.cas()) {
            const PortId p = g.port_id(c, 1);
            if (g.port(p).peer_node == leaf) continue;
            for (int o = 0; o < 4; ++o) CHECK(r.out_port(leaf, r.lids.base(p) + o) == 3);
        }
    }
    SECTION("connected, but no up*/down* path between two leaves") {
        FabricBuilder b;
        auto sw = [&](const char* d, std::uint64_t g) {
            return b.add_node(NodeType::Switch, 4, g, d);
        };
        NodeId A = sw("A", 0x1), B = sw("B", 0x2), C = sw("C", 0x3), M1 = sw("M1", 0x4),
               M2 = sw("M2", 0x5), M3 = sw("M3", 0x6), T1 = sw("T1", 0x7), T2 = sw("T2", 0x8);
        NodeId a = b.add_node(NodeType::CA, 1, 0x10, "a"),
               bb = b.add_node(NodeType::CA, 1, 0x11, "b"),
               c = b.add_node(NodeType::CA, 1, 0x12, "c");
        b.connect(A, 1, a, 1);
        b.connect(B, 1, bb, 1);
        b.connect(C, 1, c, 1);
        b.connect(A, 2, M1, 1);
        b.connect(B, 2, M2, 1);
        b.connect(C, 2, M3, 1);
        b.connect(M1, 2, T1, 1);
        b.connect(M2, 2, T2, 1);
        b.connect(M3, 2, T1, 2);
        b.connect(M3, 3, T2, 2);
        const Fabric f = std::move(b).build();
        // B reaches A only down-then-up (B-M2-T2-M3-T1-M1-A): A's and B's LIDs (and the
        // switches' own that no turn reaches) go on the escape VL, with path SL 1.
        const Routing r = route(f);
        CHECK(test::unreachable_from_leaves(f, r) == 0);
        CHECK(r.data_vls == 2);
        const PortId pa = f.port_id(a, 1), pb = f.port_id(bb, 1);
        CHECK(r.path_sl(pb, r.lids.base(pa)) == 1);
        CHECK(r.path_sl(pa, r.lids.base(pb)) == 1);
        CHECK(r.sl2vl.vl(B, 4, 1, 2, 1, 2) == 1);
        CHECK(r.sl2vl.vl(B, 4, 1, 2, 0, 2) == 0);
        CHECK(check::check_credit_loops(f, r).loops.empty());
    }
}

TEST_CASE("engine registry") {
    CHECK(engine_names() == std::vector<std::string>{"mlid", "slid", "separate", "flatfly",
                                                     "dragonfly", "torus", "slimfly",
                                                     "dragonfly-plus"});
    CHECK(make_engine("mlid")->name() == "mlid");
    CHECK(make_engine("slid")->name() == "slid");
    CHECK(make_engine("ftree") == nullptr);
}
