// Paper 001 §VI path computations: every path Up*/Down* legal and shortest among legal
// routes, exact routes where only one is legal, and the balance of path selection.
#include "../check/fixtures.hpp"
#include "generators/random_graph.hpp"
#include "graph/yen.hpp"
#include "lidassign/path_compute.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

using namespace ibrt;
using namespace ibrt::lidassign;

namespace {

bool legal(const Fabric& f, const graph::UpDown& ud, std::span<const PortId> p) {
    bool down = false;
    for (PortId e : p) {
        if (ud.up(f, e) && down) return false;
        down |= !ud.up(f, e);
    }
    return true;
}

// shortest: every path has the fewest legal hops (shortest-widest); otherwise every path is
// one of Yen's 16 loopless legal routes of its switch pair (path selection's candidates).
void check_paths(const Fabric& f, const graph::UpDown& ud, const PathSet& ps,
                 bool shortest = true) {
    REQUIRE(ps.size() == f.cas().size());
    for (std::size_t di = 0; di < ps.size(); ++di) {
        const DestPaths& d = ps[di];
        CHECK(d.dst == f.cas()[di]);
        REQUIRE(d.size() == f.cas().size() - 1);
        REQUIRE_NOTHROW(validate(f, d));
        const graph::ShortestDag g = graph::shortest_dag(f, ud, d.dst);
        for (std::size_t i = 0; i < d.size(); ++i) {
            const auto p = d.path(i);
            CHECK(legal(f, ud, p));
            if (shortest) {
                CHECK(p.size() == g.at(f.port_node(p[0]), 0));
                continue;
            }
            CHECK(p.size() >= g.at(f.port_node(p[0]), 0));
            REQUIRE(p.size() >= 2);
            const std::vector<PortId> mid(p.begin() + 1, p.end() - 1);
            const auto cands =
                graph::yen_k_shortest(f, ud, f.port(p[0]).peer_node, f.port_node(p.back()), 16);
            CHECK(std::find(cands.begin(), cands.end(), mid) != cands.end());
        }
    }
}

// Issue 39's variants of shortest widest. Root R over X and Y; S1 and S2 hang off both:
//   R:1-X:1, R:2-Y:1, X:2-S1:1, X:3-S2:1, Y:2-S1:2, Y:3-S2:2, hosts from port 4 (X, Y) or 3.
// Rooted at R, S1 -> S2 has two legal 2-hop routes (over X, over Y; ties go over X, the lower
// port and node id). hosts: (name, switch index 1 = X, 2 = Y, 3 = S1, 4 = S2) in CA order.
struct Diamond {
    Fabric f;
    NodeId sw[5]; // R, X, Y, S1, S2
    std::vector<NodeId> host;
};
Diamond diamond(const std::vector<int>& at) {
    FabricBuilder b;
    Diamond d;
    const char* names[] = {"R", "X", "Y", "S1", "S2"};
    for (int i = 0; i < 5; ++i)
        d.sw[i] = b.add_node(NodeType::Switch, 12, 0x200 + std::uint64_t(i), names[i]);
    for (std::size_t i = 0; i < at.size(); ++i)
        d.host.push_back(b.add_node(NodeType::CA, 1, 0x100 + i, "h" + std::to_string(i)));
    b.connect(d.sw[0], 1, d.sw[1], 1);
    b.connect(d.sw[0], 2, d.sw[2], 1);
    b.connect(d.sw[1], 2, d.sw[3], 1);
    b.connect(d.sw[1], 3, d.sw[4], 1);
    b.connect(d.sw[2], 2, d.sw[3], 2);
    b.connect(d.sw[2], 3, d.sw[4], 2);
    int next[5] = {3, 4, 4, 3, 3};
    for (std::size_t i = 0; i < at.size(); ++i) b.connect(d.host[i], 1, d.sw[at[i]], next[at[i]]++);
    d.f = std::move(b).build();
    return d;
}

// The switch a path leaves S1 (or S2) towards: X or Y.
NodeId over(const Fabric& f, std::span<const PortId> p) {
    return f.port(p[1]).peer_node;
}

} // namespace

