// Sweep specs, shards, resume, atomic results, merge and Slurm plans (sweep/sweep_*.hpp,
// issue 17): a spec expands in grid order into points with ids that depend only on what the
// point runs; errors name the spec's line; every shard partition covers each point once; a
// rerun skips done points; the merge does not depend on -j.
#include "fabric/input_error.hpp"
#include "sweep/sweep_options.hpp"
#include "sweep/sweep_run.hpp"
#include "sweep/sweep_slurm.hpp"
#include "sweep/sweep_spec.hpp"

#include "tests/test_files.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

using namespace ibrt;
using namespace ibrt::sweep;
namespace fs = std::filesystem;

namespace {

const char* kSpec = R"({
  "title": "t",
  "fabrics": [{"gen": "fat-tree -m 4 -n 2"}, {"gen": ["random", "--switches", "4", "--degree", "2", "--cas", "8"], "failure_seeds": [1, 2]}],
  "routings": ["mlid", {"engine": "slid"}],
  "patterns": ["uniform", "complement"],
  "vls": [1, 2],
  "sim": {"packet-bytes": [64, 128], "warmup-us": 1, "measure-us": 2, "drain-us": 5},
  "seeds": [1, 2],
  "loads": [0.1, 0.2]
})";

const char* kSmall = R"({
  "fabrics": [{"gen": "fat-tree -m 4 -n 2"}],
  "routings": ["mlid", "slid"],
  "sim": {"warmup-us": 1, "measure-us": 2, "drain-us": 5},
  "seeds": [1, 2],
  "loads": [0.1, 0.3]
})";

int error_line(const std::string& text) {
    try {
        parse_sweep_spec(text, "s.json");
    } catch (const InputError& e) {
        CHECK(e.file() == "s.json");
        return e.line();
    }
    FAIL("no error for " << text);
    return -1;
}

} // namespace

TEST_CASE("a spec expands into every grid point, load innermost, fabric outermost") {
    const SweepSpec s = parse_sweep_spec(kSpec, "s.json");
    // 3 fabrics (1 + 2 failure seeds) x 2 routings x 2 patterns x 2 VLs x 2 packet sizes x
    // 2 seeds x 2 loads.
    REQUIRE(s.points.size() == 3u * 2 * 2 * 2 * 2 * 2 * 2);
    for (std::size_t i = 0; i < s.points.size(); ++i) CHECK(s.points[i].index == i);
    const auto& p0 = s.points[0].json;
    const auto& p1 = s.points[1].json;
    CHECK(p0["load"] == 0.1);
    CHECK(p1["load"] == 0.2);
    CHECK(p0["fabric"] == p1["fabric"]);
    CHECK(s.points[2].json["sim"]["seed"] == 2); // seeds vary next
    CHECK(s.points[4].json["sim"]["packet-bytes"] == 128);
    const std::size_t per_fabric = s.points.size() / 3;
    CHECK(s.points[per_fabric - 1].json["fabric"] == p0["fabric"]);
    CHECK(s.points[per_fabric].json["fabric"]["gen"].back() == "1"); // --seed 1
    CHECK(s.title == "t");
}

TEST_CASE("point ids hash the point's canonical JSON: layout and key order do not matter") {
    const SweepSpec a = parse_sweep_spec(kSmall, "a.json");
    const std::string reordered = R"({"loads": [0.1, 0.3], "seeds": [1, 2],
      "sim": {"drain-us": 5, "measure-us": 2, "warmup-us": 1},
      "routings": ["mlid", "slid"], "fabrics": [{"gen": "fat-tree -m 4  -n 2"}]})";
    const SweepSpec b = parse_sweep_spec(reordered, "elsewhere/b.json");
    REQUIRE(a.points.size() == b.points.size());
    std::set<std::string> ids;
    for (std::size_t i = 0; i < a.points.size(); ++i) {
        CHECK(a.points[i].id == b.points[i].id);
        CHECK(a.points[i].id == point_id(a.points[i].json));
        CHECK(a.points[i].id.size() == 16);
        ids.insert(a.points[i].id);
    }
    CHECK(ids.size() == a.points.size());
    std::string other = kSmall;
    other.replace(other.find("0.3"), 3, "0.4");
    CHECK(parse_sweep_spec(other, "c.json").points[1].id != a.points[1].id);
}

