// The dragonfly engine (engines/dragonfly, paper 003 §3.5): Static routing on groups mapped from
// relabelled cabling reaches every (CA port, LID) pair with no credit loop on two VLs; missing
// global links are routed through an intermediate group on the same two VLs (or three);
// missing local links and random link failures by layers of VLs selected by path SL; what it
// cannot route it declines with the reason.
#include "../../mapping/relabel.hpp"
#include "../direct_checks.hpp"
#include "generators/dragonfly.hpp"
#include "generators/hyperx.hpp"
#include "tests/generators/damaged.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <random>
#include <tuple>

using namespace ibrt;

namespace {

Fabric dragonfly(int a, int h, int p) {
    gen::DragonflyParams d;
    d.a = a;
    d.h = h;
    d.p = p;
    return gen::dragonfly(d);
}

Routing route(const Fabric& f) {
    return test::route_with("dragonfly", f);
}

std::string refusal(const Fabric& f) {
    return test::refusal("dragonfly", f);
}

} // namespace

using test::clean;
using test::without;

TEST_CASE("dragonfly: Static routing is loop-free on two VLs, and only on two", "[dragonfly]") {
    const Fabric f = test::relabel(dragonfly(4, 2, 2), 3).fabric;
    const Routing r = route(f);
    clean(f, r);
    CHECK(r.data_vls == 2);
    CHECK(r.path_sls.empty());
    // All on VL 0: local, global, local around the groups closes a cycle.
    CHECK_FALSE(check::check_credit_loops(f, test::fold_vl(r, 1, 0)).loops.empty());
    // Paths are at most local, global, local.
    const check::ForwardingReport fw = check::check_forwarding(f, r);
    CHECK(fw.minimal.max_extra_hops <= 1); // §3.5 note 9: Static is not always minimal
}

TEST_CASE("dragonfly: missing global links go through an intermediate group, on two VLs",
          "[dragonfly]") {
    // Ports of (a, h, p) = (6, 3, 3): 1-3 CAs, 4-8 local, 9-11 global
    // (generators/dragonfly.hpp).
    const Fabric full = dragonfly(6, 3, 3);
    // Removable without a local hop in the intermediate group: these routers' links close
    // global cliques (the absolute cabling's), whose other members are the intermediates.
    for (const auto& [links, switches] :
         {std::pair<std::vector<std::string>, std::vector<std::string>>{{"sw-g0-0[9]"}, {}},
          {{"sw-g0-0[9]", "sw-g1-0[11]"}, {}}}) {
        const Fabric f = test::relabel(without(full, links, switches), 5).fabric;
        const Routing r = route(f);
        clean(f, r);
        CHECK(r.data_vls == 2);
        CHECK(r.path_sls.empty());
        const auto st = std::find_if(r.stats.begin(), r.stats.end(), [](auto& x) {
            return x.first == "group_pairs_via_intermediate";
        });
        REQUIRE(st != r.stats.end());
        CHECK(st->second == 2.0 * double(links.size())); // both directions of each pair
    }
}

TEST_CASE("dragonfly: what it cannot route is declined with the reason", "[dragonfly]") {
    CHECK_THAT(refusal(gen::hyperx({{3, 3}, {}, 1, 0})),
               Catch::StartsWith("dragonfly: the fabric is not a Dragonfly"));
    // Group 0 of (4, 2, 1) without its global cables (ports 5 and 6 of each switch): the
    // mapping declines a fabric in two parts.
    std::vector<std::string> cut;
    for (int r = 0; r < 4; ++r)
        for (int port : {5, 6}) cut.push_back(fmt::format("sw-g0-{}[{}]", r, port));
    CHECK_THAT(refusal(without(dragonfly(4, 2, 1), cut, {})),
               Catch::StartsWith("dragonfly: the fabric is not a Dragonfly") &&
                   Catch::Contains("separate parts"));
    // More layers than the ports' VLs: 10 % of the cables of (6, 3, 1) missing (seed 2) take
    // two layers; with one data VL fewer than that needs, the engine says what is missing.
    gen::FailureSpec spec;
    spec.links = 0.1;
    spec.seed = 2;
    spec.keep_connected = true;
    gen::FailureReport rep;
    const Fabric f = gen::inject_failures(dragonfly(6, 3, 1), spec, rep);
    const Routing r = route(f);
    CHECK(std::find(r.stats.begin(), r.stats.end(),
                    std::pair<std::string, double>{"vl_layers", 2.0}) != r.stats.end());
    EngineOptions opt;
    opt.default_data_vls = r.data_vls - 1u;
    try {
        make_engine("dragonfly")->route(f, nullptr, opt);
        FAIL("routed on fewer VLs");
    } catch (const RoutingError& e) {
        CHECK_THAT(e.what(), Catch::Contains("missing local and") &&
                                 Catch::Contains(fmt::format("more than the ports' {} data VLs",
                                                             opt.default_data_vls)) &&
                                 Catch::Contains("2 layers for the paths that leave its order"));
    }
}

