// The `separate` engine (paper 001 §VI.D): path selection + color/L. Checked with the check/
// library: every (source, LID) pair reaches its owner and the channel dependency graph has no
// cycle; and by walking the LFTs: each source's chosen DLID follows exactly its selected path.
#include "check/balance.hpp"
#include "check/credit_loops.hpp"
#include "check/reachability.hpp"
#include "engines/engine.hpp"
#include "engines/separate/separate.hpp"
#include "generators/dragonfly.hpp"
#include "generators/lid_preassign.hpp"
#include "generators/random_graph.hpp"
#include "generators/torus.hpp"
#include "graph/updown.hpp"
#include "lidassign/heuristics.hpp"

#include "../lft_walk.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>
#include <tuple>

using namespace ibrt;

namespace {

// The DLID each source chose walks exactly the selected path.
void check_paths_realized(const Fabric& f, const Routing& r, const separate::SeparateStats& st) {
    const auto cas = f.cas();
    std::vector<std::uint32_t> idx(f.num_nodes());
    for (std::size_t i = 0; i < cas.size(); ++i) idx[cas[i]] = std::uint32_t(i);
    std::size_t checked = 0;
    for (const auto& d : st.paths)
        for (std::size_t i = 0; i < d.size(); ++i) {
            const auto p = d.path(i);
            const NodeId src = f.port_node(p[0]);
            const Lid dlid = r.dlid_choice[idx[src] * cas.size() + idx[d.dst]];
            const test::Walk w = test::walk(f, r, p[0], dlid);
            REQUIRE(w.reached);
            REQUIRE(w.hops.size() + 1 == p.size());
            for (std::size_t h = 0; h < w.hops.size(); ++h)
                REQUIRE(f.port_id(w.hops[h].node, w.hops[h].out) == p[h + 1]);
            ++checked;
        }
    CHECK(checked == cas.size() * (cas.size() - 1));
}

void check_clean(const Fabric& f, const Routing& r) {
    const check::ForwardingReport fw = check::check_forwarding(f, r);
    CHECK(fw.reach.failures() == 0);
    CHECK(fw.reach.pairs > 0);
    const check::DeadlockReport dl = check::check_credit_loops(f, r);
    CHECK(dl.loops.empty());
}

} // namespace

TEST_CASE("separate on random irregular fabrics: reachable, no credit loop, paths realized") {
    for (std::uint64_t seed : {1, 2, 3, 4}) {
        INFO("seed " << seed);
        const Fabric f = gen::random_fabric({16, 4, 48, seed, 0});
        EngineOptions opt;
        opt.seed = seed;
        separate::SeparateStats st;
        const Routing r = separate::route_separate(f, nullptr, opt, &st);
        CHECK(r.lmc == st.needed_lmc);
        CHECK(st.refit_paths == 0);
        CHECK(st.forced_entries == 0);
        // The LIDs per CA are 2^LMC, aligned.
        CHECK(r.lids.aligned());
        for (NodeId c : f.cas()) CHECK(r.lids.lmc(first_end_port(f, c)) == r.lmc);
        check_clean(f, r);
        check_paths_realized(f, r, st);
    }
}

TEST_CASE("separate on the study's fabrics (degree 8, Yen candidates): no forced entry") {
    // complete_tree never needs a down->up entry on these: each destination's configurations
    // leave a legal route for every switch. The configurations of paper 001's study.
    for (auto [cas, switches, seeds] : {std::tuple{64, 16, 3}, {128, 32, 2}, {192, 64, 1}})
        for (std::uint64_t seed = 1; seed <= std::uint64_t(seeds); ++seed) {
            INFO(cas << "/" << switches << " seed " << seed);
            const Fabric f = gen::random_fabric({switches, 8, cas, seed, 0});
            EngineOptions opt;
            opt.seed = seed;
            separate::SeparateStats st;
            const Routing r = separate::route_separate(f, nullptr, opt, &st);
            CHECK(st.forced_entries == 0);
            CHECK(st.refit_paths == 0);
            check_clean(f, r);
        }
}

TEST_CASE("separate on a 4x4 torus: reachable and deadlock free through Up*/Down*") {
    gen::TorusParams tp;
    tp.k = {4, 4};
    tp.cas_per_switch = 2;
    const Fabric f = gen::torus(tp);
    separate::SeparateStats st;
    const Routing r = separate::route_separate(f, nullptr, {}, &st);
    CHECK(st.forced_entries == 0);
    check_clean(f, r);
    check_paths_realized(f, r, st);
}