TEST_CASE("spec errors name the line") {
    CHECK(error_line("{\n  \"fabrics\": [\n    {\"file\": \"x\"},,\n  ]\n}") == 3);
    CHECK(error_line("{\n \"fabrics\": [\"x\"],\n \"routings\": [\"mlid\"],\n \"lods\": [1]\n}") ==
          4);
    CHECK(error_line("{\n \"fabrics\": [\"x\"],\n \"routings\": [\"mlid\"],\n \"sim\": "
                     "{\"packet-bytes\": 0}\n}") == 4);
    CHECK(error_line("{\n \"fabrics\": [],\n \"routings\": [\"mlid\"]\n}") == 2);
    CHECK(error_line("{\n \"fabrics\": [\"x\"],\n \"routings\": [\"mlid\"],\n \"loads\": [0.1],"
                     "\n \"saturation\": true\n}") == 5);
    CHECK(error_line("{\n \"fabrics\": [\"x\"],\n \"routings\": [\"nosuchengine\"]\n}") > 0);
    CHECK(error_line("{\"fabrics\": [\"x\"], \"routings\": [\"mlid\"], \"loads\": [0.1, 0.1]}") ==
          0);
    // The problem is said, not only where.
    try {
        parse_sweep_spec("{\"fabrics\": [\"x\"], \"routings\": [\"mlid\"], \"sim\": "
                         "{\"packet-bytes\": 0}}",
                         "s.json");
        FAIL("accepted a packet size of 0");
    } catch (const InputError& e) {
        CHECK_THAT(e.what(), Catch::Contains("packet-bytes"));
    }
}

TEST_CASE("shards partition the points: each in exactly one shard") {
    const SweepSpec s = parse_sweep_spec(kSpec, "s.json");
    for (std::size_t n : {1u, 2u, 3u, 7u, 500u}) {
        std::vector<int> seen(s.points.size(), 0);
        for (std::size_t i = 0; i < n; ++i)
            for (const SweepPoint* p : shard_points(s, i, n)) ++seen[p->index];
        for (int c : seen) CHECK(c == 1);
    }
    CHECK(parse_shard("3/8") == std::pair<std::size_t, std::size_t>(3, 8));
    CHECK_THROWS_AS(parse_shard("8/8"), InputError);
    CHECK_THROWS_AS(parse_shard("-1/8"), InputError);
    CHECK_THROWS_AS(parse_shard("1/0"), InputError);
    CHECK_THROWS_AS(parse_shard("1/2x"), InputError);
}

TEST_CASE("atomic writes replace whole files and leave no temporary behind") {
    const fs::path d = test::fresh_dir("sweep-atomic");
    fs::create_directories(d);
    const std::string f = (d / "r.json").string();
    write_file_atomically(f, "first\n");
    write_file_atomically(f, "second\n");
    CHECK(test::slurp(f) == "second\n");
    std::size_t files = 0;
    for (const auto& e : fs::directory_iterator(d)) {
        (void)e;
        ++files;
    }
    CHECK(files == 1);
    CHECK_THROWS_AS(write_file_atomically((d / "no" / "r.json").string(), "x"), InputError);
    fs::remove_all(d);
}

