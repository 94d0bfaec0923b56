// "ibrt-figure/1" read and written; see figure_file.hpp.
#include "tools/figure_file.hpp"

#include "fabric/input_error.hpp"
#include "formats/input_file.hpp"
#include "formats/json_positions.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <map>
#include <string_view>
#include <utility>
#include <vector>

namespace ibrt::tools {
namespace {

using json = nlohmann::ordered_json;

constexpr const char* kSchema = "ibrt-figure/1";

// Root, "curves", a curve, its "y": 4; anything deeper is not a figure.
constexpr std::size_t kMaxDepth = 8;

// The figure's text, name and value positions: errors name the file, the line and the value.
struct Source {
    const std::string& text;
    const std::string& file;
    std::map<std::string, std::size_t> where;

    [[noreturn]] void fail(const std::string& at, const std::string& problem) const {
        throw InputError(file, json_line(text, where, at),
                         at.empty() ? problem : at + ": " + problem);
    }
};

// What a message quotes of a value: its JSON, cut short.
std::string got(const json& v) {
    std::string s = v.dump(-1, ' ', false, json::error_handler_t::replace);
    if (s.size() > 60) s = s.substr(0, 57) + "...";
    return "got " + s;
}

void check_keys(const Source& src, const json& obj, const std::string& at,
                std::initializer_list<std::string_view> known, std::string_view what) {
    for (auto it = obj.begin(); it != obj.end(); ++it)
        if (std::find(known.begin(), known.end(), it.key()) == known.end()) {
            std::string names;
            for (const auto k : known) names += (names.empty() ? "" : ", ") + std::string(k);
            src.fail(json_child(at, it.key()),
                     fmt::format("unknown {} key (known: {})", what, names));
        }
}

std::string text_of(const Source& src, const json& obj, const std::string& at, const char* key) {
    if (!obj.contains(key)) return {};
    const json& v = obj[key];
    if (!v.is_string()) src.fail(json_child(at, key), "expected a string, " + got(v));
    return v.get<std::string>();
}

std::vector<std::string> texts_of(const Source& src, const json& obj, const std::string& at,
                                  const char* key) {
    std::vector<std::string> out;
    if (!obj.contains(key)) return out;
    const json& v = obj[key];
    const std::string here = json_child(at, key);
    if (!v.is_array()) src.fail(here, "expected a list of strings, " + got(v));
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_string()) src.fail(json_child(here, i), "expected a string, " + got(v[i]));
        out.push_back(v[i].get<std::string>());
    }
    return out;
}

// A list of numbers, null for "no value" (NaN).
std::vector<double> numbers_of(const Source& src, const json& obj, const std::string& at,
                               const char* key) {
    std::vector<double> out;
    const json& v = obj[key];
    const std::string here = json_child(at, key);
    if (!v.is_array()) src.fail(here, "expected a list of numbers (null: no value), " + got(v));
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (v[i].is_null())
            out.push_back(NAN);
        else if (v[i].is_number())
            out.push_back(v[i].get<double>());
        else
            src.fail(json_child(here, i), "expected a number or null, " + got(v[i]));
    }
    return out;
}

plot::Curve curve_of(const Source& src, const json& c, const std::string& at, plot::Kind kind,
                     std::size_t groups) {
    if (!c.is_object())
        src.fail(at,
                 "expected a curve {\"settings\": {...}, \"x\": [...], \"y\": [...]}, " + got(c));
    check_keys(src, c, at, {"settings", "x", "y", "x_err", "y_err"}, "curve");
    plot::Curve out;
    if (c.contains("settings")) {
        const json& s = c["settings"];
        const std::string here = json_child(at, "settings");
        if (!s.is_object())
            src.fail(here, "expected {SETTING: VALUE, ...} (values as strings), " + got(s));
        for (auto it = s.begin(); it != s.end(); ++it) {
            if (it.key().empty()) src.fail(here, "a setting's name is empty");
            if (!it.value().is_string())
                src.fail(json_child(here, it.key()),
                         "expected a string that says what the value is (\"4 VLs\", not 4), " +
                             got(it.value()));
            out.settings.emplace_back(it.key(), it.value().get<std::string>());
        }
    }
    const bool bar = kind == plot::Kind::Bar;
    if (bar && c.contains("x"))
        src.fail(json_child(at, "x"), "a bar series has no x: one y per group");
    if (bar && c.contains("x_err"))
        src.fail(json_child(at, "x_err"), "a bar series has no x errors");
    if (!bar && !c.contains("x")) src.fail(json_child(at, "x"), "missing (a line's points)");
    if (!c.contains("y"))
        src.fail(json_child(at, "y"), bar ? "missing (one value per group)" : "missing");
    if (!bar) out.x = numbers_of(src, c, at, "x");
    out.y = numbers_of(src, c, at, "y");
    const std::size_t n = bar ? groups : out.x.size();
    if (out.y.size() != n)
        src.fail(json_child(at, "y"),
                 bar ? fmt::format("{} values for {} groups: one per group", out.y.size(), n)
                     : fmt::format("{} values for the {} of x: one per x", out.y.size(), n));
    for (const char* key : {"x_err", "y_err"}) {
        if (!c.contains(key)) continue;
        auto& e = key[0] == 'x' ? out.x_err : out.y_err;
        e = numbers_of(src, c, at, key);
        if (e.size() != out.y.size())
            src.fail(json_child(at, key),
                     fmt::format("{} half-widths for {} points: one per point (null: none)",
                                 e.size(), out.y.size()));
    }
    return out;
}

