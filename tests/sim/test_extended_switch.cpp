// The extended switch (issue 14; docs/sim-model.md "The extended switch"): candidate sets
// with priorities, a selection function binding the output at the head of the input buffer,
// heads re-offered when an output gains room, and deadlock detection that knows a head with a
// free alternative is not blocked. Static tables are its special case of one candidate.
#include "engines/engine.hpp"
#include "engines/fattree/adaptive_up.hpp"
#include "fabric/routing_function.hpp"
#include "formats/forwarding_sets_file.hpp"
#include "generators/fat_tree.hpp"
#include "generators/hyperx.hpp"
#include "mapping/fat_tree_shape.hpp"
#include "sim/simulator.hpp"
#include "sim_fixtures.hpp"
#include "tests/generators/damaged.hpp"

#include <catch2/catch.hpp>

#include <memory>
#include <sstream>

using namespace ibrt;
using namespace ibrt::sim;

namespace {

constexpr Time ns = kPsPerNs;

SimConfig short_run(double load) {
    SimConfig c;
    c.ps_per_byte = 250; // 4x QDR: 64 ns per 256-byte packet, so a short run has many
    c.traffic.load = load;
    c.warmup_ps = 2000 * ns;
    c.measure_ps = 8000 * ns;
    c.drain_ps = 8000 * ns;
    return c;
}

void check_same(const SimResult& a, const SimResult& b) {
    CHECK(a.generated == b.generated);
    CHECK(a.delivered == b.delivered);
    CHECK(a.hops == b.hops);
    CHECK(a.events == b.events);
    CHECK(a.latency_mean_ns == b.latency_mean_ns);
    CHECK(a.latency_p99_ns == b.latency_p99_ns);
    CHECK(a.accepted_fraction == b.accepted_fraction);
    CHECK(a.verdict == b.verdict);
}

Routing adaptive(const Fabric& f, const char* engine) {
    EngineOptions opt;
    opt.params["adaptive_up"] = "true";
    return make_engine(engine)->route(f, nullptr, opt);
}

// A ring of four switches A..D, two cables from each to the next (ports 2 and 4 out, 3 and 5
// in), CA hX on port 1 of X (LID 1..4). Every switch sends its own CA's LID to port 1 and the
// others over either cable: candidates {2, 4}.
test::SimFabric double_ring() {
    FabricBuilder b;
    for (int i = 0; i < 4; ++i) b.add_node(NodeType::CA, 1, 0x100 + i, "h" + std::to_string(i));
    for (int i = 0; i < 4; ++i)
        b.add_node(NodeType::Switch, 5, 0x200 + i, std::string(1, char('A' + i)));
    for (int i = 0; i < 4; ++i) {
        b.connect(NodeId(i), 1, NodeId(4 + i), 1);
        b.connect(NodeId(4 + i), 2, NodeId(4 + (i + 1) % 4), 3);
        b.connect(NodeId(4 + i), 4, NodeId(4 + (i + 1) % 4), 5);
    }
    test::SimFabric x{std::move(b).build(), {}};
    x.r = test::empty_routing(x.f);
    for (int i = 0; i < 4; ++i) x.r.lids.assign(x.f.port_id(NodeId(i), 1), Lid(i + 1), 0);
    auto rf = std::make_shared<RoutingFunction>(x.f, Lid(4), 1, false);
    const Candidate ring[] = {{2, 0}, {4, 0}};
    const std::uint32_t both = rf->intern(ring);
    for (int s = 0; s < 4; ++s)
        for (int d = 1; d <= 4; ++d) {
            const Candidate own{1, 0};
            rf->set_entry(NodeId(4 + s), 0, 0, Lid(d), d == s + 1 ? rf->intern({&own, 1}) : both);
        }
    rf->compact();
    x.r.forwarding_sets = rf;
    return x;
}

bool f_port_is(const Fabric& f, PortId id, NodeId n, PortNum p) {
    return f.port_node(id) == n && f.port_num(id) == p;
}

} // namespace