TEST_CASE("a rerun skips done points and runs only the missing ones") {
    const SweepSpec s = parse_sweep_spec(kSmall, "s.json");
    const fs::path d = test::fresh_dir("sweep-resume");
    std::vector<const SweepPoint*> all;
    for (const auto& p : s.points) all.push_back(&p);
    SweepRunOptions o;
    o.out_dir = d.string();
    o.quiet = true;
    SweepRunStats st = run_points(s, all, o);
    CHECK(st.ran == s.points.size());
    CHECK(st.skipped == 0);
    for (const auto& p : s.points) CHECK(point_done(o.out_dir, p));
    const std::string kept = test::slurp(point_result_path(o.out_dir, s.points[0]));
    fs::remove(point_result_path(o.out_dir, s.points[2]));
    st = run_points(s, all, o);
    CHECK(st.ran == 1);
    CHECK(st.skipped == s.points.size() - 1);
    CHECK(test::slurp(point_result_path(o.out_dir, s.points[0])) == kept); // not rerun
    fs::remove_all(d);
}

TEST_CASE("the merge is the same for -j 1, -j 2 and shards, and lists missing points") {
    const SweepSpec s = parse_sweep_spec(kSmall, "s.json");
    std::vector<const SweepPoint*> all;
    for (const auto& p : s.points) all.push_back(&p);
    const fs::path d1 = test::fresh_dir("sweep-j1"), d2 = test::fresh_dir("sweep-j2"),
                   d3 = test::fresh_dir("sweep-shards");
    SweepRunOptions o;
    o.quiet = true;
    o.out_dir = d1.string();
    o.jobs = 1;
    run_points(s, all, o);
    o.out_dir = d2.string();
    o.jobs = 2;
    run_points(s, all, o);
    o.out_dir = d3.string();
    o.jobs = 1;
    run_points(s, shard_points(s, 1, 3), o);
    CHECK(merge_sweep(d3.string()).missing == s.points.size() - shard_points(s, 1, 3).size());
    run_points(s, shard_points(s, 0, 3), o);
    run_points(s, shard_points(s, 2, 3), o);
    for (const auto& d : {d1, d2, d3}) {
        const MergeStats m = merge_sweep(d.string());
        CHECK(m.points == s.points.size());
        CHECK(m.missing == 0);
    }
    for (const char* f : {"sweep.csv", "sweep.json", "sweep.svg"}) {
        CHECK(test::slurp(d1 / f) == test::slurp(d2 / f));
        CHECK(test::slurp(d1 / f) == test::slurp(d3 / f));
    }
    // The plot: one curve per routing, each load's point the mean of the two seeds with its
    // 95 % interval both ways; what both curves share said once, under the title.
    const auto plot = merge_sweep(d1.string()).plots.at("sweep.svg");
    CHECK(plot["kind"] == "line");
    CHECK(plot["common"] ==
          nlohmann::ordered_json({"fat-tree -m 4 -n 2", "uniform traffic", "1 VL", "drain-us=5",
                                  "measure-us=2", "warmup-us=1",
                                  "mean of 2 seeds, error bars: 95 % intervals"}));
    CHECK(plot["legend_title"] == "routing");
    REQUIRE(plot["panels"].size() == 1);
    const auto& curves = plot["panels"][0]["curves"];
    REQUIRE(curves.size() == 2);
    CHECK(curves[0]["name"] == "mlid");
    CHECK(curves[1]["name"] == "slid");
    for (const auto& c : curves) {
        CHECK(c["x"].size() == 2);
        REQUIRE(c["y_err"].size() == 2);
        CHECK(c["x_err"].size() == 2);
        for (const auto& e : c["y_err"]) CHECK(e.get<double>() >= 0);
    }
    CHECK(test::slurp(d1 / "sweep.svg").find("<svg") != std::string::npos);
    // One CSV row per point (one load each) plus the header.
    const std::string csv = test::slurp(d1 / "sweep.csv");
    CHECK(std::count(csv.begin(), csv.end(), '\n') == long(s.points.size()) + 1);
    CHECK(csv.find(s.points[0].id) < csv.find(s.points[1].id));
    for (const auto& d : {d1, d2, d3}) fs::remove_all(d);
}

