// The sweep spec's schema (sweep/sweep_spec.cpp, issue 35 item 5): every key, its type, the
// element types of its lists and their ranges are checked before any point is made, and each
// error is an InputError naming the spec, the line and the value's JSON pointer — never a raw
// nlohmann::json message. Shapes that used to pass silently ("seeds": [0, []] made points with
// "seed": [], "patterns": [null] dropped the pattern, "engine": "" read as tables) are refused.
#include "fabric/input_error.hpp"
#include "sweep/sweep_spec.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

using namespace ibrt;
using namespace ibrt::sweep;
namespace fs = std::filesystem;

namespace {

// A valid spec with `extra` (",\n  KEY: VALUE" lines) after its routings, one key per line:
// fabrics on line 2, routings on line 3, the first extra key on line 4.
std::string spec_with(const std::string& extra,
                      const std::string& routings = R"(["mlid", {"engine": "slid"}])") {
    return "{\n  \"fabrics\": [{\"gen\": \"fat-tree -m 4 -n 2\"}],\n  \"routings\": " + routings +
           extra + "\n}";
}

struct Refusal {
    std::string file, problem;
    int line = -1;
};

Refusal refusal(const std::string& text, std::size_t max_points = kMaxSweepPoints) {
    try {
        const SweepSpec s = parse_sweep_spec(text, "spec.json", max_points);
        FAIL("accepted, " << s.points.size() << " points: " << text);
    } catch (const InputError& e) {
        return {e.file(), e.problem(), e.line()};
    }
    return {};
}

// The problem said for `text`: it names the spec, never quotes nlohmann's exception text.
std::string problem(const std::string& text) {
    const Refusal r = refusal(text);
    CHECK(r.file == "spec.json");
    CHECK_THAT(r.problem, !Catch::Contains("json.exception"));
    return r.problem;
}

} // namespace

TEST_CASE("schema: the shapes that passed silently are refused with the spec and the pointer") {
    // "seeds": [0, []] made a point with "seed": [] (run with the default seed).
    Refusal r = refusal(spec_with(",\n  \"seeds\": [0, []]"));
    CHECK(r.file == "spec.json");
    CHECK(r.line == 4);
    CHECK(r.problem == "/seeds/1: expected a whole number 0..2^64-1, got []");
    // "patterns": [null] dropped the pattern (the point ran uniform traffic).
    r = refusal(spec_with(",\n  \"patterns\": [\"uniform\",\n    null]"));
    CHECK(r.line == 5);
    CHECK_THAT(r.problem,
               Catch::StartsWith("/patterns/1: expected the name of a traffic pattern ("));
    CHECK_THAT(r.problem, Catch::EndsWith("got null"));
    CHECK_THAT(problem(spec_with(",\n  \"patterns\": [\"uniform\", \"unform\"]")),
               Catch::StartsWith("/patterns/1: unknown traffic pattern 'unform' (known: "));
    // An empty engine name read as "tables from files" and said that no tables were given.
    r = refusal(spec_with("", "[\"mlid\",\n    {\"engine\": \"\"}]"));
    CHECK(r.line == 4);
    CHECK_THAT(r.problem, Catch::StartsWith(
                              "/routings/1/engine: expected the name of a routing engine (mlid, "));
    CHECK_THAT(r.problem, Catch::EndsWith(", got \"\""));
    CHECK_THAT(problem(spec_with("", "[\"\"]")),
               Catch::StartsWith("/routings/0: expected the name of a routing engine ("));
    CHECK_THAT(problem(spec_with("", "\"\"")),
               Catch::StartsWith("/routings: expected the name of a routing engine ("));
    CHECK_THAT(problem(spec_with("", "[\"nosuch\"]")),
               Catch::StartsWith("/routings/0: unknown routing engine 'nosuch' (known: "));
}

