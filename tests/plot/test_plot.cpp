// The plot spec as a pure function (panels, names, title, error bars), and the real drawing
// through python3 and matplotlib: valid PNG and SVG, the same bytes twice, clear errors.
#include "plot/plot.hpp"

#include "tests/test_files.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace ibrt::plot;
namespace fs = std::filesystem;

namespace {

Curve curve(std::vector<std::pair<std::string, std::string>> settings, double shift = 0) {
    return {std::move(settings), {0.1, 0.2, 0.3}, {100 + shift, 150 + shift, 400 + shift}, {}, {}};
}

std::size_t curves_in(const nlohmann::ordered_json& spec) {
    std::size_t n = 0;
    for (const auto& p : spec["panels"]) n += p["curves"].size();
    return n;
}

// IBRT_PYTHON set for one scope.
struct PythonOverride {
    explicit PythonOverride(const std::string& python) {
        if (const char* old = std::getenv("IBRT_PYTHON")) saved = old;
        ::setenv("IBRT_PYTHON", python.c_str(), 1);
    }
    ~PythonOverride() {
        if (saved.empty())
            ::unsetenv("IBRT_PYTHON");
        else
            ::setenv("IBRT_PYTHON", saved.c_str(), 1);
    }
    std::string saved;
};

} // namespace

TEST_CASE("plot spec: the settings every curve shares go to the title, not the legend") {
    Figure f;
    f.title = "sweep";
    f.x_label = "accepted traffic (bytes/ns/node)";
    f.y_label = "average latency (ns)";
    f.facets = {"fabric", "pattern"};
    for (const char* r : {"mlid", "slid"})
        f.curves.push_back(curve({{"fabric", "FT(4,3)"},
                                  {"pattern", "uniform traffic"},
                                  {"routing", r},
                                  {"VLs", "1 VL"}}));
    const auto spec = plot_spec(f);
    CHECK(spec["schema"] == "ibrt-plot/1");
    CHECK(spec["kind"] == "line");
    CHECK(spec["title"] == "sweep");
    CHECK(spec["common"] == nlohmann::ordered_json({"FT(4,3)", "uniform traffic", "1 VL"}));
    CHECK(spec["legend_title"] == "routing");
    REQUIRE(spec["panels"].size() == 1);
    const auto& curves = spec["panels"][0]["curves"];
    REQUIRE(curves.size() == 2);
    CHECK(curves[0]["name"] == "mlid");
    CHECK(curves[1]["name"] == "slid");
    CHECK(curves[0]["style"] == 0);
    CHECK(curves[1]["style"] == 1);
    CHECK(curves[0]["y"] == nlohmann::ordered_json({100.0, 150.0, 400.0}));
    CHECK(!curves[0].contains("y_err"));
    CHECK(spec["panels"][0]["title"] == "");
    // One curve: everything is common, the curve has no name (no legend).
    f.curves.resize(1);
    const auto one = plot_spec(f);
    CHECK(one["common"].size() == 4);
    CHECK(one["panels"][0]["curves"][0]["name"] == "");
}

TEST_CASE("plot spec: panels by the facets that vary, one style per name across panels") {
    Figure f;
    f.facets = {"fabric", "pattern"};
    for (const char* fabric : {"FT(4,3)", "random"})
        for (const char* pattern : {"uniform traffic", "complement traffic"})
            for (const char* r : {"mlid", "slid", "separate"})
                f.curves.push_back(
                    curve({{"fabric", fabric}, {"pattern", pattern}, {"routing", r}}));
    const auto spec = plot_spec(f);
    CHECK(spec["common"].empty());
    REQUIRE(spec["panels"].size() == 4);
    CHECK(spec["panels"][0]["title"] == "FT(4,3), uniform traffic");
    CHECK(spec["panels"][3]["title"] == "random, complement traffic");
    CHECK(spec["shared_legend"] == true); // every panel names the same three routings
    CHECK(spec["panels"][0]["axes"] != spec["panels"][1]["axes"]); // facets: their own scales
    for (const auto& p : spec["panels"]) {
        REQUIRE(p["curves"].size() == 3);
        CHECK(p["curves"][2]["name"] == "separate");
        CHECK(p["curves"][2]["style"] == 2);
    }
}