namespace {

// The global cables of a Dragonfly (a, h, p), each named by one end.
std::vector<std::string> global_links(int a, int h, int p) {
    std::vector<std::string> out;
    const int groups = a * h + 1;
    for (int g = 0; g < groups; ++g)
        for (int r = 0; r < a; ++r)
            for (int k = 0; k < h; ++k) {
                const int t = r * h + k, to = t < g ? t : t + 1;
                if (to > g) out.push_back(fmt::format("sw-g{}-{}[{}]", g, r, p + a + k));
            }
    return out;
}

double stat(const Routing& r, const char* name) {
    const auto st =
        std::find_if(r.stats.begin(), r.stats.end(), [&](auto& x) { return x.first == name; });
    REQUIRE(st != r.stats.end());
    return st->second;
}

} // namespace

TEST_CASE("dragonfly: single missing global links and a missing switch are all routed",
          "[dragonfly]") {
    const Fabric full = dragonfly(6, 3, 3);
    const std::vector<std::string> links = global_links(6, 3, 3);
    REQUIRE(links.size() == 19 * 18 / 2);
    std::size_t with_local_hop = 0, tried = 0;
    for (std::size_t k = 0; k < links.size(); k += 7, ++tried) {
        INFO(links[k]);
        const Fabric f = without(full, {links[k]}, {});
        const Routing r = route(f);
        clean(f, r);
        // The paths really take every VL the engine declares (the check's count).
        CHECK(std::popcount(check::check_credit_loops(f, r).vls_used) == int(r.data_vls));
        CHECK(stat(r, "group_pairs_via_intermediate") == 2.0);
        if (stat(r, "group_pairs_with_local_hop_detour") > 0) {
            ++with_local_hop; // a third VL, and the two detours on SL 1
            CHECK(r.data_vls == 3);
            CHECK(r.path_sls.max_sl() == 1);
        } else {
            CHECK(r.data_vls == 2);
            CHECK(r.path_sls.empty());
        }
    }
    // The absolute cabling joins groups in cliques of h + 1 routers: most links are not in one.
    CHECK(with_local_hop * 2 > tried);
    // A missing switch takes its 3 global links.
    const Fabric f = test::relabel(without(full, {}, {"sw-g2-4"}), 7).fabric;
    const Routing r = route(f);
    clean(f, r);
    CHECK(stat(r, "group_pairs_via_intermediate") == 6.0);
}

