#include "engines/opensm/plugin_options.hpp"

#include <catch2/catch.hpp>

using ibrt::osm::parse_plugin_options;

TEST_CASE("plugin options: keys, prefixes and other plugins' tokens") {
    auto o = parse_plugin_options("ibrt.report=/tmp/r.json, seed=7 other.x=y");
    CHECK(o.errors.empty());
    CHECK(o.report == "/tmp/r.json");
    CHECK(o.seed == 7);
}

TEST_CASE("plugin options: every bad value is reported and ignored") {
    auto o = parse_plugin_options("seed=-1 lmc=2 report= lonely");
    REQUIRE(o.errors.size() == 4);
    CHECK(o.errors[0] == "option 'seed=-1': not an unsigned integer");
    CHECK(o.errors[1] == "unknown option 'lmc' (known: report, seed)");
    CHECK(o.errors[2] == "option 'report=': empty path");
    CHECK(o.errors[3] == "option 'lonely' has no '=value'");
    CHECK(o.seed == 1);
    CHECK(parse_plugin_options("").errors.empty());
}