TEST_CASE("Slurm plans: shards with missing points only, arrays within MaxArraySize") {
    CHECK(slurm_shards(32, 4) == 8);
    CHECK(slurm_shards(33, 4) == 9);
    CHECK(slurm_shards(0, 4) == 1);
    std::vector<bool> needed(2500, true);
    needed[3] = false;
    const SlurmPlan p = plan_slurm(needed, 1001);
    REQUIRE(p.arrays.size() == 3);
    std::set<std::size_t> shards;
    for (const auto& a : p.arrays)
        for (std::size_t t : a.tasks) {
            CHECK(t < 1001);
            shards.insert(t + a.offset);
        }
    CHECK(shards.size() == 2499);
    CHECK(!shards.count(3));
    CHECK(array_ranges({0, 1, 2, 4, 6, 7}) == "0-2,4,6-7");
    CHECK(parse_max_array_size("AuthType = auth/munge\nMaxArraySize            = 40\n") == 40);
    CHECK(parse_max_array_size("") == 1001);
    SlurmScriptOptions so{"/bin/ibrt", "/s/spec.json", "/o", 8, {"--partition=short"}};
    const std::string script = slurm_task_script(so);
    CHECK_THAT(script, Catch::Contains("#SBATCH --partition=short"));
    CHECK_THAT(script, Catch::Contains("--shard \"$shard/8\""));
    CHECK_THAT(slurm_merge_script(so), Catch::Contains("sweep merge '/o'"));
    // Issue 40: a default time limit unless one is given, setup lines before ibrt, and each
    // job checks that it sees the output directory.
    CHECK_THAT(script, Catch::Contains("#SBATCH --time=1:00:00\n"));
    CHECK_THAT(script, Catch::Contains("[ -d '/o' ] || {"));
    so.sbatch_opts.push_back("--time=4:00:00");
    so.setup = {"module load gcc", "export OMP_NUM_THREADS=1"};
    const std::string given = slurm_task_script(so);
    CHECK_THAT(given, !Catch::Contains("--time=1:00:00"));
    CHECK_THAT(given, Catch::Contains("#SBATCH --time=4:00:00"));
    const auto setup = given.find("module load gcc\nexport OMP_NUM_THREADS=1\n");
    REQUIRE(setup != std::string::npos);
    CHECK(setup < given.find("exec "));
}

TEST_CASE("saturation searches merge into paper 003's table: saturation.csv and grouped bars") {
    const char* spec = R"({
      "title": "sat",
      "fabrics": [{"gen": "fat-tree -m 4 -n 2"}],
      "routings": ["mlid", {"engine": "slid", "engine-opt": ["adaptive_up=true"], "selection": "sadp", "label": "slid sadp"}],
      "patterns": ["uniform", "complement"],
      "sim": {"warmup-us": 1, "measure-us": 3, "drain-us": 5},
      "saturation": {"max": 1.0, "steps": 3}
    })";
    const SweepSpec s = parse_sweep_spec(spec, "s.json");
    REQUIRE(s.points.size() == 4);
    std::vector<const SweepPoint*> all;
    for (const auto& p : s.points) all.push_back(&p);
    const fs::path d = test::fresh_dir("sweep-saturation");
    SweepRunOptions o;
    o.quiet = true;
    o.out_dir = d.string();
    o.jobs = 2;
    run_points(s, all, o);
    const MergeStats m = merge_sweep(d.string());
    // One row per search, in grid order, with the point's own figures.
    std::istringstream csv(test::slurp(d / "saturation.csv"));
    std::string line;
    std::getline(csv, line);
    CHECK(line == "fabric,pattern,routing,vls,sim,onset_load,onset_accepted_fraction,"
                  "max_accepted_fraction,max_accepted_load");
    std::vector<std::string> rows;
    while (std::getline(csv, line)) rows.push_back(line);
    REQUIRE(rows.size() == 4);
    CHECK(rows[0].find(",uniform,\"mlid\",") != std::string::npos);
    CHECK(rows[3].find(",complement,\"slid sadp\",") != std::string::npos);
    const auto point =
        nlohmann::json::parse(test::slurp(d / "points" / (s.points[3].id + ".json")));
    CHECK(rows[3].find(fmt::format(
              ",{:.6f},", point["saturation"]["max_accepted"].get<double>())) != std::string::npos);
    // Groups are the patterns, bars the routings named by their labels: 4 bars.
    const auto& plot = m.plots.at("saturation.svg");
    CHECK(plot["kind"] == "bar");
    CHECK(plot["groups"] == nlohmann::ordered_json({"uniform", "complement"}));
    REQUIRE(plot["panels"].size() == 1);
    const auto& bars = plot["panels"][0]["curves"];
    REQUIRE(bars.size() == 2);
    CHECK(bars[0]["name"] == "mlid");
    CHECK(bars[1]["name"] == "slid sadp");
    CHECK(bars[1]["y"][1] == point["saturation"]["max_accepted"]); // complement, slid sadp
    for (const auto& b : bars) {
        REQUIRE(b["y"].size() == 2);
        for (const auto& v : b["y"]) CHECK(v.is_number());
        CHECK(!b.contains("y_err")); // one seed
    }
    const std::string svg = test::slurp(d / "saturation.svg");
    CHECK(svg.find(">slid sadp</text>") != std::string::npos); // text stays text
    fs::remove_all(d);
}

