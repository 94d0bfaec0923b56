// The sim options' own parsers (cli/sim_options.hpp) that CLI11's checks do not cover: the VL
// arbitration tables of --vlarb-high and --vlarb-low, as `ibrt sim`, sweep specs and
// `--config` files read them.
#include "cli/sim_options.hpp"
#include "fabric/input_error.hpp"

#include <catch2/catch.hpp>

using namespace ibrt;
using namespace ibrt::cli;

TEST_CASE("VL arbitration tables (--vlarb-high, --vlarb-low): whole VL:WEIGHT items only") {
    const auto v = parse_vlarb("0:1,14:255", "--vlarb-low");
    REQUIRE(v.size() == 2);
    CHECK(v[1].vl == 14);
    CHECK(v[1].weight == 255);
    CHECK(parse_vlarb("", "--vlarb-low").empty());
    for (const char* bad : {"1x:2", "1:2y", " 1:2", "1:+2", "-0:1", "1:2,", ",1:2", "1:2,,3:4",
                            "15:1", "1:256", "1:99999999999", "1", ":"}) {
        CAPTURE(bad);
        try {
            parse_vlarb(bad, "--vlarb-high");
            FAIL("accepted");
        } catch (const InputError& e) {
            CHECK(e.file() == "--vlarb-high");
            CHECK_THAT(e.problem(), Catch::StartsWith("expected VL:WEIGHT"));
        }
    }
}