TEST_CASE("plot spec: at most 8 curves a panel, the last legend setting moving to panels first") {
    Figure f;
    f.facets = {"fabric", "pattern"};
    // 5 routings x 3 buffer sizes in one panel: 15 curves. The buffer sizes become panels.
    for (const char* r : {"mlid", "slid", "separate", "torus", "flatfly"})
        for (const char* b : {"buffer-bytes=1024", "buffer-bytes=2048", "buffer-bytes=4096"})
            f.curves.push_back(curve({{"fabric", "FT(4,3)"}, {"routing", r}, {"sim", b}}));
    auto spec = plot_spec(f);
    REQUIRE(spec["panels"].size() == 3);
    CHECK(spec["panels"][0]["title"] == "buffer-bytes=1024");
    CHECK(spec["legend_title"] == "routing");
    CHECK(spec["shared_legend"] == true);
    for (const auto& p : spec["panels"]) CHECK(p["curves"].size() == 5);
    CHECK(curves_in(spec) == 15);
    // Times 2 VL counts: 10 a panel still, so the VLs become panels too, named in the order
    // of the settings.
    f.curves.clear();
    for (const char* r : {"mlid", "slid", "separate", "torus", "flatfly"})
        for (const char* v : {"1 VL", "2 VLs"})
            for (const char* b : {"buffer-bytes=1024", "buffer-bytes=2048", "buffer-bytes=4096"})
                f.curves.push_back(
                    curve({{"fabric", "FT(4,3)"}, {"routing", r}, {"VLs", v}, {"sim", b}}));
    spec = plot_spec(f);
    REQUIRE(spec["panels"].size() == 6);
    CHECK(spec["panels"][0]["title"] == "1 VL, buffer-bytes=1024");
    CHECK(spec["panels"][1]["title"] == "1 VL, buffer-bytes=2048");
    CHECK(spec["panels"][3]["title"] == "2 VLs, buffer-bytes=1024");
    CHECK(spec["legend_title"] == "routing");
    for (const auto& p : spec["panels"]) CHECK(p["curves"].size() == 5);

    // One setting alone names 20 curves: parts of 7, 7 and 6, each name its own style.
    Figure g;
    for (int i = 0; i < 20; ++i)
        g.curves.push_back(
            curve({{"fabric", "FT(4,3)"}, {"cc", "threshold=" + std::to_string(i)}}));
    spec = plot_spec(g);
    REQUIRE(spec["panels"].size() == 3);
    CHECK(spec["panels"][0]["title"] == "(1/3)");
    CHECK(spec["panels"][2]["title"] == "(3/3)");
    CHECK(spec["panels"][0]["curves"].size() == 7);
    CHECK(spec["panels"][1]["curves"].size() == 7);
    CHECK(spec["panels"][2]["curves"].size() == 6);
    CHECK(spec["shared_legend"] == false); // 20 names: each part has its own legend
    CHECK(spec["panels"][0]["axes"] == spec["panels"][2]["axes"]); // parts on one scale
    std::set<int> styles;
    for (const auto& p : spec["panels"])
        for (const auto& c : p["curves"]) styles.insert(c["style"].get<int>());
    CHECK(styles.size() == 20);
    CHECK(spec["common"] == nlohmann::ordered_json({"FT(4,3)"}));
    // A smaller limit splits the same way.
    CHECK(plot_spec(g, 4)["panels"].size() == 5);
}

TEST_CASE("plot spec: error bars are carried, values that are not finite are null") {
    Figure f;
    Curve c = curve({{"routing", "mlid"}});
    c.y_err = {5, NAN, 40};
    c.x_err = {0.01, -1, 0.02}; // -1: the simulator's "no interval"
    c.y[1] = INFINITY;
    f.curves.push_back(c);
    const auto spec = plot_spec(f);
    const auto& jc = spec["panels"][0]["curves"][0];
    CHECK(jc["y_err"] == nlohmann::ordered_json({5.0, nullptr, 40.0}));
    CHECK(jc["x_err"] == nlohmann::ordered_json({0.01, nullptr, 0.02}));
    CHECK(jc["y"][1].is_null());

    Figure bars;
    bars.kind = Kind::Bar;
    bars.groups = {"uniform", "complement"};
    bars.curves.push_back({{{"routing", "mlid"}}, {}, {0.9, NAN}, {}, {0.02, 0.03}});
    bars.curves.push_back({{{"routing", "slid"}}, {}, {0.8, 0.5}, {}, {}});
    const auto b = plot_spec(bars);
    CHECK(b["kind"] == "bar");
    CHECK(b["groups"] == nlohmann::ordered_json({"uniform", "complement"}));
    const auto& bc = b["panels"][0]["curves"];
    CHECK(!bc[0].contains("x"));
    CHECK(bc[0]["y"] == nlohmann::ordered_json({0.9, nullptr}));
    CHECK(bc[0]["y_err"] == nlohmann::ordered_json({0.02, 0.03}));
    CHECK(!bc[1].contains("y_err"));
}

TEST_CASE("plot spec: bar groups past 12 are split over panels") {
    Figure f;
    f.kind = Kind::Bar;
    for (int g = 0; g < 30; ++g) f.groups.push_back("run " + std::to_string(g));
    for (const char* m : {"victims", "hot links", "Jain"}) {
        Curve c{{{"measure", m}}, {}, {}, {}, {}};
        for (int g = 0; g < 30; ++g) {
            c.y.push_back(g);
            c.y_err.push_back(0.5);
        }
        f.curves.push_back(c);
    }
    const auto spec = plot_spec(f);
    REQUIRE(spec["panels"].size() == 3);
    CHECK(spec["groups"].size() == 30);
    CHECK(spec["shared_legend"] == true);
    CHECK(spec["panels"][0]["title"] == "(groups 1-10 of 30)");
    CHECK(spec["panels"][2]["title"] == "(groups 21-30 of 30)");
    const auto& last = spec["panels"][2];
    REQUIRE(last["groups"].size() == 10);
    CHECK(last["groups"][0] == "run 20");
    REQUIRE(last["curves"].size() == 3);
    CHECK(last["curves"][1]["name"] == "hot links");
    CHECK(last["curves"][1]["y"][0] == 20.0);
    CHECK(last["curves"][1]["y"].size() == 10);
    CHECK(last["curves"][1]["y_err"].size() == 10);
}