TEST_CASE("shortest widest per cable: the reverse path's weights break the tie") {
    // a on S1, b on S2. Destination a first: b -> a over X (tie). Then a -> b: per direction
    // S1->X, X->S2 are still 1 (tie, over X); per cable they are 2, so over Y.
    const Diamond d = diamond({3, 4});
    const graph::UpDown ud = graph::make_updown(d.f, d.sw[0]);
    const NodeId X = d.sw[1], Y = d.sw[2];
    const PathSet dir = shortest_widest(d.f, ud);
    check_paths(d.f, ud, dir);
    CHECK(over(d.f, dir[0].path(0)) == X);
    CHECK(over(d.f, dir[1].path(0)) == X);
    WidestOptions w;
    w.weights = WidestOptions::Weights::PerCable;
    const PathSet cable = shortest_widest(d.f, ud, w);
    check_paths(d.f, ud, cable);
    CHECK(over(d.f, cable[0].path(0)) == X);
    CHECK(over(d.f, cable[1].path(0)) == Y);
}

TEST_CASE("shortest widest, bottleneck: the smallest maximum link weight, not the smallest sum") {
    // CAs y, y2 (on Y), b (S2), x1, x2, x3 (X), a (S1). Destinations y, y2 load S1->Y to 3 (a's
    // paths); for destination b, y and y2 load Y->S2 to 3 and x1..x3 load X->S2 to 4. Then
    // a -> b: over X weights 1 + 4 = 5 (max 4), over Y 3 + 3 = 6 (max 3).
    const Diamond d = diamond({2, 2, 4, 1, 1, 1, 3});
    const graph::UpDown ud = graph::make_updown(d.f, d.sw[0]);
    const NodeId X = d.sw[1], Y = d.sw[2];
    const PathSet sum = shortest_widest(d.f, ud);
    check_paths(d.f, ud, sum);
    // Destination b is the 3rd CA; a is its 6th source (y, y2, x1, x2, x3, a).
    REQUIRE(sum[2].size() == 6);
    CHECK(d.f.port_node(sum[2].path(5)[0]) == d.host[6]);
    CHECK(over(d.f, sum[2].path(5)) == X);
    WidestOptions w;
    w.cost = WidestOptions::Cost::Bottleneck;
    const PathSet widest = shortest_widest(d.f, ud, w);
    check_paths(d.f, ud, widest);
    CHECK(over(d.f, widest[2].path(5)) == Y);
}

TEST_CASE("shortest widest, pair order: source-major gives other routes than destination-major") {
    // a, a2 on S1, b, b2 on S2. Destination-major: to b, a goes over X and then a2 over Y (a
    // split at S1: 2 LIDs for b). Source-major: a -> b over X, a -> b2 over Y, then a2 -> b
    // ties 2 + 2 against 2 + 2 and goes over X too: the paths to b do not split. (On this
    // empty fabric every +1 flips a tie; on the study's fabrics source-major splits MORE, see
    // docs/results/lid-assignment.md.)
    const Diamond d = diamond({3, 3, 4, 4});
    const graph::UpDown ud = graph::make_updown(d.f, d.sw[0]);
    const NodeId X = d.sw[1], Y = d.sw[2];
    const PathSet dm = shortest_widest(d.f, ud);
    check_paths(d.f, ud, dm);
    CHECK(over(d.f, dm[2].path(0)) == X);
    CHECK(over(d.f, dm[2].path(1)) == Y);
    CHECK(split(d.f, dm[2].path(0), dm[2].path(1)));
    WidestOptions w;
    w.order = WidestOptions::Order::SourceMajor;
    const PathSet sm = shortest_widest(d.f, ud, w);
    check_paths(d.f, ud, sm);
    CHECK(over(d.f, sm[2].path(0)) == X);
    CHECK(over(d.f, sm[2].path(1)) == X);
    CHECK(over(d.f, sm[3].path(0)) == Y);
    CHECK(over(d.f, sm[3].path(1)) == Y);
    CHECK_FALSE(split(d.f, sm[2].path(0), sm[2].path(1)));
}