TEST_CASE("separate with LMC 0 re-selects paths to fit one LID per destination") {
    const Fabric f = gen::random_fabric({16, 4, 48, 2, 0});
    EngineOptions opt;
    opt.seed = 2;
    separate::SeparateStats free_st;
    separate::route_separate(f, nullptr, opt, &free_st);
    REQUIRE(free_st.needed_lmc >= 1);
    opt.lmc = 0;
    separate::SeparateStats st;
    const Routing r = separate::route_separate(f, nullptr, opt, &st);
    CHECK(r.lmc == 0);
    CHECK(st.needed_lmc == free_st.needed_lmc);
    CHECK(st.refit_destinations > 0);
    CHECK(st.refit_paths > 0);
    CHECK(st.refit_paths <= 47u * 48u);
    // The cost is reported with the routing (report.json, the opensm log).
    const auto stat = [&](const std::string& name) {
        for (const auto& [n, v] : r.stats)
            if (n == name) return v;
        FAIL("no stat " << name);
        return 0.0;
    };
    CHECK(stat("refit_paths") == double(st.refit_paths));
    CHECK(stat("needed_lmc") == double(st.needed_lmc));
    CHECK(stat("max_link_load") >= stat("max_link_load_selected"));
    for (const auto& d : st.paths)
        CHECK(lidassign::color(lidassign::build_split_graph(f, d), true).k == 1);
    check_clean(f, r);
    check_paths_realized(f, r, st);
}

TEST_CASE("separate is registered and deterministic") {
    const auto names = engine_names();
    CHECK(std::find(names.begin(), names.end(), "separate") != names.end());
    gen::RandomParams rp;
    rp.switches = 8;
    rp.degree = 3;
    rp.cas = 16;
    const Fabric f = gen::random_fabric(rp);
    const Routing a = make_engine("separate")->route(f, nullptr, {});
    const Routing b = make_engine("separate")->route(f, nullptr, {});
    CHECK(a.lft == b.lft);
    CHECK(a.dlid_choice == b.dlid_choice);
}

TEST_CASE("separate gives the same tables on any number of threads") {
    gen::DragonflyParams dp;
    dp.a = 6;
    dp.h = 3;
    dp.p = 3; // 19 groups, 114 switches, 342 CAs: split into parts at 2 and 3 threads
    const Fabric f = gen::dragonfly(dp);
    auto route_on = [&](const char* threads) {
        ::setenv("IBRT_THREADS", threads, 1);
        Routing r = make_engine("separate")->route(f, nullptr, {});
        ::unsetenv("IBRT_THREADS");
        return r;
    };
    const Routing one = route_on("1");
    for (const char* n : {"2", "3"}) {
        INFO("IBRT_THREADS=" << n);
        const Routing r = route_on(n);
        CHECK(r.lft == one.lft);
        CHECK(r.dlid_choice == one.dlid_choice);
        CHECK(r.stats == one.stats);
    }
    check_clean(f, one);
}

TEST_CASE("separate honours preassigned LIDs and refits to each port's LMC") {
    gen::RandomParams rp;
    rp.switches = 16;
    rp.degree = 4;
    rp.cas = 48;
    rp.seed = 3;
    for (int lmc : {0, 1, 3}) {
        INFO("LMC " << lmc);
        const Fabric f = gen::assign_lids(gen::random_fabric(rp), lmc);
        const Lids pre = Lids::from_fabric(f);
        EngineOptions opt;
        opt.seed = 3;
        separate::SeparateStats st;
        const Routing r = separate::route_separate(f, &pre, opt, &st);
        CHECK(r.lmc == lmc);
        for (PortId p = 0; p < f.num_port_slots(); ++p) {
            REQUIRE(r.lids.base(p) == pre.base(p));
            REQUIRE(r.lids.lmc(p) == pre.lmc(p));
        }
        CHECK((st.refit_paths > 0) == (st.needed_lmc > std::uint32_t(lmc)));
        check_clean(f, r);
        check_paths_realized(f, r, st);
    }
}

TEST_CASE("separate does not depend on the node order of its input") {
    const Fabric f = gen::random_fabric({12, 4, 24, 9, 0});
    // The same fabric with the nodes listed in reverse.
    FabricBuilder b;
    std::vector<NodeId> rev(f.num_nodes());
    for (NodeId i = 0; i < f.num_nodes(); ++i) {
        const NodeId n = NodeId(f.num_nodes() - 1 - i);
        rev[n] = b.add_node(f.node(n).type, f.node(n).num_ports, f.node(n).guid, f.node(n).desc);
    }
    for (NodeId n = 0; n < f.num_nodes(); ++n)
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
            const Port& port = f.port(n, p);
            if (port.connected() &&
                (port.peer_node > n || (port.peer_node == n && port.peer_port > p)))
                b.connect(rev[n], p, rev[port.peer_node], port.peer_port);
        }
    const Fabric g = std::move(b).build();
    const Routing a = make_engine("separate")->route(f, nullptr, {});
    const Routing c = make_engine("separate")->route(g, nullptr, {});
    std::size_t entries = 0;
    for (NodeId n = 0; n < f.num_nodes(); ++n)
        for (PortNum p = 0; p <= f.node(n).num_ports; ++p) {
            REQUIRE(a.lids.base(f.port_id(n, p)) == c.lids.base(g.port_id(rev[n], p)));
            REQUIRE(a.lids.lmc(f.port_id(n, p)) == c.lids.lmc(g.port_id(rev[n], p)));
        }
    for (NodeId s : f.switches()) {
        REQUIRE(a.lft[s] == c.lft[rev[s]]);
        entries += a.lft[s].size();
    }
    CHECK(entries > 0);
    const auto fc = f.cas(), gc = g.cas();
    std::vector<std::size_t> gi(g.num_nodes());
    for (std::size_t i = 0; i < gc.size(); ++i) gi[gc[i]] = i;
    for (std::size_t i = 0; i < fc.size(); ++i)
        for (std::size_t j = 0; j < fc.size(); ++j)
            REQUIRE(a.dlid_choice[i * fc.size() + j] ==
                    c.dlid_choice[gi[rev[fc[i]]] * fc.size() + gi[rev[fc[j]]]]);
}

