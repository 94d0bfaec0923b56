// Paper 001 §VI.A-B, Tables I-IV, on our generator and path computations.
#include "studies/lids_random.hpp"

#include "generators/random_graph.hpp"
#include "lidassign/plan.hpp"
#include "studies/lids_regular.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace ibrt::lidassign {

namespace {

Fabric make(int machines, int switches, int seed, const StudyOptions& opt) {
    gen::RandomParams rp;
    rp.model = opt.model;
    rp.waxman_beta = opt.waxman_beta;
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
                const Fabric f = make(x, y, s, opt);
                const graph::UpDown ud =
                    graph::make_updown(f, graph::choose_root(f, std::uint64_t(s)));
                auto add = [&](HeuristicRow& row, const PathSet& paths, int table) {
                    SeedRow one{table, x, y, s};
                    for (int h = 0; h < 5; ++h) {
                        one.heuristics[h] =
                            double(plan_heuristic(f, paths, kAllHeuristics[h]).total_lids);
                        row.avg[h] += one.heuristics[h];
                    }
                    one.max_load = max_link_load(f, paths);
                    row.max_load += one.max_load;
                    r.seeds.push_back(one);
                };
                auto order = [&](PathSet p) {
                    return opt.shuffle_paths ? shuffle_paths(p, std::uint64_t(s)) : p;
                };
                add(sw, order(shortest_widest(f, ud, opt.widest)), 1);
                if (opt.path_selection)
                    add(ps, order(path_selection(f, ud, opt.ps_candidates, {}, opt.ps_which)), 2);
            }
            for (HeuristicRow* row : {&sw, &ps}) {
                for (double& v : row->avg) v /= opt.seeds;
                row->max_load /= opt.seeds;
            }
            r.table1.push_back(sw);
            if (opt.path_selection) r.table2.push_back(ps);
        }
    for (int y : opt.switches)
        for (int x : opt.machines_exact) {
            ExactRow sw{x, y, 0}, ps{x, y, 0};
            SelectionRow t5{x, y};
            for (int s = 1; (s <= opt.seeds || t5.selected_n < opt.seeds) && s <= 4 * opt.seeds;
                 ++s) {
                say(fmt::format("Tables III/IV/V {}/{} seed {}", x, y, s));
                const Fabric f = make(x, y, s, opt);
                const graph::UpDown ud =
                    graph::make_updown(f, graph::choose_root(f, std::uint64_t(s)));
                ++t5.tried;
                struct One {
                    Plan greedy, color_l;
                    ExactPlan e;
                };
                std::vector<One> res;
                bool proven = true;
                for (PathScheme sc : {PathScheme::ShortestWidest, PathScheme::PathSelection}) {
                    PathSet paths =
                        sc == PathScheme::ShortestWidest
                            ? shortest_widest(f, ud, opt.widest)
                            : path_selection(f, ud, opt.ps_candidates, {}, opt.ps_which);
                    if (opt.shuffle_paths) paths = shuffle_paths(paths, std::uint64_t(s));
                    One o{plan_heuristic(f, paths, Heuristic::Greedy),
                          plan_heuristic(f, paths, Heuristic::ColorL),
                          plan_exact(f, paths, opt.time_limit_s)};
                    proven &= o.e.feasible == 0 && o.e.timed_out == 0;
                    res.push_back(std::move(o));
                }
                const bool take = proven && t5.selected_n < opt.seeds;
                if (!proven) t5.rejected_seeds.push_back(s);
                for (int k = 0; k < 2; ++k) {
                    const One& o = res[std::size_t(k)];
                    const double greedy = double(o.greedy.total_lids),
                                 color_l = double(o.color_l.total_lids);
                    ExactRow* row = k == 0 ? &sw : &ps;
                    // Solver statistics over every topology tried, averages over the selected.
                    row->optimal += o.e.optimal;
                    row->feasible += o.e.feasible;
                    row->timed_out += o.e.timed_out;
                    row->ilps += o.e.ilps;
                    row->total_seconds += o.e.seconds;
                    for (const ExactResult& d : o.e.per_dest)
                        row->max_dest_seconds = std::max(row->max_dest_seconds, d.seconds);
                    const double imp = 100.0 * (greedy - color_l) / color_l;
                    for (int sel = 0; sel < 2; ++sel) {
                        if (sel == 0 ? s > opt.seeds : !take) continue;
                        t5.greedy[sel][k] += greedy;
                        t5.color_l[sel][k] += color_l;
                        t5.improvement[sel][k] += imp;
                    }
                    if (!take) continue;
                    row->ilp += double(o.e.total_lids);
                    row->greedy += greedy;
                    row->color_l += color_l;
                    SeedRow one{k == 0 ? 3 : 4, x, y, s};
                    one.heuristics[0] = greedy;
                    one.heuristics[4] = color_l;
                    one.ilp = double(o.e.total_lids);
                    for (std::size_t d = 0; d < o.e.per_dest.size(); ++d) {
                        const std::uint64_t best = lids_for(o.e.per_dest[d].best.k);
                        one.greedy_dests_above += lids_for(o.greedy.per_dest[d].k) > best;
                        one.color_l_dests_above += lids_for(o.color_l.per_dest[d].k) > best;
                    }
                    r.seeds.push_back(one);
                }
                if (s <= opt.seeds) ++t5.random_n;
                if (take) ++t5.selected_n;
            }
            for (ExactRow* row : {&sw, &ps}) {
                row->seeds = t5.selected_n;
                if (t5.selected_n == 0) continue;
                row->ilp /= t5.selected_n;
                row->greedy /= t5.selected_n;
                row->color_l /= t5.selected_n;
            }
            for (int sel = 0; sel < 2; ++sel)
                for (int k = 0; k < 2; ++k) {
                    const int n = sel == 0 ? t5.random_n : t5.selected_n;
                    if (n == 0) continue;
                    t5.greedy[sel][k] /= n;
                    t5.color_l[sel][k] /= n;
                    t5.improvement[sel][k] /= n;
                }
            r.table5.push_back(t5);
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
        if (tabs[t]->empty()) continue; // part of the study not run
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
        if (etabs[t]->empty()) continue;
        std::ofstream csv = open(efiles[t]);
        csv << "conf,machines,switches,seeds,ilp,greedy,color_l,greedy_over_ilp_pct,"
               "color_l_over_ilp_pct,optimal,feasible,timed_out,ilps,max_dest_seconds,"
               "total_seconds\n";
        md << "### " << etitles[t]
           << "\n\n| Conf. | ILP | Greedy | Color/L | greedy over ILP | color/L over ILP | "
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
    if (!r.seeds.empty()) {
        std::ofstream csv = open("lids-seeds.csv");
        csv << "table,conf,seed,greedy,sm_s,sm_l,color_s,color_l,max_link_load,ilp,"
               "greedy_dests_above_ilp,color_l_dests_above_ilp\n";
        for (const SeedRow& s : r.seeds) {
            const auto* h = s.heuristics;
            if (s.table <= 2)
                csv << fmt::format("{},{}/{},{},{:.0f},{:.0f},{:.0f},{:.0f},{:.0f},{:.3f},,,\n",
                                   s.table, s.machines, s.switches, s.seed, h[0], h[1], h[2], h[3],
                                   h[4], s.max_load);
            else
                csv << fmt::format("{},{}/{},{},{:.0f},,,,{:.0f},,{:.0f},{},{}\n", s.table,
                                   s.machines, s.switches, s.seed, h[0], h[4], s.ilp,
                                   s.greedy_dests_above, s.color_l_dests_above);
        }
    }
    if (r.table5.empty()) return;
    std::ofstream csv = open("lids-table5.csv");
    csv << "conf,machines,switches,topologies,n,tried,rejected_seeds,sw_greedy,sw_color_l,"
           "sw_improvement_pct,ps_greedy,ps_color_l,ps_improvement_pct\n";
    md << "### Table V (ILP selected vs purely random topologies)\n\n"
          "random = seeds 1..N; ILP selected = the first N seeds on which the exact mode proves "
          "every destination optimal for both path computations (the topologies of Tables "
          "III/IV). Improvement = mean of (greedy - color/L) / color/L.\n\n"
          "| Conf. | Topo. type | n | SW greedy | SW color/L | SW improvement | PS greedy | PS "
          "color/L | PS improvement |\n|---|---|---|---|---|---|---|---|---|\n";
    for (const SelectionRow& row : r.table5) {
        std::string rejected;
        for (int s : row.rejected_seeds)
            rejected += (rejected.empty() ? "" : " ") + std::to_string(s);
        for (int sel = 0; sel < 2; ++sel) {
            const int n = sel == 0 ? row.random_n : row.selected_n;
            const char* type = sel == 0 ? "random" : "ILP selected";
            csv << fmt::format(
                "{}/{},{},{},{},{},{},{},{:.2f},{:.2f},{:.3f},{:.2f},{:.2f},{:.3f}\n", row.machines,
                row.switches, row.machines, row.switches, type, n, row.tried, rejected,
                row.greedy[sel][0], row.color_l[sel][0], row.improvement[sel][0],
                row.greedy[sel][1], row.color_l[sel][1], row.improvement[sel][1]);
            md << fmt::format(
                "| {} | {} | {} | {:.1f} | {:.1f} | {:.2f}% | {:.1f} | {:.1f} | {:.2f}% |\n",
                sel == 0 ? fmt::format("{}/{}", row.machines, row.switches) : std::string(), type,
                n, row.greedy[sel][0], row.color_l[sel][0], row.improvement[sel][0],
                row.greedy[sel][1], row.color_l[sel][1], row.improvement[sel][1]);
        }
        if (!row.rejected_seeds.empty())
            md << fmt::format("| | seeds not fully proven: {} | | | | | | | |\n", rejected);
    }
    md << "\n";
}

} // namespace ibrt::lidassign
