// The Twisted routings of paper 003 §3.3 (engines/flatfly/adaptive_routings.hpp) on complete
// FlatFlies mapped from relabelled cabling: under every choice a selection function may make,
// every packet reaches its destination within the routing's hop budget and the extended
// channel dependency graph is acyclic on the VLs the header promises (the forwarding-sets
// check); and a packet from a host first goes, in the last dimension of its order, to the
// coordinate d mod K that §3.3 defines, on the order's second VL.
#include "../../mapping/relabel.hpp"
#include "../direct_checks.hpp"
#include "check/forwarding_sets.hpp"
#include "check/report.hpp"
#include "engines/engine.hpp"
#include "fabric/routing_function.hpp"
#include "generators/hyperx.hpp"
#include "mapping/link_classes.hpp"
#include "mapping/map_fabric.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using namespace ibrt;

namespace {

Routing route_adaptive(const Fabric& f, const char* name, const char* twist = "order") {
    EngineOptions opt;
    opt.params["adaptive"] = name;
    opt.params["twist"] = twist;
    return make_engine("flatfly")->route(f, nullptr, opt);
}

Fabric flatfly(std::vector<int> k, int hosts, std::uint64_t seed) {
    gen::HyperXParams hp;
    hp.k = std::move(k);
    hp.cas_per_switch = hosts;
    return test::relabel(gen::hyperx(hp), seed).fabric;
}

} // namespace

TEST_CASE("Twisted ADOR and Twisted Mixed DOR/ADOR: every pair, hop budget, no credit loop") {
    // Budgets (switch-to-switch hops, attained): the twist, then per dimension of the order
    // but the last one hop (DOR) or two where K > 2 (ADOR), then one in the last dimension.
    // 2x4x4x4: the mapping puts K = 2 first, so Twisted ADOR's order (1,2,3,4) has no extra
    // hop in dimension 1 (7), while Mixed's order (4,3,2,1) twists in dimension 1 and takes
    // extra hops in the three others (8). With twist=n every order twists in dimension 4 and
    // takes no extra hop there (7, as Twisted ADOR).
    const struct {
        std::vector<int> k;
        int hosts;
        const char* name;
        unsigned vls, max_hops;
        const char* twist = "order";
    } cases[] = {
        {{4, 4, 4}, 4, "twisted-ador", 2, 6},
        {{4, 4, 4}, 4, "twisted-mixed-dor", 8, 4},
        {{4, 4, 4}, 4, "twisted-mixed-ador", 8, 6},
        {{2, 4, 4, 4}, 4, "twisted-ador", 2, 7},
        {{2, 4, 4, 4}, 4, "twisted-mixed-dor", 8, 5},
        {{2, 4, 4, 4}, 4, "twisted-mixed-ador", 8, 8},
        {{4, 4, 4}, 4, "twisted-mixed-dor", 8, 4, "n"},
        {{4, 4, 4}, 4, "twisted-mixed-ador", 8, 6, "n"},
        {{2, 4, 4, 4}, 4, "twisted-mixed-dor", 8, 5, "n"},
        {{2, 4, 4, 4}, 4, "twisted-mixed-ador", 8, 7, "n"},
    };
    for (const auto& c : cases) {
        const Fabric f = flatfly(c.k, c.hosts, 7);
        const Routing r = route_adaptive(f, c.name, c.twist);
        INFO(c.name << " twist=" << c.twist << " on " << c.k.size() << "-D, " << f.switches().size()
                    << " switches");
        const check::ForwardingSetsReport x = test::sets_sound(f, r);
        CHECK(x.max_hops == c.max_hops);
        CHECK(x.vls == c.vls);
    }
}

