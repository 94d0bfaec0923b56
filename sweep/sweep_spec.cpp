// Sweep spec parsing, schema and expansion; see sweep_spec.hpp and docs/sweeps.md.
#include "sweep/sweep_spec.hpp"

#include "engines/engine.hpp"
#include "fabric/input_error.hpp"
#include "formats/input_file.hpp"
#include "formats/json_positions.hpp"
#include "sim/cc_config.hpp"
#include "sim/selection.hpp"
#include "sim/traffic.hpp"
#include "sweep/sweep_options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <sstream>

namespace ibrt::sweep {
namespace {

using json = nlohmann::json;

// Deeper than any spec (root, "cc", a block, a key's list, {"label", "value"}: 5): the
// checks, copies and dumps of nlohmann::json recurse, so a deeper text is refused first.
constexpr std::size_t kMaxDepth = 32;

// The spec's text, name and value positions: errors name the file, the line and the value.
struct Source {
    const std::string& text;
    const std::string& file;
    std::string base_dir;
    std::map<std::string, std::size_t> where;

    // The line of the value at `at`, else of the nearest value it is in (a missing key: the
    // line of its object).
    int line(const std::string& at) const { return json_line(text, where, at); }
    [[noreturn]] void fail(const std::string& at, const std::string& problem) const {
        throw InputError(file, line(at), at.empty() ? problem : at + ": " + problem);
    }
};

// What a message quotes of a value: its JSON, cut short.
std::string got(const json& v) {
    std::string s = v.dump(-1, ' ', false, json::error_handler_t::replace);
    if (s.size() > 60) s = s.substr(0, 57) + "...";
    return "got " + s;
}

// ---- The schema ----
// One table per object of the spec: its keys, whether each is required, whether a list is
// several values (an axis of the grid), and the check of one value. Every value is checked
// before any point is made, and every error names the spec, the line and the JSON pointer.

using Check = std::function<void(const Source&, const json&, const std::string&)>;

struct Key {
    std::string_view name;
    bool required = false;
    bool axis = false; // a list is several values, each checked; a scalar is one value
    Check check;
};

// Each value of an axis key: a list's elements (not none), or a scalar alone.
void each_value(const Source& src, const json& v, const std::string& at, const Check& check) {
    if (!v.is_array()) return check(src, v, at);
    if (v.empty()) src.fail(at, "empty list");
    for (std::size_t i = 0; i < v.size(); ++i) check(src, v[i], json_child(at, i));
}

std::string names(std::span<const Key> keys) {
    std::string s;
    for (const Key& k : keys) s += (s.empty() ? "" : ", ") + std::string(k.name);
    return s;
}

void check_keys(const Source& src, const json& obj, const std::string& at,
                std::span<const Key> keys, std::string_view what) {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        const std::string here = json_child(at, it.key());
        const auto k = std::find_if(keys.begin(), keys.end(),
                                    [&](const Key& x) { return x.name == it.key(); });
        if (k == keys.end())
            src.fail(here, fmt::format("unknown {} key (known: {})", what, names(keys)));
        if (k->axis)
            each_value(src, it.value(), here, k->check);
        else
            k->check(src, it.value(), here);
    }
    for (const Key& k : keys)
        if (k.required && !obj.contains(std::string(k.name)))
            src.fail(json_child(at, k.name), "missing (a spec names its fabrics and its routings)");
}

bool nonempty_string(const json& v) {
    return v.is_string() && !v.get_ref<const std::string&>().empty();
}

Check any_string() {
    return [](const Source& src, const json& v, const std::string& at) {
        if (!v.is_string()) src.fail(at, "expected a string, " + got(v));
    };
}

Check text(std::string what) {
    return [what](const Source& src, const json& v, const std::string& at) {
        if (!nonempty_string(v)) src.fail(at, fmt::format("expected {}, {}", what, got(v)));
    };
}

std::string bound(std::uint64_t v) {
    return v == std::numeric_limits<std::uint64_t>::max() ? "2^64-1" : std::to_string(v);
}

Check whole(std::int64_t lo, std::uint64_t hi) {
    return [lo, hi](const Source& src, const json& v, const std::string& at) {
        bool ok = false;
        if (v.is_number_unsigned()) {
            const auto x = v.get<std::uint64_t>();
            ok = x <= hi && (lo <= 0 || x >= std::uint64_t(lo));
        } else if (v.is_number_integer()) {
            const auto x = v.get<std::int64_t>();
            ok = x >= lo && (x < 0 || std::uint64_t(x) <= hi);
        }
        if (!ok)
            src.fail(at, fmt::format("expected a whole number {}..{}, {}", lo, bound(hi), got(v)));
    };
}

Check real(double lo, double hi, bool lo_open = false) {
    return [=](const Source& src, const json& v, const std::string& at) {
        const double x = v.is_number() ? v.get<double>() : std::nan("");
        if (!(std::isfinite(x) && (lo_open ? x > lo : x >= lo) && x <= hi))
            src.fail(at, lo_open ? fmt::format("expected a number above {} and at most {}, {}", lo,
                                               hi, got(v))
                                 : fmt::format("expected a number {}..{}, {}", lo, hi, got(v)));
    };
}

// A name from a known list: `what` is the kind of name ("engine"), `names` the list.
void check_name(const Source& src, const json& v, const std::string& at, const char* what,
                bool known, const std::string& names) {
    if (!nonempty_string(v))
        src.fail(at, fmt::format("expected the name of a {} ({}), {}", what, names, got(v)));
    if (!known)
        src.fail(at, fmt::format("unknown {} '{}' (known: {})", what, v.get<std::string>(), names));
}

void check_pattern(const Source& src, const json& v, const std::string& at) {
    check_name(src, v, at, "traffic pattern",
               v.is_string() && sim::parse_pattern(v.get<std::string>()), sim::pattern_names());
}

void check_engine(const Source& src, const json& v, const std::string& at) {
    check_name(src, v, at, "routing engine", v.is_string() && make_engine(v.get<std::string>()),
               fmt::format("{}", fmt::join(engine_names(), ", ")));
}

void check_selection(const Source& src, const json& v, const std::string& at) {
    check_name(src, v, at, "selection function",
               v.is_string() && sim::parse_selection(v.get<std::string>()), sim::selection_names());
}

// `ibrt gen` arguments: one string split at blanks, or a list of strings and numbers.
std::vector<std::string> gen_args(const json& g) {
    std::vector<std::string> args;
    if (g.is_string()) {
        std::istringstream in(g.get<std::string>());
        for (std::string w; in >> w;) args.push_back(w);
    } else {
        for (const json& a : g) args.push_back(a.is_string() ? a.get<std::string>() : a.dump());
    }
    return args;
}

void check_gen(const Source& src, const json& g, const std::string& at) {
    if (g.is_array()) {
        for (std::size_t i = 0; i < g.size(); ++i)
            if (!g[i].is_string() && !g[i].is_number())
                src.fail(json_child(at, i),
                         "expected an `ibrt gen` argument (a string or a number), " + got(g[i]));
    } else if (!g.is_string()) {
        src.fail(at, "expected `ibrt gen` arguments, e.g. \"fat-tree -m 4 -n 2\", " + got(g));
    }
    const std::vector<std::string> args = gen_args(g);
    if (args.empty()) src.fail(at, "no family given");
    for (const auto& a : args)
        if (a == "-o" || a == "--output" || a.rfind("--output=", 0) == 0 || a == "--report-json")
            src.fail(at, "the sweep keeps generated fabrics in memory: no -o/--report-json");
}

const Key kFabricKeys[] = {
    {"file", false, false, text("a file name")},
    {"gen", false, false, check_gen},
    {"failure_seeds", false, true, whole(0, std::numeric_limits<std::uint64_t>::max())},
};

void check_fabric(const Source& src, const json& f, const std::string& at) {
    if (nonempty_string(f)) return;
    if (!f.is_object())
        src.fail(at, "expected a file name, {\"file\": PATH} or {\"gen\": ARGS}, " + got(f));
    check_keys(src, f, at, kFabricKeys, "fabric");
    if (f.contains("file") == f.contains("gen"))
        src.fail(at, "each fabric needs exactly one of \"file\" and \"gen\"");
    if (f.contains("file") && f.contains("failure_seeds"))
        src.fail(json_child(at, "failure_seeds"), "failures apply to generated fabrics (\"gen\")");
}

// A routing: an engine name, or an object whose keys are "engine" or "lfts", "selection",
// "label" and `ibrt sim`'s routing options (the table of those is the command line's).
void check_routing(const Source& src, const json& r, const std::string& at) {
    if (r.is_string()) return check_engine(src, r, at);
    if (!r.is_object())
        src.fail(at, "expected an engine name, {\"engine\": NAME, ...} or {\"lfts\": PATH, ...}, " +
                         got(r));
    if (r.contains("engine") == r.contains("lfts"))
        src.fail(at, "each routing needs exactly one of \"engine\" and \"lfts\"");
    std::unique_ptr<Engine> engine;
    if (r.contains("engine")) {
        check_engine(src, r["engine"], json_child(at, "engine"));
        engine = make_engine(r["engine"].get<std::string>());
    }
    for (auto it = r.begin(); it != r.end(); ++it) {
        const std::string& k = it.key();
        const json& v = it.value();
        const std::string here = json_child(at, k);
        if (k == "engine") continue;
        if (k == "lfts" || k == "label") {
            text(k == "lfts" ? "a file name" : "a curve's name")(src, v, here);
            continue;
        }
        if (k == "selection") {
            check_selection(src, v, here);
            continue;
        }
        const OptionKind kind = routing_option_kind(k);
        if (kind == OptionKind::Unknown)
            src.fail(here, "not a routing option of `ibrt sim` (engine or lfts, selection, label, "
                           "lmc, engine-opt, data-vls, guid2lid, sl2vl, path-sl, "
                           "path-selection, tables)");
        // Engine options on tables are let through, as `ibrt sim --lfts ... --lmc 1` does:
        // the one-line form gives the command line's to every routing (tools/cmd_sweep.cpp).
        if (kind == OptionKind::List) { // --engine-opt: one or several key=value
            const json list = v.is_array() ? v : json::array({v});
            for (std::size_t i = 0; i < list.size(); ++i) {
                const std::string there = v.is_array() ? json_child(here, i) : here;
                if (!list[i].is_string())
                    src.fail(there, "expected key=value (a string), " + got(list[i]));
                EngineOptions opt;
                try {
                    if (engine) engine->set_param(opt, list[i].get<std::string>());
                } catch (const std::invalid_argument& e) {
                    src.fail(there, e.what());
                }
            }
            continue;
        }
        if (!v.is_string() && !v.is_number())
            src.fail(here, "expected a string or a number, " + got(v));
        if (const std::string p = routing_option_problem(k, v); !p.empty()) src.fail(here, p);
    }
}

// "sim": `ibrt sim`'s options without their "--"; a list is one more axis of the grid.
void check_sim(const Source& src, const json& s, const std::string& at) {
    if (!s.is_object()) src.fail(at, "expected {OPTION: VALUE or [VALUES]}, " + got(s));
    for (auto it = s.begin(); it != s.end(); ++it) {
        const std::string& k = it.key();
        const std::string here = json_child(at, k);
        if (k == "pattern" || k == "seed" || k.rfind("saturation", 0) == 0 || k == "vls" ||
            k == "load")
            src.fail(here, "set with the top-level \"patterns\", \"seeds\", \"saturation\", "
                           "\"vls\" or \"loads\"");
        const OptionKind kind = sim_option_kind(k);
        if (kind == OptionKind::Unknown)
            src.fail(here, "not an `ibrt sim` option (`ibrt sim --help` lists them)");
        each_value(src, it.value(), here,
                   [&](const Source& s2, const json& v, const std::string& there) {
                       if (kind == OptionKind::Flag) {
                           if (!v.is_boolean())
                               s2.fail(there, "expected true or false (a flag), " + got(v));
                           return;
                       }
                       if (!v.is_string() && !v.is_number())
                           s2.fail(there, "expected a string or a number, " + got(v));
                       if (const std::string p = sim_option_problem(k, v, s2.base_dir); !p.empty())
                           s2.fail(there, p);
                   });
    }
}

// One value of a "cc" key in its canonical form: the text of the rest of the opensm.conf line
// (a number as written in JSON, so 8 and "8" are one point), or {"label", "value"} when the
// value is named for the legends (a CCT of 128 entries is no legend). nullopt: not a value.
std::optional<json> cc_value(const json& v) {
    if (v.is_string()) return v;
    if (v.is_number_integer()) return json(v.dump());
    if (v.is_object() && v.size() == 2 && v.contains("label") && v.contains("value") &&
        v["label"].is_string() && (v["value"].is_string() || v["value"].is_number_integer()))
        return json{{"label", v["label"]}, {"value", *cc_value(v["value"])}};
    return std::nullopt;
}

// A block of "cc": each key the start of an opensm.conf line — an option name as opensm
// 3.3.23 spells it, and for the per-SL CA options optionally the SL ("cc_ca_cong_setting_ccti_
// timer 0") — and its value the rest of the line. Every line is checked alone by the reader
// `ibrt sim` uses, so an error names the value.
void check_cc_block(const Source& src, const json& b, const std::string& at) {
    if (!b.is_object())
        src.fail(at, "expected {OPTION: VALUE or [VALUES]} or a list of such blocks, " + got(b));
    for (auto it = b.begin(); it != b.end(); ++it) {
        const std::string& k = it.key();
        const std::string here = json_child(at, k);
        if (!sim::is_cc_option(k.substr(0, k.find_first_of(" \t"))))
            src.fail(here, "not a congestion-control option of opensm 3.3.23 (congestion_control, "
                           "cc_sw_cong_setting_*, cc_ca_cong_setting_*, cc_cct, ...)");
        if (k.find_first_of("\r\n") != std::string::npos)
            src.fail(here, "a key is the start of one opensm.conf line: no line break");
        each_value(src, it.value(), here,
                   [&](const Source& s2, const json& v, const std::string& there) {
                       const auto cv = cc_value(v);
                       if (!cv)
                           s2.fail(there, "expected the option's value as opensm.conf writes it "
                                          "(a string or a whole number), or {\"label\": NAME, "
                                          "\"value\": VALUE}, " +
                                              got(v));
                       const std::string rest = cc_option_text(*cv);
                       if (rest.find_first_of("\r\n") != std::string::npos)
                           s2.fail(there, "the value is the rest of one opensm.conf line: no "
                                          "line break");
                       try {
                           sim::read_cc_config_text(k + " " + rest, "cc");
                       } catch (const InputError& e) {
                           s2.fail(there, e.problem());
                       }
                   });
    }
}

const Key kSaturationKeys[] = {
    {"max", false, false, real(0, 1, true)},
    {"steps", false, false, whole(1, 30)},
    {"tolerance", false, false, real(0, 0.5)},
};

void check_saturation(const Source& src, const json& s, const std::string& at) {
    if (s == json(true)) return;
    if (!s.is_object())
        src.fail(at, "expected true or {\"max\", \"steps\", \"tolerance\"}, " + got(s));
    check_keys(src, s, at, kSaturationKeys, "saturation");
}

// The spec's own keys.
const Key kSpecKeys[] = {
    {"title", false, false, any_string()},
    {"fabrics", true, true, check_fabric},
    {"routings", true, true, check_routing},
    {"patterns", false, true, check_pattern},
    {"vls", false, true, whole(1, 15)},
    {"loads", false, true, real(0, 1)},
    {"saturation", false, false, check_saturation},
    {"sim", false, false, check_sim},
    {"cc", false, true, check_cc_block},
    {"seeds", false, true, whole(0, std::numeric_limits<std::uint64_t>::max())},
};

void check_spec(const Source& src, const json& spec) {
    if (!spec.is_object()) src.fail("", "a sweep spec is a JSON object, " + got(spec));
    check_keys(src, spec, "", kSpecKeys, "spec");
    if (spec.contains("loads") && spec.contains("saturation"))
        src.fail("/saturation", "give \"loads\" or \"saturation\", not both");
}

// ---- Expansion (of a spec the schema took) ----

// A key's values: a list's elements, a scalar alone, `dflt` when the key is not there.
std::vector<json> values(const json& obj, const char* key, std::vector<json> dflt) {
    if (!obj.contains(key)) return dflt;
    const json& v = obj.at(key);
    return v.is_array() ? std::vector<json>(v.begin(), v.end()) : std::vector<json>{v};
}

// a * b, at most `cap` (grid sizes are compared with the limit before anything is made).
std::size_t times(std::size_t a, std::size_t b, std::size_t cap) {
    if (a == 0 || b == 0) return 0;
    return a > cap / b ? cap : std::min(a * b, cap);
}

// The "cc" axis: every block's grid (its keys' lists, in key order), one block after the
// other; a point without lines is null.
std::vector<json> cc_axis(const json& spec) {
    std::vector<json> out;
    for (const json& b : values(spec, "cc", {json()})) {
        if (b.is_null()) return {json()};
        std::vector<json> cur{json::object()};
        for (auto it = b.begin(); it != b.end(); ++it) {
            std::vector<json> next;
            for (const json& x : cur)
                for (const json& v : values(b, it.key().c_str(), {})) {
                    json n = x;
                    n[it.key()] = *cc_value(v);
                    next.push_back(std::move(n));
                }
            cur = std::move(next);
        }
        for (json& x : cur) out.push_back(x.empty() ? json() : std::move(x));
    }
    return out;
}

std::size_t cc_count(const json& spec, std::size_t cap) {
    if (!spec.contains("cc")) return 1;
    std::size_t n = 0;
    for (const json& b : values(spec, "cc", {})) {
        std::size_t m = 1;
        for (auto it = b.begin(); it != b.end(); ++it)
            m = times(m, it.value().is_array() ? it.value().size() : 1, cap);
        n = std::min(cap, n + m);
    }
    return n;
}

// Where an error of `ibrt sim`'s parser about a point's options is in the spec: the "sim" key
// of the option it names ("--vc-alloc-gap-ns"), the patterns for the pattern's own options,
// else "sim", else the spec.
std::string sim_error_at(const json& spec, const InputError& e) {
    const std::string& f = e.file();
    const std::string key = f.rfind("--", 0) == 0 ? f.substr(2) : "";
    if (spec.contains("sim") && spec["sim"].contains(key)) return json_child("/sim", key);
    if ((key == "pattern" || key == "pairs-file") && spec.contains("patterns")) return "/patterns";
    return spec.contains("sim") ? "/sim" : "";
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

SweepSpec parse_sweep_spec(const std::string& text, const std::string& file,
                           std::size_t max_points) {
    Source src{text, file, std::filesystem::path(file).parent_path().string(), {}};
    src.where = json_positions(text, file, kMaxDepth);
    json spec;
    try {
        spec = json::parse(text); // the pass above took it: this does not throw
    } catch (const json::exception& e) {
        throw InputError(file, 0, "not JSON: " + json_error_text(e));
    }
    check_spec(src, spec);

    SweepSpec out;
    out.file = file;
    out.base_dir = src.base_dir;
    if (spec.contains("title")) out.title = spec["title"];

    std::vector<json> fabrics;
    for (const json& f : values(spec, "fabrics", {})) {
        if (f.is_string()) {
            fabrics.push_back(json{{"file", f}});
        } else if (f.contains("file")) {
            fabrics.push_back(json{{"file", f["file"]}});
        } else {
            const std::vector<std::string> args = gen_args(f["gen"]);
            for (const json& s : values(f, "failure_seeds", {json()})) {
                std::vector<std::string> a = args;
                if (!s.is_null()) {
                    a.push_back("--seed");
                    a.push_back(s.dump());
                }
                fabrics.push_back(json{{"gen", a}});
            }
        }
    }
    std::vector<json> routings;
    std::vector<std::string> routing_at; // each routing's pointer, for the errors below
    {
        const std::vector<json> rs = values(spec, "routings", {});
        for (std::size_t i = 0; i < rs.size(); ++i) {
            routings.push_back(rs[i].is_string() ? json{{"engine", rs[i]}} : rs[i]);
            routing_at.push_back(spec["routings"].is_array() ? json_child("/routings", i)
                                                             : "/routings");
        }
    }
    const std::vector<json> patterns = values(spec, "patterns", {json()});
    const std::vector<json> vls = values(spec, "vls", {json(1)});
    const std::vector<json> seeds = values(spec, "seeds", {json()});
    std::vector<json> loads;
    if (spec.contains("saturation")) {
        json sat = {{"max", 1.0}, {"steps", 7}, {"tolerance", 0.05}};
        if (spec["saturation"].is_object()) sat.update(spec["saturation"]);
        loads.push_back(json{{"saturation", sat}});
    } else {
        for (const json& l : values(spec, "loads", {json(0.5)})) loads.push_back(json{{"load", l}});
    }
    // Simulator options: scalars apply to every point, lists are further axes (in key order).
    json sim_fixed = json::object();
    std::vector<std::pair<std::string, std::vector<json>>> sim_axes;
    if (spec.contains("sim"))
        for (auto it = spec["sim"].begin(); it != spec["sim"].end(); ++it) {
            if (it.value().is_array())
                sim_axes.emplace_back(it.key(),
                                      std::vector<json>(it.value().begin(), it.value().end()));
            else
                sim_fixed[it.key()] = it.value();
        }

    // The grid's size before it is made: a spec of a few lines can name billions of points.
    const std::size_t cap = max_points + 1;
    std::size_t total = 1;
    for (const std::size_t n : {fabrics.size(), routings.size(), patterns.size(), vls.size(),
                                seeds.size(), loads.size(), cc_count(spec, cap)})
        total = times(total, n, cap);
    for (const auto& axis : sim_axes) total = times(total, axis.second.size(), cap);
    if (total > max_points)
        throw InputError(file, 0,
                         fmt::format("the grid has more than {} points: split the study into "
                                     "several specs",
                                     max_points));
    const std::vector<json> ccs = cc_axis(spec);

    // Expansion: fabric, routing, pattern, VLs, sim axes, cc, seed, load (outermost first).
    std::vector<json> grid_sims{sim_fixed};
    for (const auto& [k, vs] : sim_axes) {
        std::vector<json> next;
        for (const json& c : grid_sims)
            for (const json& v : vs) {
                json n = c;
                n[k] = v;
                next.push_back(std::move(n));
            }
        grid_sims = std::move(next);
    }
    // Every distinct option set is checked once, before anything runs: what one value alone
    // cannot say (an option that needs another, the pattern's files, the VLs' arbitration).
    std::set<std::string> checked;
    for (const json& f : fabrics)
        for (std::size_t ri = 0; ri < routings.size(); ++ri)
            for (const json& p : patterns)
                for (const json& v : vls)
                    for (const json& gs : grid_sims)
                        for (const json& cc : ccs)
                            for (const json& seed : seeds)
                                for (const json& l : loads) {
                                    const json& r = routings[ri];
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
                                    // What the checks read: the options, the VL count (the
                                    // VL arbitration names VLs) and a saturation search's
                                    // bounds; not the offered load.
                                    const std::string set =
                                        sim.dump() + cc.dump() + r.dump() + v.dump() +
                                        (l.contains("saturation") ? l.dump() : "");
                                    if (checked.insert(set).second) {
                                        try {
                                            sweep_sim_options(pt, out.base_dir);
                                        } catch (const InputError& e) {
                                            src.fail(sim_error_at(spec, e), e.what());
                                        }
                                        try {
                                            sweep_routing_options(pt);
                                        } catch (const InputError& e) {
                                            src.fail(routing_at[ri], e.what());
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
    return parse_sweep_spec(read_input_file(path, kMaxTopologyBytes, "sweep spec"), path);
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

} // namespace ibrt::sweep
