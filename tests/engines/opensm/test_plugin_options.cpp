#include "engines/opensm/plugin_options.hpp"

#include <catch2/catch.hpp>

using ibrt::osm::parse_plugin_options;

TEST_CASE("plugin options: keys, prefixes and other plugins' tokens") {
    auto o = parse_plugin_options("ibrt.report=/tmp/r.json, seed=7 lmc=2 other.x=y");
    CHECK(o.errors.empty());
    CHECK(o.report == "/tmp/r.json");
    CHECK(o.seed == 7);
    REQUIRE(o.lmc);
    CHECK(*o.lmc == 2);
}

TEST_CASE("plugin options: every bad value is reported and ignored") {
    auto o = parse_plugin_options("lmc=9 seed=-1 verbose=1 report= lonely");
    REQUIRE(o.errors.size() == 5);
    CHECK(o.errors[0] == "option 'lmc=9': LMC must be 0..7 or auto");
    CHECK(o.errors[1] == "option 'seed=-1': not an unsigned integer");
    CHECK(o.errors[2] == "unknown option 'verbose' (known: report, seed, lmc)");
    CHECK(o.errors[3] == "option 'report=': empty path");
    CHECK(o.errors[4] == "option 'lonely' has no '=value'");
    CHECK_FALSE(o.lmc);
    CHECK(o.seed == 1);
    CHECK(parse_plugin_options("").errors.empty());
    CHECK_FALSE(parse_plugin_options("lmc=auto").lmc);
}
