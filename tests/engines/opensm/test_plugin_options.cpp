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

TEST_CASE("plugin options: another plugin's tokens are left alone, and listed") {
    const std::vector<std::string> engines = {"mlid", "slid"};
    auto o =
        parse_plugin_options("other.key=value my-plugin.log_level=3 x.path=/a/b.c,p.k=", engines);
    CHECK(o.errors.empty());
    CHECK(o.engine_params.empty());
    CHECK(o.other_plugins == std::vector<std::string>{"other.key=value", "my-plugin.log_level=3",
                                                      "x.path=/a/b.c", "p.k="});
}

TEST_CASE("plugin options: every token ibrt cannot use and no plugin could is an error") {
    const std::vector<std::string> engines = {"mlid", "slid"};
    // Each token alone: exactly one error, naming it; nothing used, nothing left to others.
    const std::pair<std::string_view, std::string_view> cases[] = {
        {".=.", "option '.=.' ignored: neither ibrt's (key=value, ENGINE.key=value, ibrt.…) "
                "nor another plugin's (PLUGIN.key=value)"},
        {"a.b.c=d", "option 'a.b.c=d' ignored: neither ibrt's (key=value, ENGINE.key=value, "
                    "ibrt.…) nor another plugin's (PLUGIN.key=value)"},
        {"a.=d", "option 'a.=d' ignored: neither ibrt's (key=value, ENGINE.key=value, ibrt.…) "
                 "nor another plugin's (PLUGIN.key=value)"},
        {".b=d", "option '.b=d' ignored: neither ibrt's (key=value, ENGINE.key=value, ibrt.…) "
                 "nor another plugin's (PLUGIN.key=value)"},
        {"other.key", "option 'other.key' ignored: neither ibrt's (key=value, ENGINE.key=value, "
                      "ibrt.…) nor another plugin's (PLUGIN.key=value)"},
        {"ot/her.key=1", "option 'ot/her.key=1' ignored: neither ibrt's (key=value, "
                         "ENGINE.key=value, ibrt.…) nor another plugin's (PLUGIN.key=value)"},
        {"ibrt.ibrt.seed=2", "option 'ibrt.ibrt.seed=2' ignored: 'ibrt' is not an ibrt engine "
                             "(engines: mlid, slid)"},
        {"ibrt.nosuch.key=1", "option 'ibrt.nosuch.key=1' ignored: 'nosuch' is not an ibrt "
                              "engine (engines: mlid, slid)"},
        {"ibrt..x=1", "option 'ibrt..x=1' ignored: '' is not an ibrt engine (engines: mlid, "
                      "slid)"},
        {"=x", "option '=x' has no key; ignored"},
        {"=", "option '=' has no key; ignored"},
        {"ibrt.=x", "option 'ibrt.=x' has no key; ignored"},
        {"ibrt.", "option 'ibrt.' has no key; ignored"},
        {"ibrt.seed", "option 'ibrt.seed' has no '=value'"},
        {"ibrt.seed=x", "option 'ibrt.seed=x': not an unsigned integer; using seed=1"},
        {"seed=12x", "option 'seed=12x': not an unsigned integer; using seed=1"},
    };
    for (const auto& [token, error] : cases) {
        INFO(token);
        auto o = parse_plugin_options(token, engines);
        REQUIRE(o.errors.size() == 1);
        CHECK(o.errors[0] == error);
        CHECK(o.other_plugins.empty());
        CHECK(o.engine_params.empty());
        CHECK(o.report.empty());
        CHECK(o.path_sl.empty());
        CHECK(o.seed == 1);
    }
    // A later good seed still counts; a bad one after it keeps it and says so.
    auto o = parse_plugin_options("seed=5 seed=x", engines);
    CHECK(o.seed == 5);
    REQUIRE(o.errors.size() == 1);
    CHECK(o.errors[0] == "option 'seed=x': not an unsigned integer; using seed=5");
}

TEST_CASE("plugin options: an engine's prefix is never another plugin's") {
    // Malformed after an engine's name: the engine's parameter check rejects it (and the
    // engine then declines), so it is not dropped as another plugin's token either.
    const std::vector<std::string> engines = {"mlid"};
    auto o = parse_plugin_options("mlid.=x mlid.a.b=c ibrt.mlid.paper_lids", engines);
    CHECK(o.errors.empty());
    CHECK(o.other_plugins.empty());
    REQUIRE(o.engine_params.size() == 3);
    CHECK(o.engine_params[0].second == "=x");
    CHECK(o.engine_params[1].second == "a.b=c");
    CHECK(o.engine_params[2].second == "paper_lids");
}