TEST_CASE("shortest widest, random pair order: shortest legal paths, deterministic per seed") {
    gen::RandomParams rp;
    rp.switches = 16;
    rp.degree = 4;
    rp.cas = 32;
    const Fabric f = gen::random_fabric(rp);
    const graph::UpDown ud = graph::make_updown(f, graph::choose_root(f, 1));
    WidestOptions w;
    w.order = WidestOptions::Order::Random;
    const PathSet a = shortest_widest(f, ud, w);
    check_paths(f, ud, a);
    auto same = [](const PathSet& x, const PathSet& y) {
        for (std::size_t i = 0; i < x.size(); ++i)
            if (x[i].edges != y[i].edges) return false;
        return x.size() == y.size();
    };
    CHECK(same(a, shortest_widest(f, ud, w)));
    w.order_seed = 2;
    CHECK_FALSE(same(a, shortest_widest(f, ud, w)));
    CHECK_FALSE(same(a, shortest_widest(f, ud)));
}

TEST_CASE("ring rooted at A: hB -> hD must go over A (B -> C -> D turns down-up)") {
    using namespace ibrt::test;
    const Routed x = clockwise_ring();
    const Fabric& f = x.f;
    const graph::UpDown ud = graph::make_updown(f, A);
    CHECK(ud.level[A] == 0);
    CHECK(ud.level[B] == 1);
    CHECK(ud.level[D] == 1);
    CHECK(ud.level[C] == 2);
    for (PathScheme s : {PathScheme::ShortestWidest, PathScheme::PathSelection}) {
        INFO(to_string(s));
        const PathSet ps =
            s == PathScheme::ShortestWidest ? shortest_widest(f, ud) : path_selection(f, ud, 16);
        check_paths(f, ud, ps);
        // Destination hD is the 4th CA; sources hA, hB, hC in order.
        const auto p = ps[3].path(1);
        CHECK(std::vector<PortId>(p.begin(), p.end()) ==
              std::vector<PortId>{f.port_id(hB, 1), f.port_id(B, 3), f.port_id(A, 3),
                                  f.port_id(D, 1)});
    }
}

TEST_CASE("two-level tree rooted at a leaf: path selection splits each direction 2/2") {
    using namespace ibrt::test;
    const Routed x = two_level_tree();
    const Fabric& f = x.f;
    const graph::UpDown ud = graph::make_updown(f, L0);
    const PathSet ps = path_selection(f, ud, 16);
    check_paths(f, ud, ps);
    std::map<PortId, int> load;
    for (const DestPaths& d : ps)
        for (PortId e : d.edges)
            if (f.node(f.port_node(e)).is_switch() && f.node(f.port(e).peer_node).is_switch())
                ++load[e];
    // 4 leaf-to-leaf pairs per direction over 2 spines: 2 paths on each of the 8 links.
    CHECK(load.size() == 8);
    for (auto [e, n] : load) CHECK(n == 2);
    CHECK(max_link_load(f, ps) == Approx(2.0 / 3.0));
    // By switch pair (engine `separate`), the 4 pairs of a direction are one class and keep
    // one route: one spine per direction, 4 paths on each of its 4 links.
    const PathSet by_switch = ca_paths(f, select_paths(f, ud, PairClasses::SwitchPair, 16));
    check_paths(f, ud, by_switch);
    load.clear();
    for (const DestPaths& d : by_switch)
        for (PortId e : d.edges)
            if (f.node(f.port_node(e)).is_switch() && f.node(f.port(e).peer_node).is_switch())
                ++load[e];
    CHECK(load.size() == 4);
    for (auto [e, n] : load) CHECK(n == 4);
}

