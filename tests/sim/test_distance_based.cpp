// Distance Based routing (paper 003 §3.7; engines/direct/distance_based.hpp) on the extended
// switch: the candidate sets follow the rules by distance and hop budget, every packet is
// delivered within D + E hops on VLs that only fall, no deadlock at saturation (with
// deflection, on degraded tori too), and fabrics whose diameter + E exceeds the VLs are
// declined.
#include "engines/direct/distance_based.hpp"
#include "engines/engine.hpp"
#include "formats/forwarding_sets_file.hpp"
#include "generators/hyperx.hpp"
#include "generators/torus.hpp"
#include "sim/simulator.hpp"
#include "tests/generators/damaged.hpp"

#include <catch2/catch.hpp>

#include <deque>
#include <sstream>

using namespace ibrt;
using namespace ibrt::sim;

namespace {

constexpr Time ns = kPsPerNs;

Routing distance_based(const Fabric& f, int e, bool deflection) {
    EngineOptions opt;
    opt.params["distance_based"] = std::to_string(e);
    if (deflection) opt.params["deflection"] = "true";
    return make_engine("torus")->route(f, nullptr, opt);
}

// Hop counts between switches (NodeIds), by BFS over the cables.
std::vector<std::vector<int>> switch_distances(const Fabric& f) {
    std::vector<std::vector<int>> d(f.num_nodes(), std::vector<int>(f.num_nodes(), -1));
    for (NodeId s : f.switches()) {
        std::deque<NodeId> q{s};
        d[s][s] = 0;
        while (!q.empty()) {
            const NodeId v = q.front();
            q.pop_front();
            for (PortNum p = 1; p <= f.node(v).num_ports; ++p) {
                const Port& port = f.port(v, p);
                if (!port.connected() || !f.node(port.peer_node).is_switch()) continue;
                if (d[s][port.peer_node] < 0) {
                    d[s][port.peer_node] = d[s][v] + 1;
                    q.push_back(port.peer_node);
                }
            }
        }
    }
    return d;
}

SimConfig run_config(double load) {
    SimConfig c;
    c.num_vls = 15;
    c.selection = Selection::LeastLoaded;
    c.traffic.load = load;
    c.warmup_ps = 5000 * ns;
    c.measure_ps = 30000 * ns;
    c.drain_ps = 30000 * ns;
    return c;
}

} // namespace

TEST_CASE("distance-based candidate sets follow paper 003 §3.7's rules") {
    gen::TorusParams tp;
    tp.k = {5, 3}; // odd rings: switches at equal distance exist, so sideways moves do
    const Fabric f = gen::torus(tp);
    const auto dist = switch_distances(f);
    const Routing r = distance_based(f, 2, true);
    const RoutingFunction& rf = *r.forwarding_sets;
    const int diameter = 2 + 1;
    CHECK(rf.vl_keys() == unsigned(diameter + 2 + 1));
    std::size_t sideways = 0, deflections = 0;
    for (NodeId ca : f.cas()) {
        const Lid dl = r.lids.base(f.port_id(ca, 1));
        const NodeId t = f.port(ca, 1).peer_node;
        for (NodeId s : f.switches()) {
            const int d = dist[s][t];
            // The source's SL is the hop budget D + E.
            CHECK(rf.source_sls.sl(f.port_id(s, 0), dl) == d + 2);
            for (unsigned v = unsigned(d); v < rf.vl_keys(); ++v) {
                const auto cands = rf.set(rf.lookup(s, v, 1, dl));
                REQUIRE(!cands.empty());
                bool shortest = false;
                for (const Candidate& c : cands) {
                    const Port& p = f.port(s, c.port);
                    if (d == 0) {
                        CHECK(p.peer_node == ca);
                        continue;
                    }
                    const int dp = dist[s][p.peer_node] >= 0 ? dist[p.peer_node][t] : -1;
                    INFO("switch " << s << " to " << t << " VL " << v << " port "
                                   << unsigned(c.port));
                    if (c.priority == 0) {
                        CHECK(dp == d - 1);
                        shortest = true;
                    } else if (c.priority == 1) {
                        CHECK(dp == d);
                        CHECK(dp <= int(v) - 1);
                        ++sideways;
                    } else {
                        CHECK(c.priority == 2);
                        CHECK(dp == d + 1);
                        CHECK(dp <= int(v) - 1);
                        ++deflections;
                    }
                }
                CHECK((d == 0 || shortest));
            }
        }
    }
    CHECK(sideways > 0);
    CHECK(deflections > 0);
    // Each switch-to-switch hop takes the VL one lower; the hop to a CA keeps it.
    const NodeId s = f.switches()[0];
    PortNum to_switch = 0, to_ca = 0;
    for (PortNum p = 1; p <= f.node(s).num_ports; ++p)
        (f.node(f.port(s, p).peer_node).is_switch() ? to_switch : to_ca) = p;
    CHECK(rf.vl2vl.vl(s, f.node(s).num_ports, to_switch, to_switch, 4, 15) == 3);
    CHECK(rf.vl2vl.vl(s, f.node(s).num_ports, to_switch, to_ca, 4, 15) == 4);
    CHECK(rf.vl2vl.vl(s, f.node(s).num_ports, to_switch, to_switch, 0, 15) == 15);
}

