// Paper 001 §VI.A-B, Tables I-IV, on our generator and path computations.
#include "lidassign/study.hpp"

#include "fabric/generators/random_graph.hpp"
#include "lidassign/plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace ibrt::lidassign {

namespace {

Fabric make(int machines, int switches, int seed) {
    gen::RandomParams rp;
    rp.switches = switches;
    rp.degree = 8;
    rp.cas = machines;
    rp.seed = std::uint64_t(seed);
    return gen::random_fabric(rp);
}

} // namespace

StudyResult run_study(const StudyOptions& opt) {
    StudyResult r;
    auto say = [&](const std::string& s) {
        if (opt.progress) opt.progress(s);
    };
    for (int y : opt.switches)
        for (int x : opt.machines_heuristics) {
            HeuristicRow sw{x, y, opt.seeds, {}, 0}, ps{x, y, opt.seeds, {}, 0};
            for (int s = 1; s <= opt.seeds; ++s) {
                say(fmt::format("Tables I/II {}/{} seed {}", x, y, s));
                const Fabric f = make(x, y, s);
                const UpDown ud = make_updown(f, choose_root(f, std::uint64_t(s)));
                for (auto [row, paths] : {std::pair{&sw, shortest_widest(f, ud)},
                                          std::pair{&ps, path_selection(f, ud)}}) {
                    for (int h = 0; h < 5; ++h)
                        row->avg[h] +=
                            double(plan_heuristic(f, paths, kAllHeuristics[h]).total_lids);
                    row->max_load += max_link_load(f, paths);
                }
            }
            for (HeuristicRow* row : {&sw, &ps}) {
                for (double& v : row->avg) v /= opt.seeds;
                row->max_load /= opt.seeds;
            }
            r.table1.push_back(sw);
            r.table2.push_back(ps);
        }
    for (int y : opt.switches)
        for (int x : opt.machines_exact) {
            ExactRow sw{x, y, opt.seeds}, ps{x, y, opt.seeds};
            for (int s = 1; s <= opt.seeds; ++s) {
                say(fmt::format("Tables III/IV {}/{} seed {}", x, y, s));
                const Fabric f = make(x, y, s);
                const UpDown ud = make_updown(f, choose_root(f, std::uint64_t(s)));
                for (auto [row, paths] : {std::pair{&sw, shortest_widest(f, ud)},
                                          std::pair{&ps, path_selection(f, ud)}}) {
                    row->greedy += double(plan_heuristic(f, paths, Heuristic::Greedy).total_lids);
                    row->color_l += double(plan_heuristic(f, paths, Heuristic::ColorL).total_lids);
                    const ExactPlan e = plan_exact(f, paths, opt.time_limit_s);
                    row->ilp += double(e.total_lids);
                    row->optimal += e.optimal;
                    row->feasible += e.feasible;
                    row->timed_out += e.timed_out;
                    row->ilps += e.ilps;
                    row->total_seconds += e.seconds;
                    for (const ExactResult& d : e.per_dest)
                        row->max_dest_seconds = std::max(row->max_dest_seconds, d.seconds);
                }
            }
            for (ExactRow* row : {&sw, &ps}) {
                row->ilp /= opt.seeds;
                row->greedy /= opt.seeds;
                row->color_l /= opt.seeds;
            }
            r.table3.push_back(sw);
            r.table4.push_back(ps);
        }
    return r;
}

void write_study(const StudyResult& r, const StudyOptions& opt, const std::string& dir) {
    std::filesystem::create_directories(dir);
    auto open = [&](const std::string& name) {
        std::ofstream o(std::filesystem::path(dir) / name);
        if (!o) throw std::runtime_error("cannot create " + dir + "/" + name);
        return o;
    };
    auto pct = [](double heur, double ilp) { return ilp > 0 ? 100.0 * (heur - ilp) / ilp : 0.0; };
    std::ofstream md = open("lids-study.md");
    md << fmt::format("Averages over {} seeds (random irregular, switch degree 8); LIDs = sum over "
                      "destinations of 2^ceil(lg k_d).\n\n",
                      opt.seeds);
    const char* titles[] = {"Table I (shortest widest)", "Table II (path selection)"};
    const char* files[] = {"lids-table1.csv", "lids-table2.csv"};
    const std::vector<HeuristicRow>* tabs[] = {&r.table1, &r.table2};
    for (int t = 0; t < 2; ++t) {
        std::ofstream csv = open(files[t]);
        csv << "conf,machines,switches,seeds,greedy,sm_s,sm_l,color_s,color_l,max_link_load\n";
        md << "### " << titles[t]
           << "\n\n| Conf. | Greedy | S-m/S | S-m/L | Color/S | Color/L | max "
           << "link load |\n|---|---|---|---|---|---|---|\n";
        for (const HeuristicRow& row : *tabs[t]) {
            csv << fmt::format("{}/{},{},{},{},{:.2f},{:.2f},{:.2f},{:.2f},{:.2f},{:.3f}\n",
                               row.machines, row.switches, row.machines, row.switches, row.seeds,
                               row.avg[0], row.avg[1], row.avg[2], row.avg[3], row.avg[4],
                               row.max_load);
            md << fmt::format("| {}/{} | {:.1f} | {:.1f} | {:.1f} | {:.1f} | {:.1f} | {:.2f} |\n",
                              row.machines, row.switches, row.avg[0], row.avg[1], row.avg[2],
                              row.avg[3], row.avg[4], row.max_load);
        }
        md << "\n";
    }
    const char* etitles[] = {"Table III (shortest widest)", "Table IV (path selection)"};
    const char* efiles[] = {"lids-table3.csv", "lids-table4.csv"};
    const std::vector<ExactRow>* etabs[] = {&r.table3, &r.table4};
    for (int t = 0; t < 2; ++t) {
        std::ofstream csv = open(efiles[t]);
        csv << "conf,machines,switches,seeds,ilp,greedy,color_l,ilp_over_greedy_pct,"
               "ilp_over_color_l_pct,optimal,feasible,timed_out,ilps,max_dest_seconds,"
               "total_seconds\n";
        md << "### " << etitles[t]
           << "\n\n| Conf. | ILP | Greedy | Color/L | ILP over greedy | ILP over color/L | "
              "proven optimal | ILPs | slowest destination "
              "|\n|---|---|---|---|---|---|---|---|---|\n";
        for (const ExactRow& row : *etabs[t]) {
            const std::uint64_t dests = row.optimal + row.feasible + row.timed_out;
            csv << fmt::format(
                "{}/{},{},{},{},{:.2f},{:.2f},{:.2f},{:.3f},{:.3f},{},{},{},{},{:.4f},"
                "{:.3f}\n",
                row.machines, row.switches, row.machines, row.switches, row.seeds, row.ilp,
                row.greedy, row.color_l, pct(row.greedy, row.ilp), pct(row.color_l, row.ilp),
                row.optimal, row.feasible, row.timed_out, row.ilps, row.max_dest_seconds,
                row.total_seconds);
            md << fmt::format("| {}/{} | {:.1f} | {:.1f} | {:.1f} | {:.2f}% | {:.2f}% | {}/{} | {} "
                              "| {:.3f} s |\n",
                              row.machines, row.switches, row.ilp, row.greedy, row.color_l,
                              pct(row.greedy, row.ilp), pct(row.color_l, row.ilp), row.optimal,
                              dests, row.ilps, row.max_dest_seconds);
        }
        md << "\n";
    }
}

} // namespace ibrt::lidassign