TEST_CASE("static tables as one-candidate forwarding sets give the static run exactly") {
    const Fabric f = gen::fat_tree(4, 3);
    const Routing st = make_engine("mlid")->route(f, nullptr, {});
    Routing as_sets = st;
    as_sets.forwarding_sets = std::make_shared<RoutingFunction>(static_routing_function(f, st));
    for (int vls : {1, 4})
        for (std::uint32_t obuf : {0u, 512u}) {
            SimConfig c = short_run(0.6);
            c.num_vls = std::uint8_t(vls);
            c.sl = SlPolicy::Spread;
            c.output_buffer_bytes = obuf;
            INFO("VLs " << vls << " output buffer " << obuf);
            const SimResult a = simulate(f, st, c), b = simulate(f, as_sets, c);
            REQUIRE(a.delivered > 1000);
            check_same(a, b);
        }
}

TEST_CASE("forwarding sets store candidate sets and equal DLID tables once") {
    const Fabric f = gen::kary_ntree(4, 3);
    const Routing r = adaptive(f, "slid");
    const RoutingFunction& rf = *r.forwarding_sets;
    // Each switch: its down ports alone, and one set of all up ports (complete tree); the top
    // stage has no up ports. 4 down singletons + 4 up-port pairs... at most 8 + 1 sets per
    // stage pattern; far fewer than switches x LIDs.
    CHECK(rf.num_sets() <= 16);
    CHECK(rf.num_tables() < f.switches().size()); // top switches alike share one
    for (NodeId sw : f.switches())
        for (NodeId ca : f.cas()) {
            const Lid d = r.lids.base(f.port_id(ca, 1));
            const auto s = rf.set(rf.lookup(sw, 0, 1, d));
            // The LFT's port is always a candidate; where it goes down it is the only one.
            const PortNum lft = r.out_port(sw, d);
            CHECK(std::find(s.begin(), s.end(), Candidate{lft, 0}) != s.end());
            if (lft <= 4)
                CHECK(s.size() == 1);
            else
                CHECK(s.size() == 4);
        }
}

TEST_CASE("tree coordinates come from the cables and equal paper 004's labels") {
    // kary_ntree numbers CA p by its digits (p_0 least significant) and switch <s, o> by o;
    // the recogniser never sees those labels.
    const int k = 4, n = 3;
    const Fabric f = gen::kary_ntree(k, n);
    const Routing r = adaptive(f, "slid");
    const TreeCoords& t = r.forwarding_sets->tree;
    REQUIRE(t.height == n);
    for (std::uint32_t p = 0; p < f.cas().size(); ++p) {
        REQUIRE(f.cas()[p] == NodeId(p));
        std::uint32_t x = p;
        for (int s = 0; s < n; ++s, x /= k) CHECK(t.ca_digit(p, unsigned(s + 1)) == x % k);
    }
    // Switches follow the CAs, stage by stage, each stage by the value of o.
    const std::uint32_t per_stage = 16;
    for (std::uint32_t i = 0; i < f.switches().size(); ++i) {
        const NodeId sw = f.switches()[i];
        const std::uint32_t s = i / per_stage, o = i % per_stage;
        CHECK(t.level[sw] == s + 1);
        if (s + 1 < unsigned(n)) { // o_s: digit s of o
            std::uint32_t digit = o;
            for (std::uint32_t j = 0; j < s; ++j) digit /= k;
            CHECK(t.switch_digit[sw] == digit % k);
        }
    }
}

