// Running, resuming and merging sweep points; see sweep_run.hpp.
#include "sweep/sweep_run.hpp"

#include "sim/confidence.hpp"
#include "sim/config_notes.hpp"

#include "cli/gen_options.hpp"
#include "cli/progress.hpp"
#include "engines/engine.hpp"
#include "fabric/input_error.hpp"
#include "formats/routing_files.hpp"
#include "plot/plot.hpp"
#include "sim/run_json.hpp"
#include "sim/saturation.hpp"
#include "sim/simulator.hpp"
#include "sweep/sweep_options.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string_view>
#include <thread>
#include <unistd.h>

namespace ibrt::sweep {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

// A fabric and its routing, shared by the points that differ only in load, VLs or sim options.
struct Prepared {
    Fabric fabric;
    Routing routing;
    std::string name;
    std::string error; // the engine declined
};

std::string resolve(const SweepSpec& spec, const std::string& path) {
    if (path.empty() || fs::path(path).is_absolute() || spec.base_dir.empty()) return path;
    return (fs::path(spec.base_dir) / path).string();
}

std::shared_ptr<const Prepared> prepare(const SweepSpec& spec, const json& point) {
    // Engines are not all known to be thread-safe (GLPK in LID assignment): one at a time.
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<const Prepared>> cache;
    // DRB's DFS paths change the routing (cli/sim_options.hpp, apply_drb_paths).
    const cli::SimOptions so = sweep_sim_options(point, spec.base_dir);
    const std::string key =
        point["fabric"].dump() + point["routing"].dump() +
        (so.drb && so.drb_paths == "dfs" ? "dfs" + std::to_string(so.drb_max_paths)
                                         : std::string());
    std::lock_guard lock(mutex);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
    auto p = std::make_shared<Prepared>();
    const json& fj = point["fabric"];
    std::string fabric_path;
    if (fj.contains("file")) {
        fabric_path = resolve(spec, fj["file"].get<std::string>());
        p->fabric = load_topology(fabric_path);
        p->name = fj["file"].get<std::string>();
    } else {
        const auto args = fj["gen"].get<std::vector<std::string>>();
        p->fabric = cli::generate_fabric(args);
        std::string name;
        for (const auto& a : args) name += (name.empty() ? "" : " ") + a;
        p->name = name;
    }
    SweepRouting r = sweep_routing_options(point);
    for (std::string* f : {&r.options.lfts, &r.options.guid2lid, &r.options.sl2vl,
                           &r.options.path_selection, &r.options.path_sl})
        *f = resolve(spec, *f);
    if (!r.engine.empty() && fabric_path.empty() &&
        (!r.options.lfts.empty() || !r.options.guid2lid.empty()))
        throw InputError("routing", 0, "table files need a fabric \"file\"");
    try {
        p->routing = cli::load_sim_routing(p->fabric, fabric_path, r.options, r.engine);
        cli::apply_drb_paths(p->fabric, so, p->routing, 0, "ibrt sweep");
    } catch (const RoutingError& e) {
        p->error = fmt::format("engine {} declined {}: {}", r.engine, p->name, e.what());
    }
    if (cache.size() >= 16) cache.clear(); // bounded: grids keep a fabric's points together
    cache.emplace(key, p);
    return p;
}

// A run's record, as `ibrt sim --json` writes it (sim/run_json.hpp), in the points' JSON type.
json point_run(const Fabric& f, double load, const sim::SimResult& x) {
    return json::parse(sim::run_json(f, load, x, sim::RunDetail::Sweep).dump());
}

std::string label_of(const json& point) {
    const json& r = point["routing"];
    if (r.contains("label")) return r["label"].get<std::string>();
    std::string s = r.contains("engine") ? r["engine"].get<std::string>() : "lfts";
    for (auto it = r.begin(); it != r.end(); ++it)
        if (it.key() != "engine")
            s += fmt::format(" {}={}", it.key(),
                             it.value().is_string() ? it.value().get<std::string>()
                                                    : it.value().dump());
    return s;
}

std::string sim_label(const json& sim) {
    std::string s;
    for (auto it = sim.begin(); it != sim.end(); ++it)
        s +=
            fmt::format("{}{}={}", s.empty() ? "" : ";", it.key(),
                        it.value().is_string() ? it.value().get<std::string>() : it.value().dump());
    return s;
}

std::string csv_quote(const std::string& s) {
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

std::string format_seconds(double s) {
    if (s < 60) return fmt::format("{:.0f}s", s);
    if (s < 3600) return fmt::format("{}m{:02}s", int(s) / 60, int(s) % 60);
    return fmt::format("{}h{:02}m", int(s) / 3600, int(s) % 3600 / 60);
}

} // namespace

void write_file_atomically(const std::string& path, const std::string& text) {
    static std::atomic<unsigned> counter{0};
    // Host, process and counter: shards on several hosts may share the directory.
    static const std::string host = [] {
        char h[256] = {};
        ::gethostname(h, sizeof h - 1);
        return std::string(h);
    }();
    const std::string tmp = fmt::format("{}.tmp.{}.{}.{}", path, host, ::getpid(), counter++);
    {
        std::ofstream o(tmp, std::ios::binary);
        o << text;
        o.flush();
        if (!o) {
            std::remove(tmp.c_str());
            throw InputError(path, 0, "cannot write");
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        throw InputError(path, 0, "cannot rename the temporary file into place");
    }
}

std::string point_result_path(const std::string& out_dir, const SweepPoint& p) {
    return (fs::path(out_dir) / "points" / (p.id + ".json")).string();
}

bool point_done(const std::string& out_dir, const SweepPoint& p) {
    return fs::exists(point_result_path(out_dir, p));
}

json run_point(const SweepSpec& spec, const SweepPoint& p) {
    const auto t0 = std::chrono::steady_clock::now();
    const cli::SimOptions o = sweep_sim_options(p.json, spec.base_dir);
    sim::SimConfig c = cli::make_sim_config(o);
    c.num_vls = std::uint8_t(p.json["vls"].get<int>());
    const auto prep = prepare(spec, p.json);
    json res = {{"id", p.id}, {"index", p.index}, {"point", p.json}, {"fabric_name", prep->name}};
    json runs = json::array();
    bool failed = false;
    if (!prep->error.empty()) {
        // A decline, not a failed run (docs/sweeps.md): counted apart, a failure only with
        // --declines-fail.
        res["error"] = prep->error;
        res["declined"] = true;
    } else if (o.saturation) {
        sim::Saturation sat = sim::find_saturation(prep->fabric, prep->routing, c, o.saturation_max,
                                                   o.saturation_steps, o.saturation_tolerance);
        std::sort(sat.runs.begin(), sat.runs.end(),
                  [](const auto& x, const auto& y) { return x.load < y.load; });
        for (const auto& r : sat.runs) {
            runs.push_back(point_run(prep->fabric, r.load, r.result));
            failed |= sim::failed(r.result);
        }
        res["saturation"] = {{"onset_load", sat.onset_load},
                             {"onset_accepted", sat.onset_accepted},
                             {"max_accepted", sat.max_accepted},
                             {"max_accepted_load", sat.max_accepted_load}};
    } else {
        c.traffic.load = p.json["load"].get<double>();
        // What the simulator will assume of these tables (as `ibrt sim` prints them).
        for (const std::string& note : sim::config_notes(prep->fabric, prep->routing, c))
            res["notes"].push_back(fmt::format("{} {} {} VL{}: {}", prep->name, label_of(p.json),
                                               c.num_vls, c.num_vls > 1 ? "s" : "", note));
        const sim::SimResult x = sim::simulate(prep->fabric, prep->routing, c);
        runs.push_back(point_run(prep->fabric, c.traffic.load, x));
        failed = sim::failed(x);
    }
    res["runs"] = std::move(runs);
    res["failed"] = failed;
    res["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return res;
}

void write_manifest(const SweepSpec& spec, const std::string& out_dir) {
    fs::create_directories(fs::path(out_dir) / "points");
    json manifest = {{"title", spec.title}, {"points", json::array()}};
    for (const auto& p : spec.points) manifest["points"].push_back(p.id);
    write_file_atomically((fs::path(out_dir) / "manifest.json").string(), manifest.dump(1) + "\n");
}

SweepRunStats run_points(const SweepSpec& spec, const std::vector<const SweepPoint*>& points,
                         const SweepRunOptions& o) {
    write_manifest(spec, o.out_dir);

    SweepRunStats st;
    st.total = points.size();
    std::vector<const SweepPoint*> todo;
    for (const SweepPoint* p : points)
        if (!point_done(o.out_dir, *p)) todo.push_back(p);
    st.skipped = st.total - todo.size();

    std::atomic<std::size_t> next{0}, done{0}, failed{0}, declined{0};
    std::mutex mutex; // progress line, notes and the first error
    std::exception_ptr error;
    std::set<std::string> said; // each note and decline once, not once per point
    const auto t0 = std::chrono::steady_clock::now();
    const auto worker = [&] {
        for (;;) {
            const std::size_t i = next++;
            if (i >= todo.size()) return;
            {
                std::lock_guard lock(mutex);
                if (error) return;
            }
            try {
                const json r = run_point(spec, *todo[i]);
                if (r["failed"].get<bool>()) ++failed;
                if (r.contains("error")) ++declined;
                write_file_atomically(point_result_path(o.out_dir, *todo[i]), r.dump(1) + "\n");
                std::vector<std::string> lines = r.value("notes", std::vector<std::string>{});
                if (r.contains("error")) lines.push_back(r["error"].get<std::string>());
                std::lock_guard lock(mutex);
                for (const std::string& line : lines)
                    if (said.insert(line).second) {
                        if (!o.quiet) cli::progress("");
                        fmt::print(stderr, "ibrt sweep: {}\n", line);
                    }
            } catch (...) {
                std::lock_guard lock(mutex);
                if (!error) error = std::current_exception();
                return;
            }
            const std::size_t d = ++done;
            if (!o.quiet) {
                const double el =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                const double eta = el / double(d) * double(todo.size() - d);
                std::lock_guard lock(mutex);
                cli::progress(fmt::format("ibrt sweep: {}/{} points ({} done before), {}, ETA {}",
                                          d + st.skipped, st.total, st.skipped, format_seconds(el),
                                          format_seconds(eta)));
            }
        }
    };
    const unsigned jobs = std::max(1u, std::min<unsigned>(o.jobs, unsigned(todo.size())));
    std::vector<std::thread> threads;
    for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(worker);
    worker();
    for (auto& t : threads) t.join();
    if (!o.quiet) cli::progress("");
    if (error) std::rethrow_exception(error);
    st.ran = done;
    st.failed = failed;
    st.declined = declined;
    return st;
}

namespace {

// The congestion-control columns of a merge: one per "cc" key any point has (the opensm.conf
// option as spelled there, the value's label or text); the CC counters and the flow summary
// are the runs' columns (sim/run_json.hpp). A sweep without cc keys gets no such column.
struct CcColumns {
    std::vector<std::string> keys; // every "cc" key of any point, sorted
    std::set<std::string> varying; // keys whose value differs between points: the legends

    explicit CcColumns(const std::vector<json>& results) {
        std::set<std::string> all;
        for (const json& r : results) {
            const json& pt = r["point"];
            if (pt.contains("cc"))
                for (auto it = pt["cc"].begin(); it != pt["cc"].end(); ++it) all.insert(it.key());
        }
        // A key varies when the points with cc lines set it differently (one not setting it
        // among them counts as a value); the points without any are "no cc options".
        for (const std::string& k : all) {
            keys.push_back(k);
            std::set<std::string> values;
            for (const json& r : results) {
                const json& pt = r["point"];
                if (pt.contains("cc"))
                    values.insert(pt["cc"].contains(k) ? pt["cc"][k].dump() : "");
            }
            if (values.size() > 1) varying.insert(k);
        }
    }
    std::string header() const {
        std::string h;
        for (const auto& k : keys) h += "," + csv_quote(k);
        return h;
    }
    std::string keys_row(const json& point) const {
        std::string row;
        for (const auto& k : keys)
            row += "," + (point.contains("cc") && point["cc"].contains(k)
                              ? csv_quote(cc_option_label(point["cc"][k]))
                              : std::string());
        return row;
    }
    // A legend's name for the point's settings: the keys that differ between points, without
    // the prefix every option shares ("threshold=8 marking_rate=10").
    std::string label(const json& point) const {
        std::string l;
        if (keys.empty()) return l;
        if (!point.contains("cc")) return "no cc options";
        for (const auto& k : keys) {
            if (!varying.count(k) || !point["cc"].contains(k)) continue;
            std::string name = k;
            for (const char* prefix : {"cc_sw_cong_setting_", "cc_ca_cong_setting_", "cc_"})
                if (name.rfind(prefix, 0) == 0) {
                    name = name.substr(std::string_view(prefix).size());
                    break;
                }
            l +=
                fmt::format("{}{}={}", l.empty() ? "" : " ", name, cc_option_label(point["cc"][k]));
        }
        return l;
    }
};

// The parts a curve or bar is named by: fabric, pattern, routing, VLs, sim options, CC settings.
using Parts = std::array<std::string, 6>;

// A plot's settings for parts (plot/plot.hpp), from `from` on, the sim options one by one
// (`sim`, without the seed): the plot says the settings every curve shares under its title
// (the warm-up of every point), makes panels of fabric x pattern and names curves by the rest
// (the packet size that varies).
std::vector<std::pair<std::string, std::string>> plot_settings(const Parts& p, const json& sim,
                                                               std::size_t from = 0) {
    static constexpr const char* kKeys[] = {"fabric", "pattern", "routing", "VLs", "sim", "cc"};
    std::vector<std::pair<std::string, std::string>> s;
    for (std::size_t k = from; k < p.size(); ++k)
        if (k == 4)
            for (auto it = sim.begin(); it != sim.end(); ++it)
                s.emplace_back(it.key(),
                               it.key() + "=" +
                                   (it->is_string() ? it->get<std::string>() : it->dump()));
        else
            s.emplace_back(kKeys[k], k == 1 ? p[k] + " traffic" : p[k]);
    return s;
}

double mean_of(const std::vector<double>& v) {
    double t = 0;
    for (double x : v) t += x;
    return v.empty() ? NAN : t / double(v.size());
}

// Each seed's values of one curve or bar, averaged: the mean, and with several seeds the 95 %
// interval as an error bar (sim/confidence.hpp). The seeds' count is a setting every curve
// shares, so the plot says it under the title.
struct Replicated {
    std::vector<double> x, y;
};
std::string seeds_setting(std::size_t seeds) {
    return seeds > 1 ? fmt::format("mean of {} seeds, error bars: 95 % intervals", seeds) : "";
}

// Saturation searches as paper 003 tabulates them: writes saturation.csv (one row per search)
// and returns saturation.svg's spec, the saturation throughput (highest accepted fraction) as
// grouped bars, a group per fabric × pattern and a bar per routing × VLs × sim options × CC
// settings (the seeds' mean, with its interval), each named by what differs.
nlohmann::ordered_json write_saturation_table(const fs::path& dir, const std::string& title,
                                              const std::vector<Parts>& parts,
                                              const std::vector<json>& unseeded,
                                              const std::map<std::size_t, json>& sat,
                                              const std::map<std::size_t, std::string>& cc_row,
                                              const std::string& cc_header) {
    const auto differs = [&](std::size_t k) {
        for (const auto& [i, s] : sat)
            if (parts[i][k] != parts[sat.begin()->first][k]) return true;
        return false;
    };
    const auto name_of = [&](std::size_t i, std::initializer_list<std::size_t> ks) {
        std::string n;
        for (std::size_t k : ks)
            if (differs(k) && !parts[i][k].empty()) n += (n.empty() ? "" : " | ") + parts[i][k];
        return n;
    };
    std::vector<std::string> groups;
    // A bar per routing x VLs x sim options (without the seed) x CC settings: the seeds' mean.
    std::vector<Parts> bar_parts;
    std::vector<std::vector<std::vector<double>>> values; // [bar][group]: one per seed
    std::size_t seeds = 1;
    std::string csv = "fabric,pattern,routing,vls,sim,onset_load,onset_accepted_fraction,"
                      "max_accepted_fraction,max_accepted_load" +
                      cc_header + "\n";
    for (const auto& [i, s] : sat) {
        std::string g = name_of(i, {0, 1});
        if (g.empty()) g = parts[i][1]; // one pattern on one fabric: name the pattern
        Parts b = parts[i];
        b[0] = b[1] = "";
        b[4] = unseeded[i].dump();
        auto gi = std::find(groups.begin(), groups.end(), g);
        if (gi == groups.end()) gi = groups.insert(groups.end(), g);
        auto bi = std::find(bar_parts.begin(), bar_parts.end(), b);
        if (bi == bar_parts.end()) {
            bi = bar_parts.insert(bar_parts.end(), b);
            values.emplace_back();
        }
        auto& v = values[std::size_t(bi - bar_parts.begin())];
        const std::size_t gx = std::size_t(gi - groups.begin());
        if (v.size() <= gx) v.resize(gx + 1);
        v[gx].push_back(s["max_accepted"].get<double>());
        seeds = std::max(seeds, v[gx].size());
        csv += fmt::format("{},{},{},{},{},{:.6f},{:.6f},{:.6f},{:.6f}{}\n", csv_quote(parts[i][0]),
                           parts[i][1], csv_quote(parts[i][2]), parts[i][3], csv_quote(parts[i][4]),
                           s["onset_load"].get<double>(), s["onset_accepted"].get<double>(),
                           s["max_accepted"].get<double>(), s["max_accepted_load"].get<double>(),
                           cc_row.count(i) ? cc_row.at(i) : std::string());
    }
    write_file_atomically((dir / "saturation.csv").string(), csv);
    plot::Figure fig;
    fig.kind = plot::Kind::Bar;
    fig.title = title + ": saturation throughput";
    fig.y_label = "highest accepted traffic (fraction of link bandwidth)";
    fig.groups = groups;
    for (std::size_t b = 0; b < bar_parts.size(); ++b) {
        plot::Curve c{plot_settings(bar_parts[b], json::parse(bar_parts[b][4]), 2), {}, {}, {}, {}};
        c.settings.emplace_back("seeds", seeds_setting(seeds));
        for (std::size_t g = 0; g < groups.size(); ++g) {
            const std::vector<double> none, &v = g < values[b].size() ? values[b][g] : none;
            c.y.push_back(mean_of(v));
            if (seeds > 1) c.y_err.push_back(v.size() == seeds ? sim::ci95_half_width(v) : -1);
        }
        fig.curves.push_back(std::move(c));
    }
    return plot::plot_spec(fig);
}

// flows.svg's spec, for runs with flow statistics: a group per run (its curve's name, and its load
// when curves have several), bars for what the congestion-control studies measure: the
// victims' accepted share of what they offer, how busy the hot destinations' links are, and
// Jain's index over the hot flows.
nlohmann::ordered_json flows_figure(const std::string& title,
                                    const std::vector<std::pair<std::string, json>>& runs) {
    plot::Figure fig;
    fig.kind = plot::Kind::Bar;
    fig.title = title + ": hot spot and victims";
    fig.y_label = "fraction";
    for (const char* m : {"victims: accepted / offered", "hot links: accepted per hot destination",
                          "hot flows: Jain's fairness index"})
        fig.curves.push_back({{{"measure", m}}, {}, {}, {}, {}});
    for (const auto& [name, f] : runs) {
        fig.groups.push_back(name);
        const double vo = f["victim_offered"].get<double>();
        const double hd = f["hot_destinations"].get<double>();
        fig.curves[0].y.push_back(vo > 0 ? f["victim_accepted"].get<double>() / vo : NAN);
        fig.curves[1].y.push_back(hd > 0 ? f["hot_accepted"].get<double>() / hd : NAN);
        fig.curves[2].y.push_back(f["hot_jain"].is_number() ? f["hot_jain"].get<double>() : NAN);
    }
    return plot::plot_spec(fig);
}

} // namespace

MergeStats merge_sweep(const std::string& out_dir, const std::string& title_override,
                       const std::vector<std::string>& plot_also) {
    const fs::path dir(out_dir);
    const std::string mpath = (dir / "manifest.json").string();
    std::ifstream mi(mpath, std::ios::binary);
    if (!mi) throw InputError(mpath, 0, "no manifest: not a sweep output directory");
    json manifest;
    try {
        manifest = json::parse(mi);
    } catch (const json::exception& e) {
        throw InputError(mpath, 0, e.what());
    }
    MergeStats st;
    std::vector<json> results;
    std::vector<std::string> missing;
    for (const auto& idj : manifest["points"]) {
        const std::string id = idj.get<std::string>();
        const std::string path = (dir / "points" / (id + ".json")).string();
        std::ifstream in(path, std::ios::binary);
        if (!in) {
            missing.push_back(id);
            continue;
        }
        json r;
        try {
            r = json::parse(in);
        } catch (const json::exception& e) {
            throw InputError(path, 0, e.what());
        }
        ++st.points;
        // A decline is counted as one, also in results written before declines stopped
        // counting as failures.
        if (r.contains("error"))
            ++st.declined;
        else if (r["failed"].get<bool>())
            ++st.failed;
        r.erase("seconds"); // where and how fast it ran is not part of the result
        results.push_back(std::move(r));
    }
    const CcColumns cc(results);
    // Tidy columns: one per `ibrt sim` option whose value differs between points (the `sim`
    // column holds them all in one string), after every other column.
    std::vector<std::string> varying;
    {
        std::map<std::string, std::set<std::string>> values;
        for (const json& r : results)
            for (auto it = r["point"]["sim"].begin(); it != r["point"]["sim"].end(); ++it)
                values[it.key()].insert(it.value().dump());
        for (const auto& [key, v] : values) {
            bool everywhere = true;
            for (const json& r : results) everywhere &= r["point"]["sim"].contains(key);
            if (key != "pattern" && (v.size() > 1 || !everywhere)) varying.push_back(key);
        }
    }
    const auto sim_columns = [&](const json& pt) {
        std::string row;
        for (const auto& k : varying) {
            const json& v = pt["sim"].contains(k) ? pt["sim"][k] : json();
            row += "," + (v.is_null() ? std::string()
                                      : csv_quote(v.is_string() ? v.get<std::string>() : v.dump()));
        }
        return row;
    };
    std::string sim_header;
    for (const auto& k : varying) sim_header += "," + csv_quote(k);
    // The runs' columns (sim/run_json.hpp, as `ibrt sim --csv`): the optional groups (CC and
    // DRB counters, the flow summary, the stop rule's) only when some run has them.
    std::vector<json> records;
    for (const json& r : results)
        for (const json& x : r["runs"]) records.push_back(x);
    const sim::RunCsvColumns run_cols = sim::RunCsvColumns::of(records);
    std::string csv = "id,fabric,routing,pattern,vls,sim," + sim::run_csv_header(run_cols) +
                      ",error" + cc.header() + sim_header + "\n";
    std::vector<std::string> series_name; // a run's name in flows.svg
    std::map<std::string, std::size_t> series_of;
    std::vector<Parts> series_parts;
    std::vector<json> series_unseeded; // its sim options without the seed
    // sweep.svg's curves: a series without its seed, each load's values over the seeds.
    std::map<std::string, std::size_t> curve_of;
    std::vector<Parts> curve_parts;
    std::vector<json> curve_sim; // its sim options without the seed
    std::vector<std::map<double, Replicated>> curve_loads;
    std::map<std::size_t, json> saturation_of;           // series -> its saturation search
    std::map<std::size_t, std::string> cc_row_of;        // series -> its cc columns
    std::vector<std::pair<std::size_t, json>> flow_runs; // series, run
    std::set<std::size_t> several_loads;
    // The seeds of one point and load, for sweep-mean.csv: by the row's columns but the seed.
    struct Replicas {
        std::string columns; // fabric .. cc, load
        std::vector<double> accepted, latency;
        std::size_t failed = 0;
    };
    std::map<std::string, std::size_t> replicas_of;
    std::vector<Replicas> replicas;
    bool seeds_vary = false;
    for (const json& r : results) {
        const std::string id = r["id"].get<std::string>();
        const json& pt = r["point"];
        const std::string routing = label_of(pt);
        json sim = pt["sim"];
        const std::string pattern =
            sim.contains("pattern") ? sim["pattern"].get<std::string>() : "uniform";
        sim.erase("pattern");
        if (pt["routing"].contains("selection")) sim.erase("selection"); // in the routing's label
        const std::string simtext = sim_label(sim);
        json unseeded = sim;
        unseeded.erase("seed");
        const std::string simtext_unseeded = sim_label(unseeded);
        const std::string cctext = cc.label(pt);
        const std::string fabric = r["fabric_name"].get<std::string>();
        const int vls = pt["vls"].get<int>();
        const std::string err = r.contains("error") ? r["error"].get<std::string>() : "";
        std::string skey = fmt::format("{} | {} | {} | {} VL{} | {}", fabric, pattern, routing, vls,
                                       vls > 1 ? "s" : "", simtext);
        if (!cctext.empty()) skey += " | " + cctext;
        auto [it, fresh] = series_of.emplace(skey, series_name.size());
        const std::string vltext = fmt::format("{} VL{}", vls, vls > 1 ? "s" : "");
        if (fresh) {
            series_name.push_back(skey);
            series_parts.push_back({fabric, pattern, routing, vltext, simtext, cctext});
            series_unseeded.push_back(unseeded);
        } else {
            several_loads.insert(it->second);
        }
        const Parts cparts{fabric, pattern, routing, vltext, simtext_unseeded, cctext};
        std::string ckey;
        for (const auto& part : cparts) ckey += part + '\x1f';
        auto [ct, cfresh] = curve_of.emplace(ckey, curve_parts.size());
        if (cfresh) {
            curve_parts.push_back(cparts);
            curve_sim.push_back(unseeded);
            curve_loads.emplace_back();
        }
        const std::string cckeys = cc.keys_row(pt);
        cc_row_of[it->second] = cckeys;
        if (r.contains("saturation")) saturation_of[it->second] = r["saturation"];
        if (!err.empty())
            csv +=
                fmt::format("{},{},{},{},{},{},{},{}{}{}\n", id, csv_quote(fabric),
                            csv_quote(routing), pattern, vls, csv_quote(simtext),
                            sim::run_csv_empty(run_cols), csv_quote(err), cckeys, sim_columns(pt));
        for (const json& x : r["runs"]) {
            const json& lat = x["latency_ns"];
            if (!r.contains("saturation")) {
                const std::string cols = fmt::format(
                    "{},{},{},{},{},{},{}", csv_quote(fabric), csv_quote(routing), pattern, vls,
                    csv_quote(simtext_unseeded), csv_quote(cctext), x["load"].dump());
                auto [at, fresh_key] = replicas_of.emplace(cols, replicas.size());
                if (fresh_key) replicas.push_back({cols, {}, {}, 0});
                Replicas& rep = replicas[at->second];
                seeds_vary |= !fresh_key;
                rep.accepted.push_back(x["accepted_fraction"].get<double>());
                if (lat["samples"].get<std::uint64_t>() > 0)
                    rep.latency.push_back(lat["mean"].get<double>());
                rep.failed += x["verdict"].get<std::string>() != "ok";
            }
            csv += fmt::format("{},{},{},{},{},{},{},{}{}\n", id, csv_quote(fabric),
                               csv_quote(routing), pattern, vls, csv_quote(simtext),
                               sim::run_csv_row(x, run_cols), cckeys, sim_columns(pt));
            if (lat["samples"].get<std::uint64_t>() > 0) {
                Replicated& at = curve_loads[ct->second][x["load"].get<double>()];
                at.x.push_back(x["accepted_bytes_per_ns"].get<double>());
                at.y.push_back(lat["mean"].get<double>());
            }
            if (x.contains("flow_summary")) {
                json f = x["flow_summary"];
                f["load"] = x["load"];
                flow_runs.emplace_back(it->second, std::move(f));
            }
        }
    }
    json all = json::array();
    for (json& r : results) all.push_back(std::move(r));
    // flows.svg names each run by what differs between series: a part every series shares
    // (the fabric of a one-fabric study, its sim options) says nothing there.
    for (std::size_t i = 0; i < series_name.size() && series_name.size() > 1; ++i) {
        std::string name;
        for (std::size_t k = 0; k < series_parts[i].size(); ++k) {
            const bool shared =
                std::all_of(series_parts.begin(), series_parts.end(),
                            [&](const auto& p) { return p[k] == series_parts[0][k]; });
            if (shared || series_parts[i][k].empty()) continue;
            name += (name.empty() ? "" : " | ") + series_parts[i][k];
        }
        if (!name.empty()) series_name[i] = name;
    }
    st.missing = missing.size();
    for (const auto& id : missing) fmt::print(stderr, "ibrt sweep merge: point {} missing\n", id);
    const std::string title = !title_override.empty() ? title_override
                              : manifest["title"].is_string() && !manifest["title"].empty()
                                  ? manifest["title"].get<std::string>()
                                  : std::string("sweep");
    write_file_atomically((dir / "sweep.csv").string(), csv);
    if (seeds_vary) {
        // Replicated seeds averaged: the mean over the seeds and its 95 % interval (Student's
        // t over the seeds' values, sim/confidence.hpp).
        std::string mean =
            "fabric,routing,pattern,vls,sim,cc,load,seeds,accepted_fraction_mean,"
            "accepted_fraction_ci95,latency_mean_ns_mean,latency_mean_ns_ci95,runs_not_ok\n";
        const auto avg = [](const std::vector<double>& v) {
            double t = 0;
            for (double x : v) t += x;
            return v.empty() ? 0.0 : t / double(v.size());
        };
        for (const Replicas& rep : replicas)
            mean += fmt::format("{},{},{:.6f},{:.6f},{:.3f},{:.3f},{}\n", rep.columns,
                                rep.accepted.size(), avg(rep.accepted),
                                sim::ci95_half_width(rep.accepted), avg(rep.latency),
                                sim::ci95_half_width(rep.latency), rep.failed);
        write_file_atomically((dir / "sweep-mean.csv").string(), mean);
    }
    write_file_atomically((dir / "sweep.json").string(),
                          json{{"title", title}, {"missing", missing}, {"points", all}}.dump(1) +
                              "\n");
    // sweep.svg: panels by fabric x pattern, a curve per routing x VLs x sim options x CC
    // settings, each load's point (in load order) the mean over the seeds with its interval.
    {
        plot::Figure fig;
        fig.title = title;
        fig.x_label = "accepted traffic (bytes/ns/node)";
        fig.y_label = "average latency (ns)";
        fig.facets = {"fabric", "pattern"};
        std::size_t seeds = 1;
        for (const auto& loads : curve_loads)
            for (const auto& [load, r] : loads) seeds = std::max(seeds, r.y.size());
        for (std::size_t i = 0; i < curve_parts.size(); ++i) {
            plot::Curve c{plot_settings(curve_parts[i], curve_sim[i]), {}, {}, {}, {}};
            c.settings.emplace_back("seeds", seeds_setting(seeds));
            for (const auto& [load, r] : curve_loads[i]) {
                c.x.push_back(mean_of(r.x));
                c.y.push_back(mean_of(r.y));
                // An interval of every seed's run, or none: a saturation search's loads differ
                // between seeds, and a load only some of them ran is no replicate.
                if (seeds > 1) {
                    c.x_err.push_back(r.x.size() == seeds ? sim::ci95_half_width(r.x) : -1);
                    c.y_err.push_back(r.y.size() == seeds ? sim::ci95_half_width(r.y) : -1);
                }
            }
            if (!c.x.empty()) fig.curves.push_back(std::move(c)); // not a declined routing
        }
        st.plots["sweep.svg"] = plot::plot_spec(fig);
    }
    if (!saturation_of.empty()) {
        std::string keys_header;
        for (const auto& k : cc.keys) keys_header += "," + csv_quote(k);
        st.plots["saturation.svg"] = write_saturation_table(
            dir, title, series_parts, series_unseeded, saturation_of,
            cc.keys.empty() ? std::map<std::size_t, std::string>() : cc_row_of, keys_header);
    }
    if (!flow_runs.empty()) {
        std::vector<std::pair<std::string, json>> named;
        for (auto& [si, f] : flow_runs)
            named.emplace_back(several_loads.count(si)
                                   ? fmt::format("{} @ {}", series_name[si], f["load"].dump())
                                   : series_name[si],
                               std::move(f));
        st.plots["flows.svg"] = flows_figure(title, named);
    }
    // The figures last: without matplotlib the data files are there all the same.
    for (const auto& [file, spec] : st.plots) {
        std::vector<std::string> paths{(dir / file).string()};
        if (file == "sweep.svg") paths.insert(paths.end(), plot_also.begin(), plot_also.end());
        plot::render(spec, paths);
    }
    return st;
}

} // namespace ibrt::sweep
