// Slim Fly mapping (mapping/slimfly_map.hpp, paper 003 §1.5): from the cabling alone, after
// shuffling node order, GUIDs, descriptions and port numbers, the fabric is recognised as the
// MMS graph for its q, and the recovered (t, x, y) are the generator's up to an automorphism
// of the graph; a degraded Slim Fly says which switches and links are missing.
#include "generators/failures.hpp"
#include "generators/hyperx.hpp"
#include "generators/random_graph.hpp"
#include "generators/slimfly.hpp"
#include "mapped.hpp"
#include "mapping/map_fabric.hpp"
#include "mapping/shape_compare.hpp"
#include "mapping/slimfly_map.hpp"
#include "tests/generators/damaged.hpp"

#include <catch2/catch.hpp>

using namespace ibrt;
using namespace ibrt::mapping;
using test::map_relabelled;
using test::Mapped;

namespace {

Fabric slimfly(int q, int parallel = 1) {
    gen::SlimFlyParams p;
    p.q = q;
    p.parallel = parallel;
    p.cas_per_switch = 2;
    return gen::slimfly(p);
}

} // namespace

TEST_CASE("slimfly: a pristine Slim Fly maps to its q and the generator's coordinates",
          "[mapping][slimfly]") {
    for (int q : {3, 4, 5, 7, 8, 11}) {
        const Mapped m = map_relabelled(slimfly(q), std::uint64_t(q));
        INFO("q = " << q << ": " << m.shape.why_not);
        REQUIRE(m.shape.family == Family::SlimFly);
        CHECK(m.shape.q == q);
        CHECK(m.shape.link_width == 1);
        CHECK(m.shape.cas_per_switch == 2);
        CHECK(m.shape.missing_switches.empty());
        CHECK(m.shape.missing_links.empty());
        CHECK(matches_generator(m.shape, m.truth));
    }
}

TEST_CASE("slimfly: parallel cables are one link of width L", "[mapping][slimfly]") {
    const Mapped m = map_relabelled(slimfly(5, 2), 9);
    REQUIRE(m.shape.family == Family::SlimFly);
    CHECK(m.shape.link_width == 2);
    CHECK(matches_generator(m.shape, m.truth));
}

TEST_CASE("slimfly: a degraded Slim Fly maps and names its missing switch and links",
          "[mapping][slimfly]") {
    for (int q : {3, 5, 7, 8}) { // q = 3: the damage makes degree 4 the most common
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            const auto [f, rep] = test::damaged(slimfly(q), 3, 1, seed);
            const Mapped m = map_relabelled(f, seed);
            INFO("q = " << q << " seed " << seed << ": " << m.shape.why_not);
            REQUIRE(m.shape.family == Family::SlimFly);
            CHECK(m.shape.q == q);
            CHECK(m.shape.missing_switches.size() == 1);
            CHECK(m.shape.missing_links.size() == rep.removed_links.size());
            CHECK(matches_generator(m.shape, m.truth));
        }
    }
}

TEST_CASE("slimfly: the comparison fails when two switches trade coordinates",
          "[mapping][slimfly]") {
    const Mapped m = map_relabelled(slimfly(5), 4);
    REQUIRE(matches_generator(m.shape, m.truth));
    auto want = m.truth;
    std::swap(want[0], want[1]);
    CHECK_FALSE(matches_generator(m.shape, want));
}

TEST_CASE("slimfly: a graph of a Slim Fly's size and degree that is not one says why",
          "[mapping][slimfly]") {
    // A random graph of 50 switches of degree 7 looks like q = 5 by its counts alone.
    const Fabric rnd = gen::random_fabric({50, 7, 50, 3, 0});
    const SwitchLinks g = switch_links(rnd);
    const Shape s = map_slimfly(rnd, g, 5, Shape{});
    CHECK(s.family == Family::Unknown);
    CHECK_THAT(s.why_not, Catch::Contains("a Slim Fly with q = 5"));
    CHECK(map_fabric(rnd).family == Family::Unknown);
    // Other families keep mapping as themselves.
    CHECK(map_fabric(gen::hyperx({{4, 8}, {}, 1, 0})).family == Family::FlatFly);
    CHECK(slimfly_delta(5) == 1);
    CHECK(slimfly_delta(8) == 0);
    CHECK(slimfly_delta(7) == -1);
    CHECK_FALSE(slimfly_delta(6).has_value());
    CHECK_FALSE(slimfly_delta(9).has_value()); // 3^2: the generator has no GF(9)
}