TEST_CASE("the twist goes to d mod K in the order's last dimension (twist=n: in dimension n), on "
          "the order's second VL") {
    // 2x4x4x4 with 4 hosts per switch: host index d picks Mixed's order d mod 4, whose last
    // dimensions are 4, 3, 2, 1 (paper 003 §3.3's orders (1,2,3,4), (2,4,1,3), (3,1,4,2),
    // (4,3,2,1)); plain Twisted always twists in dimension 4, and so does Mixed with twist=n.
    // Coordinates are the mapping's.
    const Fabric f = flatfly({2, 4, 4, 4}, 4, 11);
    const mapping::SwitchLinks g = mapping::switch_links(f);
    const mapping::Shape shape = mapping::map_fabric(f, g, mapping::link_classes(g));
    REQUIRE(shape.dims.size() == 4);
    REQUIRE(shape.dims[0].k == 2);
    // Destination LID -> (switch, host index within it), by port number as §3.3's d.
    const struct {
        const char* name;
        const char* twist;
    } cases[] = {{"twisted-dor", "order"},       {"twisted-ador", "order"},
                 {"twisted-mixed-dor", "order"}, {"twisted-mixed-ador", "order"},
                 {"twisted-mixed-dor", "n"},     {"twisted-mixed-ador", "n"}};
    for (const auto& [name, twist] : cases) {
        INFO(name << " twist=" << twist);
        const bool mixed = std::string(name).find("mixed") != std::string::npos;
        const bool in_n = std::string(twist) == "n";
        const Routing r = route_adaptive(f, name, twist);
        const RoutingFunction& rf = *r.forwarding_sets;
        std::size_t twists = 0, straight = 0;
        for (std::uint32_t t = 0; t < g.num_switches(); ++t) {
            const NodeId tsw = g.node[t];
            int d = 0;
            for (PortNum hp = 1; hp <= f.node(tsw).num_ports; ++hp) {
                const Port& host = f.port(tsw, hp);
                if (!host.connected() || f.node(host.peer_node).is_switch()) continue;
                const Lid dlid = r.lids.base(f.port_id(host.peer_node, host.peer_port));
                const unsigned order = mixed ? unsigned(d) % 4 : 0;
                const std::size_t twist_dim = in_n ? 3 : 3 - order; // orders' last: 4, 3, 2, 1
                const int twist_to = d % shape.dims[twist_dim].k;
                const unsigned vl = mixed ? 2 * order : 0; // the source's SL is the order
                if (mixed) CHECK(rf.source_sls.sl(f.port_id(g.node[0], 0), dlid) == order);
                for (std::uint32_t x = 0; x < g.num_switches(); ++x) {
                    if (x == t) continue;
                    const NodeId sw = g.node[x];
                    // A packet entering x from one of its hosts.
                    PortNum in = 0;
                    for (PortNum p = 1; p <= f.node(sw).num_ports && in == 0; ++p)
                        if (f.port(sw, p).connected() &&
                            !f.node(f.port(sw, p).peer_node).is_switch())
                            in = p;
                    REQUIRE(in != 0);
                    const auto cands = rf.set(rf.lookup(sw, vl, in, dlid));
                    REQUIRE(!cands.empty());
                    std::set<std::uint32_t> next;
                    for (const Candidate& cand : cands) {
                        next.insert(g.dense[f.port(sw, cand.port).peer_node]);
                        const Sl2VlTable* out =
                            rf.vl2vl.find(sw, f.node(sw).num_ports, in, cand.port);
                        REQUIRE(out != nullptr);
                        // The twist, and a first hop into the twist's dimension, on VL 2 SL + 1.
                        const bool into_twist_dim =
                            shape.coord[g.dense[f.port(sw, cand.port).peer_node]][twist_dim] !=
                            shape.coord[x][twist_dim];
                        CHECK(unsigned((*out)[vl]) == vl + (into_twist_dim ? 1 : 0));
                    }
                    if (shape.coord[x][twist_dim] != twist_to) {
                        // The obligatory twist: exactly the switch at twist_to in twist_dim.
                        std::vector<int> want = shape.coord[x];
                        want[twist_dim] = twist_to;
                        REQUIRE(next.size() == 1);
                        CHECK(shape.coord[*next.begin()] == want);
                        for (const Candidate& cand : cands) CHECK(cand.priority == 0);
                        ++twists;
                    } else {
                        ++straight;
                    }
                }
                ++d;
            }
        }
        // Most first hops are twists (d mod K misses x's coordinate K - 1 times in K).
        CHECK(twists > 2 * straight);
    }
}

TEST_CASE("twist=n is refused where it means nothing") {
    const Fabric f = flatfly({4, 4, 4}, 4, 3);
    for (const char* name : {"twisted-dor", "ador", "none"}) {
        INFO(name);
        CHECK_THROWS_WITH(route_adaptive(f, name, "n"),
                          Catch::Contains("twist=n applies to adaptive=twisted-mixed"));
    }
}
