// Fuzz target for `ibrt plot`'s figure (tools/figure_file.hpp, "ibrt-figure/1"): any text must
// read as a figure or throw ibrt::InputError naming the file, with a line inside the text and
// never nlohmann::json's own exception text. A figure that reads must have a spec (plot_spec
// must not throw, and keeps its panels to 8 curves), and written back (figure_json) it must read
// as a figure with the same spec; else abort.
#include "fabric/input_error.hpp"
#include "plot/plot.hpp"
#include "tools/figure_file.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ibrt;
    const std::string text(reinterpret_cast<const char*>(data), size);
    plot::Figure f;
    try {
        f = tools::parse_figure(text, "fuzz.json");
    } catch (const InputError& e) {
        if (e.file() != "fuzz.json") std::abort();
        // nlohmann's own exception text, unless the figure's text quotes it.
        if (e.problem().find("[json.exception.") != std::string::npos &&
            text.find("[json.exception.") == std::string::npos)
            std::abort();
        if (e.line() > 1 + std::count(text.begin(), text.end(), '\n')) std::abort();
        return 0;
    }
    if (f.curves.empty()) std::abort();
    const auto spec = plot::plot_spec(f);
    for (const auto& p : spec["panels"])
        if (p["curves"].size() > plot::kMaxCurvesPerPanel) std::abort();
    try {
        if (plot::plot_spec(tools::parse_figure(tools::figure_json(f).dump(), "again.json")) !=
            spec)
            std::abort();
    } catch (const InputError&) {
        std::abort();
    }
    return 0;
}
