// One answer to each question (issue 11): the checker and the simulator ask the same functions
// which permutation a seed gives and which VL a packet takes where a node has no SL2VL table,
// so they cannot disagree.
#include "check/credit_loops.hpp"
#include "check/traffic.hpp"
#include "fabric/display_name.hpp"
#include "sim/simulator.hpp"
#include "sim/traffic.hpp"
#include "sim_fixtures.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace ibrt;

namespace {

// The destination of every source under a sim pattern.
std::vector<std::uint32_t> sim_targets(sim::TrafficSpec spec, std::uint32_t n, std::uint64_t seed) {
    sim::DestinationPattern d(spec, n, seed);
    gen::Rng rng(seed);
    std::vector<std::uint32_t> out;
    for (std::uint32_t i = 0; i < n; ++i) out.push_back(d.next(i, rng, 0));
    return out;
}

} // namespace

TEST_CASE("check and sim give the same permutation for the same seed") {
    for (std::uint64_t seed : {1u, 7u, 12345u})
        for (std::uint32_t n : {8u, 16u, 100u}) {
            sim::TrafficSpec spec;
            spec.pattern = sim::Pattern::RandomPermutation;
            INFO("seed " << seed << ", " << n << " endpoints");
            CHECK(check::permutation_targets(check::parse_pattern("random", seed), n) ==
                  sim_targets(spec, n, seed));
            spec.pattern = sim::Pattern::Rotation;
            spec.shift = 3;
            CHECK(check::permutation_targets(check::parse_pattern("shift/3", seed), n) ==
                  sim_targets(spec, n, seed));
        }
}

TEST_CASE("check and sim read one vocabulary of permutations: every name, the same map") {
    // Issue 41: `ibrt check --pattern NAME` and `ibrt sim --pattern NAME` (names from
    // fabric/permutations.hpp) give the same destinations, by sim's spellings and check's own.
    for (const std::string_view name : kPermutationNames) {
        INFO(name);
        const bool shifted = name == "rotation";
        const std::string text = shifted ? "rotation/5" : std::string(name);
        sim::TrafficSpec spec;
        spec.pattern = *sim::parse_pattern(name);
        if (shifted) spec.shift = 5;
        for (std::uint64_t seed : {1u, 9u})
            CHECK(check::permutation_targets(check::parse_pattern(text, seed), 64) ==
                  sim_targets(spec, 64, seed));
    }
    CHECK(check::parse_pattern("alltoall", 1).kind == check::TrafficPattern::Kind::AllToAll);
    CHECK(check::parse_pattern("randperm", 3).name() == "random-permutation/seed=3");
    CHECK(check::parse_pattern("rotation/2", 1).name() == "shift/2");
    CHECK(check::parse_pattern("bitrev", 1).name() == "bitrev");
    // A bit permutation on a count it does not apply to: the same refusal in both.
    sim::TrafficSpec spec;
    spec.pattern = sim::Pattern::BitReversal;
    CHECK_THROWS_WITH(sim_targets(spec, 12, 1),
                      "pattern bitrev needs a power-of-two number of end nodes, have 12");
    CHECK_THROWS_WITH(check::permutation_targets(check::parse_pattern("bitrev", 1), 12),
                      "pattern bitrev needs a power-of-two number of end nodes, have 12");
}

TEST_CASE("check and sim put a packet on the same VL where a node has no SL2VL table") {
    // h0 - S0 = S1 - h1 with 2 VLs. S0 has tables (SL s -> VL s), S1 has none; every packet to
    // h1 is on SL 1. Leaving S1 for h1, the packet takes the VL both answer for a node
    // without a table: SL mod VLs = 1 (check used to say VL 0, sim SL mod VLs).
    auto x = test::two_switches(1);
    const NodeId s0 = 2, s1 = 3;
    {
        std::vector<std::uint8_t> sls(x.r.lids.max_lid() + 1u, 0);
        sls[2] = 1; // h1's LID
        x.r.path_sls = PathSlTable::by_dlid(sls);
    }
    x.r.sl2vl.tables.assign(x.f.num_nodes(), {});
    Sl2VlTable identity{};
    for (unsigned sl = 0; sl < 16; ++sl) identity[sl] = std::uint8_t(sl % 2);
    x.r.sl2vl.tables[s0].assign(Sl2Vl::size(2), identity);

    const unsigned vls = 2;
    const PortNum s1_in = 2, s1_to_h1 = 1;
    const std::uint8_t check_vl = check::sl2vl_at(x.f, x.r, s1, s1_in, s1_to_h1, 1, vls);
    CHECK(check_vl == Sl2Vl::default_vl(1, vls));
    CHECK(check_vl == 1);
    CHECK(check::sl2vl_at(x.f, x.r, s1, s1_in, s1_to_h1, 1, 1) == 0); // one VL: VL 0

    sim::SimConfig c;
    c.num_vls = vls;
    c.ps_per_byte = 1000;
    c.trace = {{0, 0, 1}, {1000000, 0, 1}, {2000000, 0, 1}};
    c.warmup_ps = 0;
    const sim::SimResult r = simulate(x.f, x.r, c);
    REQUIRE(r.delivered == 3);
    for (const sim::LinkUse& u : r.links)
        if (u.port == x.f.port_id(s1, s1_to_h1)) {
            CHECK(u.vl_utilization[check_vl] > 0);
            CHECK(u.vl_utilization[1 - check_vl] == 0);
        }
}

TEST_CASE("check and sim name a credit loop's channels the same way") {
    // Issue 41: "a channel spelled two ways by check and sim". ring4 with two-hop traffic
    // deadlocks in the simulator, and the checker finds the loop in the tables: the cycle of
    // buffers the simulator reports and the checker's cycle of channels are the same channels,
    // spelled by one function (fabric/display_name.hpp display_channel).
    auto x = test::ring4();
    sim::SimConfig c;
    c.packet_bytes = 256;
    c.buffer_bytes = 256;
    c.traffic.pattern = sim::Pattern::Rotation;
    c.traffic.shift = 2;
    c.traffic.load = 0.9;
    c.warmup_ps = 2'000'000;
    c.measure_ps = 20'000'000;
    c.drain_ps = 20'000'000;
    const sim::SimResult r = sim::simulate(x.f, x.r, c);
    REQUIRE(r.deadlock);
    const check::DeadlockReport rep = check::check_credit_loops(x.f, x.r);
    REQUIRE(rep.loops.size() == 1);
    std::vector<std::string> checked, simulated = r.deadlock_cycle;
    for (const graph::Channel& ch : rep.loops[0].cycle)
        checked.push_back(display_channel(x.f, ch.port, ch.vl));
    std::sort(checked.begin(), checked.end());
    std::sort(simulated.begin(), simulated.end());
    CHECK(simulated == checked);
    CHECK(checked == test::ring4_loop_channels());
}