TEST_CASE("every selection function delivers every packet on a k-ary n-tree") {
    const Fabric f = gen::kary_ntree(4, 3);
    const Routing r = adaptive(f, "slid");
    for (const char* pattern : {"uniform", "complement"})
        for (int sel = 0; sel <= int(Selection::Ugal); ++sel) {
            SimConfig c = short_run(0.1); // below FF's saturation (0.19 on complement)
            c.traffic.pattern = *parse_pattern(pattern);
            c.selection = Selection(sel);
            c.num_vls = 2;
            c.sl = SlPolicy::Spread;
            INFO(pattern << " " << to_string(c.selection));
            const SimResult x = simulate(f, r, c); // conservation is asserted inside
            CHECK(x.verdict == Verdict::Ok);
            CHECK(x.dropped == 0);
            CHECK(x.misdelivered == 0);
            CHECK(x.measured_unfinished == 0);
            CHECK(x.accepted_fraction == Approx(x.offered_fraction).epsilon(0.05));
        }
}

TEST_CASE("the selection function decides the up paths: FF piles onto the first up link") {
    // Paper 004 §5.2: FF always prefers the first ascending link, SADP spreads by destination.
    const Fabric f = gen::kary_ntree(4, 3);
    const Routing r = adaptive(f, "slid");
    SimConfig c = short_run(0.3);
    c.traffic.pattern = *parse_pattern("complement");
    const auto up_spread = [&](Selection s) {
        c.selection = s;
        const SimResult x = simulate(f, r, c);
        // Utilization of the up links of stage 1 (ports 5..8 of level-2 switches).
        double lo = 1, hi = 0;
        for (const LinkUse& u : x.links) {
            const NodeId n = f.port_node(u.port);
            const PortNum p = f.port_num(u.port);
            if (!f.node(n).is_switch() || r.forwarding_sets->tree.level[n] != 2 || p <= 4) continue;
            lo = std::min(lo, u.utilization);
            hi = std::max(hi, u.utilization);
        }
        return std::pair{lo, hi};
    };
    const auto [ff_lo, ff_hi] = up_spread(Selection::FirstFree);
    const auto [sadp_lo, sadp_hi] = up_spread(Selection::StageDestinationPriority);
    CHECK(ff_lo < 0.05); // some up links (nearly) never used
    CHECK(ff_hi > 0.8);
    // SADP: each up link carries one destination's share, 0.3 (Bernoulli noise over the window).
    CHECK(sadp_lo > 0.15);
    CHECK(sadp_hi < 0.45);
}

TEST_CASE("complement traffic: SADP saturates above FF (paper 004 Fig. 6)") {
    const Fabric f = gen::kary_ntree(4, 3);
    const Routing r = adaptive(f, "slid");
    SimConfig c = short_run(0.9);
    c.traffic.pattern = *parse_pattern("complement");
    c.selection = Selection::FirstFree;
    const double ff = simulate(f, r, c).accepted_fraction;
    c.selection = Selection::StageDestinationPriority;
    const double sadp = simulate(f, r, c).accepted_fraction;
    CHECK(sadp > ff + 0.2);
    CHECK(sadp > 0.85);
}