TEST_CASE("random irregular fabrics: every pair gets a legal Up*/Down* path (shortest for SW, "
          "a Yen candidate for PS)") {
    for (std::uint64_t seed : {1, 2, 3}) {
        INFO("seed " << seed);
        gen::RandomParams rp;
        rp.switches = 16;
        rp.degree = 4;
        rp.cas = 32;
        rp.seed = seed;
        const Fabric f = gen::random_fabric(rp);
        const graph::UpDown ud = graph::make_updown(f, graph::choose_root(f, seed));
        check_paths(f, ud, shortest_widest(f, ud));
        const PathSet sel = path_selection(f, ud, 16);
        check_paths(f, ud, sel, false);
        // Yen admits longer routes and the load balancing uses some of them.
        std::size_t longer = 0;
        for (const DestPaths& d : sel) {
            const graph::ShortestDag g = graph::shortest_dag(f, ud, d.dst);
            for (std::size_t i = 0; i < d.size(); ++i)
                longer += d.path(i).size() > g.at(f.port_node(d.path(i)[0]), 0);
        }
        CHECK(longer > 0);
        // Deterministic: the same inputs give the same paths.
        const PathSet a = path_selection(f, ud, 16), b = path_selection(f, ud, 16);
        for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i].edges == b[i].edges);
    }
}

namespace {

// path_selection's rule written the plain way (path_compute.hpp): every CA pair holds its own
// copy of its switch pair's Yen candidates, the most loaded link is found by scanning all
// links, and a visit drops pairs in pair order until the link is no longer above the next most
// loaded one; by_switch: a pair drops together with every pair of its switch pair. select_paths
// shares candidates per switch pair, keeps one state per class weighted by its pairs, the loads
// in a max tree, and sums a reduction's deltas per edge (issue 12); it must select the same
// paths.
PathSet reference_selection(const Fabric& f, const graph::UpDown& ud, bool by_switch) {
    constexpr std::int64_t kScale = 720720;
    struct Pair {
        NodeId dst;
        std::pair<NodeId, NodeId> cls;          // (source switch, destination switch)
        std::vector<std::vector<PortId>> cands; // full paths, CA port first
        std::vector<bool> alive;
        std::size_t alive_n = 0;
    };
    std::vector<Pair> pairs;
    for (NodeId d : f.cas()) {
        const PortId dport = first_end_port(f, d);
        const NodeId t = f.port(dport).peer_node;
        for (NodeId s : f.cas()) {
            if (s == d) continue;
            const PortId sport = first_end_port(f, s);
            Pair p{d, {f.port(sport).peer_node, t}, {}, {}, 0};
            for (auto r : graph::yen_k_shortest(f, ud, f.port(sport).peer_node, t, 16)) {
                r.insert(r.begin(), sport);
                r.push_back(f.port_id(t, f.port(dport).peer_port));
                p.cands.push_back(r);
            }
            p.alive.assign(p.cands.size(), true);
            p.alive_n = p.cands.size();
            pairs.push_back(p);
        }
    }
    auto is_link = [&](PortId e) {
        return f.node(f.port_node(e)).is_switch() && f.node(f.port(e).peer_node).is_switch();
    };
    auto uses = [](const std::vector<PortId>& c, PortId e) {
        return std::find(c.begin(), c.end(), e) != c.end();
    };
    std::vector<std::int64_t> load(f.num_port_slots(), 0);
    for (const Pair& p : pairs)
        for (const auto& c : p.cands)
            for (PortId e : c) load[e] += kScale / std::int64_t(p.cands.size());
    std::vector<bool> live(f.num_port_slots(), false);
    for (const Pair& p : pairs)
        for (const auto& c : p.cands)
            for (PortId e : c) live[e] = is_link(e);
    auto open_pair = [&](const Pair& p, PortId e) {
        std::size_t through = 0;
        for (std::size_t c = 0; c < p.cands.size(); ++c)
            through += p.alive[c] && uses(p.cands[c], e);
        return through > 0 && through < p.alive_n;
    };
    for (;;) {
        PortId top = kNoPort;
        for (PortId e = 0; e < f.num_port_slots(); ++e)
            if (live[e] && (top == kNoPort || load[e] > load[top])) top = e;
        if (top == kNoPort) break;
        std::int64_t second = 0;
        for (PortId e = 0; e < f.num_port_slots(); ++e)
            if (live[e] && e != top) second = std::max(second, load[e]);
        bool reduced = false, any_open = false;
        for (Pair& first : pairs) {
            if (!open_pair(first, top)) continue;
            if (reduced && load[top] <= second) {
                any_open = true;
                break;
            }
            reduced = true;
            // The pair, or every pair of its switch pair (they all have the same candidates
            // alive, so each is open too).
            for (Pair& p : pairs) {
                if (by_switch ? p.cls != first.cls : &p != &first) continue;
                std::size_t through = 0;
                for (std::size_t c = 0; c < p.cands.size(); ++c)
                    through += p.alive[c] && uses(p.cands[c], top);
                const std::int64_t old_w = kScale / std::int64_t(p.alive_n);
                const std::int64_t new_w = kScale / std::int64_t(p.alive_n - through);
                for (std::size_t c = 0; c < p.cands.size(); ++c) {
                    if (!p.alive[c]) continue;
                    const bool dies = uses(p.cands[c], top);
                    for (PortId e : p.cands[c]) load[e] += dies ? -old_w : new_w - old_w;
                    if (dies) p.alive[c] = false;
                }
                p.alive_n -= through;
            }
        }
        if (!any_open) live[top] = false;
    }
    PathSet out;
    for (NodeId d : f.cas()) {
        DestPaths dp;
        dp.dst = d;
        for (const Pair& p : pairs)
            if (p.dst == d)
                for (std::size_t c = 0; c < p.cands.size(); ++c)
                    if (p.alive[c]) {
                        dp.add(p.cands[c]);
                        break;
                    }
        out.push_back(std::move(dp));
    }
    return out;
}

} // namespace

