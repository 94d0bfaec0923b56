// The simulator's two-level LFT must answer exactly Routing::out_port for every switch and
// DLID, whether the blocks share patterns (multiple-LID fat-tree routing) or not.
#include "engines/engine.hpp"
#include "generators/fat_tree.hpp"
#include "generators/random_graph.hpp"
#include "sim/flat_lft.hpp"

#include <catch2/catch.hpp>

#include <random>

using namespace ibrt;

namespace {

void require_same(const Fabric& f, const Routing& r, const sim::FlatLft& t) {
    std::size_t checked = 0;
    for (NodeId n = 0; n < f.num_nodes(); ++n) {
        const std::size_t lids = n < r.lft.size() ? r.lft[n].size() + 3 : 3;
        for (std::size_t lid = 0; lid < lids && lid <= 0xffff; ++lid) {
            const PortNum want = n < r.lft.size() ? r.out_port(n, Lid(lid)) : kNoPath;
            if (t.out_port(n, Lid(lid)) != want)
                FAIL("node " << n << " LID " << lid << ": " << int(t.out_port(n, Lid(lid)))
                             << " != " << int(want));
            ++checked;
        }
    }
    REQUIRE(checked > 0);
}

} // namespace

TEST_CASE("mlid's LFTs share one pattern per block offset and read back exactly") {
    const Fabric f = gen::fat_tree(8, 3);
    const Routing r = make_engine("mlid")->route(f, nullptr, {});
    REQUIRE(r.lmc > 0);
    const sim::FlatLft t(f, r);
    require_same(f, r, t);
    CHECK(t.block_bits() == r.lmc);
    // Blocks going down are uniform; going up they repeat a few patterns per switch.
    std::size_t switches = 0;
    for (const auto& l : r.lft) switches += !l.empty();
    CHECK(t.num_patterns() > 0);
    CHECK(t.num_patterns() <= 4 * switches);
    std::size_t flat = 0;
    for (const auto& l : r.lft) flat += l.size();
    CHECK(t.bytes() * 4 < flat);
}

TEST_CASE("blocks of 2, 4 and 8 LIDs (compared as machine words) read back exactly") {
    const Fabric f = gen::fat_tree(8, 3);
    for (int lmc : {1, 2, 3}) {
        INFO("LMC " << lmc);
        EngineOptions opt;
        opt.lmc = lmc;
        const Routing r = make_engine("mlid")->route(f, nullptr, opt);
        REQUIRE(r.lmc == lmc);
        const sim::FlatLft t(f, r);
        CHECK(t.block_bits() == unsigned(lmc));
        CHECK(t.num_patterns() > 0);
        require_same(f, r, t);
    }
}

TEST_CASE("slid (LMC 0) reads back exactly") {
    const Fabric f = gen::fat_tree(4, 3);
    const Routing r = make_engine("slid")->route(f, nullptr, {});
    const sim::FlatLft t(f, r);
    CHECK(t.block_bits() == 0);
    require_same(f, r, t);
}

TEST_CASE("LFTs without shared structure fall back to one entry per LID") {
    const Fabric f = gen::random_fabric({8, 4, 32, 3, 0});
    Routing r = make_engine("separate")->route(f, nullptr, {});
    // Scramble every entry: no two blocks alike, so patterns cannot pay.
    std::mt19937 rng(7);
    r.lmc = 3;
    for (auto& l : r.lft) {
        if (l.empty()) continue;
        l.resize(512);
        for (auto& e : l) e = PortNum(1 + rng() % 8);
    }
    const sim::FlatLft t(f, r);
    CHECK(t.block_bits() == 0);
    require_same(f, r, t);
}
