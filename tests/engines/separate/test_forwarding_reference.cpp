// The `separate` engine's forwarding-table pass shares work between the CAs of one switch
// (issue 12: TreeCache, fixed entries taken from classes of alike paths, refitted paths added
// by their source switch). These tests recompute the tables the plain way, one CA at a time,
// and require the same result:
//   - TreeCache::get equals complete_tree for every CA target and configuration;
//   - every LFT entry of every CA LID equals complete_tree of that LID's configuration, the
//     final paths whose chosen DLID is that LID (as the per-CA pass wrote them), including
//     after paths were re-selected to fit a small LMC and with preassigned LIDs.
#include "engines/separate/complete_tree.hpp"
#include "engines/separate/separate.hpp"
#include "generators/dragonfly.hpp"
#include "generators/lid_preassign.hpp"
#include "generators/random_graph.hpp"
#include "graph/updown.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>

using namespace ibrt;

namespace {

// The fabric with its nodes in GUID order: the engine renumbers its input so, and on this
// order its renumbering is the identity and its Up*/Down* directions are the ones computed here.
Fabric by_guid(const Fabric& f) {
    std::vector<NodeId> order(f.num_nodes());
    for (NodeId n = 0; n < f.num_nodes(); ++n) order[n] = n;
    std::sort(order.begin(), order.end(),
              [&](NodeId a, NodeId b) { return f.node(a).guid < f.node(b).guid; });
    FabricBuilder b;
    std::vector<NodeId> to(f.num_nodes());
    for (NodeId n : order) {
        to[n] = b.add_node(f.node(n).type, f.node(n).num_ports, f.node(n).guid, f.node(n).desc);
        for (PortNum p = 0; p <= f.node(n).num_ports; ++p)
            b.port(to[n], p).guid = f.port(n, p).guid;
    }
    for (NodeId n = 0; n < f.num_nodes(); ++n)
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
            const Port& port = f.port(n, p);
            if (port.connected() &&
                (port.peer_node > n || (port.peer_node == n && port.peer_port > p)))
                b.connect(to[n], p, to[port.peer_node], port.peer_port);
        }
    Fabric g = std::move(b).build();
    for (NodeId n = 1; n < g.num_nodes(); ++n) REQUIRE(g.node(n - 1).guid < g.node(n).guid);
    return g;
}

// Returns how many LFT entries were compared.
std::size_t check_against_per_ca(const Fabric& f, const Routing& r,
                                 const separate::SeparateStats& st, std::uint64_t seed) {
    const graph::UpDown ud = graph::make_updown(f, graph::choose_root(f, seed));
    const auto cas = f.cas();
    std::vector<std::uint32_t> idx(f.num_nodes(), 0);
    for (std::size_t i = 0; i < cas.size(); ++i) idx[cas[i]] = std::uint32_t(i);
    std::size_t compared = 0;
    REQUIRE(st.paths.size() == cas.size());
    for (const lidassign::DestPaths& d : st.paths) {
        const PortId target = first_end_port(f, d.dst);
        REQUIRE(target != kNoPort);
        const Lid base = r.lids.base(target);
        const std::uint32_t nl = 1u << r.lids.lmc(target);
        std::vector<std::uint32_t> config(d.size());
        std::uint32_t k = 1;
        for (std::size_t i = 0; i < d.size(); ++i) {
            const NodeId src = f.port_node(d.path(i)[0]);
            const Lid dlid = r.dlid_choice[idx[src] * cas.size() + idx[d.dst]];
            REQUIRE(dlid >= base);
            REQUIRE(dlid < base + nl);
            config[i] = dlid - base;
            k = std::max(k, config[i] + 1);
        }
        const std::uint32_t trees = std::min(k, nl);
        for (std::uint32_t j = 0; j < nl; ++j) {
            const separate::CompletedTree t = separate::complete_tree(
                f, ud, target, separate::fixed_entries(f, d, config, j % trees));
            for (NodeId s : f.switches()) {
                if (t.out[s] == kNoPort) continue;
                INFO("destination " << f.node(d.dst).desc << " LID " << base + j << " switch "
                                    << f.node(s).desc);
                REQUIRE(r.lft[s][base + j] == f.port_num(t.out[s]));
                ++compared;
            }
        }
    }
    return compared;
}

} // namespace