TEST_CASE("a head blocked on every candidate is deadlocked, with VL hopping by VL2VL it is not") {
    // Three ring hops each over either of two cables, one VL: every ring buffer fills, and each
    // head waits on both cables' buffers at the next switch.
    test::SimFabric x = double_ring();
    SimConfig c = short_run(1.0);
    c.traffic.pattern = *parse_pattern("rotation");
    c.traffic.shift = 3;
    c.packet_bytes = 64;
    c.buffer_bytes = 64;
    c.measure_ps = 50000 * ns;
    const SimResult dl = simulate(x.f, x.r, c);
    REQUIRE(dl.verdict == Verdict::Deadlock);
    REQUIRE(dl.deadlock_cycle.size() >= 4);
    for (const std::string& b : dl.deadlock_cycle) {
        INFO(b);
        CHECK((b.find(" port 3 VL 0") != std::string::npos ||
               b.find(" port 5 VL 0") != std::string::npos));
    }
    // VL hopping as a VL2VL table: from the CA on VL 0, each further ring hop one VL up, the
    // hop out to the CA on the VL it came in on. Three hops need VLs 0..2; nothing cycles.
    auto rf = std::make_shared<RoutingFunction>(*x.r.forwarding_sets);
    rf->vl_by_in_vl = true;
    rf->vl2vl.tables.assign(x.f.num_nodes(), {});
    for (NodeId s = 4; s < 8; ++s) {
        auto& t = rf->vl2vl.tables[s];
        t.assign(Sl2Vl::size(5), kSl2VlDropAll);
        Sl2VlTable from_ca{}, up{}, same{};
        for (int v = 0; v < 16; ++v) {
            up[v] = std::uint8_t(v < 2 ? v + 1 : 15);
            same[v] = std::uint8_t(v);
        }
        for (PortNum out : {2, 4}) t[Sl2Vl::index(5, 1, out)] = from_ca;
        for (PortNum in : {3, 5}) {
            for (PortNum out : {2, 4}) t[Sl2Vl::index(5, in, out)] = up;
            t[Sl2Vl::index(5, in, 1)] = same;
        }
    }
    x.r.forwarding_sets = rf;
    c.num_vls = 3;
    c.buffer_bytes = 1024;
    const SimResult ok = simulate(x.f, x.r, c);
    CHECK(ok.verdict == Verdict::Ok);
    CHECK(ok.dropped == 0);
    // Both cables carry traffic: the selection spreads over the candidates.
    double cable2 = 0, cable4 = 0;
    for (const LinkUse& u : ok.links) {
        if (f_port_is(x.f, u.port, 4, 2)) cable2 = u.utilization;
        if (f_port_is(x.f, u.port, 4, 4)) cable4 = u.utilization;
    }
    CHECK(cable2 > 0.5);
    CHECK(cable4 > 0.5);
}

TEST_CASE("forwarding sets written to a file and read back simulate identically") {
    const Fabric f = gen::kary_ntree(4, 2);
    const Routing r = adaptive(f, "mlid");
    std::ostringstream text;
    write_forwarding_sets(text, f, *r.forwarding_sets);
    Routing back = r;
    back.forwarding_sets = std::make_shared<RoutingFunction>(
        read_forwarding_sets_text(text.str(), "fs", f, r.lids.max_lid()));
    for (Selection sel : {Selection::StageDestinationPriority, Selection::RandomPriority}) {
        SimConfig c = short_run(0.7);
        c.selection = sel;
        c.num_vls = 2;
        c.sl = SlPolicy::Spread;
        INFO(to_string(sel));
        const SimResult a = simulate(f, r, c), b = simulate(f, back, c);
        REQUIRE(a.forwarding_sets);
        check_same(a, b);
    }
}

TEST_CASE("degraded fat trees: up candidates are only the parents that still reach the leaf") {
    // Paper 004 assumes a complete tree; real ones miss cables and switches. The candidates
    // come from the engine, which knows which up ports still lead to each destination: every
    // packet is delivered with every selection function, where offering all up ports would
    // strand packets at parents without a way down.
    const Fabric full = gen::kary_ntree(4, 3);
    int pruned_somewhere = 0;
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        const auto d = test::damaged(full, 0.1, 2, seed);
        const Routing r = adaptive(d.fabric, "slid");
        const RoutingFunction& rf = *r.forwarding_sets;
        for (NodeId sw : d.fabric.switches())
            for (Lid dl = 1; dl <= rf.max_lid(); ++dl)
                if (const std::uint32_t s = rf.lookup(sw, 0, 1, dl); s != RoutingFunction::kNoSet) {
                    std::size_t up = 0;
                    for (PortNum p = 1; p <= d.fabric.node(sw).num_ports; ++p)
                        if (p > 4 && d.fabric.port(sw, p).connected()) ++up;
                    pruned_somewhere += rf.set(s).size() > 1 && rf.set(s).size() < up;
                }
        for (Selection sel : {Selection::FirstFree, Selection::StageDestinationPriority,
                              Selection::RandomPriority, Selection::MoreCredits}) {
            SimConfig c = short_run(0.2);
            c.traffic.pattern = *parse_pattern("alltoall");
            c.selection = sel;
            INFO("seed " << seed << " " << to_string(sel));
            const SimResult x = simulate(d.fabric, r, c);
            CHECK(x.verdict == Verdict::Ok);
            CHECK(x.dropped == 0);
            CHECK(x.misdelivered == 0);
            CHECK(x.measured_unfinished == 0);
        }
    }
    CHECK(pruned_somewhere > 0); // the damage did remove candidates
}

