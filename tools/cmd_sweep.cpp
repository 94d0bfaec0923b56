// `ibrt sweep`: the latency / accepted-traffic curves of paper 000 §5.2 (Figs. 12-15): every
// routing (engines in-process, or tables from files) x VL count x offered load (x pattern, seed,
// any sim option in a spec file), simulated with exactly `ibrt sim`'s options and defaults
// (cli/sim_options.hpp, docs/sim-model.md). Two forms, one path: a spec file
// (sweep/sweep_spec.hpp, docs/sweeps.md), or the one-line options, which become such a spec
// (options_spec) and run the same way, so both give the same CSV and plot
// (SVG or PNG, drawn by plot/plot.hpp).
// studies/mlid-vs-slid.sh drives it for the study, paper 000's setting
// (studies/settings/paper-000.json) as each spec's "sim".
// Exit: 0 success, 1 when a run's verdict (sim::Verdict) is not ok or it dropped or
// misdelivered packets (or points are missing), 2 bad input.
#include "cli/engine_cli.hpp"
#include "cli/option_checks.hpp"
#include "cli/sim_options.hpp"
#include "engines/engine.hpp"
#include "fabric/input_error.hpp"
#include "formats/routing_files.hpp"
#include "plot/plot.hpp"
#include "sim/simulator.hpp"
#include "sweep/sweep_run.hpp"
#include "sweep/sweep_slurm.hpp"
#include "sweep/sweep_spec.hpp"
#include "tools/command.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <thread>