TEST_CASE("distance-based routing delivers everything and does not deadlock, degraded too") {
    gen::TorusParams tp;
    tp.k = {4, 4};
    tp.cas_per_switch = 2;
    const Fabric full = gen::torus(tp);
    for (std::uint64_t seed : {0, 1, 2}) {
        const Fabric f = seed ? test::damaged(full, 3, 1, seed).fabric : full;
        for (auto [e, deflect] : {std::pair{0, false}, {2, true}, {4, true}}) {
            INFO("seed " << seed << " E " << e << " deflection " << deflect);
            // The sets need only the cabling and LIDs: on a damaged torus, which the torus
            // engine may not map, take separate's LIDs.
            Routing r = seed ? make_engine("separate")->route(f, nullptr, {})
                             : distance_based(f, e, deflect);
            if (seed) r.forwarding_sets = direct::distance_based_sets(f, r.lids, e, deflect);
            SimConfig c = run_config(0.1);
            c.traffic.pattern = Pattern::AllToAll;
            const SimResult low = simulate(f, r, c);
            CHECK(low.verdict == Verdict::Ok);
            CHECK(low.dropped == 0);
            CHECK(low.misdelivered == 0);
            CHECK(low.measured_unfinished == 0);
            c = run_config(1.0); // saturated: every buffer full, still no cycle
            const SimResult sat = simulate(f, r, c);
            CHECK(sat.verdict == Verdict::Ok);
            CHECK(sat.dropped == 0);
            // Hop budgets: VLs above diameter + E stay unused.
            for (std::size_t v = r.forwarding_sets->vl_keys(); v < sat.vl_util_mean.size(); ++v)
                CHECK(sat.vl_util_mean[v] == 0);
        }
    }
}

TEST_CASE("distance-based sets survive the forwarding-sets file, source SLs included") {
    gen::TorusParams tp;
    tp.k = {3, 3};
    const Fabric f = gen::torus(tp);
    const Routing r = distance_based(f, 1, true);
    std::ostringstream text;
    write_forwarding_sets(text, f, *r.forwarding_sets);
    CHECK(text.str().find("source-sl ") != std::string::npos);
    Routing back = r;
    back.forwarding_sets = std::make_shared<RoutingFunction>(
        read_forwarding_sets_text(text.str(), "fs", f, r.lids.max_lid()));
    const SimConfig c = run_config(0.6);
    const SimResult a = simulate(f, r, c), b = simulate(f, back, c);
    CHECK(a.delivered == b.delivered);
    CHECK(a.events == b.events);
    CHECK(a.latency_mean_ns == b.latency_mean_ns);
}

TEST_CASE("distance-based routing declines when diameter + E exceeds the VLs") {
    gen::TorusParams tp;
    tp.k = {24}; // a ring of 24: diameter 12
    const Fabric f = gen::torus(tp);
    CHECK_NOTHROW(distance_based(f, 2, false));
    CHECK_THROWS_WITH(distance_based(f, 3, false),
                      Catch::Contains("Distance Based +3 on a fabric of diameter 12 needs 16 VLs"));
}

