// event_plugin_options parsing: pure, so it is unit-tested without opensm.
#include "engines/opensm/plugin_options.hpp"

#include <algorithm>
#include <charconv>

namespace ibrt::osm {

namespace {

template <class T> bool parse_number(std::string_view v, T& out) {
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
    return ec == std::errc() && p == v.data() + v.size();
}

} // namespace

PluginOptions parse_plugin_options(std::string_view text, const std::vector<std::string>& engines) {
    PluginOptions o;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == ',' || text[i] == '\t')) ++i;
        std::size_t j = i;
        while (j < text.size() && text[j] != ' ' && text[j] != ',' && text[j] != '\t') ++j;
        std::string_view tok = text.substr(i, j - i);
        i = j;
        if (tok.empty()) continue;
        if (tok.starts_with("ibrt.")) tok.remove_prefix(5);
        const auto eq = tok.find('=');
        const std::string_view key = tok.substr(0, eq);
        if (const auto dot = key.find('.'); dot != std::string_view::npos) {
            const std::string_view prefix = key.substr(0, dot);
            if (std::find(engines.begin(), engines.end(), prefix) == engines.end())
                continue; // another plugin's option
            o.engine_params.emplace_back(std::string(prefix), std::string(tok.substr(dot + 1)));
            continue;
        }
        if (eq == std::string_view::npos) {
            o.errors.push_back("option '" + std::string(tok) + "' has no '=value'");
            continue;
        }
        const std::string_view val = tok.substr(eq + 1);
        const std::string bad = "option '" + std::string(tok) + "': ";
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
            if (!parse_number(val, o.seed))
                o.errors.push_back(bad + "not an unsigned integer; using seed=1");
        } else {
            o.errors.push_back("unknown option '" + std::string(key) +
                               "' ignored (known: report, path_sl, seed, ENGINE.param)");
        }
    }
    return o;
}

} // namespace ibrt::osm