namespace {

// A hot spot with victims on FT(4,2) (8 CAs): three contributors to CA 0, and CA 5 and 7
// sending elsewhere; a CC-off baseline (the empty block) and a grid of settings.
const char* kCcSpec = R"({
  "title": "cc",
  "fabrics": [{"gen": "fat-tree -m 4 -n 2"}],
  "routings": ["slid"],
  "patterns": ["hotspot"],
  "sim": {"hot-fraction": 0.5, "warmup-us": 2, "measure-us": 10, "drain-us": 5, "flow-stats": true},
  "cc": [{},
         {"congestion_control": "TRUE", "cc_sw_cong_setting_control_map": "0x15",
          "cc_sw_cong_setting_victim_mask": "0x0",
          "cc_sw_cong_setting_threshold": [8, 15],
          "cc_sw_cong_setting_marking_rate": 1,
          "cc_ca_cong_setting_control_map": 1,
          "cc_ca_cong_setting_ccti_increase 0": 1,
          "cc_ca_cong_setting_ccti_timer 0": ["20", {"label": "slow", "value": 2000}],
          "cc_cct": {"label": "linear", "value": "0:0,0:1,0:2,0:3,0:4,0:5,0:6,0:7"}}],
  "loads": [0.6]
})";

std::vector<const SweepPoint*> all_points(const SweepSpec& s) {
    std::vector<const SweepPoint*> out;
    for (const auto& p : s.points) out.push_back(&p);
    return out;
}

} // namespace