TEST_CASE("path selection equals the plain most-loaded-link-first rule, by CA pair and by switch "
          "pair (shared candidates, max tree)") {
    for (std::uint64_t seed : {1, 2, 3, 4}) {
        INFO("seed " << seed);
        gen::RandomParams rp;
        rp.switches = 12;
        rp.degree = 4;
        rp.cas = 36; // three CAs per switch: pairs share their switch pair's candidates
        rp.seed = seed;
        const Fabric f = gen::random_fabric(rp);
        const graph::UpDown ud = graph::make_updown(f, graph::choose_root(f, seed));
        const PathSet want = reference_selection(f, ud, false);
        std::vector<double> seen;
        const PathSet got = path_selection(f, ud, 16, [&](double x) { seen.push_back(x); });
        REQUIRE(got.size() == want.size());
        std::size_t differ = 0;
        for (std::size_t i = 0; i < got.size(); ++i) {
            CHECK(got[i].dst == want[i].dst);
            differ += got[i].offset != want[i].offset || got[i].edges != want[i].edges;
        }
        CHECK(differ == 0);
        // By switch pair: the reference dropping a switch pair's pairs together.
        const PathSet want_sw = reference_selection(f, ud, true);
        const PathSet got_sw = ca_paths(f, select_paths(f, ud, PairClasses::SwitchPair, 16));
        check_paths(f, ud, got_sw, false);
        REQUIRE(got_sw.size() == want_sw.size());
        std::size_t differ_sw = 0, differ_modes = 0;
        for (std::size_t i = 0; i < got_sw.size(); ++i) {
            differ_sw +=
                got_sw[i].offset != want_sw[i].offset || got_sw[i].edges != want_sw[i].edges;
            differ_modes += got_sw[i].edges != got[i].edges;
        }
        CHECK(differ_sw == 0);
        CHECK(differ_modes > 0); // the two rules are not the same
        // Progress: fractions in [0, 1], never going back, ending at 1.
        REQUIRE(!seen.empty());
        CHECK(std::is_sorted(seen.begin(), seen.end()));
        CHECK(seen.front() >= 0);
        CHECK(seen.back() == 1.0);
    }
}

