// SRD baseline (paper 001 §VI.D, ref. [14]): every destination's paths form one legal
// Up*/Down* tree, so color/L needs exactly one LID per destination; exact trees on the
// two-level tree, and the balancing between destinations.
#include "../check/fixtures.hpp"
#include "generators/random_graph.hpp"
#include "lidassign/path_compute.hpp"
#include "lidassign/plan.hpp"
#include "lidassign/srd.hpp"

#include <catch2/catch.hpp>

using namespace ibrt;
using namespace ibrt::lidassign;

namespace {

using Route = std::vector<PortId>;

Route route(const DestPaths& d, std::size_t i) {
    const auto p = d.path(i);
    return Route(p.begin(), p.end());
}

} // namespace

TEST_CASE("srd on the two-level tree rooted at L0: exact trees, alternating spines") {
    using namespace ibrt::test;
    const Routed x = two_level_tree();
    const Fabric& f = x.f;
    const graph::UpDown ud = graph::make_updown(f, L0);
    const PathSet ps = srd_paths(f, ud);
    REQUIRE(ps.size() == 4);
    auto e = [&](NodeId n, PortNum p) { return f.port_id(n, p); };
    // To h0: L1's CAs go up over S0 (lowest port, all loads 0), S0 -> L0 is up too.
    CHECK(route(ps[0], 1) == Route{e(h2, 1), e(L1, 3), e(S0, 1), e(L0, 1)});
    CHECK(route(ps[0], 2) == Route{e(h3, 1), e(L1, 3), e(S0, 1), e(L0, 1)});
    CHECK(route(ps[0], 0) == Route{e(h1, 1), e(L0, 1)});
    // To h1: L1 -> S0 now carries 2, so the tree takes S1.
    CHECK(route(ps[1], 1) == Route{e(h2, 1), e(L1, 4), e(S1, 1), e(L0, 2)});
    // To h2: every switch reaches L1 down-only; L0 goes down over S0, then S1 for h3.
    CHECK(route(ps[2], 0) == Route{e(h0, 1), e(L0, 3), e(S0, 2), e(L1, 1)});
    CHECK(route(ps[3], 0) == Route{e(h0, 1), e(L0, 4), e(S1, 2), e(L1, 2)});
    CHECK(max_link_load(f, ps) == Approx(2.0 / 3.0));
}

TEST_CASE("srd on random fabrics: legal trees, one LID per destination") {
    for (std::uint64_t seed : {1, 2, 3}) {
        INFO("seed " << seed);
        gen::RandomParams rp;
        rp.switches = 16;
        rp.degree = 4;
        rp.cas = 48;
        rp.seed = seed;
        const Fabric f = gen::random_fabric(rp);
        const graph::UpDown ud = graph::make_updown(f, graph::choose_root(f, seed));
        const PathSet ps = srd_paths(f, ud);
        REQUIRE(ps.size() == 48);
        for (const DestPaths& d : ps) {
            REQUIRE(d.size() == 47);
            REQUIRE_NOTHROW(validate(f, d));
            for (std::size_t i = 0; i < d.size(); ++i) {
                bool down = false;
                for (PortId e : d.path(i)) {
                    CHECK(!(ud.up(f, e) && down));
                    down |= !ud.up(f, e);
                }
            }
        }
        const Plan plan = plan_heuristic(f, ps, Heuristic::ColorL);
        CHECK(plan.total_lids == 48);
        // The tree constraint costs balance against path selection on the same orientation.
        CHECK(max_link_load(f, ps) >= max_link_load(f, path_selection(f, ud, 16)));
    }
}
