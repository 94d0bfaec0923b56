// The simulator's open-addressing map (sim/flat_map.hpp) against std::map under random
// inserts, updates and erases, through several rehashes.
#include "fabric/rng.hpp"
#include "sim/flat_map.hpp"

#include <catch2/catch.hpp>

#include <map>

using ibrt::sim::FlatMap64;

TEST_CASE("FlatMap64 agrees with std::map") {
    FlatMap64 m;
    std::map<std::uint64_t, std::uint32_t> ref;
    ibrt::gen::Rng rng(7);
    for (int step = 0; step < 200000; ++step) {
        // Few distinct keys, so that erases hit and probe runs wrap; some huge keys.
        const std::uint64_t key =
            rng.below(3) ? rng.below(5000) : ~std::uint64_t(0) - 1 - rng.below(50);
        const auto op = rng.below(3);
        if (op == 0) {
            bool fresh;
            std::uint32_t& v = m.get_or_insert(key, std::uint32_t(step), fresh);
            const auto [it, ins] = ref.try_emplace(key, std::uint32_t(step));
            REQUIRE(fresh == ins);
            REQUIRE(v == it->second);
            ++v;
            ++it->second;
        } else if (op == 1) {
            m.erase(key);
            ref.erase(key);
        } else {
            const auto it = ref.find(key);
            REQUIRE(m.find(key) == (it == ref.end() ? FlatMap64::kAbsent : it->second));
        }
        REQUIRE(m.size() == ref.size());
    }
    for (const auto& [k, v] : ref) REQUIRE(m.find(k) == v);
}
