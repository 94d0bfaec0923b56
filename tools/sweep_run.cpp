// Running, resuming and merging sweep points; see sweep_run.hpp.
#include "tools/sweep_run.hpp"

#include "engines/engine.hpp"
#include "fabric/input_error.hpp"
#include "fabric/routing_files.hpp"
#include "sim/saturation.hpp"
#include "sim/simulator.hpp"
#include "sim/svg_plot.hpp"
#include "tools/command.hpp"
#include "tools/gen_fabric.hpp"
#include "tools/sweep_options.hpp"

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
#include <sstream>
#include <thread>
#include <unistd.h>

namespace ibrt::tools {
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
    // DRB's DFS paths change the routing (tools/sim_options.hpp, apply_drb_paths).
    const SimOptions so = sweep_sim_options(point);
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
        p->fabric = generate_fabric(args);
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
        p->routing = load_sim_routing(p->fabric, fabric_path, r.options, r.engine);
        apply_drb_paths(p->fabric, so, p->routing, 0, "ibrt sweep");
    } catch (const RoutingError& e) {
        p->error = fmt::format("engine {} declined {}: {}", r.engine, p->name, e.what());
    }
    if (cache.size() >= 16) cache.clear(); // bounded: grids keep a fabric's points together
    cache.emplace(key, p);
    return p;
}