TEST_CASE("schema: wrong types and ranges anywhere name the value") {
    const auto sim = [](const std::string& body) {
        return problem(spec_with(",\n  \"sim\": {" + body + "}"));
    };
    CHECK(problem(spec_with(",\n  \"vls\": [1, \"2\"]")) ==
          "/vls/1: expected a whole number 1..15, got \"2\"");
    CHECK(problem(spec_with(",\n  \"vls\": 16")) == "/vls: expected a whole number 1..15, got 16");
    CHECK(problem(spec_with(",\n  \"seeds\": [1.5]")) ==
          "/seeds/0: expected a whole number 0..2^64-1, got 1.5");
    CHECK(problem(spec_with(",\n  \"seeds\": [-1]")) ==
          "/seeds/0: expected a whole number 0..2^64-1, got -1");
    CHECK(problem(spec_with(",\n  \"loads\": [0.1, true]")) ==
          "/loads/1: expected a number 0..1, got true");
    CHECK(problem(spec_with(",\n  \"loads\": []")) == "/loads: empty list");
    CHECK(problem(spec_with(",\n  \"title\": 3")) == "/title: expected a string, got 3");
    CHECK(problem("{\"fabrics\": [3], \"routings\": [\"mlid\"]}") ==
          "/fabrics/0: expected a file name, {\"file\": PATH} or {\"gen\": ARGS}, got 3");
    CHECK(problem("{\"fabrics\": [{\"gen\": [\"fat-tree\", null]}], \"routings\": [\"mlid\"]}") ==
          "/fabrics/0/gen/1: expected an `ibrt gen` argument (a string or a number), got null");
    CHECK(problem("{\"fabrics\": [{\"gen\": \"random\", \"failure_seeds\": [1, -2]}], "
                  "\"routings\": [\"mlid\"]}") ==
          "/fabrics/0/failure_seeds/1: expected a whole number 0..2^64-1, got -2");
    CHECK(problem("{\"fabrics\": [{\"file\": \"x\", \"gen\": \"y\"}], \"routings\": [\"mlid\"]}") ==
          "/fabrics/0: each fabric needs exactly one of \"file\" and \"gen\"");
    // sim: each value of an axis, flags take booleans, options strings or numbers, and each
    // value passes `ibrt sim`'s own check of the option.
    CHECK(sim("\"packet-bytes\": [64, [128]]") ==
          "/sim/packet-bytes/1: expected a string or a number, got [128]");
    CHECK(sim("\"packet-bytes\": [64, 0]") ==
          "/sim/packet-bytes/1: --packet-bytes: must be a whole number in 1..65535, got '0'");
    CHECK(sim("\"warmup-us\": true") == "/sim/warmup-us: expected a string or a number, got true");
    CHECK(sim("\"warmup-us\": null") == "/sim/warmup-us: expected a string or a number, got null");
    CHECK(sim("\"flow-stats\": \"yes\"") ==
          "/sim/flow-stats: expected true or false (a flag), got \"yes\"");
    CHECK_THAT(sim("\"no-such-option\": 1"),
               Catch::StartsWith("/sim/no-such-option: not an `ibrt sim` option"));
    CHECK_THAT(sim("\"help\": true"), Catch::StartsWith("/sim/help: not an `ibrt sim` option"));
    CHECK_THAT(sim("\"seed\": 1"), Catch::StartsWith("/sim/seed: set with the top-level"));
    CHECK(sim("\"pairs-file\": \"/nonexistent/x.pairs\"") ==
          "/sim/pairs-file: --pairs-file: File does not exist: /nonexistent/x.pairs");
    // saturation
    CHECK(problem(spec_with(",\n  \"saturation\": {\"steps\": 0}")) ==
          "/saturation/steps: expected a whole number 1..30, got 0");
    CHECK(problem(spec_with(",\n  \"saturation\": {\"max\": 0}")) ==
          "/saturation/max: expected a number above 0 and at most 1, got 0");
    CHECK(problem(spec_with(",\n  \"saturation\": false")) ==
          "/saturation: expected true or {\"max\", \"steps\", \"tolerance\"}, got false");
    // routings: each option as `ibrt sim` takes it, engine options checked by their engine.
    const auto routing = [](const std::string& r) { return problem(spec_with("", "[" + r + "]")); };
    CHECK(routing(R"({"engine": "mlid", "lmc": 9})") ==
          "/routings/0/lmc: --lmc: must be a whole number in 0..7 or 'auto', got '9'");
    CHECK(routing(R"({"engine": "mlid", "engine-opt": ["x", 3]})") ==
          "/routings/0/engine-opt/0: engine option 'x' is not key=value");
    CHECK(routing(R"({"engine": "slid", "engine-opt": ["nosuch=1"]})") ==
          "/routings/0/engine-opt/0: engine slid has no option 'nosuch' (options: "
          "paper_lids, adaptive_up)");
    CHECK_THAT(routing(R"({"engine": "mlid", "lmcc": 1})"),
               Catch::StartsWith("/routings/0/lmcc: not a routing option of `ibrt sim`"));
    CHECK_THAT(routing(R"({"engine": "mlid", "selection": "nosuch"})"),
               Catch::StartsWith("/routings/0/selection: unknown selection function 'nosuch'"));
    CHECK(routing(R"({"engine": "mlid", "label": ""})") ==
          "/routings/0/label: expected a curve's name, got \"\"");
    // cc: each value, and no line break smuggling a second opensm.conf line in.
    CHECK_THAT(
        problem(spec_with(",\n  \"cc\": {\"cc_sw_cong_setting_threshold\": [4, null]}")),
        Catch::StartsWith("/cc/cc_sw_cong_setting_threshold/1: expected the option's value"));
    CHECK(problem(spec_with(",\n  \"cc\": {\"cc_sw_cong_setting_threshold\": \"4\\n"
                            "congestion_control TRUE\"}")) ==
          "/cc/cc_sw_cong_setting_threshold: the value is the rest of one opensm.conf line: no "
          "line break");
    CHECK(problem(spec_with(",\n  \"cc\": [{}, 3]")) ==
          "/cc/1: expected {OPTION: VALUE or [VALUES]} or a list of such blocks, got 3");
}

