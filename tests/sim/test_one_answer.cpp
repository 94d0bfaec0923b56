// One answer to each question (issue 11): the checker and the simulator ask the same functions
// which permutation a seed gives and which VL a packet takes where a node has no SL2VL table,
// so they cannot disagree.
#include "check/credit_loops.hpp"
#include "check/traffic.hpp"
#include "sim/simulator.hpp"
#include "sim/traffic.hpp"
#include "sim_fixtures.hpp"

#include <catch2/catch.hpp>

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