TEST_CASE("cc: opensm.conf lines as axes, a spec without cc keeps its ids") {
    const SweepSpec s = parse_sweep_spec(kCcSpec, "cc.json");
    REQUIRE(s.points.size() == 1 + 2 * 2);
    CHECK(!s.points[0].json.contains("cc")); // the empty block: no CC lines at all
    const auto& cc = s.points[1].json["cc"];
    CHECK(cc["cc_sw_cong_setting_threshold"] == "8"); // a number is its text
    CHECK(cc["cc_ca_cong_setting_ccti_timer 0"] == "20");
    // Axes in key order: the timer (cc_ca_...) outside the threshold (cc_sw_...).
    CHECK(s.points[2].json["cc"]["cc_sw_cong_setting_threshold"] == "15");
    CHECK(s.points[3].json["cc"]["cc_ca_cong_setting_ccti_timer 0"] ==
          nlohmann::json({{"label", "slow"}, {"value", "2000"}}));
    // The options reach `ibrt sim`'s reader: the settings a point runs.
    const cli::SimOptions o = sweep_sim_options(s.points[3].json);
    CHECK(std::find(o.cc_options.begin(), o.cc_options.end(),
                    "cc_ca_cong_setting_ccti_timer 0 2000") != o.cc_options.end());
    const sim::SimConfig c = cli::make_sim_config(o);
    CHECK(c.cc.on);
    CHECK(c.cc.settings.threshold == 8);
    CHECK(c.cc.settings.ca_entries[0].ccti_timer == 2000);
    CHECK(c.cc.settings.cct.size() == 8);

    // Ids hash what a point runs: 8 and "8" are one point; the points of kSmall keep the ids
    // they had before "cc" existed (measured with the tool before this key was added), also
    // as the empty block of a spec that adds a cc axis.
    std::string text = kCcSpec;
    text.replace(text.find("[8, 15]"), 7, "[\"8\", 15]");
    CHECK(parse_sweep_spec(text, "cc.json").points[1].id == s.points[1].id);
    const SweepSpec small = parse_sweep_spec(kSmall, "s.json");
    CHECK(small.points[0].id == "ba9f153b0f00dcf4");
    CHECK(small.points[7].id == "176be016a62a12c1");
    std::string with_cc = kSmall;
    with_cc.insert(with_cc.rfind('}'), ", \"cc\": [{}, {\"congestion_control\": \"TRUE\", "
                                       "\"cc_sw_cong_setting_threshold\": [4, 8]}]");
    const SweepSpec grown = parse_sweep_spec(with_cc, "s.json");
    REQUIRE(grown.points.size() == 3 * small.points.size());
    std::set<std::string> grown_ids;
    for (const auto& p : grown.points) grown_ids.insert(p.id);
    for (const auto& p : small.points) CHECK(grown_ids.count(p.id));
}

TEST_CASE("cc: errors name the spec line of the option") {
    const auto spec = [](const std::string& cc) {
        return "{\n \"fabrics\": [\"x\"],\n \"routings\": [\"mlid\"],\n \"cc\": {\n  " + cc +
               "\n }\n}";
    };
    CHECK(error_line(spec("\"cc_sw_cong_setting_treshold\": 8")) == 5); // misspelt
    CHECK(error_line(spec("\"threshold\": 8")) == 5);
    CHECK(error_line(spec("\"cc_sw_cong_setting_threshold\": \"x\"")) == 5);
    CHECK(error_line(spec("\"cc_sw_cong_setting_threshold\": 1.5")) == 5);
    CHECK(error_line(spec("\"cc_sw_cong_setting_threshold\": []")) == 5);
    CHECK(error_line(spec("\"congestion_control\": \"TRUE\",\n  \"cc_cct\": [\"0:1\", \"4:1\"]")) ==
          6);                                                                      // shift above 3
    CHECK(error_line(spec("\"cc_ca_cong_setting_ccti_timer\": \"16 150\"")) == 5); // SL
    CHECK(error_line("{\n \"fabrics\": [\"x\"],\n \"routings\": [\"mlid\"],\n \"cc\": []\n}") == 4);
    try {
        parse_sweep_spec(spec("\"cc_cct\": \"0:1,4:1\""), "s.json");
        FAIL("accepted a CCT shift of 4");
    } catch (const InputError& e) {
        CHECK_THAT(e.what(), Catch::Contains("cc_cct"));
        CHECK_THAT(e.what(), Catch::Contains("out of range"));
    }
}