TEST_CASE("plot: python3 and matplotlib draw PNG and SVG, the same bytes twice") {
    const fs::path d = ibrt::test::fresh_dir("plot-render");
    Figure f;
    f.title = "FT(4,3): latency";
    f.x_label = "accepted traffic (bytes/ns/node)";
    f.y_label = "average latency (ns)";
    f.facets = {"pattern"};
    for (const char* pattern : {"uniform traffic", "complement traffic"})
        for (int i = 0; i < 10; ++i) {
            Curve c =
                curve({{"pattern", pattern}, {"routing", "engine " + std::to_string(i)}}, 10.0 * i);
            c.y_err = {3, 4, 20};
            f.curves.push_back(c);
        }
    const fs::path png = d / "a.png", svg = d / "a.svg";
    render(plot_spec(f), {png.string(), svg.string()});
    const std::string p1 = ibrt::test::slurp(png), s1 = ibrt::test::slurp(svg);
    CHECK(p1.rfind("\x89PNG\r\n\x1a\n", 0) == 0);
    const auto root = s1.find("<svg");
    REQUIRE(root != std::string::npos);
    CHECK(s1.rfind("<?xml", 0) == 0);
    CHECK(s1.find("</svg>") != std::string::npos);
    CHECK(s1.find("engine 9") != std::string::npos);  // text stays text
    CHECK(s1.find("<dc:date>") == std::string::npos); // no date: the same bytes every time
    write_plot(f, png.string());
    write_plot(f, svg.string());
    CHECK(ibrt::test::slurp(png) == p1);
    CHECK(ibrt::test::slurp(svg) == s1);
    // Only the two files: no temporary left beside them.
    CHECK(std::distance(fs::directory_iterator(d), fs::directory_iterator()) == 2);
    // A bar chart draws too.
    Figure bars;
    bars.kind = Kind::Bar;
    bars.groups = {"uniform", "complement"};
    bars.curves.push_back({{{"routing", "mlid"}}, {}, {0.9, NAN}, {}, {0.02, 0.03}});
    bars.curves.push_back({{{"routing", "slid"}}, {}, {0.8, 0.5}, {}, {}});
    write_plot(bars, (d / "b.svg").string());
    CHECK(ibrt::test::slurp(d / "b.svg").find("</svg>") != std::string::npos);
    fs::remove_all(d);
}

TEST_CASE("plot: errors name the file and the cause") {
    const fs::path d = ibrt::test::fresh_dir("plot-errors");
    Figure f;
    f.curves.push_back(curve({{"routing", "mlid"}}));
    const std::string out = (d / "lat.png").string();
    CHECK_THROWS_WITH(write_plot(f, (d / "lat.pdf").string()),
                      Catch::Contains("lat.pdf") && Catch::Contains(".svg or .png"));
    {
        PythonOverride py((d / "no-such-python").string());
        CHECK_THROWS_WITH(write_plot(f, out), Catch::StartsWith("cannot write " + out) &&
                                                  Catch::Contains("no-such-python") &&
                                                  Catch::Contains("python3-matplotlib"));
    }
    {
        // A python3 without matplotlib: the script says so and exits 3.
        const fs::path fake = d / "python-without-matplotlib";
        std::ofstream(fake) << "#!/bin/sh\necho \"matplotlib is missing (No module named "
                               "'matplotlib')\" >&2\nexit 3\n";
        fs::permissions(fake, fs::perms::owner_all);
        PythonOverride py(fake.string());
        CHECK_THROWS_WITH(write_plot(f, out), Catch::StartsWith("cannot write " + out) &&
                                                  Catch::Contains("install python3-matplotlib") &&
                                                  Catch::Contains("No module named"));
    }
    {
        // Any other failure: the script's last line.
        const fs::path fake = d / "python-failing";
        std::ofstream(fake) << "#!/bin/sh\necho 'Traceback ...' >&2\necho 'ValueError: bad' "
                               ">&2\nexit 1\n";
        fs::permissions(fake, fs::perms::owner_all);
        PythonOverride py(fake.string());
        CHECK_THROWS_WITH(write_plot(f, out), Catch::Contains("ValueError: bad"));
    }
    CHECK(!fs::exists(out));
    CHECK(std::distance(fs::directory_iterator(d), fs::directory_iterator()) == 2); // the fakes
    fs::remove_all(d);
}