TEST_CASE("schema: unknown and repeated keys, JSON syntax, depth and size") {
    Refusal r = refusal(spec_with(",\n  \"seeds\": [1],\n  \"sedes\": [2]"));
    CHECK(r.line == 5);
    CHECK(r.problem == "/sedes: unknown spec key (known: title, fabrics, routings, patterns, vls, "
                       "loads, saturation, sim, cc, seeds)");
    CHECK(problem("{\"fabrics\": [{\"gen\": \"random\", \"seeds\": [1]}], \"routings\": "
                  "[\"mlid\"]}") ==
          "/fabrics/0/seeds: unknown fabric key (known: file, gen, failure_seeds)");
    CHECK(problem(spec_with(",\n  \"saturation\": {\"steps\": 3, \"step\": 4}")) ==
          "/saturation/step: unknown saturation key (known: max, steps, tolerance)");
    CHECK(problem("{\"fabrics\": [\"x.net\"]}") ==
          "/routings: missing (a spec names its fabrics and its routings)");
    // JSON keeps one of two equal keys: the spec would run a grid other than the one written.
    r = refusal(spec_with(",\n  \"loads\": [0.1],\n  \"loads\": [0.2]"));
    CHECK(r.line == 5);
    CHECK(r.problem == "/loads: the key is given twice in this object (JSON keeps one of them)");
    CHECK(problem("{\"fabrics\": [{\"gen\": \"random\", \"gen\": \"x\"}]}") ==
          "/fabrics/0/gen: the key is given twice in this object (JSON keeps one of them)");
    // Syntax: the line, nlohmann's words without its exception prefix.
    r = refusal("{\n  \"fabrics\": [\"x\"],,\n}");
    CHECK(r.line == 2);
    CHECK(r.problem == "not JSON: syntax error while parsing object key - unexpected ','; "
                       "expected string literal (column 20)");
    CHECK_THAT(problem("{\"loads\": [1e999]}"), Catch::StartsWith("not JSON: number overflow"));
    CHECK_THAT(problem(""), Catch::StartsWith("not JSON: "));
    CHECK(problem("[]") == "a sweep spec is a JSON object, got []");
    CHECK(problem(spec_with(",\n  \"seeds\": " + std::string(40, '[') + std::string(40, ']'))) ==
          "/seeds/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0: nested more "
          "than 32 deep");
    // A grid too large is refused before it is made.
    r = refusal(spec_with(",\n  \"seeds\": [1, 2, 3],\n  \"loads\": [0.1, 0.2]"), 11);
    CHECK(r.problem == "the grid has more than 11 points: split the study into several specs");
    CHECK(parse_sweep_spec(spec_with(",\n  \"seeds\": [1, 2, 3],\n  \"loads\": [0.1, 0.2]"),
                           "spec.json", 12)
              .points.size() == 12);
}