TEST_CASE("TreeCache hands out exactly complete_tree, sharing trees between a switch's CAs") {
    const Fabric f = by_guid(gen::random_fabric({12, 4, 48, 5, 0}));
    const graph::UpDown ud = graph::make_updown(f, graph::choose_root(f, 1));
    // Configurations: the engine's final paths to each CA, by chosen DLID.
    EngineOptions opt;
    opt.lmc = 1;
    separate::SeparateStats st;
    const Routing r = separate::route_separate(f, nullptr, opt, &st);
    const auto cas = f.cas();
    std::vector<std::uint32_t> idx(f.num_nodes(), 0);
    for (std::size_t i = 0; i < cas.size(); ++i) idx[cas[i]] = std::uint32_t(i);
    separate::TreeCache cache(f, ud);
    std::size_t compared = 0;
    for (const lidassign::DestPaths& d : st.paths) {
        const PortId target = first_end_port(f, d.dst);
        const Lid base = r.lids.base(target);
        std::vector<std::uint32_t> config(d.size());
        for (std::size_t i = 0; i < d.size(); ++i)
            config[i] =
                r.dlid_choice[idx[f.port_node(d.path(i)[0])] * cas.size() + idx[d.dst]] - base;
        cache.new_destination();
        for (std::uint32_t j = 0; j < 2; ++j) {
            std::vector<PortId> fixed = separate::fixed_entries(f, d, config, j);
            const separate::CompletedTree want = separate::complete_tree(f, ud, target, fixed);
            const separate::CompletedTree* got = cache.get(target, fixed);
            REQUIRE(got->out == want.out);
            REQUIRE(got->hops == want.hops);
            REQUIRE(got->forced == want.forced);
            ++compared;
        }
    }
    CHECK(compared == 2 * cas.size());
    CHECK(cache.hits > 0); // the CAs of one switch did share trees
    CHECK(cache.misses > 0);
}

TEST_CASE("separate's LFTs equal the per-CA pass on random fabrics, with and without refits") {
    for (std::uint64_t seed : {1, 2, 3}) {
        const Fabric f = by_guid(gen::random_fabric({16, 4, 64, seed, 0}));
        for (std::optional<int> lmc :
             {std::optional<int>{}, std::optional<int>{0}, std::optional<int>{1}}) {
            INFO("seed " << seed << " LMC " << (lmc ? std::to_string(*lmc) : "auto"));
            EngineOptions opt;
            opt.seed = seed;
            opt.lmc = lmc;
            separate::SeparateStats st;
            const Routing r = separate::route_separate(f, nullptr, opt, &st);
            if (lmc && *lmc == 0) CHECK(st.refit_paths > 0); // the refit path is exercised
            CHECK(check_against_per_ca(f, r, st, seed) > 0);
        }
    }
}

TEST_CASE("separate's LFTs equal the per-CA pass with preassigned LIDs and on a Dragonfly") {
    {
        const Fabric f = gen::assign_lids(by_guid(gen::random_fabric({12, 4, 40, 7, 0})), 1);
        for (NodeId n = 1; n < f.num_nodes(); ++n) REQUIRE(f.node(n - 1).guid < f.node(n).guid);
        const Lids pre = Lids::from_fabric(f);
        separate::SeparateStats st;
        EngineOptions opt;
        opt.seed = 1;
        const Routing r = separate::route_separate(f, &pre, opt, &st);
        CHECK(check_against_per_ca(f, r, st, 1) > 0);
    }
    {
        gen::DragonflyParams df;
        df.a = 4;
        df.h = 2;
        df.p = 2;
        const Fabric f = by_guid(gen::dragonfly(df));
        EngineOptions opt;
        opt.lmc = 1;
        separate::SeparateStats st;
        const Routing r = separate::route_separate(f, nullptr, opt, &st);
        CHECK(st.refit_paths > 0);
        CHECK(check_against_per_ca(f, r, st, 1) > 0);
    }
}
