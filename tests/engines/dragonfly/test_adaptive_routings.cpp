// Paper 003 §3.5's Dragonfly routings as forwarding sets (engines/dragonfly/adaptive_routings):
// on balanced Dragonflies mapped from relabelled cabling, every choice of every routing
// delivers every pair within the family's hop budget (at most 8), each kind of extra hop is
// taken only under the letter that allows it (and is taken under it), the extended channel
// dependency graph is acyclic on 6 VLs, and Static's sets are the engine's LFT routing.
#include "../../mapping/relabel.hpp"
#include "../direct_checks.hpp"
#include "check/forwarding_sets.hpp"
#include "check/report.hpp"
#include "engines/dragonfly/adaptive_routings.hpp"
#include "fabric/routing_function.hpp"
#include "generators/dragonfly.hpp"
#include "mapping/link_classes.hpp"
#include "mapping/map_fabric.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

using namespace ibrt;

namespace {

Fabric make_dragonfly(int a, int h, int p, int groups = 0) {
    gen::DragonflyParams d;
    d.a = a;
    d.h = h;
    d.p = p;
    d.groups = groups;
    return gen::dragonfly(d);
}

Routing route(const Fabric& f, const std::string& adaptive) {
    return test::route_with("dragonfly", f, {"adaptive=" + adaptive});
}

// What every path any choices give looks like: the most switch hops, and per kind the most
// local hops in the source group, global hops, local hops in the intermediate group and
// local hops in the destination group (groups from the mapping), and the walk's failures.
struct PathKinds {
    unsigned hops = 0, src_local = 0, globals = 0, int_local = 0, dst_local = 0;
    std::size_t paths = 0, failures = 0;
};

PathKinds walk_all(const Fabric& f, const Routing& r) {
    const mapping::SwitchLinks g = mapping::switch_links(f);
    const mapping::Shape s = mapping::map_fabric(f, g, mapping::link_classes(g));
    REQUIRE(s.family == mapping::Family::Dragonfly);
    const RoutingFunction& rf = *r.forwarding_sets;
    const auto group = [&](NodeId sw) { return s.group[g.dense[sw]]; };
    PathKinds k;
    struct Step {
        NodeId sw;
        PortNum in;
        unsigned vl;
        unsigned hops, src_local, globals, int_local, dst_local;
    };
    std::vector<Step> stack;
    std::vector<NodeId> done_src; // source switches walked for this destination
    for (NodeId dst : f.cas()) {
        const Lid d = r.lids.base(f.port_id(dst, 1));
        const NodeId t = f.port(dst, 1).peer_node;
        done_src.clear();
        for (NodeId src : f.cas()) {
            const Port& up = f.port(src, 1);
            const NodeId x = up.peer_node;
            // Tables do not depend on the input port: one host of a switch stands for all.
            if (src == dst || std::find(done_src.begin(), done_src.end(), x) != done_src.end())
                continue;
            done_src.push_back(x);
            const int gs = group(x), gd = group(t);
            const unsigned v0 = rf.vl2vl.vl(src, 1, 0, 1, 0, 16);
            stack.assign(1, {x, up.peer_port, v0, 0, 0, 0, 0, 0});
            while (!stack.empty()) {
                const Step st = stack.back();
                stack.pop_back();
                const std::uint32_t set = rf.lookup(st.sw, st.vl, st.in, d);
                if (set == RoutingFunction::kNoSet || rf.set(set).empty()) {
                    ++k.failures;
                    continue;
                }
                const PortNum np = f.node(st.sw).num_ports;
                for (const Candidate& c : rf.set(set)) {
                    const Port& out = f.port(st.sw, c.port);
                    if (!f.node(out.peer_node).is_switch()) {
                        ++k.paths;
                        if (out.peer_node != dst) ++k.failures;
                        k.hops = std::max(k.hops, st.hops);
                        k.src_local = std::max(k.src_local, st.src_local);
                        k.globals = std::max(k.globals, st.globals);
                        k.int_local = std::max(k.int_local, st.int_local);
                        k.dst_local = std::max(k.dst_local, st.dst_local);
                        continue;
                    }
                    const unsigned v =
                        rf.vl2vl.vl(st.sw, np, st.in, c.port, std::uint8_t(st.vl), 16);
                    // Off the VLs, a VL that falls between switch hops, or a path past the bound.
                    if (v >= 6 || (st.hops > 0 && v < st.vl) || st.hops >= 8) {
                        ++k.failures;
                        continue;
                    }
                    Step nx{out.peer_node, out.peer_port, v,           st.hops + 1, st.src_local,
                            st.globals,    st.int_local,  st.dst_local};
                    const int gh = group(st.sw);
                    if (group(out.peer_node) != gh) {
                        ++nx.globals;
                    } else if (gh == gd) {
                        ++nx.dst_local;
                    } else if (gh == gs && st.globals == 0) {
                        ++nx.src_local;
                    } else {
                        ++nx.int_local;
                    }
                    stack.push_back(nx);
                }
            }
        }
    }
    return k;
}

const std::array<const char*, 12> kRoutings = {"static", "s",  "d",   "sd",  "g",   "gs",
                                               "gi",     "gd", "gsi", "gid", "gsd", "gsid"};

} // namespace