TEST_CASE("FlatFly ADOR takes its extra hops when the minimal output is spoken for") {
    // Complement on a 4x4 HyperX with 4 hosts per switch: DOR puts the 4 flows of a switch on
    // one link per dimension (0.25 each); ADOR spreads them over the dimension's other
    // switches once the minimal output's credits are claimed by waiting packets.
    gen::HyperXParams hp;
    hp.k = {4, 4};
    hp.cas_per_switch = 4;
    const Fabric f = gen::hyperx(hp);
    SimConfig c = run_config(1.0);
    c.num_vls = 2;
    c.traffic.pattern = Pattern::Complement;
    const SimResult dor = simulate(f, make_engine("flatfly")->route(f, nullptr, {}), c);
    EngineOptions opt;
    opt.params["adaptive"] = "ador";
    const SimResult ador = simulate(f, make_engine("flatfly")->route(f, nullptr, opt), c);
    CHECK(dor.accepted_fraction == Approx(0.25).epsilon(0.02));
    CHECK(ador.accepted_fraction > 0.33);
    CHECK(ador.verdict == Verdict::Ok);
    CHECK(ador.vl_util_mean[1] > 0.01); // the extra hops run on VL 1
}

TEST_CASE("FlatFly Twisted ADOR, Twisted Mixed DOR/ADOR at overload: delivered, no deadlock") {
    // Paper 003 §3.3's Twisted routings on complete FlatFlies (3-D and 4-D), uniform traffic
    // offered at 100 %: every buffer fills, and the VL rules must still leave no cycle. The
    // twists run on the order's odd VL (VL 2 SL + 1), which therefore carries traffic; no
    // packet uses a VL beyond the routing's.
    const struct {
        std::vector<int> k;
        int hosts;
        const char* name;
        unsigned vls;
    } cases[] = {
        {{4, 4, 4}, 4, "twisted-ador", 2},         {{4, 4, 4}, 4, "twisted-mixed-dor", 8},
        {{4, 4, 4}, 4, "twisted-mixed-ador", 8},   {{2, 4, 4, 4}, 4, "twisted-ador", 2},
        {{2, 4, 4, 4}, 4, "twisted-mixed-dor", 8}, {{2, 4, 4, 4}, 4, "twisted-mixed-ador", 8}};
    for (const auto& x : cases) {
        gen::HyperXParams hp;
        hp.k = x.k;
        hp.cas_per_switch = x.hosts;
        const Fabric f = gen::hyperx(hp);
        EngineOptions opt;
        opt.params["adaptive"] = x.name;
        const Routing r = make_engine("flatfly")->route(f, nullptr, opt);
        const SimResult s = simulate(f, r, run_config(1.0));
        INFO(x.name << " on " << x.k.size() << "-D");
        CHECK(s.verdict == Verdict::Ok);
        CHECK(!s.deadlock);
        CHECK(s.dropped == 0);
        CHECK(s.misdelivered == 0);
        CHECK(s.delivered > 0);
        CHECK(s.accepted_fraction > 0.2); // flowing (0.26-0.5 here; twists cost bandwidth)
        for (unsigned v = 1; v < x.vls; v += 2) CHECK(s.vl_util_mean[v] > 0.001);
        for (std::size_t v = x.vls; v < s.vl_util_mean.size(); ++v) CHECK(s.vl_util_mean[v] == 0);
    }
}

TEST_CASE("negative-first on a hypercube: the imbalance paper 003 §4 reports") {
    // "Turn model routings (negative first / positive last) perform really badly, as they
    // create significant imbalance": on a 6D hypercube with 4 hosts per switch, uniform
    // traffic, negative-first saturates well below DOR.
    const Fabric f = gen::hypercube(6, 1, 4);
    SimConfig c = run_config(0.6);
    c.num_vls = 1;
    const SimResult dor = simulate(f, make_engine("flatfly")->route(f, nullptr, {}), c);
    EngineOptions opt;
    opt.params["adaptive"] = "negative-first";
    const SimResult nf = simulate(f, make_engine("flatfly")->route(f, nullptr, opt), c);
    CHECK(nf.verdict == Verdict::Ok);
    CHECK(nf.accepted_fraction < 0.6 * dor.accepted_fraction);
    CHECK(nf.link_util_max > 2 * nf.link_util_mean); // the imbalance
}
