// event_plugin_options parsing: pure, so it is unit-tested without opensm.
#include "engines/opensm/plugin_options.hpp"

#include <algorithm>
#include <charconv>
#include <string>

namespace ibrt::osm {

namespace {

template <class T> bool parse_number(std::string_view v, T& out) {
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
    return ec == std::errc() && p == v.data() + v.size();
}

// A plugin name or key as another plugin would spell it: non-empty, letters, digits, _ and -.
bool is_word(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '-';
    });
}

std::string engine_list(const std::vector<std::string>& engines) {
    std::string s;
    for (const std::string& e : engines) s += (s.empty() ? "" : ", ") + e;
    return s.empty() ? "none" : s;
}

} // namespace

PluginOptions parse_plugin_options(std::string_view text, const std::vector<std::string>& engines) {
    PluginOptions o;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == ',' || text[i] == '\t')) ++i;
        std::size_t j = i;
        while (j < text.size() && text[j] != ' ' && text[j] != ',' && text[j] != '\t') ++j;
        const std::string_view given = text.substr(i, j - i); // named as given in every error
        i = j;
        if (given.empty()) continue;
        std::string_view tok = given;
        const bool ours = tok.starts_with("ibrt.");
        if (ours) tok.remove_prefix(5);
        const auto eq = tok.find('=');
        const std::string_view key = tok.substr(0, eq);
        const std::string name = "option '" + std::string(given) + "'";
        if (key.empty()) {
            o.errors.push_back(name + " has no key; ignored");
            continue;
        }
        if (const auto dot = key.find('.'); dot != std::string_view::npos) {
            const std::string_view prefix = key.substr(0, dot), rest = key.substr(dot + 1);
            if (std::find(engines.begin(), engines.end(), prefix) != engines.end()) {
                // The engine checks the rest against its declarations (the plugin logs it).
                o.engine_params.emplace_back(std::string(prefix), std::string(tok.substr(dot + 1)));
            } else if (!ours && prefix != "ibrt" && is_word(prefix) && is_word(rest) &&
                       eq != std::string_view::npos) {
                o.other_plugins.emplace_back(given);
            } else if (ours) {
                o.errors.push_back(name + " ignored: '" + std::string(prefix) +
                                   "' is not an ibrt engine (engines: " + engine_list(engines) +
                                   ")");
            } else {
                o.errors.push_back(name + " ignored: neither ibrt's (key=value, ENGINE.key=value, "
                                          "ibrt.…) nor another plugin's (PLUGIN.key=value)");
            }
            continue;
        }
        if (eq == std::string_view::npos) {
            o.errors.push_back(name + " has no '=value'");
            continue;
        }
        const std::string_view val = tok.substr(eq + 1);
        const std::string bad = name + ": ";
        if (key == "report") {
            if (val.empty())
                o.errors.push_back(bad + "empty path; no report is written");
            else
                o.report = std::string(val);
        } else if (key == "path_sl") {
            if (val.empty())
                o.errors.push_back(bad + "empty path; no path-SL file is written");
            else
                o.path_sl = std::string(val);
        } else if (key == "seed") {
            // A temporary: from_chars stores "12x"'s 12 before the check rejects it.
            std::uint64_t seed = 0;
            if (parse_number(val, seed))
                o.seed = seed;
            else
                o.errors.push_back(bad +
                                   "not an unsigned integer; using seed=" + std::to_string(o.seed));
        } else {
            o.errors.push_back("unknown option '" + std::string(key) +
                               "' ignored (known: report, path_sl, seed, ENGINE.param)");
        }
    }
    return o;
}

} // namespace ibrt::osm
