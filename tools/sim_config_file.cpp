// `ibrt sim --config FILE`; see sim_config_file.hpp.
#include "tools/sim_config_file.hpp"

#include "fabric/input_error.hpp"
#include "formats/input_file.hpp"
#include "sweep/sweep_options.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <utility>
#include <vector>

namespace ibrt::tools {
namespace {

using json = nlohmann::json;

// The options whose values are file names (relative to the config file).
constexpr const char* kFileOptions[] = {"fabric", "lfts",        "guid2lid",
                                        "sl2vl",  "path-sl",     "path-selection",
                                        "tables", "opensm-conf", "pairs-file"};

// A key's line: where `"key"` first appears (the keys of one file are few and distinct).
int line_of(const std::string& text, const std::string& key) {
    const std::size_t at = text.find('"' + key + '"');
    return at == std::string::npos
               ? 0
               : 1 + int(std::count(text.begin(), text.begin() + std::ptrdiff_t(at), '\n'));
}

// A sweep point's keys as `ibrt sim` options (sweep_spec.hpp, SweepPoint): fabric.file,
// routing's keys but its label, sim's keys, cc's lines, vls, load, saturation's bounds.
std::vector<std::pair<std::string, json>> point_options(const json& p, const std::string& file,
                                                        const std::string& text) {
    std::vector<std::pair<std::string, json>> out;
    const json& fj = p["fabric"];
    if (!fj.is_object() || !fj.contains("file"))
        throw InputError(file, line_of(text, "fabric"),
                         "\"fabric\": a point's fabric as {\"file\": PATH} (a generated one: "
                         "write it with `ibrt gen ... -o F.net` and name that file)");
    out.emplace_back("fabric", fj["file"]);
    for (const char* k : {"routing", "sim"})
        if (p.contains(k))
            for (auto it = p[k].begin(); it != p[k].end(); ++it)
                if (it.key() != "label") out.emplace_back(it.key(), it.value());
    if (p.contains("cc")) {
        json lines = json::array();
        for (auto it = p["cc"].begin(); it != p["cc"].end(); ++it)
            lines.push_back(it.key() + " " + sweep::cc_option_text(it.value()));
        out.emplace_back("cc-option", lines);
    }
    if (p.contains("vls")) out.emplace_back("vls", p["vls"]);
    if (p.contains("load")) out.emplace_back("load", p["load"]);
    if (p.contains("saturation")) {
        const json& s = p["saturation"];
        out.emplace_back("saturation", true);
        for (const char* k : {"max", "steps", "tolerance"})
            if (s.contains(k)) out.emplace_back(std::string("saturation-") + k, s[k]);
    }
    return out;
}

} // namespace

void apply_sim_config_file(CLI::App& sub, const std::string& path) {
    const std::string text = read_input_file(path, kMaxTopologyBytes, "config");
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error& e) {
        // nlohmann's "[json.exception...] parse error at line L, column C: WHY": the line is
        // InputError's, the column and why are kept.
        std::string why = e.what();
        if (const auto c = why.find(", column "); c != std::string::npos) why.erase(0, c + 2);
        const std::size_t at = std::min<std::size_t>(e.byte ? e.byte - 1 : 0, text.size());
        throw InputError(path,
                         1 + int(std::count(text.begin(), text.begin() + std::ptrdiff_t(at), '\n')),
                         "not JSON: " + why);
    }
    if (!j.is_object())
        throw InputError(path, 1,
                         "expected {OPTION: VALUE, ...} or a sweep point (docs/sweeps.md)");
    // A point's result file holds the point under "point", its file names relative to the
    // spec's directory, which it does not record: they are taken as given (run it from there).
    const bool result_file = j.contains("point") && j["point"].is_object();
    if (result_file) j = j["point"];
    const bool point = j.contains("fabric") && j["fabric"].is_object();
    std::vector<std::pair<std::string, json>> options;
    if (point)
        options = point_options(j, path, text);
    else
        for (auto it = j.begin(); it != j.end(); ++it) options.emplace_back(it.key(), it.value());

    const std::filesystem::path dir = path == "-" || result_file
                                          ? std::filesystem::path()
                                          : std::filesystem::path(path).parent_path();
    for (auto& [key, value] : options) {
        const int line = line_of(text, key);
        const auto fail = [&](const std::string& problem) {
            throw InputError(path, line, "\"" + key + "\": " + problem);
        };
        CLI::Option* o =
            key.empty() || key[0] == '-' ? nullptr : sub.get_option_no_throw("--" + key);
        if (!o || o == sub.get_help_ptr() || key == "config")
            fail("not an `ibrt sim` option (`ibrt sim --help` lists them)");
        if (o->get_group() == "Output") fail("an output option: give it on the command line");
        if (o->count() > 0) continue; // the command line wins
        if (std::find(std::begin(kFileOptions), std::end(kFileOptions), key) !=
                std::end(kFileOptions) &&
            value.is_string() && !dir.empty() &&
            std::filesystem::path(value.get<std::string>()).is_relative())
            value = (dir / value.get<std::string>()).string();
        std::vector<std::string> values;
        if (o->get_expected_max() == 0) { // a flag
            if (!value.is_boolean()) fail("expected true or false (a flag)");
            if (!value.get<bool>()) continue;
            values = {"true"};
        } else if (value.is_object() || value.is_null() || value.is_boolean()) {
            fail("expected a string, a number or a list of them");
        } else {
            values = sweep::option_strings(value, o->get_items_expected_max() > 1);
        }
        try {
            for (const auto& v : values) o->add_result(v);
            o->run_callback();
        } catch (const CLI::Error& e) {
            fail(e.what());
        }
    }
}

nlohmann::ordered_json set_sim_options(const CLI::App& sub) {
    // A value as JSON: a number where the text is one, else the text.
    const auto value = [](const std::string& text) {
        const json v = json::parse(text, nullptr, false);
        return v.is_number() ? nlohmann::ordered_json(v) : nlohmann::ordered_json(text);
    };
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const CLI::Option* o : sub.get_options()) {
        if (!o->count() || o->get_lnames().empty() || o->get_group() == "Output" ||
            o == sub.get_help_ptr())
            continue;
        const std::string name = o->get_lnames()[0];
        if (name == "config") continue;
        if (o->get_expected_max() == 0) {
            out[name] = o->as<bool>(); // a flag may be given as --flag=false
        } else if (o->get_items_expected_max() > 1) {
            nlohmann::ordered_json list = nlohmann::ordered_json::array();
            for (const auto& r : o->results()) list.push_back(value(r));
            out[name] = list;
        } else if (!o->results().empty()) {
            out[name] = value(o->results().back());
        }
    }
    return out;
}

} // namespace ibrt::tools
