// The torus engine (issue 13, paper 003 §3.2): on generated 2D, 3D and 4D tori, pristine, with
// parallel cables, relabelled, and with failed links and a failed switch, the check library
// finds every (CA port, LID) pair reached and no credit loop under the engine's own SL2VL
// tables and path SLs; pristine paths are minimal; fabrics that are not tori are declined.
#include "check/credit_loops.hpp"
#include "check/reachability.hpp"
#include "engines/engine.hpp"
#include "generators/failures.hpp"
#include "generators/fat_tree.hpp"
#include "generators/hyperx.hpp"
#include "generators/torus.hpp"
#include "mapping/map_fabric.hpp"
#include "torus_fixtures.hpp"

#include "../../mapping/relabel.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>

using namespace ibrt;

namespace {

Fabric torus_fabric(std::vector<int> k, std::vector<int> width, int cas = 1) {
    gen::TorusParams p;
    p.k = std::move(k);
    p.width = std::move(width);
    p.cas_per_switch = cas;
    return gen::torus(p);
}

Routing route(const Fabric& f, EngineOptions opt = {}) {
    return test::route_torus(f, opt);
}

std::string refusal(const Fabric& f, EngineOptions opt = {}) {
    return test::torus_refusal(f, opt);
}

double stat(const Routing& r, const std::string& name) {
    const double v = test::torus_stat(r, name, -1);
    if (v < 0) FAIL("no stat " << name);
    return v;
}

bool has_stat(const Routing& r, const std::string& name) {
    return std::any_of(r.stats.begin(), r.stats.end(),
                       [&](const auto& kv) { return kv.first == name; });
}

// Every pair reached (switch LIDs included) and no credit loop with the engine's tables.
void require_clean(const Fabric& f, const Routing& r, bool minimal) {
    const check::ForwardingReport fw = check::check_forwarding(f, r);
    CHECK(fw.reach.pairs > 0);
    CHECK(fw.reach.failures() == 0);
    if (minimal) CHECK(fw.minimal.non_minimal == 0);
    const check::DeadlockReport dl = check::check_credit_loops(f, r);
    CHECK(dl.loops.empty());
    CHECK(dl.vl15_drops == 0);
    CHECK(dl.vls <= r.data_vls);
}

// Whether the failures cut some ring of the mapped torus in two (two missing elements, links
// or switches, on one ring): the case the engine may decline.
bool some_ring_cut(const Fabric& f) {
    const mapping::Shape s = mapping::map_fabric(f);
    REQUIRE(s.family == mapping::Family::Torus);
    std::map<std::vector<int>, int> missing_on; // ring: coordinates with its own zeroed, + dim
    const auto ring = [](std::vector<int> x, int d) {
        x[d] = 0;
        x.push_back(d);
        return x;
    };
    for (const auto& x : s.missing_switches)
        for (int d = 0; d < int(x.size()); ++d) ++missing_on[ring(x, d)];
    for (const mapping::MissingLink& m : s.missing_links) {
        if (m.cables > 0) continue;
        for (int d = 0; d < int(s.dims.size()); ++d)
            if (s.coord[m.a][d] != s.coord[m.b][d]) ++missing_on[ring(s.coord[m.a], d)];
    }
    return std::any_of(missing_on.begin(), missing_on.end(),
                       [](const auto& kv) { return kv.second > 1; });
}

} // namespace

TEST_CASE("torus: pristine 2D, 3D and 4D tori route minimally without credit loops", "[torus]") {
    struct Case {
        std::vector<int> k, width;
        int cas;
        unsigned sl_mask; // one SL bit per ring of 4 or more
    };
    const std::vector<Case> cases = {
        {{5, 6}, {1, 2}, 2, 0xf},
        {{4, 5, 6}, {}, 1, 0xff},
        {{3, 4, 5, 4}, {1, 2, 1, 2}, 1, 0xff}, // the ring of 3 needs no dateline
        {{8}, {}, 2, 0x3},
    };
    for (const Case& c : cases) {
        const Fabric f = torus_fabric(c.k, c.width, c.cas);
        INFO(f.switches().size() << " switches");
        const Routing r = route(f);
        require_clean(f, r, true);
        CHECK(r.data_vls == 2);
        CHECK(r.path_sls.sl_mask() == c.sl_mask);
        CHECK(stat(r, "detour_turns") == 0);
        // The dateline VLs are what keeps it free of credit loops: all on VL 0, the rings close.
        // (Without SL2VL tables the check takes SL s to VL s, so the SLs go too.)
        Routing one_vl = r;
        one_vl.sl2vl = {};
        one_vl.path_sls = {};
        CHECK_FALSE(check::check_credit_loops(f, one_vl).loops.empty());
    }
}

TEST_CASE("torus: rings of 2 and 3 need no dateline VL", "[torus]") {
    const Fabric f = torus_fabric({3, 3, 2}, {}, 1); // maps as a FlatFly/hypercube mix
    const Routing r = route(f);
    require_clean(f, r, true);
    CHECK(r.data_vls == 1);
}

