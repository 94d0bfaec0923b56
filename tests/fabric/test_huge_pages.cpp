// fabric/huge_pages.hpp: large tables come 2 MB aligned (so that every page of them can be a
// huge page), small ones from the ordinary heap, and a vector keeps its values as it grows
// across the threshold and back.
#include "fabric/huge_pages.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <numeric>

using namespace ibrt;

namespace {
bool huge_aligned(const void* p) {
    return reinterpret_cast<std::uintptr_t>(p) % (std::uintptr_t(2) << 20) == 0;
}
} // namespace

TEST_CASE("huge_alloc gives whole 2 MB pages, aligned") {
    for (std::size_t bytes : {std::size_t(0), std::size_t(1), std::size_t(3) << 20}) {
        void* p = huge_alloc(bytes);
        REQUIRE(p != nullptr);
        CHECK(huge_aligned(p));
        huge_free(p);
    }
}

TEST_CASE("HugeVector: large tables on huge pages, values kept across growth") {
    const std::size_t big = kHugeAllocMin / sizeof(std::uint32_t) + 1;
    HugeVector<std::uint32_t> v(16);
    std::iota(v.begin(), v.end(), 0u);
    v.resize(big); // crosses the threshold: moved into huge-page memory
    CHECK(huge_aligned(v.data()));
    for (std::uint32_t i = 0; i < 16; ++i) CHECK(v[i] == i);
    CHECK(v[big - 1] == 0);
    v.back() = 7;
    HugeVector<std::uint32_t> w = v; // a copy allocates its own
    CHECK(huge_aligned(w.data()));
    CHECK(w.data() != v.data());
    CHECK(w.back() == 7);
    v.resize(4);
    v.shrink_to_fit(); // back below the threshold: the ordinary heap again
    REQUIRE(v.size() == 4);
    CHECK(v[3] == 3);
}

TEST_CASE("HugePageAllocator refuses a size that overflows") {
    HugePageAllocator<std::uint64_t> a;
    CHECK_THROWS_AS(a.allocate(std::size_t(-1) / 4), std::bad_array_new_length);
}
