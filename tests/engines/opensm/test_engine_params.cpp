#include "engines/opensm/engine_params.hpp"
#include "engines/opensm/plugin_options.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

using ibrt::EngineOptions;
using ibrt::osm::apply_engine_params;
using ibrt::osm::parse_plugin_options;

namespace {

const std::vector<std::string>& engines() {
    static const std::vector<std::string> names = ibrt::engine_names();
    return names;
}

} // namespace

TEST_CASE("engine params in opensm: paper_lids cannot take effect and says why") {
    const auto mlid = ibrt::make_engine("mlid");
    REQUIRE(mlid);
    const auto o = parse_plugin_options("mlid.paper_lids=true ibrt.mlid.adaptive_up=true "
                                        "slid.paper_lids=yes",
                                        engines());
    REQUIRE(o.errors.empty());
    EngineOptions opt;
    const auto applied = apply_engine_params(*mlid, o.engine_params, opt);
    CHECK(applied.errors.empty());
    REQUIRE(applied.ignored.size() == 2);
    CHECK(applied.ignored[0] ==
          "option 'mlid.paper_lids=true' ignored: it takes effect only offline (ibrt route); "
          "opensm assigns the LIDs inside opensm, and the engine routes on those");
    CHECK(applied.ignored[1] ==
          "option 'mlid.adaptive_up=true' ignored: it takes effect only offline (ibrt route); "
          "it only adds forwarding sets for `ibrt sim`; opensm installs the LFTs alone");
    CHECK(opt.params.empty()); // neither applied

    const auto slid = ibrt::make_engine("slid");
    EngineOptions sopt;
    const auto s = apply_engine_params(*slid, o.engine_params, sopt);
    REQUIRE(s.ignored.size() == 1);
    CHECK(s.ignored[0].starts_with("option 'slid.paper_lids=yes' ignored: "));
    CHECK(sopt.params.empty());
}

TEST_CASE("engine params in opensm: an offline-only param at its default passes silently") {
    const auto mlid = ibrt::make_engine("mlid");
    for (const char* v : {"false", "0", "no", "off"}) {
        INFO(v);
        EngineOptions opt;
        const auto a = apply_engine_params(
            *mlid,
            parse_plugin_options(std::string("mlid.paper_lids=") + v, engines()).engine_params,
            opt);
        CHECK(a.ignored.empty());
        CHECK(a.errors.empty());
    }
}

TEST_CASE("engine params in opensm: bad ones are errors, other engines' are not applied") {
    const auto mlid = ibrt::make_engine("mlid");
    const auto o = parse_plugin_options(
        "mlid.paper_lid=true mlid.paper_lids=maybe mlid.=x mlid.a.b=c slid.adaptive_up=true",
        engines());
    EngineOptions opt;
    const auto a = apply_engine_params(*mlid, o.engine_params, opt);
    CHECK(a.ignored.empty());
    REQUIRE(a.errors.size() == 4);
    CHECK(a.errors[0] ==
          "engine mlid has no option 'paper_lid' (options: paper_lids, adaptive_up)");
    CHECK(a.errors[1] == "engine mlid option paper_lids: 'maybe' is not true or false");
    CHECK(a.errors[2] == "engine option '=x' is not key=value");
    CHECK(a.errors[3] == "engine mlid has no option 'a.b' (options: paper_lids, adaptive_up)");
    CHECK(opt.params.empty());
}

TEST_CASE("engine params: mlid's and slid's paper_lids are declared offline only") {
    // The declaration is what the plugin goes by, not the name.
    for (const char* name : {"mlid", "slid"}) {
        const auto e = ibrt::make_engine(name);
        const auto ps = e->params();
        const auto p = std::find_if(
            ps.begin(), ps.end(), [](const ibrt::EngineParam& d) { return d.key == "paper_lids"; });
        REQUIRE(p != ps.end());
        CHECK_FALSE(p->offline_only.empty());
    }
}
