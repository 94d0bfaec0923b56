// Sweep spec parsing and expansion; see sweep_spec.hpp and docs/sweeps.md.
#include "tools/sweep_spec.hpp"

#include "fabric/input_error.hpp"
#include "sim/cc_config.hpp"
#include "tools/sweep_options.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace ibrt::tools {
namespace {

using json = nlohmann::json;

// The spec's text and name, to turn a key into the line it is on.
struct Source {
    const std::string& text;
    const std::string& file;

    int line_of_offset(std::size_t off) const {
        off = std::min(off, text.size());
        return 1 + int(std::count(text.begin(), text.begin() + std::ptrdiff_t(off), '\n'));
    }
    // The first line naming "key" (0 when it is not in the text, e.g. a built spec).
    int line_of(const std::string& key) const {
        const auto at = text.find("\"" + key + "\"");
        return at == std::string::npos ? 0 : line_of_offset(at);
    }
    [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
        throw InputError(file, line_of(key), fmt::format("\"{}\": {}", key, problem));
    }
};

// A JSON value as a list: arrays are axes, a scalar is a one-value axis.
std::vector<json> axis(const Source& src, const json& spec, const std::string& key,
                       std::vector<json> dflt) {
    if (!spec.contains(key)) return dflt;
    const json& v = spec[key];
    std::vector<json> out =
        v.is_array() ? std::vector<json>(v.begin(), v.end()) : std::vector<json>{v};
    if (out.empty()) src.fail(key, "empty list");
    return out;
}

json fabric_json(const Source& src, const json& f, std::vector<json>& out) {
    if (f.is_string()) {
        out.push_back(json{{"file", f}});
        return {};
    }
    if (!f.is_object()) src.fail("fabrics", "each fabric is a file name or an object");
    for (auto it = f.begin(); it != f.end(); ++it)
        if (it.key() != "file" && it.key() != "gen" && it.key() != "failure_seeds")
            src.fail(it.key(), "unknown fabric key (file, gen, failure_seeds)");
    if (f.contains("file") == f.contains("gen"))
        src.fail("fabrics", "each fabric needs exactly one of \"file\" and \"gen\"");
    if (f.contains("file")) {
        if (!f["file"].is_string()) src.fail("file", "expected a file name");
        if (f.contains("failure_seeds"))
            src.fail("failure_seeds", "failures apply to generated fabrics (\"gen\")");
        out.push_back(json{{"file", f["file"]}});
        return {};
    }
    // gen: `ibrt gen` arguments, as one string or a list.
    std::vector<std::string> args;
    if (f["gen"].is_string()) {
        std::istringstream in(f["gen"].get<std::string>());
        for (std::string w; in >> w;) args.push_back(w);
    } else if (f["gen"].is_array()) {
        for (const auto& a : f["gen"]) {
            if (!a.is_string() && !a.is_number()) src.fail("gen", "expected strings");
            args.push_back(a.is_string() ? a.get<std::string>() : a.dump());
        }
    } else {
        src.fail("gen", "expected `ibrt gen` arguments, e.g. \"fat-tree -m 4 -n 2\"");
    }
    if (args.empty()) src.fail("gen", "no family given");
    for (const auto& a : args)
        if (a == "-o" || a == "--output" || a.rfind("--output=", 0) == 0 || a == "--report-json")
            src.fail("gen", "the sweep keeps generated fabrics in memory: no -o/--report-json");
    const std::vector<json> seeds = axis(src, f, "failure_seeds", {json()});
    for (const json& s : seeds) {
        if (!s.is_null() && (!s.is_number_integer() || s.get<std::int64_t>() < 0))
            src.fail("failure_seeds", "expected whole numbers >= 0");
        std::vector<std::string> a = args;
        if (!s.is_null()) {
            a.push_back("--seed");
            a.push_back(s.dump());
        }
        out.push_back(json{{"gen", a}});
    }
    return {};
}

json routing_json(const Source& src, const json& r) {
    if (r.is_string()) return json{{"engine", r}};
    if (!r.is_object()) src.fail("routings", "each routing is an engine name or an object");
    if (r.contains("engine") == r.contains("lfts"))
        src.fail("routings", "each routing needs exactly one of \"engine\" and \"lfts\"");
    for (auto it = r.begin(); it != r.end(); ++it) {
        const json& v = it.value();
        const bool list = v.is_array() && std::all_of(v.begin(), v.end(),
                                                      [](const json& x) { return x.is_string(); });
        if (!v.is_string() && !v.is_number() && !(list && it.key() == "engine-opt"))
            src.fail(it.key(), "expected a string or a number (engine-opt: a list)");
    }
    return r;
}

// One value of a "cc" key in its canonical form: the text of the rest of the opensm.conf line
// (a number as written in JSON, so 8 and "8" are one point), or {"label", "value"} when the
// value is named for the legends (a CCT of 128 entries is no legend).
json cc_value(const Source& src, const std::string& key, const json& v) {
    if (v.is_string()) return v;
    if (v.is_number_integer()) return v.dump();
    if (v.is_object() && v.size() == 2 && v.contains("label") && v.contains("value") &&
        v["label"].is_string() && (v["value"].is_string() || v["value"].is_number_integer()))
        return json{{"label", v["label"]}, {"value", cc_value(src, key, v["value"])}};
    src.fail(key, "expected the option's value as opensm.conf writes it (a string or a whole "
                  "number), or {\"label\": NAME, \"value\": VALUE}");
}

// The "cc" key: the opensm.conf congestion-control lines of each point. An object (a block)
// or a list of blocks; in a block each key is the start of a line — an option name as opensm
// 3.3.23 spells it, and for the per-SL CA options optionally the SL ("cc_ca_cong_setting_ccti_
// timer 0") — and its value the rest of the line; a scalar is fixed, a list is an axis (in key
// order). The blocks' grids follow one another on one axis, so a CC-off baseline (an empty
// block) and a grid of settings share a spec. Every line is checked by the reader `ibrt sim`
// uses, alone, so an error names the key's line in the spec.
std::vector<json> cc_axis(const Source& src, const json& spec) {
    if (!spec.contains("cc")) return {json()};
    const json& c = spec["cc"];
    const std::vector<json> blocks =
        c.is_array() ? std::vector<json>(c.begin(), c.end()) : std::vector<json>{c};
    if (blocks.empty()) src.fail("cc", "empty list");
    std::vector<json> out;
    for (const json& b : blocks) {
        if (!b.is_object())
            src.fail("cc", "expected {OPTION: VALUE or [VALUES]} or a list of such blocks");
        std::vector<json> cur{json::object()};
        for (auto it = b.begin(); it != b.end(); ++it) {
            const std::string& k = it.key();
            const std::string name = k.substr(0, k.find_first_of(" \t"));
            if (!sim::is_cc_option(name))
                src.fail(k, "not a congestion-control option of opensm 3.3.23 (congestion_control, "
                            "cc_sw_cong_setting_*, cc_ca_cong_setting_*, cc_cct, ...)");
            if (it.value().is_array() && it.value().empty()) src.fail(k, "empty list");
            std::vector<json> values;
            for (const json& v : it.value().is_array() ? it.value() : json::array({it.value()})) {
                const json cv = cc_value(src, k, v);
                const std::string line = k + " " + cc_option_text(cv);
                try {
                    sim::read_cc_config_text(line, "cc");
                } catch (const InputError& e) {
                    src.fail(k, e.what());
                }
                values.push_back(cv);
            }
            std::vector<json> next;
            for (const json& x : cur)
                for (const json& v : values) {
                    json n = x;
                    n[k] = v;
                    next.push_back(std::move(n));
                }
            cur = std::move(next);
        }
        for (json& x : cur) out.push_back(x.empty() ? json() : std::move(x));
    }
    return out;
}

} // namespace