namespace {

// FlatFly ADOR (paper 003 §3.3) on a 4x4 HyperX of 4 hosts a switch: from VL 0 every switch
// of the dimension is a candidate, the minimal one at priority 0, the extra hops (on VL 1) at
// priority 1.
Fabric hyperx_4x4() {
    gen::HyperXParams hp;
    hp.k = {4, 4};
    hp.cas_per_switch = 4;
    return gen::hyperx(hp);
}

Routing ador(const Fabric& f) {
    EngineOptions opt;
    opt.params["adaptive"] = "ador";
    return make_engine("flatfly")->route(f, nullptr, opt);
}

SimConfig ador_run(double load, Pattern pattern) {
    SimConfig c = short_run(load);
    c.num_vls = 2;
    c.selection = Selection::LeastLoaded;
    c.traffic.pattern = pattern;
    return c;
}

} // namespace

TEST_CASE("one priority class: the non-minimal candidates are taken as readily as the minimal") {
    // At a load far below saturation the minimal output always has room, so the extra hops
    // are left alone, unless the selection sees one class.
    const Fabric f = hyperx_4x4();
    const Routing r = ador(f);
    SimConfig c = ador_run(0.1, Pattern::Uniform);
    const SimResult ranked = simulate(f, r, c);
    c.one_priority_class = true;
    const SimResult one = simulate(f, r, c);
    for (const SimResult* s : {&ranked, &one}) {
        CHECK(s->verdict == Verdict::Ok);
        CHECK(s->dropped == 0);
        CHECK(s->measured_unfinished == 0);
    }
    CHECK(ranked.vl_util_mean[1] == 0);
    CHECK(one.vl_util_mean[1] > 0.2 * one.vl_util_mean[0]);
    // Every extra hop adds one: more hops for the same packets.
    CHECK(double(one.hops) / double(one.delivered) >
          1.2 * double(ranked.hops) / double(ranked.delivered));
}

TEST_CASE("room blind to bound packets: a busy minimal link with room beyond keeps its traffic") {
    // The index rotation by N/2 sends all four hosts of a switch to one switch two steps along
    // a dimension: one minimal link carries them, a quarter of what they offer at load 1.
    // Counting the packets bound to that link, the selection sees it full and spreads over the
    // extra hops (VL 1); reading the credits alone it sees the room beyond it (which that link
    // alone fills) and stays minimal.
    const Fabric f = hyperx_4x4();
    const Routing r = ador(f);
    SimConfig c = ador_run(0.8, Pattern::Rotation);
    // The links' own rate (4x EDR here), at which a link's credits outlast their round trip:
    // the buffer beyond a busy link never fills.
    c.ps_per_byte = 0;
    const SimResult counted = simulate(f, r, c);
    c.room_ignores_bound = true;
    const SimResult blind = simulate(f, r, c);
    for (const SimResult* s : {&counted, &blind}) {
        CHECK(s->verdict == Verdict::Ok);
        CHECK(s->dropped == 0);
    }
    CHECK(counted.accepted_fraction > 0.4);
    CHECK(blind.accepted_fraction == Approx(0.25).margin(0.01));
    CHECK(blind.vl_util_mean[1] < 0.1 * counted.vl_util_mean[1]);
}