TEST_CASE("dragonfly adaptive: every choice delivers, each extra hop only under its letter",
          "[dragonfly]") {
    // --balanced 2 (a = 4, h = p = 2: 9 groups), and the paper's layout in small (one global
    // link omitted per group: a * h groups) with 3 hosts per switch.
    const Fabric fabrics[] = {test::relabel(make_dragonfly(4, 2, 2), 7).fabric,
                              test::relabel(make_dragonfly(4, 2, 3, 8), 11).fabric};
    for (const Fabric& f : fabrics)
        for (const char* name : kRoutings) {
            INFO(name << " on " << f.cas().size() << " hosts");
            const dragonfly::AdaptiveLetters l = *dragonfly::parse_adaptive(name);
            const Routing r = route(f, name);
            REQUIRE(r.forwarding_sets);
            const PathKinds k = walk_all(f, r);
            CHECK(k.failures == 0);
            CHECK(k.paths > 0);
            // The budget is reached exactly: the letters' hops add up on some path.
            CHECK(k.hops == l.max_hops());
            CHECK(k.hops <= 8);
            // A second local hop in a group, or a second global hop, only with its letter.
            CHECK(k.src_local == 1u + l.s);
            CHECK(k.globals == 1u + l.g);
            CHECK(k.int_local == (l.g ? 1u + l.i : 0u));
            CHECK(k.dst_local == 1u + l.d);
        }
}

TEST_CASE("dragonfly adaptive: the extended channel dependency graph is acyclic on 6 VLs",
          "[dragonfly]") {
    const Fabric f = test::relabel(make_dragonfly(6, 3, 2, 18), 5).fabric;
    for (const char* name : kRoutings) {
        INFO(name);
        const Routing r = route(f, name);
        const check::ForwardingSetsReport x = test::sets_sound(f, r);
        CHECK(x.max_hops == dragonfly::parse_adaptive(name)->max_hops());
        CHECK(x.vls <= 6);
    }
    // The second VL of the source group is what keeps S loop-free: with the second local hop
    // on VL 0 like the first, an S hop and the minimal hop after it chain local channels on
    // one VL round the group.
    const mapping::SwitchLinks g = mapping::switch_links(f);
    const mapping::Shape s = mapping::map_fabric(f, g, mapping::link_classes(g));
    Routing r = route(f, "s");
    auto one_vl = std::make_shared<RoutingFunction>(*r.forwarding_sets);
    const auto local = [&](NodeId sw, PortNum p) {
        const Port& q = f.port(sw, p);
        return q.connected() && f.node(q.peer_node).is_switch() &&
               s.group[g.dense[q.peer_node]] == s.group[g.dense[sw]];
    };
    for (NodeId sw : f.switches()) {
        const PortNum np = f.node(sw).num_ports;
        for (PortNum in = 1; in <= np; ++in)
            for (PortNum out = 1; out <= np; ++out)
                if (local(sw, in) && local(sw, out))
                    one_vl->vl2vl.tables[sw][Sl2Vl::index(np, in, out)][0] = 0;
    }
    r.forwarding_sets = one_vl;
    CHECK_FALSE(check::check_forwarding_sets(f, r).deadlock.loops.empty());
}

TEST_CASE("dragonfly adaptive: Static's sets are the engine's LFT routing", "[dragonfly]") {
    const Fabric f = test::relabel(make_dragonfly(4, 2, 2), 3).fabric;
    const Routing r = route(f, "static");
    const RoutingFunction& rf = *r.forwarding_sets;
    std::size_t entries = 0;
    for (NodeId sw : f.switches())
        for (NodeId ca : f.cas()) {
            const Lid d = r.lids.base(f.port_id(ca, 1));
            for (unsigned v = 0; v < 6; ++v) {
                const std::uint32_t set = rf.lookup(sw, v, 1, d);
                REQUIRE(set != RoutingFunction::kNoSet);
                REQUIRE(rf.set(set).size() == 1);
                CHECK(rf.set(set)[0].port == r.out_port(sw, d));
                ++entries;
            }
        }
    CHECK(entries == f.switches().size() * f.cas().size() * 6);
}

TEST_CASE("dragonfly adaptive: non-minimal candidates at priority 1, and only where their "
          "letter is",
          "[dragonfly]") {
    // With d no switch offers a second local hop in a group other than the destination's;
    // with s only hosts' first switches (VL 4 in) do; minimal candidates are priority 0.
    const Fabric f = make_dragonfly(4, 2, 2);
    for (const char* name : {"d", "s", "g"}) {
        INFO(name);
        const Routing r = route(f, name);
        const RoutingFunction& rf = *r.forwarding_sets;
        std::size_t extra[6] = {};
        for (NodeId sw : f.switches())
            for (NodeId ca : f.cas()) {
                if (f.port(ca, 1).peer_node == sw) continue;
                const Lid d = r.lids.base(f.port_id(ca, 1));
                for (unsigned v = 0; v < 6; ++v) {
                    const auto cands = rf.set(rf.lookup(sw, v, 1, d));
                    CHECK(cands[0].priority == 0);
                    for (const Candidate& c : cands) extra[v] += c.priority == 1;
                }
            }
        if (std::string(name) == "d") {
            // Only VLs 1 and 3 (a global hop just taken) in the destination group.
            CHECK(extra[0] + extra[2] + extra[4] + extra[5] == 0);
            CHECK(extra[1] > 0);
        } else if (std::string(name) == "s") {
            CHECK(extra[0] + extra[1] + extra[2] + extra[3] + extra[5] == 0);
            CHECK(extra[4] > 0);
        } else {
            CHECK(extra[1] + extra[2] + extra[3] + extra[5] == 0);
            CHECK(extra[0] > 0);
            CHECK(extra[4] > 0);
        }
    }
}

TEST_CASE("dragonfly adaptive: a bad choice or combination is declined", "[dragonfly]") {
    // Damaged Dragonflies: test_damaged_adaptive.cpp.
    CHECK_THROWS_WITH(route(make_dragonfly(4, 2, 2), "gx"), Catch::Contains("adaptive"));
    CHECK_THROWS_WITH(
        test::route_with("dragonfly", make_dragonfly(4, 2, 2), {"adaptive=gs", "distance_based=1"}),
        Catch::Contains("is a routing of its own"));
}
