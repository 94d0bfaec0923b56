// Fuzz target for the sweep spec (sweep/sweep_spec.hpp, `ibrt sweep SPEC`): any text must
// expand or throw ibrt::InputError naming the spec, with a line inside the text and never
// nlohmann::json's own exception text. What expands must be points `ibrt sweep` can run:
// grid-ordered, each id the hash of its JSON and no id twice, one fabric and one routing each,
// every sim value a scalar (a list is an axis, never a point's value: "seed": [] was one), and
// options that `ibrt sim`'s parser takes; else abort. The grid is capped at 16 points so an
// input stays cheap.
#include "fabric/input_error.hpp"
#include "sweep/sweep_options.hpp"
#include "sweep/sweep_spec.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>

namespace {

bool nonempty_string(const nlohmann::json& v) {
    return v.is_string() && !v.get_ref<const std::string&>().empty();
}

void check_point(const ibrt::sweep::SweepPoint& p) {
    const nlohmann::json& j = p.json;
    if (p.id != ibrt::sweep::point_id(j)) std::abort();
    for (auto it = j.begin(); it != j.end(); ++it)
        if (it.key() != "fabric" && it.key() != "routing" && it.key() != "sim" &&
            it.key() != "vls" && it.key() != "load" && it.key() != "saturation" && it.key() != "cc")
            std::abort();
    const auto& f = j.at("fabric");
    if (f.size() != 1 || !(nonempty_string(f.value("file", nlohmann::json())) ||
                           (f.contains("gen") && f["gen"].is_array() && !f["gen"].empty())))
        std::abort();
    const auto& r = j.at("routing");
    if (!r.is_object() || r.contains("engine") == r.contains("lfts")) std::abort();
    if (r.contains("engine") && !nonempty_string(r["engine"])) std::abort();
    const auto& sim = j.at("sim");
    for (auto it = sim.begin(); it != sim.end(); ++it)
        if (!it.value().is_primitive() || it.value().is_null()) std::abort();
    if (sim.contains("seed") && !sim["seed"].is_number_unsigned()) std::abort();
    if (sim.contains("pattern") && !nonempty_string(sim["pattern"])) std::abort();
    if (!j.at("vls").is_number_integer() || j["vls"] < 1 || j["vls"] > 15) std::abort();
    if (j.contains("load") == j.contains("saturation")) std::abort();
    if (j.contains("load") && !(j["load"].is_number() && j["load"] >= 0 && j["load"] <= 1))
        std::abort();
    if (j.contains("cc"))
        for (const auto& v : j["cc"])
            if (!v.is_string() && !(v.is_object() && v.at("value").is_string())) std::abort();
    // The point's options were checked when its option set first came up; every point reads.
    try {
        (void)ibrt::sweep::sweep_sim_options(j);
        (void)ibrt::sweep::sweep_routing_options(j);
    } catch (const ibrt::InputError&) {
        std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ibrt;
    const std::string text(reinterpret_cast<const char*>(data), size);
    sweep::SweepSpec s;
    try {
        s = sweep::parse_sweep_spec(text, "fuzz.json", 16);
    } catch (const InputError& e) {
        if (e.file() != "fuzz.json") std::abort();
        // nlohmann's own exception text, unless the spec's text quotes it.
        if (e.problem().find("[json.exception.") != std::string::npos &&
            text.find("[json.exception.") == std::string::npos)
            std::abort();
        if (e.line() > 1 + std::count(text.begin(), text.end(), '\n')) std::abort();
        return 0;
    }
    if (s.points.empty() || s.points.size() > 16) std::abort();
    std::set<std::string> ids;
    for (std::size_t i = 0; i < s.points.size(); ++i) {
        if (s.points[i].index != i || !ids.insert(s.points[i].id).second) std::abort();
        check_point(s.points[i]);
    }
    return 0;
}