TEST_CASE("dragonfly: many missing global links: the detour SLs keep every path climbing the "
          "VL order",
          "[dragonfly]") {
    const Fabric full = dragonfly(4, 2, 1);
    const std::vector<std::string> all = global_links(4, 2, 1);
    std::size_t routed = 0, loops_without_sls = 0, max_sl = 0, far = 0;
    for (std::uint64_t seed = 1; seed <= 120; ++seed) {
        std::mt19937_64 rng(seed);
        std::vector<std::string> links;
        for (const std::string& l : all)
            if (rng() % 4 == 0) links.push_back(l);
        INFO("seed " << seed << ": " << links.size() << " missing global links");
        const Fabric f = without(full, links, {});
        Routing r;
        try {
            r = route(f);
        } catch (const RoutingError& e) { // a group can lose every global link
            CHECK_THAT(e.what(), Catch::Contains("separate parts"));
            continue;
        }
        ++routed;
        clean(f, r);
        const double layers = stat(r, "vl_layers");
        CHECK(r.data_vls <= 3 + layers);
        // Only pairs of groups with no common neighbour leave the class rule's order here.
        CHECK((layers > 0) == (stat(r, "group_pairs_via_several_groups") > 0));
        far += layers > 0;
        if (layers == 0) max_sl = std::max<std::size_t>(max_sl, r.path_sls.max_sl());
        Routing sl0 = r; // every path on SL 0: the class rule alone
        sl0.path_sls = {};
        loops_without_sls += !check::check_credit_loops(f, sl0).loops.empty();
    }
    CHECK(routed >= 110);
    CHECK(far > 0); // two groups with no common neighbour go through two others
    CHECK(loops_without_sls > 0);
    CHECK(max_sl >= 2); // detours chained through each other's groups take distinct SLs
}

namespace {

// The local cables of a Dragonfly (a, h, p), each named by its end at the lower router.
std::vector<std::string> local_links(int a, int h, int p) {
    std::vector<std::string> out;
    for (int g = 0; g < a * h + 1; ++g)
        for (int r = 0; r < a; ++r)
            for (int r2 = r + 1; r2 < a; ++r2)
                out.push_back(fmt::format("sw-g{}-{}[{}]", g, r, p + r2));
    return out;
}

std::vector<std::string> pick(const std::vector<std::string>& from, std::size_t k,
                              std::mt19937_64& rng) {
    std::vector<std::string> v = from;
    std::shuffle(v.begin(), v.end(), rng);
    v.resize(std::min(k, v.size()));
    return v;
}

// Routed and clean, every VL the engine declares used by some path, and the VLs as the
// header says: 2 or 3 for the Static routing and its detours, the first layer on the last
// of those, one more per further layer.
void routed_clean(const Fabric& f, const Routing& r) {
    clean(f, r);
    const double layers = stat(r, "vl_layers");
    CHECK(r.data_vls >= 1 + std::max(layers, 1.0));
    CHECK(r.data_vls <= 2 + std::max(layers, 1.0));
    CHECK(std::popcount(check::check_credit_loops(f, r).vls_used) == int(r.data_vls));
    if (layers > 0) CHECK(r.path_sls.max_sl() >= 1);
}

} // namespace

TEST_CASE("dragonfly: one missing local link takes one layer, on the second VL, detours in "
          "the source group alone stay on the class rule",
          "[dragonfly]") {
    const Fabric full = dragonfly(6, 3, 2);
    const Fabric f = test::relabel(without(full, {"sw-g3-1[6]"}, {}), 11).fabric; // g3: 1 - 4
    const Routing r = route(f);
    routed_clean(f, r);
    CHECK(stat(r, "missing_local_links") == 1);
    CHECK(stat(r, "vl_layers") == 1);
    CHECK(r.data_vls == 2);          // as on the pristine fabric
    CHECK(r.path_sls.max_sl() == 1); // SL 0: the class rule; SL 1: the layer
    // The paths from 1 to 4 and to what 4 is the gateway to detour in their source group,
    // within the VL order: only the paths that detour after a global hop are on the layer.
    CHECK(stat(r, "switch_pairs_local_detour_in_source_group") > 0);
    CHECK(stat(r, "switch_pairs_on_layers") > 0);
}

