// `ibrt plot`'s figure, "ibrt-figure/1" (tools/figure_file.hpp): a Figure written as JSON reads
// back as the same Figure (the same spec), `ibrt plot` draws it to the same bytes as
// plot::write_plot of the Figure, and every bad value is named by file, line and pointer.
#include "fabric/input_error.hpp"
#include "plot/plot.hpp"
#include "tools/figure_file.hpp"

#include "tests/test_files.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

using namespace ibrt;
using namespace ibrt::tools;
namespace fs = std::filesystem;

namespace {

// Two facets, three VL counts and five routings: 12 curves a pattern, so plot_spec moves the
// VLs to the panels; error bars, a missing point, a negative (no) half-width.
plot::Figure sample_line_figure() {
    plot::Figure f;
    f.title = "FT(4,3): latency against accepted traffic";
    f.x_label = "accepted traffic (bytes/ns/node)";
    f.y_label = "average latency (ns)";
    f.facets = {"pattern"};
    for (const char* pattern : {"uniform traffic", "complement traffic"})
        for (int vls = 1; vls <= 3; ++vls)
            for (int r = 0; r < 4; ++r) {
                plot::Curve c;
                c.settings = {{"routing", fmt::format("engine {}", r)},
                              {"VLs", fmt::format("{} VLs", vls)},
                              {"pattern", pattern},
                              {"fabric", "FT(4,3)"}};
                c.x = {0.1, 0.2 + 0.01 * r, 0.3, 0.35};
                c.y = {100.0 + r, 150.0 + 10 * vls, NAN, 400.5 + 0.125 * r};
                c.y_err = {3, -1, NAN, 20};
                c.x_err = {0.01, 0.01, 0.02, 0.03};
                f.curves.push_back(c);
            }
    return f;
}

plot::Figure sample_bar_figure() {
    plot::Figure f;
    f.kind = plot::Kind::Bar;
    f.title = "saturation";
    f.y_label = "accepted (fraction of link)";
    f.groups = {"uniform", "complement", "shift"};
    f.curves.push_back({{{"routing", "mlid"}}, {}, {0.9, NAN, 0.4}, {}, {0.02, 0.03, -1}});
    f.curves.push_back({{{"routing", "slid"}}, {}, {0.8, 0.5, 0.45}, {}, {}});
    return f;
}

void check_same(const plot::Figure& a, const plot::Figure& b) {
    CHECK(a.kind == b.kind);
    CHECK(a.title == b.title);
    CHECK(a.x_label == b.x_label);
    CHECK(a.y_label == b.y_label);
    CHECK(a.log_y == b.log_y);
    CHECK(a.facets == b.facets);
    CHECK(a.groups == b.groups);
    REQUIRE(a.curves.size() == b.curves.size());
    const auto same = [](const std::vector<double>& x, const std::vector<double>& y) {
        if (x.size() != y.size()) return false;
        for (std::size_t i = 0; i < x.size(); ++i)
            if (!(x[i] == y[i] || (std::isnan(x[i]) && std::isnan(y[i])))) return false;
        return true;
    };
    for (std::size_t i = 0; i < a.curves.size(); ++i) {
        CHECK(a.curves[i].settings == b.curves[i].settings);
        CHECK(same(a.curves[i].x, b.curves[i].x));
        CHECK(same(a.curves[i].y, b.curves[i].y));
        CHECK(same(a.curves[i].x_err, b.curves[i].x_err));
        CHECK(same(a.curves[i].y_err, b.curves[i].y_err));
    }
}

// The message of parse_figure(text) ("" when it parses).
std::string error_of(const std::string& text) {
    try {
        parse_figure(text, "fig.json");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST_CASE("figure file: a Figure written as JSON reads back as itself, the same spec") {
    for (const plot::Figure& f : {sample_line_figure(), sample_bar_figure()}) {
        const std::string text = figure_json(f).dump(1);
        const plot::Figure back = parse_figure(text, "fig.json");
        check_same(back, f);
        CHECK(plot::plot_spec(back) == plot::plot_spec(f));
        CHECK(figure_json(back).dump() == figure_json(f).dump());
    }
    // The settings' order is the file's, not sorted: it decides legend names and panels.
    plot::Figure f = sample_line_figure();
    const auto j = figure_json(f);
    CHECK(j["curves"][0]["settings"].begin().key() == "routing");
    // A log scale goes through to the spec.
    f.log_y = true;
    const plot::Figure back = parse_figure(figure_json(f).dump(), "fig.json");
    CHECK(back.log_y);
    CHECK(plot::plot_spec(back)["log_y"] == true);
    CHECK(!plot::plot_spec(sample_line_figure()).contains("log_y"));
}

TEST_CASE("figure file: `ibrt plot` draws the same bytes as write_plot of the Figure") {
    const fs::path ibrt = fs::path(IBRT_BINARY_DIR) / "ibrt";
    REQUIRE(fs::exists(ibrt));
    const fs::path d = test::fresh_dir("figure-cli");
    for (const auto& [name, f] :
         {std::pair{"lines", sample_line_figure()}, std::pair{"bars", sample_bar_figure()}}) {
        plot::Figure logged = f;
        if (f.kind == plot::Kind::Line) logged.log_y = true;
        for (const plot::Figure& g : {f, logged}) {
            const std::string tag = fmt::format("{}{}", name, g.log_y ? "-log" : "");
            const fs::path json = d / (tag + ".json");
            std::ofstream(json) << figure_json(g).dump(2) << "\n";
            const fs::path svg = d / (tag + ".svg"), png = d / (tag + ".png");
            const fs::path ref_svg = d / (tag + "-ref.svg"), ref_png = d / (tag + "-ref.png");
            plot::write_plot(g, ref_svg.string());
            plot::write_plot(g, ref_png.string());
            const std::string cmd = fmt::format("'{}' plot '{}' -o '{}' -o '{}'", ibrt.string(),
                                                json.string(), svg.string(), png.string());
            REQUIRE(std::system(cmd.c_str()) == 0);
            CHECK(test::slurp(svg) == test::slurp(ref_svg));
            CHECK(test::slurp(png) == test::slurp(ref_png));
            // Standard input, and -o before the figure.
            const fs::path piped = d / (tag + "-piped.svg");
            const std::string cmd2 = fmt::format("'{}' plot -o '{}' - < '{}'", ibrt.string(),
                                                 piped.string(), json.string());
            REQUIRE(std::system(cmd2.c_str()) == 0);
            CHECK(test::slurp(piped) == test::slurp(ref_svg));
        }
    }
    // The log scale draws something else than the linear one.
    CHECK(test::slurp(d / "lines.svg") != test::slurp(d / "lines-log.svg"));
    fs::remove_all(d);
}

TEST_CASE("figure file: bad values are named by file, line and JSON pointer") {
    const std::string ok_curve = R"({"settings": {"routing": "mlid"}, "x": [1, 2], "y": [3, 4]})";
    const auto figure = [&](const std::string& extra, const std::string& curve) {
        return "{\n\"schema\": \"ibrt-figure/1\",\n" + extra + "\"curves\": [\n" + ok_curve +
               ",\n" + curve + "\n]\n}\n";
    };
    CHECK(error_of(figure("", ok_curve)).empty());
    CHECK(error_of("{\n\"schema\": \"ibrt-figure/1\",\n\"curves\": [\n") ==
          "fig.json:4: not JSON: syntax error while parsing value - unexpected end of input; "
          "expected '[', '{', or a literal (column 1)");
    CHECK(error_of("[1, 2]") == "fig.json:1: expected a figure {\"schema\": \"ibrt-figure/1\", "
                                "\"curves\": [...], ...} (`ibrt plot --help`), got [1,2]");
    CHECK(error_of(R"({"curves": []})") ==
          "fig.json:1: /schema: missing: a figure says \"schema\": \"ibrt-figure/1\"");
    CHECK_THAT(error_of("{\"schema\": \"ibrt-plot/1\", \"panels\": []}"),
               Catch::StartsWith("fig.json:1: /schema: an ibrt-plot/1 spec is what plot_spec "
                                 "makes of a figure"));
    CHECK(error_of(figure("\"titel\": \"x\",\n", ok_curve)) ==
          "fig.json:3: /titel: unknown figure key (known: schema, kind, title, x_label, "
          "y_label, log_y, facets, groups, curves)");
    CHECK(error_of(figure("\"title\": \"a\",\n\"title\": \"b\",\n", ok_curve)) ==
          "fig.json:4: /title: the key is given twice in this object (JSON keeps one of them)");
    CHECK(error_of(figure("\"kind\": \"pie\",\n", ok_curve)) ==
          "fig.json:3: /kind: expected \"line\" or \"bar\", got \"pie\"");
    CHECK(error_of(figure("\"log_y\": 1,\n", ok_curve)) ==
          "fig.json:3: /log_y: expected true or false, got 1");
    CHECK(error_of(figure("\"groups\": [\"a\"],\n", ok_curve)) ==
          "fig.json:3: /groups: groups are for bar charts (\"kind\": \"bar\")");
    CHECK(error_of(figure("\"facets\": [\"pattern\", 3],\n", ok_curve)) ==
          "fig.json:3: /facets/1: expected a string, got 3");
    CHECK(error_of(R"({"schema": "ibrt-figure/1", "curves": []})") ==
          "fig.json:1: /curves: expected a list of at least one curve, got []");
    CHECK(
        error_of(figure("", R"({"settings": {"routing": "mlid"}, "x": [1, 2], "y": [3, "4"]})")) ==
        "fig.json:5: /curves/1/y/1: expected a number or null, got \"4\"");
    CHECK(error_of(figure("", R"({"settings": {"VLs": 4}, "x": [1], "y": [3]})")) ==
          "fig.json:5: /curves/1/settings/VLs: expected a string that says what the value is "
          "(\"4 VLs\", not 4), got 4");
    CHECK(error_of(figure("", R"({"x": [1, 2, 3], "y": [3, 4]})")) ==
          "fig.json:5: /curves/1/y: 2 values for the 3 of x: one per x");
    CHECK(error_of(figure("", R"({"x": [1, 2], "y": [3, 4], "y_err": [1]})")) ==
          "fig.json:5: /curves/1/y_err: 1 half-widths for 2 points: one per point (null: none)");
    CHECK(error_of(figure("", R"({"y": [3, 4]})")) ==
          "fig.json:5: /curves/1/x: missing (a line's points)");
    CHECK(error_of(figure("", R"({"x": [1], "y": [3], "colour": "red"})")) ==
          "fig.json:5: /curves/1/colour: unknown curve key (known: settings, x, y, x_err, y_err)");
    // Python's json.dump writes NaN, which JSON has not.
    CHECK_THAT(error_of(figure("", R"({"x": [1], "y": [NaN]})")),
               Catch::StartsWith("fig.json:5: not JSON: syntax error"));
    // Bars: one value per group, no x, no log scale.
    const std::string bars = "\"kind\": \"bar\",\n\"groups\": [\"a\", \"b\"],\n";
    const auto bar_figure = [&](const std::string& extra, const std::string& curve) {
        return "{\n\"schema\": \"ibrt-figure/1\",\n" + bars + extra + "\"curves\": [\n" + curve +
               "\n]\n}\n";
    };
    CHECK(error_of(bar_figure("", R"({"y": [1, 2], "y_err": [0.1, null]})")).empty());
    CHECK(error_of(bar_figure("", R"({"y": [1, 2, 3]})")) ==
          "fig.json:6: /curves/0/y: 3 values for 2 groups: one per group");
    CHECK(error_of(bar_figure("", R"({"x": [1, 2], "y": [1, 2]})")) ==
          "fig.json:6: /curves/0/x: a bar series has no x: one y per group");
    CHECK(error_of(bar_figure("\"log_y\": true,\n", R"({"y": [1, 2]})")) ==
          "fig.json:5: /log_y: a log scale is for lines (bars start at zero)");
    CHECK(error_of("{\"schema\": \"ibrt-figure/1\", \"kind\": \"bar\", \"curves\": [{\"y\": "
                   "[]}]}") ==
          "fig.json:1: /groups: a bar chart names its groups, the categories along x");
    // Nesting is bounded before any value is built.
    CHECK(error_of(figure("\"title\": [[[[[[[[[1]]]]]]]]],\n", ok_curve)) ==
          "fig.json:3: /title/0/0/0/0/0/0/0: nested more than 8 deep");
    // Files: the reader's checks (a directory, a missing file).
    CHECK_THROWS_WITH(read_figure_file("/nonexistent/fig.json"),
                      Catch::StartsWith("/nonexistent/fig.json: "));
}