std::string point_id(const json& canonical) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (const unsigned char c : canonical.dump()) {
        h ^= c;
        h *= 0x100000001b3ULL;
    }
    return fmt::format("{:016x}", h);
}

SweepSpec parse_sweep_spec(const std::string& text, const std::string& file) {
    const Source src{text, file};
    json spec;
    try {
        spec = json::parse(text);
    } catch (const json::parse_error& e) {
        throw InputError(file, src.line_of_offset(e.byte ? e.byte - 1 : 0),
                         fmt::format("not JSON: {}", e.what()));
    }
    if (!spec.is_object()) throw InputError(file, 1, "a sweep spec is a JSON object");
    static const std::set<std::string> known{"title", "fabrics",    "routings", "patterns", "vls",
                                             "loads", "saturation", "sim",      "seeds",    "cc"};
    for (auto it = spec.begin(); it != spec.end(); ++it)
        if (!known.count(it.key()))
            src.fail(it.key(), "unknown key (title, fabrics, routings, patterns, vls, loads, "
                               "saturation, sim, cc, seeds)");
    SweepSpec out;
    out.file = file;
    out.base_dir = std::filesystem::path(file).parent_path().string();
    if (spec.contains("title")) {
        if (!spec["title"].is_string()) src.fail("title", "expected a string");
        out.title = spec["title"];
    }
    if (!spec.contains("fabrics")) src.fail("fabrics", "missing (the fabrics to sweep)");
    if (!spec.contains("routings")) src.fail("routings", "missing (engines or table files)");
    std::vector<json> fabrics;
    for (const json& f : axis(src, spec, "fabrics", {})) fabric_json(src, f, fabrics);
    std::vector<json> routings;
    for (const json& r : axis(src, spec, "routings", {})) routings.push_back(routing_json(src, r));

    const std::vector<json> patterns = axis(src, spec, "patterns", {json()});
    const std::vector<json> vls = axis(src, spec, "vls", {json(1)});
    for (const json& v : vls)
        if (!v.is_number_integer() || v.get<std::int64_t>() < 1 || v.get<std::int64_t>() > 15)
            src.fail("vls", "expected VL counts 1..15");
    const std::vector<json> seeds = axis(src, spec, "seeds", {json()});
    if (spec.contains("loads") && spec.contains("saturation"))
        src.fail("saturation", "give \"loads\" or \"saturation\", not both");
    std::vector<json> loads;
    if (spec.contains("saturation")) {
        const json& s = spec["saturation"];
        json sat = {{"max", 1.0}, {"steps", 7}, {"tolerance", 0.05}};
        if (s.is_object()) {
            for (auto it = s.begin(); it != s.end(); ++it) {
                if (!sat.contains(it.key()))
                    src.fail(it.key(), "unknown saturation key (max, steps, tolerance)");
                if (!it.value().is_number()) src.fail(it.key(), "expected a number");
                sat[it.key()] = it.value();
            }
        } else if (s != json(true)) {
            src.fail("saturation", "expected true or {\"max\", \"steps\", \"tolerance\"}");
        }
        loads.push_back(json{{"saturation", sat}});
    } else {
        for (const json& l : axis(src, spec, "loads", {json(0.5)})) {
            if (!l.is_number() || l.get<double>() < 0 || l.get<double>() > 1)
                src.fail("loads", "expected offered loads 0..1");
            loads.push_back(json{{"load", l}});
        }
    }
    // Simulator options: scalars apply to every point, lists are further axes (in key order).
    json sim_fixed = json::object();
    std::vector<std::pair<std::string, std::vector<json>>> sim_axes;
    if (spec.contains("sim")) {
        const json& s = spec["sim"];
        if (!s.is_object()) src.fail("sim", "expected {OPTION: VALUE or [VALUES]}");
        for (auto it = s.begin(); it != s.end(); ++it) {
            const std::string& k = it.key();
            if (k == "pattern" || k == "seed" || k.rfind("saturation", 0) == 0 || k == "vls" ||
                k == "load")
                src.fail(k, "set with the top-level \"patterns\", \"seeds\", \"saturation\", "
                            "\"vls\" or \"loads\"");
            if (it.value().is_array()) {
                if (it.value().empty()) src.fail(k, "empty list");
                sim_axes.emplace_back(k, std::vector<json>(it.value().begin(), it.value().end()));
            } else {
                sim_fixed[k] = it.value();
            }
        }
    }

    const std::vector<json> ccs = cc_axis(src, spec);

    // Expansion: fabric, routing, pattern, VLs, sim axes, cc, seed, load (outermost first).
    std::vector<json> grid_sims;
    {
        std::vector<json> cur{sim_fixed};
        for (const auto& [k, values] : sim_axes) {
            std::vector<json> next;
            for (const json& c : cur)
                for (const json& v : values) {
                    json n = c;
                    n[k] = v;
                    next.push_back(std::move(n));
                }
            cur = std::move(next);
        }
        grid_sims = std::move(cur);
    }
    // Every distinct option set is checked once, before anything runs.
    std::set<std::string> checked;
    for (const json& f : fabrics)
        for (const json& r : routings)
            for (const json& p : patterns)
                for (const json& v : vls)
                    for (const json& gs : grid_sims)
                        for (const json& cc : ccs)
                            for (const json& seed : seeds)
                                for (const json& l : loads) {
                                    json sim = gs;
                                    if (!p.is_null()) sim["pattern"] = p;
                                    if (!seed.is_null()) sim["seed"] = seed;
                                    if (r.contains("selection")) sim["selection"] = r["selection"];
                                    json pt = {
                                        {"fabric", f}, {"routing", r}, {"sim", sim}, {"vls", v}};
                                    // Without "cc" a point is what it was before the key existed:
                                    // its id does not change.
                                    if (!cc.is_null()) pt["cc"] = cc;
                                    pt.update(l);
                                    if (checked.insert(sim.dump() + cc.dump() + r.dump()).second) {
                                        try {
                                            sweep_sim_options(pt, out.base_dir);
                                        } catch (const InputError& e) {
                                            throw InputError(file, src.line_of("sim"), e.what());
                                        }
                                        try {
                                            sweep_routing_options(pt);
                                        } catch (const InputError& e) {
                                            throw InputError(file, src.line_of("routings"),
                                                             e.what());
                                        }
                                    }
                                    SweepPoint sp;
                                    sp.index = out.points.size();
                                    sp.id = point_id(pt);
                                    sp.json = std::move(pt);
                                    out.points.push_back(std::move(sp));
                                }
    std::set<std::string> ids;
    for (const auto& p : out.points)
        if (!ids.insert(p.id).second)
            throw InputError(
                file, 0,
                fmt::format("point {} appears twice: a list repeats a value", p.json.dump()));
    return out;
}

SweepSpec read_sweep_spec(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path, 0, "cannot read the sweep spec");
    std::stringstream ss;
    ss << in.rdbuf();
    return parse_sweep_spec(ss.str(), path);
}

std::vector<const SweepPoint*> shard_points(const SweepSpec& s, std::size_t i, std::size_t n) {
    std::vector<const SweepPoint*> out;
    for (const auto& p : s.points)
        if (p.index % n == i) out.push_back(&p);
    return out;
}

std::pair<std::size_t, std::size_t> parse_shard(const std::string& text) {
    const auto slash = text.find('/');
    try {
        if (slash != std::string::npos) {
            std::size_t u1 = 0, u2 = 0;
            const long i = std::stol(text.substr(0, slash), &u1);
            const long n = std::stol(text.substr(slash + 1), &u2);
            if (u1 == slash && u2 == text.size() - slash - 1 && i >= 0 && n >= 1 && i < n)
                return {std::size_t(i), std::size_t(n)};
        }
    } catch (const std::exception&) {
    }
    throw InputError("--shard", 0, fmt::format("expected I/N with 0 <= I < N, got '{}'", text));
}

} // namespace ibrt::tools