json numbers(const std::vector<double>& v) {
    json a = json::array();
    for (const double x : v) a.push_back(std::isfinite(x) ? json(x) : json());
    return a;
}

} // namespace

json figure_json(const plot::Figure& f) {
    const bool bar = f.kind == plot::Kind::Bar;
    json j = {{"schema", kSchema},
              {"kind", bar ? "bar" : "line"},
              {"title", f.title},
              {"x_label", f.x_label},
              {"y_label", f.y_label}};
    if (f.log_y && !bar) j["log_y"] = true;
    if (!f.facets.empty()) j["facets"] = f.facets;
    if (bar) j["groups"] = f.groups;
    json curves = json::array();
    for (const auto& c : f.curves) {
        json settings = json::object();
        for (const auto& [k, v] : c.settings)
            if (!settings.contains(k)) settings[k] = v; // the first counts, as in plot_spec
        json jc = {{"settings", std::move(settings)}};
        if (!bar) jc["x"] = numbers(c.x);
        jc["y"] = numbers(c.y);
        if (!bar && !c.x_err.empty()) jc["x_err"] = numbers(c.x_err);
        if (!c.y_err.empty()) jc["y_err"] = numbers(c.y_err);
        curves.push_back(std::move(jc));
    }
    j["curves"] = std::move(curves);
    return j;
}

plot::Figure parse_figure(const std::string& text, const std::string& file) {
    Source src{text, file, json_positions(text, file, kMaxDepth)};
    json j;
    try {
        j = json::parse(text); // the pass above took it: this does not throw
    } catch (const json::exception& e) {
        throw InputError(file, 0, "not JSON: " + json_error_text(e));
    }
    if (!j.is_object())
        src.fail("", fmt::format("expected a figure {{\"schema\": \"{}\", \"curves\": [...], "
                                 "...}} (`ibrt plot --help`), {}",
                                 kSchema, got(j)));
    if (!j.contains("schema"))
        src.fail("/schema", fmt::format("missing: a figure says \"schema\": \"{}\"", kSchema));
    if (j["schema"] == "ibrt-plot/1")
        src.fail("/schema", fmt::format("an ibrt-plot/1 spec is what plot_spec makes of a "
                                        "figure; `ibrt plot` reads the figure itself, \"{}\" "
                                        "(`ibrt plot --help`)",
                                        kSchema));
    if (j["schema"] != kSchema)
        src.fail("/schema", fmt::format("expected \"{}\", {}", kSchema, got(j["schema"])));
    check_keys(
        src, j, "",
        {"schema", "kind", "title", "x_label", "y_label", "log_y", "facets", "groups", "curves"},
        "figure");
    plot::Figure f;
    if (j.contains("kind")) {
        if (j["kind"] != "line" && j["kind"] != "bar")
            src.fail("/kind", "expected \"line\" or \"bar\", " + got(j["kind"]));
        if (j["kind"] == "bar") f.kind = plot::Kind::Bar;
    }
    f.title = text_of(src, j, "", "title");
    f.x_label = text_of(src, j, "", "x_label");
    f.y_label = text_of(src, j, "", "y_label");
    if (j.contains("log_y")) {
        if (!j["log_y"].is_boolean())
            src.fail("/log_y", "expected true or false, " + got(j["log_y"]));
        f.log_y = j["log_y"].get<bool>();
        if (f.log_y && f.kind == plot::Kind::Bar)
            src.fail("/log_y", "a log scale is for lines (bars start at zero)");
    }
    f.facets = texts_of(src, j, "", "facets");
    f.groups = texts_of(src, j, "", "groups");
    if (f.kind == plot::Kind::Bar && f.groups.empty())
        src.fail("/groups", "a bar chart names its groups, the categories along x");
    if (f.kind == plot::Kind::Line && j.contains("groups"))
        src.fail("/groups", "groups are for bar charts (\"kind\": \"bar\")");
    if (!j.contains("curves")) src.fail("/curves", "missing: a figure has curves");
    const json& curves = j["curves"];
    if (!curves.is_array() || curves.empty())
        src.fail("/curves", "expected a list of at least one curve, " + got(curves));
    for (std::size_t i = 0; i < curves.size(); ++i)
        f.curves.push_back(
            curve_of(src, curves[i], json_child("/curves", i), f.kind, f.groups.size()));
    return f;
}

plot::Figure read_figure_file(const std::string& path) {
    return parse_figure(read_input_file(path, kMaxTopologyBytes, "figure"), path);
}

} // namespace ibrt::tools