TEST_CASE("dragonfly: random missing local links, global links and both are routed clean",
          "[dragonfly]") {
    const Fabric full = dragonfly(6, 3, 2);
    const std::vector<std::string> locals = local_links(6, 3, 2), globals = global_links(6, 3, 2);
    REQUIRE(locals.size() == 19 * 15);
    double max_layers = 0;
    std::size_t loops_without_sls = 0;
    for (std::uint64_t seed = 1; seed <= 6; ++seed)
        for (const auto& [nl, ng] : {std::pair<std::size_t, std::size_t>{3, 0},
                                     {15, 0},
                                     {30, 0},
                                     {0, 15},
                                     {15, 8},
                                     {30, 20}}) {
            std::mt19937_64 rng(seed);
            std::vector<std::string> links = pick(locals, nl, rng);
            for (std::string& l : pick(globals, ng, rng)) links.push_back(std::move(l));
            INFO("seed " << seed << ": " << nl << " local and " << ng << " global links missing");
            const Fabric f = without(full, links, {});
            const Routing r = route(f);
            routed_clean(f, r);
            CHECK(stat(r, "missing_local_links") == double(nl));
            CHECK(stat(r, "missing_global_links") == double(ng));
            max_layers = std::max(max_layers, stat(r, "vl_layers"));
            if (nl == 0) CHECK(stat(r, "vl_layers") == 0); // no local detour: as before
            Routing sl0 = r; // every path on SL 0: the class rule alone
            sl0.path_sls = {};
            loops_without_sls += !check::check_credit_loops(f, sl0).loops.empty();
        }
    CHECK(max_layers <= 3);
    CHECK(loops_without_sls > 0); // the layers are needed
}

TEST_CASE("dragonfly: random link failures are routed clean", "[dragonfly]") {
    std::size_t tried = 0;
    for (const auto& [a, h, fraction] : {std::tuple{4, 2, 0.05}, std::tuple{4, 2, 0.10},
                                         std::tuple{6, 3, 0.05}, std::tuple{6, 3, 0.10}})
        for (std::uint64_t seed = 1; seed <= 5; ++seed) {
            gen::FailureSpec spec;
            spec.links = fraction;
            spec.seed = seed;
            spec.keep_connected = true;
            gen::FailureReport rep;
            const Fabric f = gen::inject_failures(dragonfly(a, h, 2), spec, rep);
            INFO("a " << a << " h " << h << " links " << fraction << " seed " << seed);
            Routing r;
            try {
                r = route(f);
            } catch (const RoutingError& e) { // the mapping may no longer read a Dragonfly
                CHECK_THAT(e.what(), Catch::StartsWith("dragonfly: the fabric is not a Dragonfly"));
                continue;
            }
            ++tried;
            routed_clean(f, r);
        }
    CHECK(tried >= 16);
}

TEST_CASE("dragonfly: a group split in two, and a switch without local links, go through "
          "further groups",
          "[dragonfly]") {
    // (6, 3, 2): ports 3-7 local. The mapping reads each piece as a group of its own, joined
    // to half the other groups (or three), and not to the rest of its old group: those pairs
    // have no common neighbour and go through two or more groups, on layers.
    std::vector<std::string> halves, lone;
    for (int r = 0; r < 3; ++r)
        for (int r2 = 3; r2 < 6; ++r2) halves.push_back(fmt::format("sw-g0-{}[{}]", r, 2 + r2));
    for (int port = 3; port <= 7; ++port) lone.push_back(fmt::format("sw-g0-0[{}]", port));
    for (const auto& links : {halves, lone}) {
        const Fabric f = test::relabel(without(dragonfly(6, 3, 2), links, {}), 3).fabric;
        const Routing r = route(f);
        routed_clean(f, r);
        CHECK(stat(r, "groups") == 20);
        CHECK(stat(r, "group_pairs_via_several_groups") > 0);
        CHECK(stat(r, "vl_layers") >= 1);
    }
}

TEST_CASE("dragonfly: every global arrangement is routed clean, also damaged", "[dragonfly]") {
    // Issue 37: the relative (palm tree) arrangement did not map, so the engine declined it;
    // circulant and random bijections of group pairs to ports are routed as well.
    for (gen::GlobalArrangement arr :
         {gen::GlobalArrangement::Relative, gen::GlobalArrangement::Circulant,
          gen::GlobalArrangement::Random})
        for (std::uint64_t seed = 1; seed <= 2; ++seed) {
            INFO("arrangement " << int(arr) << " seed " << seed);
            gen::DragonflyParams p;
            p.a = 6;
            p.h = 3;
            p.p = 2;
            p.arrangement = arr;
            p.seed = seed;
            const Fabric intact = test::relabel(gen::dragonfly(p), seed).fabric;
            // Reached and loop-free (clean's CHECKs); not all minimal: two global links can
            // join two groups' switches in 2 hops where Static takes local-global-local.
            clean(intact, test::route_with("dragonfly", intact));
            const Fabric damaged =
                test::relabel(without(gen::dragonfly(p), {"sw-g2-3[8]"}, {"sw-g4-1"}), seed).fabric;
            clean(damaged, test::route_with("dragonfly", damaged));
        }
}