TEST_CASE("cc: the merge has a column per option, the counters and the flow summary") {
    const SweepSpec s = parse_sweep_spec(kCcSpec, "cc.json");
    const fs::path d1 = test::fresh_dir("sweep-cc-j1"), d2 = test::fresh_dir("sweep-cc-j2");
    SweepRunOptions o;
    o.quiet = true;
    o.out_dir = d1.string();
    o.jobs = 1;
    run_points(s, all_points(s), o);
    o.out_dir = d2.string();
    o.jobs = 2;
    run_points(s, all_points(s), o);
    const MergeStats m = merge_sweep(d1.string());
    merge_sweep(d2.string());
    for (const char* f : {"sweep.csv", "sweep.json", "sweep.svg", "flows.svg"})
        CHECK(test::slurp(d1 / f) == test::slurp(d2 / f));

    std::istringstream csv(test::slurp(d1 / "sweep.csv"));
    std::string header;
    std::getline(csv, header);
    // The runs' columns as `ibrt sim --csv` (sim/run_json.hpp), the CC counters after the
    // verdict and the flow summary after measured_unfinished; then the error and the cc keys.
    CHECK_THAT(header, Catch::Contains(",deadlock,verdict,fecn_marked,becn_sent,becn_received,"
                                       "becn_dropped,peak_ccti,accepted_fraction_ci95,"));
    CHECK_THAT(header, Catch::Contains(",measured_unfinished,hot_destinations,hot_flows,"
                                       "hot_offered,hot_accepted,hot_jain,victim_flows,"
                                       "victim_offered,victim_accepted,victim_jain,victim_becns,"));
    CHECK_THAT(header, Catch::EndsWith(
                           ",error,\"cc_ca_cong_setting_ccti_increase 0\","
                           "\"cc_ca_cong_setting_ccti_timer 0\",\"cc_ca_cong_setting_control_map\","
                           "\"cc_cct\",\"cc_sw_cong_setting_control_map\","
                           "\"cc_sw_cong_setting_marking_rate\",\"cc_sw_cong_setting_threshold\","
                           "\"cc_sw_cong_setting_victim_mask\",\"congestion_control\""));
    std::vector<std::string> rows;
    for (std::string line; std::getline(csv, line);) rows.push_back(line);
    REQUIRE(rows.size() == 5);
    // The baseline: no counters, no CC value, but its flows.
    const auto cells = [](const std::string& line) { // no quoted commas in these rows
        std::vector<std::string> out;
        std::stringstream in(line);
        for (std::string c; std::getline(in, c, ',');) out.push_back(c);
        if (!line.empty() && line.back() == ',') out.emplace_back();
        return out;
    };
    const std::vector<std::string> columns = cells(header), base = cells(rows[0]);
    REQUIRE(base.size() == columns.size());
    const auto at = [&](const std::string& name) {
        return base[std::size_t(std::find(columns.begin(), columns.end(), name) - columns.begin())];
    };
    CHECK(at("fecn_marked").empty());
    CHECK(at("\"congestion_control\"").empty());
    CHECK(at("hot_destinations") == "1");
    CHECK(rows[3].find(",\"slow\",\"1\",\"linear\",") != std::string::npos);
    const auto result =
        nlohmann::json::parse(test::slurp(d1 / "points" / (s.points[1].id + ".json")));
    const auto& run = result["runs"][0];
    CHECK(run["congestion_control"]["fecn_marked"].get<int>() > 0);
    CHECK(run["flow_summary"]["hot_destinations"] == 1);
    CHECK(run["flow_summary"]["hot_flows"] == 7);
    CHECK(!nlohmann::json::parse(test::slurp(d1 / "points" / (s.points[0].id + ".json")))["runs"][0]
               .contains("congestion_control"));
    // Legends name the settings that differ, without the options' common prefix.
    std::set<std::string> names;
    for (const auto& p : m.plots.at("sweep.svg")["panels"])
        for (const auto& c : p["curves"]) names.insert(c["name"].get<std::string>());
    CHECK(names.size() == 5);
    CHECK(names.count("ccti_timer 0=slow threshold=8"));
    CHECK(names.count("no cc options"));
    for (const auto& n : names) CHECK(n.find("cct=") == std::string::npos); // the same CCT
    // flows.svg: a group per run, the three measures as bars.
    const auto& flows = m.plots.at("flows.svg");
    CHECK(flows["groups"].size() == 5);
    CHECK(flows["panels"][0]["curves"].size() == 3);
    for (const auto& d : {d1, d2}) fs::remove_all(d);
}

