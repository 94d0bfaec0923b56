// The SLID baseline (paper 000 §5): one LID per CA and destinations spread evenly over the up
// ports (d-mod-k), reachability by walking the LFTs.
#include "engines/engine.hpp"
#include "generators/fat_tree.hpp"

#include "../lft_walk.hpp"

#include <catch2/catch.hpp>

#include <map>

using namespace ibrt;

TEST_CASE("slid: LMC 0, PID + 1 in paper mode, every pair reachable") {
    const Fabric f = gen::fat_tree(4, 3);
    EngineOptions opt;
    opt.params["paper_lids"] = "true";
    const Routing r = make_engine("slid")->route(f, nullptr, opt);
    CHECK(r.lmc == 0);
    CHECK(r.dlid_choice.empty());
    for (std::size_t i = 0; i < f.cas().size(); ++i)
        CHECK(r.lids.base(f.port_id(f.cas()[i], 1)) == i + 1);
    CHECK(test::unreachable_from_leaves(f, r) == 0);
}

TEST_CASE("slid spreads destinations evenly over the up ports of every switch") {
    for (auto [m, n] : {std::pair{4, 3}, std::pair{8, 3}, std::pair{16, 2}}) {
        INFO("FT(" << m << "," << n << ")");
        const Fabric f = gen::fat_tree(m, n);
        const Routing r = make_engine("slid")->route(f, nullptr, {});
        CHECK(test::unreachable_from_leaves(f, r) == 0);
        for (NodeId s : f.switches()) {
            std::map<int, int> per_port;
            for (NodeId c : f.cas()) {
                const PortNum out = r.out_port(s, r.lids.base(f.port_id(c, 1)));
                if (out > m / 2) ++per_port[out];
            }
            if (per_port.empty()) continue; // top switches
            REQUIRE(per_port.size() == std::size_t(m / 2));
            int lo = 1 << 30, hi = 0;
            for (auto [p, k] : per_port) {
                lo = std::min(lo, k);
                hi = std::max(hi, k);
            }
            CHECK(lo == hi);
        }
    }
}

TEST_CASE("slid refuses an LMC") {
    EngineOptions opt;
    opt.lmc = 2;
    CHECK_THROWS_WITH(make_engine("slid")->route(gen::fat_tree(4, 2), nullptr, opt),
                      "slid routes one LID per end port; LMC 2 was requested");
}