json run_json(double load, const sim::SimResult& x) {
    return json{{"load", load},
                {"offered_fraction", x.offered_fraction},
                {"accepted_fraction", x.accepted_fraction},
                {"accepted_bytes_per_ns", x.accepted_bytes_per_ns},
                {"latency_mean_ns", x.latency_mean_ns},
                {"latency_p50_ns", x.latency_p50_ns},
                {"latency_p99_ns", x.latency_p99_ns},
                {"latency_max_ns", x.latency_max_ns},
                {"latency_samples", x.latency_samples},
                {"link_util_max", x.link_util_max},
                {"generated", x.generated},
                {"delivered", x.delivered},
                {"dropped", x.dropped},
                {"in_flight", x.in_flight},
                {"measured_unfinished", x.measured_unfinished},
                {"deadlock", x.deadlock},
                {"verdict", sim::to_string(x.verdict)},
                {"failed", sim::failed(x)}};
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
    const SimOptions o = sweep_sim_options(p.json);
    sim::SimConfig c = make_sim_config(o);
    c.num_vls = std::uint8_t(p.json["vls"].get<int>());
    const auto prep = prepare(spec, p.json);
    json res = {{"id", p.id}, {"index", p.index}, {"point", p.json}, {"fabric_name", prep->name}};
    json runs = json::array();
    bool failed = false;
    if (!prep->error.empty()) {
        res["error"] = prep->error;
        failed = true;
    } else if (o.saturation) {
        sim::Saturation sat = sim::find_saturation(prep->fabric, prep->routing, c, o.saturation_max,
                                                   o.saturation_steps, o.saturation_tolerance);
        std::sort(sat.runs.begin(), sat.runs.end(),
                  [](const auto& x, const auto& y) { return x.load < y.load; });
        for (const auto& r : sat.runs) {
            runs.push_back(run_json(r.load, r.result));
            failed |= sim::failed(r.result);
        }
        res["saturation"] = {{"onset_load", sat.onset_load},
                             {"onset_accepted", sat.onset_accepted},
                             {"max_accepted", sat.max_accepted},
                             {"max_accepted_load", sat.max_accepted_load}};
    } else {
        c.traffic.load = p.json["load"].get<double>();
        const sim::SimResult x = sim::simulate(prep->fabric, prep->routing, c);
        runs.push_back(run_json(c.traffic.load, x));
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

    std::atomic<std::size_t> next{0}, done{0}, failed{0};
    std::mutex mutex; // progress line and the first error
    std::exception_ptr error;
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
                write_file_atomically(point_result_path(o.out_dir, *todo[i]), r.dump(1) + "\n");
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
                progress(fmt::format("ibrt sweep: {}/{} points ({} done before), {}, ETA {}",
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
    if (!o.quiet) progress("");
    if (error) std::rethrow_exception(error);
    st.ran = done;
    st.failed = failed;
    return st;
}

// Saturation searches as paper 003 tabulates them: saturation.csv (one row per search) and
// saturation.svg, the saturation throughput (highest accepted fraction) as grouped bars, a
// group per fabric × pattern and a bar per routing × VLs × sim options, each named by what
// differs between groups or bars.
void write_saturation_table(const fs::path& dir, const std::string& title,
                            const std::vector<std::array<std::string, 5>>& parts,
                            const std::map<std::size_t, json>& sat) {
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
    std::vector<sim::BarSeries> bars;
    std::string csv = "fabric,pattern,routing,vls,sim,onset_load,onset_accepted_fraction,"
                      "max_accepted_fraction,max_accepted_load\n";
    for (const auto& [i, s] : sat) {
        std::string g = name_of(i, {0, 1});
        if (g.empty()) g = parts[i][1]; // one pattern on one fabric: name the pattern
        std::string b = name_of(i, {2, 3, 4});
        if (b.empty()) b = parts[i][2];
        auto gi = std::find(groups.begin(), groups.end(), g);
        if (gi == groups.end()) gi = groups.insert(groups.end(), g);
        auto bi =
            std::find_if(bars.begin(), bars.end(), [&](const auto& x) { return x.name == b; });
        if (bi == bars.end()) bi = bars.insert(bars.end(), {b, {}});
        const std::size_t gx = std::size_t(gi - groups.begin());
        if (bi->values.size() <= gx) bi->values.resize(gx + 1, NAN);
        bi->values[gx] = s["max_accepted"].get<double>();
        csv += fmt::format("{},{},{},{},{},{:.6f},{:.6f},{:.6f},{:.6f}\n", csv_quote(parts[i][0]),
                           parts[i][1], csv_quote(parts[i][2]), parts[i][3], csv_quote(parts[i][4]),
                           s["onset_load"].get<double>(), s["onset_accepted"].get<double>(),
                           s["max_accepted"].get<double>(), s["max_accepted_load"].get<double>());
    }
    write_file_atomically((dir / "saturation.csv").string(), csv);
    write_file_atomically(
        (dir / "saturation.svg").string(),
        sim::bar_chart_svg(groups, bars, title + ": saturation throughput",
                           "highest accepted traffic (fraction of link bandwidth)"));
}

MergeStats merge_sweep(const std::string& out_dir, const std::string& title_override) {
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
    std::string csv =
        "id,fabric,routing,pattern,vls,sim,load,offered_fraction,accepted_fraction,"
        "accepted_bytes_per_ns,latency_mean_ns,latency_p50_ns,latency_p99_ns,latency_max_ns,"
        "link_util_max,generated,delivered,dropped,in_flight,measured_unfinished,deadlock,"
        "verdict,error\n";
    json all = json::array();
    std::vector<sim::PlotSeries> series;
    std::map<std::string, std::size_t> series_of;
    std::vector<std::array<std::string, 5>> series_parts; // fabric, pattern, routing, VLs, sim
    std::map<std::size_t, json> saturation_of;            // series -> its saturation search
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
        if (r["failed"].get<bool>()) ++st.failed;
        r.erase("seconds"); // where and how fast it ran is not part of the result
        const json& pt = r["point"];
        const std::string routing = label_of(pt);
        json sim = pt["sim"];
        const std::string pattern =
            sim.contains("pattern") ? sim["pattern"].get<std::string>() : "uniform";
        sim.erase("pattern");
        if (pt["routing"].contains("selection")) sim.erase("selection"); // in the routing's label
        const std::string simtext = sim_label(sim);
        const std::string fabric = r["fabric_name"].get<std::string>();
        const int vls = pt["vls"].get<int>();
        const std::string err = r.contains("error") ? r["error"].get<std::string>() : "";
        const std::string skey = fmt::format("{} | {} | {} | {} VL{} | {}", fabric, pattern,
                                             routing, vls, vls > 1 ? "s" : "", simtext);
        auto [it, fresh] = series_of.emplace(skey, series.size());
        if (fresh) {
            series.push_back({skey, {}});
            series_parts.push_back({fabric, pattern, routing,
                                    fmt::format("{} VL{}", vls, vls > 1 ? "s" : ""), simtext});
        }
        if (r.contains("saturation")) saturation_of[it->second] = r["saturation"];
        if (!err.empty())
            csv +=
                fmt::format("{},{},{},{},{},{},,,,,,,,,,,,,,,,,{}\n", id, csv_quote(fabric),
                            csv_quote(routing), pattern, vls, csv_quote(simtext), csv_quote(err));
        for (const json& x : r["runs"]) {
            csv += fmt::format(
                "{},{},{},{},{},{},{},{:.6f},{:.6f},{:.6f},{:.1f},{:.1f},{:.1f},"
                "{:.1f},{:.4f},{},{},{},{},{},{},{},\n",
                id, csv_quote(fabric), csv_quote(routing), pattern, vls, csv_quote(simtext),
                x["load"].dump(), x["offered_fraction"].get<double>(),
                x["accepted_fraction"].get<double>(), x["accepted_bytes_per_ns"].get<double>(),
                x["latency_mean_ns"].get<double>(), x["latency_p50_ns"].get<double>(),
                x["latency_p99_ns"].get<double>(), x["latency_max_ns"].get<double>(),
                x["link_util_max"].get<double>(), x["generated"].dump(), x["delivered"].dump(),
                x["dropped"].dump(), x["in_flight"].dump(), x["measured_unfinished"].dump(),
                x["deadlock"].get<bool>() ? 1 : 0, x["verdict"].get<std::string>());
            if (x["latency_samples"].get<std::uint64_t>() > 0)
                series[it->second].points.push_back(
                    {x["accepted_bytes_per_ns"].get<double>(), x["latency_mean_ns"].get<double>()});
        }
        all.push_back(std::move(r));
    }
    for (auto& s : series)
        std::sort(s.points.begin(), s.points.end()); // loads of one curve, in any grid order
    // The legend names each curve by what differs between curves: a part every curve shares
    // (the fabric of a one-fabric study, its sim options) says nothing there.
    for (std::size_t i = 0; i < series.size() && series.size() > 1; ++i) {
        std::string name;
        for (std::size_t k = 0; k < 5; ++k) {
            const bool shared =
                std::all_of(series_parts.begin(), series_parts.end(),
                            [&](const auto& p) { return p[k] == series_parts[0][k]; });
            if (shared || series_parts[i][k].empty()) continue;
            name += (name.empty() ? "" : " | ") + series_parts[i][k];
        }
        if (!name.empty()) series[i].name = name;
    }
    st.missing = missing.size();
    for (const auto& id : missing) fmt::print(stderr, "ibrt sweep merge: point {} missing\n", id);
    const std::string title = !title_override.empty() ? title_override
                              : manifest["title"].is_string() && !manifest["title"].empty()
                                  ? manifest["title"].get<std::string>()
                                  : std::string("sweep");
    write_file_atomically((dir / "sweep.csv").string(), csv);
    write_file_atomically((dir / "sweep.json").string(),
                          json{{"title", title}, {"missing", missing}, {"points", all}}.dump(1) +
                              "\n");
    write_file_atomically((dir / "sweep.svg").string(),
                          sim::line_plot_svg(series, title, "accepted traffic (bytes/ns/node)",
                                             "average latency (ns)"));
    if (!saturation_of.empty()) write_saturation_table(dir, title, series_parts, saturation_of);
    return st;
}

} // namespace ibrt::tools