TEST_CASE("host-order passes from a spec's sim block to the run's traffic") {
    const char* spec = R"({
  "fabrics": [{"gen": "dragonfly --a 4 --h 2 --p 2 --omit-one-global"}],
  "routings": ["dragonfly"],
  "patterns": ["transpose"],
  "sim": {"host-order": ["natural", "port-major", "random"], "measure-us": 2},
  "loads": [0.1]
})";
    const SweepSpec s = parse_sweep_spec(spec, "h.json");
    REQUIRE(s.points.size() == 3);
    const sim::HostOrder want[] = {sim::HostOrder::Natural, sim::HostOrder::PortMajor,
                                   sim::HostOrder::Random};
    for (std::size_t i = 0; i < 3; ++i)
        CHECK(make_sim_config(sweep_sim_options(s.points[i].json)).traffic.host_order == want[i]);
    std::string bad = spec;
    bad.replace(bad.find("\"random\""), 8, "\"bogus\"");
    CHECK(error_line(bad) == 5); // the "sim" line
}

TEST_CASE("the selection's switches pass from a spec's sim block to the run") {
    const char* spec = R"({
  "fabrics": [{"gen": "hyperx --k 4,4 --cas 2"}],
  "routings": [{"engine": "flatfly", "engine-opt": ["adaptive=ador"], "selection": "least-loaded"}],
  "patterns": ["uniform"],
  "sim": {"one-priority-class": [false, true], "room-ignores-bound": [false, true],
          "measure-us": 2},
  "loads": [0.1]
})";
    const SweepSpec s = parse_sweep_spec(spec, "p.json");
    REQUIRE(s.points.size() == 4);
    std::set<std::pair<bool, bool>> seen; // each combination once
    for (const auto& p : s.points) {
        const sim::SimConfig c = make_sim_config(sweep_sim_options(p.json));
        seen.insert({c.one_priority_class, c.room_ignores_bound});
    }
    CHECK(seen.size() == 4);
}

TEST_CASE(
    "sweep.csv has a column per sim option that varies between points (tidy), seeds averaged") {
    // Issue 40: every sim option was packed into one `sim` column.
    const char* spec = R"({
      "title": "tidy",
      "fabrics": [{"gen": "fat-tree -m 4 -n 2"}],
      "routings": ["mlid"],
      "loads": [0.3],
      "seeds": [1, 2],
      "sim": {"packet-bytes": [64, 256], "warmup-us": 1, "measure-us": 3, "drain-us": 5}
    })";
    const SweepSpec s = parse_sweep_spec(spec, "s.json");
    REQUIRE(s.points.size() == 4);
    std::vector<const SweepPoint*> all;
    for (const auto& p : s.points) all.push_back(&p);
    const fs::path d = test::fresh_dir("sweep-tidy");
    SweepRunOptions o;
    o.quiet = true;
    o.out_dir = d.string();
    run_points(s, all, o);
    merge_sweep(d.string());
    std::istringstream csv(test::slurp(d / "sweep.csv"));
    std::string header, line;
    std::getline(csv, header);
    // The varying ones, after every other column; the fixed ones (warm-up, window) are not.
    CHECK(header.ends_with(",error,\"packet-bytes\",\"seed\""));
    std::set<std::string> tails;
    while (std::getline(csv, line))
        tails.insert(line.substr(line.rfind(",\"", line.rfind(',') - 1)));
    CHECK(tails == std::set<std::string>{",\"64\",\"1\"", ",\"64\",\"2\"", ",\"256\",\"1\"",
                                         ",\"256\",\"2\""});
    // The seeds averaged: one row per packet size, 2 seeds each, the mean of the two runs'
    // accepted fractions, a positive interval.
    std::istringstream mean(test::slurp(d / "sweep-mean.csv"));
    std::getline(mean, line);
    CHECK(line.starts_with("fabric,routing,pattern,vls,sim,cc,load,seeds,accepted_fraction_mean,"
                           "accepted_fraction_ci95,"));
    std::vector<std::string> rows;
    while (std::getline(mean, line)) rows.push_back(line);
    REQUIRE(rows.size() == 2);
    for (const auto& row : rows) {
        CHECK(row.find("packet-bytes=") != std::string::npos);
        CHECK(row.find("seed=") == std::string::npos);
        CHECK(row.find(",0.3,2,") != std::string::npos);
    }
}
