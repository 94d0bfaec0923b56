// Fuzz target for the opensm plugin's event_plugin_options parser
// (engines/opensm/plugin_options.hpp; pure, no opensm headers). opensm hands the plugin this
// string from a configuration file, so no input may crash it or throw: every problem is an
// entry in `errors`. What it accepts must read back: the options written in canonical form
// (`ibrt.report=R,seed=S`) parse to the same values with no errors, else abort. A token it
// leaves to another plugin must be of that form (PLUGIN.key=value, PLUGIN neither ibrt nor an
// engine), else a mistake would pass without a word: abort.
#include "engines/opensm/plugin_options.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using ibrt::osm::parse_plugin_options;
    const std::vector<std::string> engines = {"mlid", "slid"};
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const ibrt::osm::PluginOptions o = parse_plugin_options(text, engines);
    if (o.report.find_first_of(" ,\t") != std::string::npos) std::abort(); // split on those
    for (const std::string& tok : o.other_plugins) {
        const std::string_view t = tok, key = t.substr(0, t.find('='));
        const auto dot = key.find('.');
        if (t.find('=') == std::string_view::npos || dot == std::string_view::npos || dot == 0 ||
            dot + 1 == key.size() || key.find('.', dot + 1) != std::string_view::npos)
            std::abort();
        const std::string_view prefix = key.substr(0, dot);
        if (prefix == "ibrt" || prefix == "mlid" || prefix == "slid") std::abort();
    }
    std::string canonical = "seed=" + std::to_string(o.seed);
    if (!o.report.empty()) canonical = "ibrt.report=" + o.report + "," + canonical;
    const ibrt::osm::PluginOptions back = parse_plugin_options(canonical, engines);
    if (!back.errors.empty() || back.report != o.report || back.seed != o.seed) std::abort();
    return 0;
}
