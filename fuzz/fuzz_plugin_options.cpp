// Fuzz target for the opensm plugin's event_plugin_options parser
// (engines/opensm/plugin_options.hpp; pure, no opensm headers). opensm hands the plugin this
// string from a configuration file, so no input may crash it or throw: every problem is an
// entry in `errors`. What it accepts must read back: the options written in canonical form
// (`ibrt.report=R,seed=S`) parse to the same values with no errors, else abort.
#include "engines/opensm/plugin_options.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using ibrt::osm::parse_plugin_options;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const ibrt::osm::PluginOptions o = parse_plugin_options(text);
    if (o.report.find_first_of(" ,\t") != std::string::npos) std::abort(); // split on those
    std::string canonical = "seed=" + std::to_string(o.seed);
    if (!o.report.empty()) canonical = "ibrt.report=" + o.report + "," + canonical;
    const ibrt::osm::PluginOptions back = parse_plugin_options(canonical);
    if (!back.errors.empty() || back.report != o.report || back.seed != o.seed) std::abort();
    return 0;
}