TEST_CASE("dragonfly: several global links per pair of groups, each carrying destinations",
          "[dragonfly]") {
    // Issue 37: m links between every two groups; destination switches spread over them.
    for (const int m : {2, 4})
        for (gen::GlobalArrangement arr :
             {gen::GlobalArrangement::Relative, gen::GlobalArrangement::Random}) {
            INFO("m " << m << " arrangement " << int(arr));
            gen::DragonflyParams p;
            p.a = 8;
            p.h = 4;
            p.p = 2;
            p.links_per_pair = m;
            p.arrangement = arr;
            const Fabric f = test::relabel(gen::dragonfly(p), 5).fabric;
            const Routing r = test::route_with("dragonfly", f);
            test::clean_within_data_vls(f, r);
            CHECK(r.data_vls == 2);
            CHECK(test::stat_of(r, "global_links_used_per_pair") == m);
            // Every switch-to-switch cable of a group with a global link is on some LFT entry:
            // by the ports the tables send out of, every global port is used.
            std::size_t global_ports = 0, used = 0;
            for (NodeId sw : f.switches())
                for (PortNum q = 1; q <= f.node(sw).num_ports; ++q) {
                    const Port& port = f.port(sw, q);
                    if (!port.connected() || !f.node(port.peer_node).is_switch()) continue;
                    // A global port: the peer shares no neighbour switch with sw (a group's
                    // switches all do, a = 8).
                    std::size_t common = 0;
                    for (PortNum a = 1; a <= f.node(sw).num_ports; ++a)
                        for (PortNum b = 1; b <= f.node(port.peer_node).num_ports; ++b)
                            common +=
                                f.port(sw, a).connected() &&
                                f.port(port.peer_node, b).connected() &&
                                f.port(sw, a).peer_node == f.port(port.peer_node, b).peer_node &&
                                f.node(f.port(sw, a).peer_node).is_switch();
                    if (common > 2) continue; // local
                    ++global_ports;
                    used += std::find(r.lft[sw].begin(), r.lft[sw].end(), q) != r.lft[sw].end();
                }
            CHECK(global_ports == std::size_t(p.a * p.h / m + 1) * std::size_t(p.a * p.h / m) * m);
            CHECK(used == global_ports);
        }
}

TEST_CASE("dragonfly: paths beyond the ports' VLs go on the escape VL, not declined",
          "[dragonfly]") {
    // Issue 37: 35 % of the cables and 5 % of the switches out of a balanced p = 4 Dragonfly
    // (33 groups) take more layers than 4 data VLs hold; the engine declined. Now one VL less
    // for the layers and the escape VL for the destinations whose paths fit none.
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        INFO("seed " << seed);
        gen::DragonflyParams p;
        p.a = 8;
        p.h = 4;
        p.p = 4;
        const Fabric f =
            test::relabel(test::damaged(gen::dragonfly(p), 0.35, 0.05, seed).fabric, seed).fabric;
        EngineOptions four;
        four.default_data_vls = 4;
        const Routing r = make_engine("dragonfly")->route(f, nullptr, four);
        test::clean_within_data_vls(f, r);
        CHECK(r.data_vls == 4);
        CHECK(test::stat_of(r, "escaped_switches") > 0);
        test::escape_layer_sound(f, r);
        // With 8 it needs no escape.
        const Routing r8 = test::route_with("dragonfly", f);
        test::clean_within_data_vls(f, r8);
        CHECK(test::stat_of(r8, "escaped_switches", 0) == 0);
        // With 2 there is no VL for layers and escape: declined, naming the VLs.
        EngineOptions two;
        two.default_data_vls = 2;
        std::string why;
        try {
            make_engine("dragonfly")->route(f, nullptr, two);
        } catch (const RoutingError& e) {
            why = e.what();
        }
        CHECK(why.find("the ports' 2 data VLs") != std::string::npos);
    }
}