TEST_CASE("schema: checks between options name the option's key in \"sim\"") {
    Refusal r =
        refusal(spec_with(",\n  \"sim\": {\"measure-us\": 5,\n    \"vc-alloc-gap-ns\": [0, 5]}"));
    CHECK(r.line == 5);
    CHECK(r.problem == "/sim/vc-alloc-gap-ns: --vc-alloc-gap-ns: applies only with --vc-router");
    // --vlarb-low is read when the point's options are (a value alone has no VL count).
    r = refusal(spec_with(",\n  \"sim\": {\"vlarb-low\": \"0:1x\"}"));
    CHECK(r.line == 4);
    CHECK(r.problem == "/sim/vlarb-low: --vlarb-low: expected VL:WEIGHT (VL 0..14, weight "
                       "0..255), got '0:1x'");
    // Each VL count is checked with the options: a VL arbitration table that 6 VLs take and
    // 4 do not (the option set was checked once, with the first VL count).
    r = refusal(spec_with(",\n  \"vls\": [6, 4],\n  \"sim\": {\"vlarb-low\": \"5:2,1:1\"}"));
    CHECK(r.line == 5);
    CHECK(r.problem == "/sim: options: VL arbitration entry names VL 5 >= VL count");
    CHECK(problem(spec_with(",\n  \"patterns\": [\"pairs\"]")) ==
          "/patterns: --pairs-file: --pattern pairs needs --pairs-file");
    CHECK(problem(spec_with(",\n  \"patterns\": [\"uniform\", \"hot-flows\"]")) ==
          "/patterns: --pairs-file: --pattern hot-flows needs --pairs-file");
}

TEST_CASE("schema: good specs still expand as before") {
    const SweepSpec s = parse_sweep_spec(
        spec_with(",\n  \"patterns\": \"uniform\",\n  \"seeds\": [0, 18446744073709551615],\n"
                  "  \"sim\": {\"flow-stats\": [false, true], \"packet-bytes\": \"128\"},\n"
                  "  \"saturation\": {\"steps\": 3}",
                  R"(["mlid", {"engine": "flatfly", "engine-opt": "adaptive=ador",
                      "selection": "least-loaded", "label": "ADOR"}])"),
        "spec.json");
    REQUIRE(s.points.size() == 2 * 2 * 2);
    const auto& p = s.points.back().json;
    CHECK(p["sim"]["seed"] == 18446744073709551615ull);
    CHECK(p["sim"]["pattern"] == "uniform");
    CHECK(p["sim"]["flow-stats"] == true);
    CHECK(p["sim"]["selection"] == "least-loaded");
    CHECK(p["saturation"] == nlohmann::json({{"max", 1.0}, {"steps", 3}, {"tolerance", 0.05}}));
    CHECK(s.points.front().json["routing"] == nlohmann::json({{"engine", "mlid"}}));
}

TEST_CASE("schema: every study spec in studies/ and docs/results still parses") {
    int specs = 0;
    for (const char* dir : {"studies", "docs/results"})
        for (const auto& e : fs::recursive_directory_iterator(fs::path(IBRT_SOURCE_DIR) / dir)) {
            if (e.path().extension() != ".json") continue;
            std::ifstream in(e.path());
            const std::string text((std::istreambuf_iterator<char>(in)), {});
            if (text.find("\"routings\"") == std::string::npos) continue; // a result, not a spec
            CAPTURE(e.path().string());
            const SweepSpec s = read_sweep_spec(e.path().string());
            CHECK(!s.points.empty());
            ++specs;
        }
    CHECK(specs >= 28);
}