TEST_CASE("torus: parallel cables share the destinations", "[torus]") {
    const Fabric f = torus_fabric({4, 5, 6}, {2, 3, 2}, 4);
    const Routing r = route(f);
    require_clean(f, r, true);
    // Per switch and neighbour: LIDs on each cable of the bundle.
    std::size_t bundles = 0;
    for (NodeId s : f.switches()) {
        std::map<NodeId, std::map<PortNum, int>> by_peer;
        for (PortNum p = 1; p <= f.node(s).num_ports; ++p) {
            const Port& port = f.port(s, p);
            if (port.connected() && f.node(port.peer_node).is_switch())
                by_peer[port.peer_node][p] = 0;
        }
        for (Lid l = 1; l <= r.lids.max_lid(); ++l) {
            const PortNum out = r.out_port(s, l);
            if (out == kNoPath || out == 0) continue;
            const NodeId peer = f.port(s, out).peer_node;
            if (by_peer.count(peer)) ++by_peer[peer][out];
        }
        for (const auto& [peer, cables] : by_peer) {
            if (cables.size() < 2) continue;
            int lo = 1 << 30, hi = 0, total = 0;
            for (const auto& [p, n] : cables) {
                lo = std::min(lo, n);
                hi = std::max(hi, n);
                total += n;
            }
            INFO("bundle of " << cables.size() << " carrying " << total);
            CHECK(lo * 2 * int(cables.size()) >= total);
            ++bundles;
        }
    }
    CHECK(bundles > 0);
}

TEST_CASE("torus: coordinates come from the cabling alone (relabelled fabrics)", "[torus]") {
    for (const auto& k : {std::vector<int>{4, 5, 6}, std::vector<int>{3, 4, 5, 4}})
        for (std::uint64_t seed : {1u, 2u, 3u}) {
            const test::Relabelled g = test::relabel(torus_fabric(k, {}, 2), seed);
            INFO("seed " << seed);
            const Routing r = route(g.fabric);
            require_clean(g.fabric, r, true);
            CHECK(r.data_vls == 2);
        }
}

TEST_CASE("torus: routes around failed links and a failed switch", "[torus]") {
    struct Case {
        std::vector<int> k;
        double switches, links;
    };
    const std::vector<Case> cases = {
        {{4, 5, 6}, 0, 3},    {{4, 5, 6}, 1, 0}, {{4, 5, 6}, 1, 3},
        {{3, 4, 5, 4}, 1, 4}, {{6, 6, 6}, 1, 4},
    };
    int routed = 0, turned = 0, cut = 0;
    for (const Case& c : cases)
        for (std::uint64_t seed = 1; seed <= 8; ++seed) {
            gen::FailureSpec spec;
            spec.switches = c.switches;
            spec.links = c.links;
            spec.seed = seed;
            gen::FailureReport rep;
            const Fabric f = gen::inject_failures(torus_fabric(c.k, {}, 1), spec, rep);
            // A ring cut twice may leave destinations to the escape VL (test_degraded_torus.cpp).
            const bool ring_cut = some_ring_cut(f);
            cut += ring_cut;
            INFO(c.k.size() << "D, " << c.switches << " switch(es), " << c.links << " links, seed "
                            << seed);
            const Routing r = route(f);
            require_clean(f, r, false);
            ++routed;
            const bool escape = has_stat(r, "escape_vl");
            if (!ring_cut) CHECK_FALSE(escape); // what the engine routed before issue 37
            if (stat(r, "detour_turns") > 0) {
                ++turned;
                CHECK(r.data_vls == (escape && stat(r, "escape_vl") > 3 ? 8 : 4));
            }
        }
    CHECK(routed == 40);
    CHECK(cut > 0);
    CHECK(turned >= 5); // the failed switch makes DOR turn early, on VL 2 and 3
}

TEST_CASE("torus: a failed link keeps the path SLs of the pristine torus", "[torus]") {
    const Fabric f = torus_fabric({4, 5, 6}, {}, 1);
    gen::FailureSpec spec;
    spec.link_names = {"sw-1.2.3[3]"}; // one cable, between two switches that stay
    gen::FailureReport rep;
    const Fabric g = gen::inject_failures(f, spec, rep);
    REQUIRE(rep.removed_links.size() == 1);
    const Routing a = route(f), b = route(g);
    require_clean(g, b, false);
    // Same node order and LIDs: compare the SL of every (CA port, LID) pair.
    REQUIRE(a.lids.max_lid() == b.lids.max_lid());
    std::size_t differ = 0;
    for (NodeId c : f.cas())
        for (Lid l = 1; l <= a.lids.max_lid(); ++l)
            differ += a.path_sl(f.port_id(c, 1), l) != b.path_sl(g.port_id(c, 1), l);
    CHECK(differ == 0);
}

TEST_CASE("torus: declines what is not a torus, and too few VLs", "[torus]") {
    const std::string ft = refusal(gen::fat_tree(4, 3));
    CHECK(ft.find("does not map as a torus") != std::string::npos);
    gen::HyperXParams h;
    h.k = {4, 4};
    h.width = {2, 1};
    const std::string hx = refusal(gen::hyperx(h));
    CHECK(hx.find("not a ring") != std::string::npos);
    CHECK(hx.find("flatfly") != std::string::npos);
    EngineOptions few;
    few.default_data_vls = 1;
    const std::string vls = refusal(torus_fabric({4, 5, 6}, {}, 1), few);
    CHECK(vls.find("needs 2 data VLs") != std::string::npos);
    // A ring cut in two, and a failed link of a 4x4x4 torus (a 6D hypercube), are routed on
    // the escape VL now (test_degraded_torus.cpp).
}
