#include "engines/opensm/plugin_options.hpp"

#include <catch2/catch.hpp>

using ibrt::osm::parse_plugin_options;

TEST_CASE("plugin options: keys, prefixes and other plugins' tokens") {
    auto o = parse_plugin_options("ibrt.report=/tmp/r.json, seed=7 other.x=y path_sl=/tmp/p.sl");
    CHECK(o.errors.empty());
    CHECK(o.report == "/tmp/r.json");
    CHECK(o.path_sl == "/tmp/p.sl");
    CHECK(o.seed == 7);
}

TEST_CASE("plugin options: every bad value is reported and ignored") {
    auto o = parse_plugin_options("seed=-1 lmc=2 report= lonely path_sl=");
    REQUIRE(o.errors.size() == 5);
    CHECK(o.errors[0] == "option 'seed=-1': not an unsigned integer; using seed=1");
    CHECK(o.errors[1] == "unknown option 'lmc' ignored (known: report, path_sl, seed, "
                         "ENGINE.param)");
    CHECK(o.errors[2] == "option 'report=': empty path; no report is written");
    CHECK(o.errors[3] == "option 'lonely' has no '=value'");
    CHECK(o.errors[4] == "option 'path_sl=': empty path; no path-SL file is written");
    CHECK(o.seed == 1);
    CHECK(parse_plugin_options("").errors.empty());
}

TEST_CASE("plugin options: ENGINE.key=value goes to that engine, other prefixes are skipped") {
    const std::vector<std::string> engines = {"mlid", "slid"};
    auto o = parse_plugin_options("mlid.paper_lids=true ibrt.slid.paper_lids=0 flatfly.x=1 "
                                  "seed=3",
                                  engines);
    CHECK(o.errors.empty());
    CHECK(o.seed == 3);
    REQUIRE(o.engine_params.size() == 2);
    CHECK(o.engine_params[0] == std::pair<std::string, std::string>{"mlid", "paper_lids=true"});
    CHECK(o.engine_params[1] == std::pair<std::string, std::string>{"slid", "paper_lids=0"});
}
