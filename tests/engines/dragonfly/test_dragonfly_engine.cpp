// The dragonfly engine (engines/dragonfly, paper 003 §3.5): Static routing on groups mapped from
// relabelled cabling reaches every (CA port, LID) pair with no credit loop on two VLs; missing
// global links are routed through an intermediate group on the same two VLs; what it cannot
// route it declines with the reason.
#include "../../mapping/relabel.hpp"
#include "../direct_checks.hpp"
#include "fabric/generators/dragonfly.hpp"
#include "fabric/generators/hyperx.hpp"

#include <catch2/catch.hpp>

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
    // (fabric/generators/dragonfly.hpp).
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
    CHECK_THAT(refusal(without(dragonfly(4, 2, 2), {"sw-g0-0[3]"}, {})),
               Catch::Contains("are in one group but not cabled to each other"));
    // Most single global links of the absolute cabling have no intermediate group whose
    // arriving switch is its gateway onward.
    CHECK_THAT(refusal(without(dragonfly(6, 3, 3), {"sw-g0-1[9]"}, {})),
               Catch::Contains("are not joined, and no group's switch reached from"));
}

TEST_CASE("direct engines: the same tables whatever order the nodes are listed in",
          "[dragonfly][flatfly]") {
    // opensm's snapshot and an ibnetdiscover file list one subnet's nodes in different orders;
    // the live and offline tables must agree (the e2e test compares them under opensm).
    const Fabric df = without(dragonfly(6, 3, 3), {"sw-g0-0[9]"}, {});
    gen::FailureSpec spec;
    spec.switch_names = {"sw-1.1"};
    gen::FailureReport rep;
    const Fabric hx = gen::inject_failures(gen::hyperx({{4, 4}, {}, 2, 0}), spec, rep);
    for (const auto& [engine, f] :
         {std::pair<const char*, const Fabric*>{"dragonfly", &df}, {"flatfly", &hx}}) {
        INFO(engine);
        const Fabric g = test::relabel(*f, 9, /*only_order=*/true).fabric;
        const Routing a = make_engine(engine)->route(*f, nullptr, {});
        const Routing b = make_engine(engine)->route(g, nullptr, {});
        for (NodeId s : f->switches()) {
            const NodeId t = *g.find_node_by_guid(f->node(s).guid);
            // LIDs follow node order too; compare by the destination (node GUID, port).
            for (Lid lid = 1; lid <= a.lids.max_lid(); ++lid) {
                const PortId owner = a.lids.owner(lid);
                if (owner == kNoPort) continue;
                const NodeId n = *g.find_node_by_guid(f->node(f->port_node(owner)).guid);
                const Lid other = b.lids.base(g.port_id(n, f->port_num(owner)));
                CHECK(a.lft[s][lid] == b.lft[t][other]);
            }
        }
    }
}