TEST_CASE("separate declines a disconnected fabric, naming two nodes that cannot meet") {
    // Two switches with a CA each and no cable between them: some CA could not reach some LID,
    // so the tables would fail `ibrt check` (issue 19); an isolated CA without any cable does
    // not count (it has no end port).
    FabricBuilder b;
    const NodeId s1 = b.add_node(NodeType::Switch, 4, 0x1, "s1");
    const NodeId s2 = b.add_node(NodeType::Switch, 4, 0x2, "s2");
    const NodeId h1 = b.add_node(NodeType::CA, 1, 0x11, "h1");
    const NodeId h2 = b.add_node(NodeType::CA, 1, 0x12, "h2");
    b.add_node(NodeType::CA, 1, 0x13, "spare");
    b.connect(s1, 1, h1, 1);
    b.connect(s2, 1, h2, 1);
    FabricBuilder joined = b;
    CHECK_THROWS_WITH(separate::route_separate(std::move(b).build(), nullptr, {}),
                      "separate: the fabric is disconnected (3 components): switch 's2' (GUID "
                      "0x0000000000000002) is not connected to switch 's1' (GUID "
                      "0x0000000000000001)");
    joined.connect(s1, 2, s2, 2);
    const Fabric f = std::move(joined).build();
    check_clean(f, separate::route_separate(f, nullptr, {}));
}

TEST_CASE("separate on a Dragonfly (the 1,056-host benchmark's family, small): clean, paths "
          "realized, progress reported per phase") {
    gen::DragonflyParams dp;
    dp.a = 4;
    dp.h = 2;
    dp.p = 2; // 9 groups, 36 switches, 72 CAs
    const Fabric f = gen::dragonfly(dp);
    std::vector<std::pair<std::string, double>> seen;
    EngineOptions opt;
    opt.progress = [&](std::string_view phase, double x) { seen.emplace_back(phase, x); };
    separate::SeparateStats st;
    const Routing r = separate::route_separate(f, nullptr, opt, &st);
    CHECK(st.forced_entries == 0);
    check_clean(f, r);
    check_paths_realized(f, r, st);
    // Every phase reports, in order, with fractions in [0, 1]; the last call says done.
    std::vector<std::string> phases;
    for (const auto& [phase, x] : seen) {
        CHECK(x >= 0);
        CHECK(x <= 1);
        if (phases.empty() || phases.back() != phase) phases.push_back(phase);
    }
    CHECK(phases ==
          std::vector<std::string>{"path selection", "LID assignment", "forwarding tables"});
    REQUIRE(!seen.empty());
    CHECK(seen.back().second == 1.0);
    // Without a callback the result is the same.
    const Routing quiet = separate::route_separate(f, nullptr, {}, nullptr);
    CHECK(quiet.lft == r.lft);
    CHECK(quiet.dlid_choice == r.dlid_choice);
}

// One answer to "link load" (issue 41): paper 001's maximum link load of the engine's paths
// (lidassign::max_link_load, in units of n - 1 paths) and `ibrt check`'s all-to-all balance of
// the tables the engine wrote (check/balance.hpp, one unit per pair) are the same figure.
TEST_CASE("separate: its max link load is ibrt check's all-to-all balance over its tables") {
    for (std::uint64_t seed : {1, 2, 3}) {
        INFO("seed " << seed);
        const Fabric f = gen::random_fabric({16, 4, 48, seed, 0});
        EngineOptions opt;
        opt.seed = seed;
        separate::SeparateStats st;
        const Routing r = separate::route_separate(f, nullptr, opt, &st);
        const check::BalanceReport b =
            check::check_balance(f, r, check::parse_pattern("all-to-all", 0));
        REQUIRE(b.unrouted == 0);
        CHECK(b.links.max == Approx(st.max_load_final * double(f.cas().size() - 1)));
    }
}