namespace ibrt::tools {
namespace {

struct SweepArgs {
    std::string fabric, fat_tree, engines = "mlid,slid", vls = "1", loads = "0.5", csv, plot;
    std::string title;
    bool engines_given = false, quiet = false;
    // A spec file (or `merge DIR`) and how to run it.
    std::vector<std::string> args;
    std::string out, shard;
    unsigned jobs = 0; // 0 = every core
    bool slurm = false, dry_run = false, print_spec = false, declines_fail = false;
    bool scratch = false; // the one-line form's output directory is a scratch one
    std::vector<std::string> sbatch_opts, slurm_setup;
    std::string slurm_time = "1:00:00";
    std::size_t points_per_task = 0, max_array_size = 0;
    cli::SimOptions sim;
    cli::RoutingOptions routing;
};

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    std::string item;
    while (std::getline(in, item, ',')) out.push_back(item);
    return out;
}

// The one-line form as a spec (issue 17: "the existing options keep working as a one-line
// spec"): the fabric, the routings (every engine with the routing options given, and the
// tables of --lfts), the VL counts, the loads or the saturation search, and every sim option
// given on the command line. Paths are made absolute (the spec is written under --out or printed,
// to be run again from anywhere), unless `as_given`: a spec run at once in a scratch directory
// keeps them as the user wrote them, and so do the fabric names in its results.
nlohmann::json options_spec(const SweepArgs& a, const CLI::App& sub, bool as_given = false) {
    namespace fs = std::filesystem;
    using json = nlohmann::json;
    if (a.fabric.empty() == a.fat_tree.empty())
        throw InputError("sweep", 0, "give exactly one of --fabric or --fat-tree");
    const auto abs = [&](const std::string& p) {
        return p.empty() || as_given ? p : fs::absolute(p).lexically_normal().string();
    };
    json spec = json::object();
    if (!a.title.empty()) spec["title"] = a.title;
    if (!a.fat_tree.empty()) {
        const auto mn = cli::parse_wholes("--fat-tree", a.fat_tree, 1, 254);
        if (mn.size() != 2) throw InputError("--fat-tree", 0, "expected M,N");
        spec["fabrics"] = {{{"gen", fmt::format("fat-tree -m {} -n {}", mn[0], mn[1])}}};
    } else {
        spec["fabrics"] = {{{"file", abs(a.fabric)}}};
    }
    json extras = json::object(); // routing options given, for every routing
    const auto put = [&](const char* k, const std::string& v, bool path) {
        if (!v.empty()) extras[k] = path ? abs(v) : v;
    };
    put("guid2lid", a.routing.guid2lid, true);
    put("sl2vl", a.routing.sl2vl, true);
    put("path-selection", a.routing.path_selection, true);
    put("path-sl", a.routing.path_sl, true);
    if (sub.get_option("--lmc")->count()) extras["lmc"] = a.routing.engine.lmc;
    if (sub.get_option("--data-vls")->count()) extras["data-vls"] = a.routing.engine.data_vls;
    if (!a.routing.engine.opts.empty()) extras["engine-opt"] = a.routing.engine.opts;
    json routings = json::array();
    if (a.engines_given || a.routing.lfts.empty())
        for (const auto& e : split(a.engines)) {
            json r = extras;
            r["engine"] = e;
            routings.push_back(r);
        }
    if (!a.routing.lfts.empty()) {
        if (a.fabric.empty())
            throw InputError("--lfts", 0, "tables need the --fabric they were made for");
        json r = extras;
        r["lfts"] = abs(a.routing.lfts);
        routings.push_back(r);
    }
    spec["routings"] = routings;
    spec["vls"] = json::array();
    for (const auto v : cli::parse_wholes("--vls", a.vls, 1, 15)) spec["vls"].push_back(v);
    if (a.sim.saturation)
        spec["saturation"] = {{"max", a.sim.saturation_max},
                              {"steps", a.sim.saturation_steps},
                              {"tolerance", a.sim.saturation_tolerance}};
    else
        spec["loads"] = cli::parse_loads(a.loads, "--load");
    json sim = json::object();
    for (const CLI::Option* o : sub.get_options()) {
        const std::string g = o->get_group();
        if (std::find(std::begin(cli::kSimOptionGroups), std::end(cli::kSimOptionGroups), g) ==
                std::end(cli::kSimOptionGroups) ||
            !o->count() || o->get_lnames().empty())
            continue;
        const std::string name = o->get_lnames()[0];
        if (name == "vls" || name == "load" || name.rfind("saturation", 0) == 0) continue;
        const std::string v = o->results().empty() ? "" : o->results().back();
        if (name == "cc-option") {
            // Each line is a "cc" key and value, as a spec names them (later lines win, as
            // --cc-option's do).
            json cc = json::object();
            for (const std::string& line : o->results()) {
                const auto b = line.find_first_not_of(" \t");
                if (b == std::string::npos) continue;
                auto e = line.find_first_of(" \t", b);
                std::string key = line.substr(b, e - b);
                // The per-SL CA options: the SL is part of the key (one line per SL).
                if (e != std::string::npos && key.rfind("cc_ca_cong_setting_", 0) == 0 &&
                    key != "cc_ca_cong_setting_port_control" &&
                    key != "cc_ca_cong_setting_control_map") {
                    const auto sb = line.find_first_not_of(" \t", e);
                    e = sb == std::string::npos ? sb : line.find_first_of(" \t", sb);
                    if (sb != std::string::npos) key += " " + line.substr(sb, e - sb);
                }
                const auto vb = e == std::string::npos ? e : line.find_first_not_of(" \t", e);
                cc[key] = vb == std::string::npos ? "" : line.substr(vb);
            }
            spec["cc"] = cc;
        } else if (name == "opensm-conf" || name == "pairs-file")
            sim[name] = abs(v); // the spec is written under --out
        else if (name == "seed")
            spec["seeds"] = {std::stoull(v)};
        else if (name == "pattern")
            spec["patterns"] = {v};
        else
            sim[name] = o->get_type_size() == 0 ? json(true) : json(v);
    }
    if (!sim.empty()) spec["sim"] = sim;
    return spec;
}

// The output of a shell command, and its exit status.
std::string capture(const std::string& cmd, int& rc) {
    std::string out;
    FILE* p = ::popen(cmd.c_str(), "r");
    if (!p) {
        rc = -1;
        return out;
    }
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    rc = ::pclose(p);
    return out;
}

std::string shell_quoted(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

int submit_slurm(const SweepArgs& a, const sweep::SweepSpec& spec, const std::string& out) {
    namespace fs = std::filesystem;
    const std::size_t total = spec.points.size();
    const std::size_t ppt =
        a.points_per_task ? a.points_per_task : std::max<std::size_t>(1, (total + 255) / 256);
    const std::size_t shards = sweep::slurm_shards(total, ppt);
    std::vector<bool> needed(shards, false);
    std::size_t missing = 0;
    for (const auto& p : spec.points)
        if (!sweep::point_done(out, p)) {
            needed[p.index % shards] = true;
            ++missing;
        }
    std::size_t max_array = a.max_array_size;
    if (!max_array) {
        int rc = 0;
        const std::string cfg = capture("scontrol show config 2>/dev/null", rc);
        max_array = sweep::parse_max_array_size(rc == 0 ? cfg : "");
    }
    const sweep::SlurmPlan plan = sweep::plan_slurm(needed, max_array);
    sweep::SlurmScriptOptions so;
    so.ibrt = fs::read_symlink("/proc/self/exe").string();
    so.spec = fs::absolute(spec.file).string();
    so.out_dir = fs::absolute(out).string();
    so.shards = shards;
    so.sbatch_opts = a.sbatch_opts;
    so.time = a.slurm_time;
    so.setup = a.slurm_setup;
    // A node-local output directory: the jobs on other nodes would write their own.
    for (const char* local : {"/tmp/", "/var/tmp/", "/dev/shm/", "/run/"})
        if ((so.out_dir + "/").starts_with(local))
            fmt::print(stderr,
                       "ibrt sweep: warning: {} is under {}, usually local to each node: on a "
                       "cluster of more than one node give --out on a shared filesystem (each "
                       "job checks that it sees the directory)\n",
                       so.out_dir, local);
    const std::string task = sweep::slurm_task_script(so), merge = sweep::slurm_merge_script(so);
    const std::string task_path = so.out_dir + "/slurm/sweep.sbatch";
    const std::string merge_path = so.out_dir + "/slurm/merge.sbatch";
    std::vector<std::string> submits;
    for (const auto& arr : plan.arrays)
        submits.push_back(
            fmt::format("sbatch --parsable --array={} --export=ALL,IBRT_SHARD_OFFSET={} {}",
                        sweep::array_ranges(arr.tasks), arr.offset, shell_quoted(task_path)));
    fmt::print(stderr,
               "ibrt sweep: {} points, {} missing; {} shards of ~{} points, {} array(s) "
               "(MaxArraySize {})\n",
               total, missing, shards, ppt, plan.arrays.size(), max_array);
    if (a.dry_run) {
        fmt::print("# {}\n{}\n# {}\n{}", task_path, task, merge_path, merge);
        for (const auto& s : submits) fmt::print("{}\n", s);
        fmt::print("sbatch --parsable --dependency=afterany:<the arrays' job ids> {}\n",
                   shell_quoted(merge_path));
        return kExitOk;
    }
    if (plan.arrays.empty()) {
        fmt::print(stderr, "ibrt sweep: every point is done: ibrt sweep merge {}\n", out);
        return kExitOk;
    }
    sweep::write_manifest(spec, out);
    fs::create_directories(so.out_dir + "/slurm");
    sweep::write_file_atomically(task_path, task);
    sweep::write_file_atomically(merge_path, merge);
    std::string deps;
    for (const auto& s : submits) {
        int rc = 0;
        std::string id = capture(s, rc);
        id = id.substr(0, id.find_first_of(";\n"));
        if (rc != 0 || id.empty()) {
            fmt::print(stderr, "ibrt sweep: `{}` failed\n", s);
            return kExitBadInput;
        }
        deps += ":" + id;
        fmt::print("{}\n", id);
    }
    int rc = 0;
    std::string id = capture(
        fmt::format("sbatch --parsable --dependency=afterany{} {}", deps, shell_quoted(merge_path)),
        rc);
    id = id.substr(0, id.find_first_of(";\n"));
    if (rc != 0 || id.empty()) {
        fmt::print(stderr, "ibrt sweep: submitting the merge job failed\n");
        return kExitBadInput;
    }
    fmt::print("{}\n", id);
    return kExitOk;
}

int run_grid(const SweepArgs& a, const sweep::SweepSpec& spec, const std::string& out);

int run_spec(const SweepArgs& a) {
    if (a.args[0] == "merge") {
        if (a.args.size() != 2) throw InputError("merge", 0, "usage: ibrt sweep merge DIR");
        const sweep::MergeStats st = sweep::merge_sweep(a.args[1], a.title);
        fmt::print(stderr,
                   "ibrt sweep merge: {} points, {} missing, {} failed, {} declined by their "
                   "engine -> {}/sweep.csv, sweep.json, sweep.svg\n",
                   st.points, st.missing, st.failed, st.declined, a.args[1]);
        return st.missing || st.failed || (a.declines_fail && st.declined) ? kExitViolations
                                                                           : kExitOk;
    }
    if (a.args.size() != 1) throw InputError("sweep", 0, "give one SPEC file (or merge DIR)");
    const sweep::SweepSpec spec = sweep::read_sweep_spec(a.args[0]);
    std::string out = a.out;
    if (out.empty()) out = std::filesystem::path(a.args[0]).replace_extension(".out").string();
    return run_grid(a, spec, out);
}

// Runs (or submits) the spec's points under `out` and merges them.
int run_grid(const SweepArgs& a, const sweep::SweepSpec& spec, const std::string& out) {
    if (a.slurm) return submit_slurm(a, spec, out);
    std::vector<const sweep::SweepPoint*> points;
    if (a.shard.empty()) {
        for (const auto& p : spec.points) points.push_back(&p);
    } else {
        const auto [i, n] = sweep::parse_shard(a.shard);
        points = sweep::shard_points(spec, i, n);
    }
    sweep::SweepRunOptions o;
    o.out_dir = out;
    o.jobs = a.jobs ? a.jobs : std::max(1u, std::thread::hardware_concurrency());
    o.quiet = a.quiet;
    const sweep::SweepRunStats st = sweep::run_points(spec, points, o);
    if (!a.quiet)
        fmt::print(stderr,
                   "ibrt sweep: {} points: {} ran, {} done before, {} failed, {} declined by "
                   "their engine{}\n",
                   st.total, st.ran, st.skipped, st.failed, st.declined,
                   a.scratch ? "" : " -> " + out);
    // A whole sweep run here is merged here (a shard's points are merged by whoever runs
    // `ibrt sweep merge` once every shard is done).
    if (a.shard.empty()) {
        const sweep::MergeStats m = sweep::merge_sweep(
            out, a.title,
            a.plot.empty() ? std::vector<std::string>{} : std::vector<std::string>{a.plot});
        if (!a.quiet && !a.scratch)
            fmt::print(stderr, "ibrt sweep: merged -> {}/sweep.csv, sweep.json, sweep.svg\n", out);
        if (m.missing) return kExitViolations;
    }
    return st.failed || (a.declines_fail && st.declined) ? kExitViolations : kExitOk;
}

// A directory of its own under $TMPDIR, removed with everything in it.
struct ScratchDir {
    std::string path;
    ScratchDir() {
        const char* t = std::getenv("TMPDIR");
        std::string tmpl = std::string(t && *t ? t : "/tmp") + "/ibrt-sweep-XXXXXX";
        if (!::mkdtemp(tmpl.data())) throw InputError(tmpl, 0, "cannot create a scratch directory");
        path = tmpl;
    }
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
};

// The one-line form: its spec (options_spec) run as any spec, under --out (kept, with the spec
// as OUT/spec.json) or in a scratch directory; the merged sweep.csv goes to --csv, or to
// standard output without --out, and sweep.svg's figure also to --plot. One path for both forms, so
// they cannot give different CSVs.
int run_one_line(const SweepArgs& a, const CLI::App& sub) {
    namespace fs = std::filesystem;
    std::optional<ScratchDir> scratch;
    int rc = 0;
    std::string out = a.out;
    if (!out.empty()) {
        fs::create_directories(out);
        SweepArgs b = a;
        b.args = {out + "/spec.json"};
        sweep::write_file_atomically(b.args[0], options_spec(a, sub).dump(2) + "\n");
        rc = run_spec(b);
    } else {
        if (a.slurm) throw InputError("--slurm", 0, "the jobs need --out on a shared filesystem");
        scratch.emplace();
        out = scratch->path;
        SweepArgs b = a;
        b.scratch = true;
        rc = run_grid(
            b, sweep::parse_sweep_spec(options_spec(a, sub, true).dump(2), "the sweep's options"),
            out);
    }
    const fs::path csv = fs::path(out) / "sweep.csv";
    if (!a.csv.empty())
        fs::copy_file(csv, a.csv, fs::copy_options::overwrite_existing);
    else if (a.out.empty() && fs::exists(csv)) {
        std::ifstream in(csv, std::ios::binary);
        std::cout << in.rdbuf() << std::flush;
    }
    return rc;
}

const CommandRegistrar reg{{
    "sweep",
    "Latency vs accepted traffic curves for several engines and VL counts (paper 000 §5)",
    [](CLI::App& sub) -> std::function<int()> {
        auto a = std::make_shared<SweepArgs>();
        sub.add_option("--fabric", a->fabric,
                       "Topology: ibnetdiscover / ibsim net, or opensm-subnet.lst");
        sub.add_option("--fat-tree", a->fat_tree, "Or generate FT(M,N): M,N")
            ->check(cli::wholes_in(1, 254));
        auto* engines = sub.add_option("--engines,--engine", a->engines,
                                       "Engines, comma-separated (with --lfts: also route with "
                                       "these)")
                            ->default_val("mlid,slid");
        cli::add_routing_options(sub, a->routing);
        sub.add_option("--load,--loads", a->loads, "Offered loads, comma-separated")
            ->check(cli::reals_in(0, 1))
            ->default_val("0.5")
            ->group(std::string(cli::kSimOptionGroups[0]));
        sub.add_option("--vls", a->vls, std::string("Comma-separated list. ") + cli::kVlsHelp)
            ->check(cli::wholes_in(1, 15))
            ->default_val("1")
            ->group(std::string(cli::kSimOptionGroups[1]));
        cli::add_sim_options(sub, a->sim);
        sub.add_option("--csv", a->csv,
                       "The merged sweep.csv (default: standard output, unless --out)")
            ->check(cli::output_file());
        sub.add_option("--plot", a->plot,
                       "SVG or PNG file (by the name): latency against accepted traffic")
            ->check(cli::plot_file());
        sub.add_option("--title", a->title, "Plot title");
        sub.add_flag("-q,--quiet", a->quiet, "No progress line");
        auto* g = "Spec (docs/sweeps.md)";
        sub.add_option("spec", a->args,
                       "A sweep spec (JSON) to run, or `merge DIR` to merge a sweep's results")
            ->group(g);
        sub.add_option("--out", a->out,
                       "Output directory of a spec (default: SPEC.out); with the one-line "
                       "options: run them as a spec (written to OUT/spec.json)")
            ->group(g);
        sub.add_option("-j,--jobs", a->jobs, "Points run in parallel (default: every core)")
            ->check(cli::whole_in(1, 4096))
            ->group(g);
        sub.add_option("--shard", a->shard, "I/N: run only the points whose grid index % N == I")
            ->group(g);
        sub.add_flag("--slurm", a->slurm,
                     "Submit the missing points as Slurm job arrays and a dependent merge job")
            ->group(g);
        sub.add_option("--sbatch-opt", a->sbatch_opts,
                       "An #SBATCH line for the jobs, e.g. --sbatch-opt=--partition=long "
                       "(repeatable)")
            ->group(g);
        sub.add_option("--time", a->slurm_time,
                       "With --slurm: each job's time limit (#SBATCH --time), unless "
                       "--sbatch-opt gives one")
            ->capture_default_str()
            ->group(g);
        sub.add_option("--slurm-setup", a->slurm_setup,
                       "With --slurm: a shell line each job runs before ibrt, e.g. "
                       "--slurm-setup 'module load gcc' (repeatable, in order)")
            ->group(g);
        sub.add_option("--points-per-task", a->points_per_task,
                       "Points per Slurm array task (default: at most 256 tasks)")
            ->check(cli::whole_in(1, cli::kMax<std::int32_t>))
            ->group(g);
        sub.add_option("--max-array-size", a->max_array_size,
                       "Slurm's MaxArraySize (default: `scontrol show config`, else 1001)")
            ->check(cli::whole_in(1, cli::kMax<std::int32_t>))
            ->group(g);
        sub.add_flag("--declines-fail", a->declines_fail,
                     "Count points whose engine declines the fabric as failures (exit 1); by "
                     "default they are counted and reported apart, exit 0")
            ->group(g);
        sub.add_flag("--dry-run", a->dry_run, "With --slurm: print the scripts, submit nothing")
            ->group(g);
        sub.footer("Every model option and default is `ibrt sim`'s. Paper 000 §5.2's set-up:\n"
                   "  ibrt sweep --fat-tree 8,3 --vls 1,2,4 --sl spread --packet-bytes 32 "
                   "--buffer-bytes 32\n"
                   "    --credit-unit 32 --ns-per-byte 4 --warmup-us 20 --source-queue 0 "
                   "--loads 0.1,0.2,0.3\n"
                   "(studies/mlid-vs-slid.sh). With --saturation each curve is the "
                   "bisection's runs.\nPlots (--plot, the merge's SVGs) are drawn by matplotlib "
                   "(Debian's python3-matplotlib)\nwith /usr/bin/python3 or $IBRT_PYTHON; "
                   "docs/sweeps.md, \"Plots\", says what they show.\nExit codes: 0 every run "
                   "passed its verdict, 1 a run failed "
                   "its verdict (as in `ibrt sim`), 2 bad input.\n"
                   "Spec files (docs/sweeps.md): ibrt sweep SPEC [-j N] [--shard I/N] [--slurm "
                   "[--dry-run]]; ibrt sweep merge DIR.\n\n" +
                   cli::engine_params_help());
        sub.add_flag("--print-spec", a->print_spec,
                     "Print the spec the one-line options describe (with --out they run as it)")
            ->group(g);
        const CLI::App* app = &sub;
        return [a, engines, app] {
            a->engines_given = engines->count() > 0;
            if (a->print_spec) {
                fmt::print("{}\n", options_spec(*a, *app).dump(2));
                return kExitOk;
            }
            if (!a->args.empty())
                for (const CLI::Option* o : app->get_options())
                    if (o->count() && o->get_group() != "Spec (docs/sweeps.md)" &&
                        !o->check_lname("quiet") && !o->check_lname("title") &&
                        !o->check_lname("help"))
                        throw InputError(o->get_name(), 0,
                                         "a spec file names the grid: put it in the spec");
            return a->args.empty() ? run_one_line(*a, *app) : run_spec(*a);
        };
    },
}};

} // namespace
} // namespace ibrt::tools