TEST_CASE("path selection stores link ids in 16 or 32 bits with the same result") {
    // Fabrics of more than 65,535 links take 32-bit ids; forced here on small ones, where the
    // reference test above checks the 16-bit selection against the plain rule.
    for (std::uint64_t seed : {1, 2}) {
        const Fabric f = gen::random_fabric({24, 8, 64, seed, 0});
        const graph::UpDown ud = graph::make_updown(f, graph::choose_root(f, seed));
        for (PairClasses by : {PairClasses::SwitchPair, PairClasses::CaPair}) {
            const SelectedPaths narrow = select_paths(f, ud, by, 16);
            const SelectedPaths wide = select_paths(f, ud, by, 16, {}, LinkIds::Wide);
            REQUIRE(!narrow.edges.empty());
            CHECK(wide.chosen == narrow.chosen);
            CHECK(wide.off == narrow.off);
            CHECK(wide.edges == narrow.edges);
        }
    }
}

TEST_CASE("CaPaths::classes_to equals route_classes on the generated paths, with each source") {
    for (std::uint64_t seed : {1, 2, 3}) {
        const Fabric f = gen::random_fabric({10, 4, 40, seed, 0});
        const graph::UpDown ud = graph::make_updown(f, graph::choose_root(f, seed));
        for (PairClasses by : {PairClasses::SwitchPair, PairClasses::CaPair}) {
            INFO("seed " << seed
                         << (by == PairClasses::CaPair ? " by CA pair" : " by switch pair"));
            const SelectedPaths sp = select_paths(f, ud, by, 16);
            const CaPaths paths(f, sp);
            std::vector<std::uint32_t> src;
            std::size_t fewer = 0;
            for (std::size_t di = 0; di < f.cas().size(); ++di) {
                const DestPaths d = paths.to(di);
                const RouteClasses want = route_classes(f, d);
                const RouteClasses got = paths.classes_to(di, src);
                REQUIRE(got.class_of == want.class_of);
                REQUIRE(got.weight == want.weight);
                REQUIRE(got.reps.dst == want.reps.dst);
                REQUIRE(got.reps.offset == want.reps.offset);
                REQUIRE(got.reps.edges == want.reps.edges);
                REQUIRE(src.size() == d.size());
                for (std::size_t i = 0; i < d.size(); ++i)
                    REQUIRE(f.cas()[src[i]] == f.port_node(d.path(i)[0]));
                fewer += got.weight.size() < d.size();
            }
            if (by == PairClasses::SwitchPair) CHECK(fewer == f.cas().size()); // classes share
        }
    }
}

TEST_CASE("path selection, shortest candidates only: every pair on a fewest-hop legal route") {
    const Fabric f = gen::random_fabric({16, 8, 64, 3, 0});
    const graph::UpDown ud = graph::make_updown(f, graph::choose_root(f, 3));
    const PathSet sw = shortest_widest(f, ud); // the fewest hops of every pair
    const PathSet shortest = path_selection(f, ud, 16, {}, Candidates::Shortest);
    const PathSet all = path_selection(f, ud, 16);
    check_paths(f, ud, shortest);
    REQUIRE(shortest.size() == sw.size());
    std::size_t longer = 0;
    for (std::size_t di = 0; di < sw.size(); ++di) {
        REQUIRE(shortest[di].size() == sw[di].size());
        for (std::size_t i = 0; i < sw[di].size(); ++i) {
            CHECK(shortest[di].path(i).size() == sw[di].path(i).size());
            longer += all[di].path(i).size() > sw[di].path(i).size();
        }
    }
    CHECK(longer > 0); // the k shortest let longer routes in
}
