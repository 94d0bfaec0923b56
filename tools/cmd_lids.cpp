// `ibrt lids`: LID assignment (paper 001) on a fabric: computes one path per CA pair with
// shortest-widest or path selection (§VI), runs the heuristics of §V and optionally the exact
// 0-1 ILP of §IV, and reports the LIDs each needs (2^ceil(lg k_d) per destination).
//
// Output: a text table (default), --json (schema "ibrt-lids/1": fabric, paths, seed,
// max_link_load, heuristics [{name, total_lids, total_k, max_k, seconds}], exact {total_lids,
// total_k, optimal, feasible, timed_out, ilps, seconds} and per_dest [{dst, paths, k: {name:
// k}, exact_k, exact_status}]), or --csv (one row per destination: dst,paths,<k per
// heuristic>,exact_k,exact_status).
#include "cli/option_checks.hpp"
#include "cli/progress.hpp"
#include "engines/engine.hpp"
#include "engines/separate/separate.hpp"
#include "formats/routing_files.hpp"
#include "generators/failures.hpp"
#include "generators/fat_tree.hpp"
#include "generators/random_graph.hpp"
#include "generators/torus.hpp"
#include "graph/updown.hpp"
#include "lidassign/path_compute.hpp"
#include "lidassign/plan.hpp"
#include "lidassign/srd.hpp"
#include "studies/lids_random.hpp"
#include "studies/lids_regular.hpp"
#include "tools/command.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <stdexcept>

namespace ibrt::tools {
namespace {

using namespace ibrt::lidassign;

struct LidsArgs {
    std::string fabric, paths = "path-selection", heuristic = "all";
    bool exact = false, json = false, csv = false;
    double time_limit = 10;
    std::uint64_t seed = 1;
    bool study = false, study_regular = false, study_table6 = false;
    std::string study_part = "all";
    int seeds = 32;
    std::string out = "docs/results";
    // Issue 39's variants of --study (Table I's readings of the paper; see path_compute.hpp).
    std::string sw_weights = "per-direction", sw_cost = "sum", sw_order = "source";
    std::string topology = "tree";
    double waxman_beta = 0.2;
    std::vector<int> study_switches, study_machines;
    int ps_candidates = 16;                                              // --study's path selection
    std::string ps_routes = "k-shortest";                                // --study's too
    std::string repair_order = "destination", repair_weights = "loaded"; // --study-regular
    std::string path_order = "computed"; // --study and --study-regular
    std::string dests_csv;               // --study-regular: per-destination rows, if set
    std::string regular_topologies{kDefaultRegularTopologies}; // --study-regular
};

// The studies' shortest widest (Tables I, III, V and VI): source-major by default, the reading of
// the paper's "one by one" that matches its Table I (docs/results/lid-assignment.md, "Why Table
// I's counts differ"); the library's default stays destination-major, which needs no more than
// one destination's DAG at a time on a real fabric.
WidestOptions widest_options(const LidsArgs& a) {
    using W = WidestOptions;
    W w;
    w.weights = a.sw_weights == "per-cable" ? W::Weights::PerCable : W::Weights::PerDirection;
    w.cost = a.sw_cost == "bottleneck" ? W::Cost::Bottleneck : W::Cost::Sum;
    w.order = a.sw_order == "source"   ? W::Order::SourceMajor
              : a.sw_order == "random" ? W::Order::Random
                                       : W::Order::DestinationMajor;
    return w;
}

int run_study_cmd(const LidsArgs& a) {
    StudyOptions o;
    o.seeds = a.seeds;
    o.time_limit_s = a.time_limit;
    if (a.study_part == "exact") o.machines_heuristics.clear();
    if (a.study_part == "heuristics" || a.study_part == "table1") o.machines_exact.clear();
    if (a.study_part == "table1") o.path_selection = false;
    if (!a.study_switches.empty()) o.switches = a.study_switches;
    if (!a.study_machines.empty()) o.machines_heuristics = a.study_machines;
    o.widest = widest_options(a);
    o.ps_candidates = a.ps_candidates;
    o.ps_which = a.ps_routes == "shortest" ? Candidates::Shortest : Candidates::KShortest;
    o.shuffle_paths = a.path_order == "random";
    o.model = a.topology == "tree" ? gen::RandomParams::Model::SpanningTree
                                   : gen::RandomParams::Model::Waxman;
    o.waxman_beta =
        a.topology == "uniform" ? std::numeric_limits<double>::infinity() : a.waxman_beta;
    o.progress = [](const std::string& s) { cli::progress(s); };
    const StudyResult r = run_study(o);
    write_study(r, o, a.out);
    fmt::print("wrote {}/lids-table1..5.csv, lids-seeds.csv and {}/lids-study.md ({} seeds)\n",
               a.out, a.out, a.seeds);
    return kExitOk;
}

// FT(m,n) base routing: the slid engine's d-mod-k tables (paper 001 §VI.C uses the
// deterministic fat-tree routing of its ref. [5]), read back as one path per CA pair.
PathSet lft_paths(const Fabric& f, const Routing& r) {
    PathSet out;
    for (NodeId d : f.cas()) {
        DestPaths dp;
        dp.dst = d;
        const PortId dport = first_end_port(f, d);
        const Lid lid = r.lids.base(dport);
        for (NodeId s : f.cas()) {
            if (s == d) continue;
            std::vector<PortId> p{first_end_port(f, s)};
            NodeId x = f.port(p[0]).peer_node;
            while (f.node(x).is_switch() && p.size() < 64) {
                const PortNum port = r.out_port(x, lid);
                if (port == kNoPath || port == 0) throw std::runtime_error("base routing breaks");
                p.push_back(f.port_id(x, port));
                x = f.port(p.back()).peer_node;
            }
            dp.add(p);
        }
        out.push_back(std::move(dp));
    }
    return out;
}

// Paper 001 Figs. 10-11: greedy, color/L and the ILP on the 16x8 and 8x4x4 tori (DOR) and
// FT(8,3) (d-mod-k) with 0-4 random broken switch links, broken paths re-routed by
// shortest-widest; --regular-topologies chooses other tori and fat trees (§VI.C's "other 2D and
// 3D tori and fat-trees").
int run_regular_study(const LidsArgs& a) {
    struct Topo {
        std::string name, file, figure;
        Fabric f;
        PathSet base;
    };
    std::vector<RegularTopology> specs;
    try {
        specs = parse_regular_topologies(a.regular_topologies);
    } catch (const std::invalid_argument& e) {
        fmt::print(stderr, "ibrt lids: --regular-topologies: {}\n", e.what());
        return kExitBadInput;
    }
    std::vector<Topo> topos;
    for (const RegularTopology& t : specs) {
        Fabric f;
        PathSet base;
        if (t.kind == RegularTopology::Kind::Torus) {
            gen::TorusParams tp;
            tp.k = t.dims;
            f = gen::torus(tp);
            base = dor_paths(f);
        } else {
            f = gen::fat_tree(t.dims[0], t.dims[1]);
            const Routing r = make_engine("slid")->route(f, nullptr, {});
            base = lft_paths(f, r);
        }
        topos.push_back({t.name, t.file, t.figure, std::move(f), std::move(base)});
    }
    RepairOptions ro;
    ro.order = a.repair_order == "source"   ? RepairOptions::Order::Source
               : a.repair_order == "random" ? RepairOptions::Order::Random
                                            : RepairOptions::Order::Destination;
    ro.weights = a.repair_weights == "fresh" ? RepairOptions::Weights::Fresh
                                             : RepairOptions::Weights::Loaded;
    std::filesystem::create_directories(a.out);
    std::ofstream md(std::filesystem::path(a.out) / "lids-regular.md");
    // One row per failure set (issue 39: the spread, and where the heuristics lose).
    std::ofstream seeds(std::filesystem::path(a.out) / "lids-regular-seeds.csv");
    seeds << "figure,broken_links,seed,repaired_paths,repaired_destinations,greedy,color_l,ilp,"
             "greedy_dests_above_ilp,color_l_dests_above_ilp\n";
    // Optionally, every destination the repair changed (issue 39: where the heuristics lose).
    std::ofstream dest_rows;
    if (!a.dests_csv.empty()) {
        dest_rows.open(a.dests_csv);
        if (!dest_rows) {
            fmt::print(stderr, "ibrt lids: cannot create {}\n", a.dests_csv);
            return kExitBadInput;
        }
        dest_rows << "figure,broken_links,seed,destination,repaired_paths,greedy_k,color_l_k,ilp_k,"
                     "clique_bound\n";
    }
    md << fmt::format("Averages over {} random failure sets per point; LIDs = sum_d 2^ceil(lg "
                      "k_d).\n\n",
                      a.seeds);
    for (const Topo& t : topos) {
        std::ofstream csv(std::filesystem::path(a.out) / t.file);
        csv << "broken_links,seeds,repaired_paths,greedy,color_l,ilp,optimal,destinations\n";
        md << "### " << t.name << "\n\n| broken links | re-routed paths | greedy | color/L | ILP "
           << "| proven optimal |\n|---|---|---|---|---|---|\n";
        for (int broken = 0; broken <= 4; ++broken) {
            double g = 0, c = 0, ilp = 0, rep = 0;
            std::uint64_t opt = 0, dests = 0;
            const int runs = broken == 0 ? 1 : a.seeds;
            for (int s = 1; s <= runs; ++s) {
                cli::progress(fmt::format("{} broken {} seed {}", t.name, broken, s));
                gen::FailureSpec fs;
                fs.links = broken;
                fs.seed = std::uint64_t(s);
                fs.keep_connected = true;
                gen::FailureReport fr;
                const Fabric f = gen::inject_failures(t.f, fs, fr);
                std::size_t repaired = 0;
                ro.order_seed = std::uint64_t(s);
                PathSet ps = repair_paths(f, t.base, &repaired, ro);
                rep += double(repaired);
                // Which destinations the repair changed, before any reordering.
                std::vector<std::uint32_t> changed(ps.size(), 0); // re-routed paths
                for (std::size_t d = 0; d < ps.size(); ++d)
                    for (std::size_t i = 0; i < ps[d].size(); ++i) {
                        const auto p = ps[d].path(i), q = t.base[d].path(i);
                        changed[d] += !std::equal(p.begin(), p.end(), q.begin(), q.end());
                    }
                if (a.path_order == "random") ps = shuffle_paths(ps, std::uint64_t(s));
                const Plan pg = plan_heuristic(f, ps, Heuristic::Greedy);
                const Plan pc = plan_heuristic(f, ps, Heuristic::ColorL);
                g += double(pg.total_lids);
                c += double(pc.total_lids);
                const ExactPlan e = plan_exact(f, ps, a.time_limit);
                ilp += double(e.total_lids);
                opt += e.optimal;
                dests += e.per_dest.size();
                int rd = 0, ga = 0, ca = 0;
                for (std::size_t d = 0; d < ps.size(); ++d) {
                    rd += changed[d] > 0;
                    if (dest_rows.is_open() && changed[d] > 0)
                        dest_rows << fmt::format("{},{},{},{},{},{},{},{},{}\n", t.figure, broken,
                                                 s, d, changed[d], pg.per_dest[d].k,
                                                 pc.per_dest[d].k, e.per_dest[d].best.k,
                                                 e.per_dest[d].lower_bound);
                    const std::uint32_t best = lids_for(e.per_dest[d].best.k);
                    ga += lids_for(pg.per_dest[d].k) > best;
                    ca += lids_for(pc.per_dest[d].k) > best;
                }
                // The figure (fig10a, fig10b, fig11, regular-torus-8x8, ...): FT(8,3)'s name
                // holds a comma.
                seeds << fmt::format("{},{},{},{},{},{},{},{},{},{}\n", t.figure, broken, s,
                                     repaired, rd, pg.total_lids, pc.total_lids, e.total_lids, ga,
                                     ca);
            }
            csv << fmt::format("{},{},{:.2f},{:.2f},{:.2f},{:.2f},{},{}\n", broken, runs,
                               rep / runs, g / runs, c / runs, ilp / runs, opt, dests);
            md << fmt::format("| {} | {:.1f} | {:.1f} | {:.1f} | {:.1f} | {}/{} |\n", broken,
                              rep / runs, g / runs, c / runs, ilp / runs, opt, dests);
        }
        md << "\n";
    }
    std::string files;
    for (const Topo& t : topos) files += t.file + ", ";
    fmt::print("wrote {}/{}lids-regular.md, lids-regular-seeds.csv\n", a.out, files);
    return kExitOk;
}

// Paper 001 Table VI (§VI.D): maximum link load and LIDs of `separate` (path selection +
// color/L), SRD (srd.hpp: one legal Up*/Down* tree per destination, one LID each) and
// destination renaming (shortest Up*/Down* paths, shortest-widest; each path, as it is
// computed, joins the first LID of its destination it does not split with, else opens a new
// one: exactly Fig. 6's greedy in path order). All three on the same Up*/Down* orientation.
int run_table6(const LidsArgs& a) {
    std::filesystem::create_directories(a.out);
    std::ofstream csv(std::filesystem::path(a.out) / "lids-table6.csv");
    std::ofstream md(std::filesystem::path(a.out) / "lids-table6.md");
    csv << "conf,seeds,srd_load,srd_lids,renaming_load,renaming_lids,separate_load,"
           "separate_lids\n";
    md << fmt::format("Averages over {} seeds; load = max directed switch-link load with every "
                      "machine sending 1 in total.\n\n| conf. | SRD load | LIDs | "
                      "renaming load | LIDs | separate load | LIDs |\n|---|---|---|---|---|"
                      "---|---|\n",
                      a.seeds);
    for (int y : {16, 32, 64})
        for (int x : {128, 256, 512}) {
            double v[6] = {};
            for (int s = 1; s <= a.seeds; ++s) {
                cli::progress(fmt::format("Table VI {}/{} seed {}", x, y, s));
                gen::RandomParams rp;
                rp.switches = y;
                rp.degree = 8;
                rp.cas = x;
                rp.seed = std::uint64_t(s);
                const Fabric f = gen::random_fabric(rp);
                const graph::UpDown ud =
                    graph::make_updown(f, graph::choose_root(f, std::uint64_t(s)));
                const PathSet srd = srd_paths(f, ud);
                v[0] += max_link_load(f, srd);
                v[1] += double(plan_heuristic(f, srd, Heuristic::ColorL).total_lids);
                const PathSet sw = shortest_widest(f, ud, widest_options(a));
                v[2] += max_link_load(f, sw);
                v[3] += double(plan_heuristic(f, sw, Heuristic::Greedy).total_lids);
                const PathSet sel = path_selection(f, ud);
                v[4] += max_link_load(f, sel);
                v[5] += double(plan_heuristic(f, sel, Heuristic::ColorL).total_lids);
            }
            for (double& d : v) d /= a.seeds;
            csv << fmt::format("{}/{},{},{:.3f},{:.1f},{:.3f},{:.1f},{:.3f},{:.1f}\n", x, y,
                               a.seeds, v[0], v[1], v[2], v[3], v[4], v[5]);
            md << fmt::format("| {}/{} | {:.2f} | {:.0f} | {:.2f} | {:.1f} | {:.2f} | {:.1f} |\n",
                              x, y, v[0], v[1], v[2], v[3], v[4], v[5]);
        }
    fmt::print("wrote {}/lids-table6.csv and lids-table6.md\n", a.out);
    return kExitOk;
}

int run_lids(const LidsArgs& a) {
    if (a.study) return run_study_cmd(a);
    if (a.study_table6) return run_table6(a);
    if (a.study_regular) return run_regular_study(a);
    if (a.fabric.empty()) {
        fmt::print(stderr, "ibrt lids: --fabric is required (or --study)\n");
        return kExitBadInput;
    }
    if (a.json && a.csv) {
        fmt::print(stderr, "ibrt lids: --json and --csv exclude each other\n");
        return kExitBadInput;
    }
    PathScheme scheme;
    if (a.paths == "shortest-widest")
        scheme = PathScheme::ShortestWidest;
    else if (a.paths == "path-selection")
        scheme = PathScheme::PathSelection;
    else {
        fmt::print(stderr, "ibrt lids: --paths must be shortest-widest or path-selection\n");
        return kExitBadInput;
    }
    std::vector<Heuristic> hs;
    if (a.heuristic == "all")
        hs.assign(std::begin(kAllHeuristics), std::end(kAllHeuristics));
    else if (auto h = parse_heuristic(a.heuristic))
        hs.push_back(*h);
    else {
        fmt::print(stderr,
                   "ibrt lids: unknown heuristic '{}' (greedy, split-merge/S, split-merge/L, "
                   "color/S, color/L, all)\n",
                   a.heuristic);
        return kExitBadInput;
    }
    const Fabric f = load_topology(a.fabric);
    PathOptions po;
    po.seed = a.seed;
    const PathSet paths = compute_paths(f, scheme, po);
    std::vector<Plan> plans;
    for (Heuristic h : hs) plans.push_back(plan_heuristic(f, paths, h));
    std::optional<ExactPlan> exact;
    if (a.exact) exact = plan_exact(f, paths, a.time_limit);
    const double load = max_link_load(f, paths);

    if (a.csv) {
        fmt::print("dst,paths");
        for (Heuristic h : hs) fmt::print(",{}", to_string(h));
        if (exact) fmt::print(",exact_k,exact_status");
        fmt::print("\n");
        for (std::size_t i = 0; i < paths.size(); ++i) {
            fmt::print("{},{}", f.node(paths[i].dst).desc, paths[i].size());
            for (const Plan& p : plans) fmt::print(",{}", p.per_dest[i].k);
            if (exact)
                fmt::print(",{},{}", exact->per_dest[i].best.k,
                           to_string(exact->per_dest[i].status));
            fmt::print("\n");
        }
        return kExitOk;
    }
    if (a.json) {
        using J = nlohmann::ordered_json;
        J j;
        j["schema"] = "ibrt-lids/1";
        j["fabric"] = a.fabric;
        j["paths"] = to_string(scheme);
        j["seed"] = a.seed;
        j["max_link_load"] = load;
        j["heuristics"] = J::array();
        for (std::size_t i = 0; i < hs.size(); ++i)
            j["heuristics"].push_back({{"name", to_string(hs[i])},
                                       {"total_lids", plans[i].total_lids},
                                       {"total_k", plans[i].total_k},
                                       {"max_k", plans[i].max_k},
                                       {"seconds", plans[i].seconds}});
        if (exact)
            j["exact"] = {{"total_lids", exact->total_lids}, {"total_k", exact->total_k},
                          {"optimal", exact->optimal},       {"feasible", exact->feasible},
                          {"timed_out", exact->timed_out},   {"ilps", exact->ilps},
                          {"seconds", exact->seconds}};
        J per = J::array();
        for (std::size_t i = 0; i < paths.size(); ++i) {
            J d{{"dst", f.node(paths[i].dst).desc}, {"paths", paths[i].size()}};
            J k = J::object();
            for (std::size_t h = 0; h < hs.size(); ++h)
                k[std::string(to_string(hs[h]))] = plans[h].per_dest[i].k;
            d["k"] = k;
            if (exact) {
                d["exact_k"] = exact->per_dest[i].best.k;
                d["exact_status"] = to_string(exact->per_dest[i].status);
            }
            per.push_back(d);
        }
        j["per_dest"] = per;
        fmt::print("{}\n", j.dump(2));
        return kExitOk;
    }
    fmt::print(
        "{}: {} CAs, {} paths ({}), max link load {:.3f}\n", a.fabric, f.cas().size(),
        [&] {
            std::size_t n = 0;
            for (const auto& d : paths) n += d.size();
            return n;
        }(),
        to_string(scheme), load);
    fmt::print("{:<16} {:>10} {:>10} {:>6} {:>10}\n", "heuristic", "LIDs", "sum k", "max k", "ms");
    for (std::size_t i = 0; i < hs.size(); ++i)
        fmt::print("{:<16} {:>10} {:>10} {:>6} {:>10.1f}\n", to_string(hs[i]), plans[i].total_lids,
                   plans[i].total_k, plans[i].max_k, plans[i].seconds * 1e3);
    if (exact)
        fmt::print("{:<16} {:>10} {:>10} {:>6} {:>10.1f}   optimal {}, feasible {}, timed out "
                   "{}, {} ILPs\n",
                   "exact (ILP)", exact->total_lids, exact->total_k, "", exact->seconds * 1e3,
                   exact->optimal, exact->feasible, exact->timed_out, exact->ilps);
    return kExitOk;
}

const CommandRegistrar reg{{
    "lids",
    "LID assignment (paper 001): heuristics and exact ILP on a fabric's paths",
    [](CLI::App& sub) -> std::function<int()> {
        auto a = std::make_shared<LidsArgs>();
        sub.add_option("--fabric", a->fabric,
                       "Topology: ibnetdiscover / ibsim net, or opensm-subnet.lst");
        sub.add_option("--paths", a->paths,
                       "Path computation over Up*/Down* routes: shortest-widest or "
                       "path-selection")
            ->default_val("path-selection");
        sub.add_option("--heuristic", a->heuristic,
                       "greedy, split-merge/S, split-merge/L, color/S, color/L or all")
            ->default_val("all");
        sub.add_flag("--exact", a->exact,
                     "Also solve the 0-1 ILP (GLPK) from color/L's k downwards per destination");
        sub.add_option("--time-limit", a->time_limit, "Seconds per destination for the exact mode")
            ->default_val(10)
            ->check(cli::real_above(0, 1e6));
        sub.add_option("--seed", a->seed, "Seed choosing the Up*/Down* root")
            ->default_val(1)
            ->check(cli::whole_in(0, cli::kMax<std::uint64_t>));
        sub.add_flag("--study", a->study,
                     "Reproduce paper 001 Tables I-V on random irregular fabrics (16/32/64 "
                     "switches, degree 8) into --out");
        sub.add_option("--study-part", a->study_part,
                       "Only Tables I-II (heuristics), Table I (table1) or III-V (exact) of "
                       "--study, e.g. to run them in parallel into different --out directories")
            ->check(CLI::IsMember({"all", "heuristics", "exact", "table1"}))
            ->default_val("all");
        sub.add_flag("--study-regular", a->study_regular,
                     "Reproduce paper 001 Figs. 10-11: 16x8 and 8x4x4 tori (DOR) and FT(8,3) "
                     "with 0-4 broken links (or --regular-topologies), into --out");
        sub.add_option("--regular-topologies", a->regular_topologies,
                       "--study-regular (issue 39): the topologies, comma-separated: "
                       "torus:AxB[xC...] (DOR) and fat-tree:M,N (FT(M,N), d-mod-k); the paper's "
                       "three write lids-fig10a/10b/11.csv, others lids-regular-<torus-AxB|ft-M-N>"
                       ".csv")
            ->default_val(std::string(kDefaultRegularTopologies));
        sub.add_flag("--study-table6", a->study_table6,
                     "Reproduce paper 001 Table VI: separate vs SRD vs destination renaming "
                     "(max link load and LIDs), into --out");
        sub.add_option("--study-switches", a->study_switches,
                       "--study: only these switch counts (default 16 32 64)")
            ->check(CLI::Range(2, 4096));
        sub.add_option("--study-machines", a->study_machines,
                       "--study: only these machine counts for Tables I-II (default 128 256 512)")
            ->check(CLI::Range(2, 1 << 16));
        sub.add_option("--sw-weights", a->sw_weights,
                       "--study and --study-table6, shortest widest (issue 39): link weights per "
                       "direction or per "
                       "cable")
            ->check(CLI::IsMember({"per-direction", "per-cable"}))
            ->default_val("per-direction");
        sub.add_option("--sw-cost", a->sw_cost,
                       "--study and --study-table6, shortest widest: among the fewest-hop routes "
                       "the smallest weight "
                       "sum or the smallest maximum link weight (bottleneck)")
            ->check(CLI::IsMember({"sum", "bottleneck"}))
            ->default_val("sum");
        sub.add_option("--sw-order", a->sw_order,
                       "--study and --study-table6, shortest widest: pairs source-major (the "
                       "reading that matches the paper's Table I), destination-major or in "
                       "random order")
            ->check(CLI::IsMember({"destination", "source", "random"}))
            ->default_val("source");
        sub.add_option("--ps-candidates", a->ps_candidates,
                       "--study's path selection (issue 39): candidates per pair from Yen's k "
                       "shortest routes (the paper's 16)")
            ->default_val(16)
            ->check(cli::whole_in(1, 16));
        sub.add_option("--ps-routes", a->ps_routes,
                       "--study's path selection: Yen's k shortest routes (k-shortest) or only "
                       "those as short as the pair's shortest (shortest)")
            ->check(CLI::IsMember({"k-shortest", "shortest"}))
            ->default_val("k-shortest");
        sub.add_option("--repair-order", a->repair_order,
                       "--study-regular (issue 39): re-route the broken paths destination by "
                       "destination, source by source or in random order")
            ->check(CLI::IsMember({"destination", "source", "random"}))
            ->default_val("destination");
        sub.add_option("--repair-weights", a->repair_weights,
                       "--study-regular: shortest widest's weights start with the kept paths' "
                       "loads (loaded) or at 1 (fresh: only the re-routed paths add)")
            ->check(CLI::IsMember({"loaded", "fresh"}))
            ->default_val("loaded");
        sub.add_option("--path-order", a->path_order,
                       "--study and --study-regular (issue 39): each destination's paths in the "
                       "order computed (sources in order) or shuffled (random, per seed) before "
                       "the heuristics, which break ties by it")
            ->check(CLI::IsMember({"computed", "random"}))
            ->default_val("computed");
        sub.add_option("--dests-csv", a->dests_csv,
                       "--study-regular (issue 39): also write every destination the repair "
                       "changed (re-routed paths, k of greedy, color/L, the ILP, clique bound) to "
                       "this CSV");
        sub.add_option("--topology", a->topology,
                       "--study's switch graphs: tree (random spanning tree + random edges), "
                       "waxman (GT-ITM-like, --waxman-beta) or uniform (random connected graph)")
            ->check(CLI::IsMember({"tree", "waxman", "uniform"}))
            ->default_val("tree");
        sub.add_option("--waxman-beta", a->waxman_beta,
                       "Waxman locality: edges in proportion to exp(-d / (beta sqrt 2))")
            ->default_val(0.2)
            ->check(cli::real_above(0, 1e6));
        sub.add_option("--seeds", a->seeds, "Topologies per configuration for --study")
            ->default_val(32)
            ->check(cli::whole_in(1, 1000000));
        sub.add_option("--out", a->out, "Directory for --study's CSV and markdown")
            ->default_val("docs/results");
        sub.add_flag("--json", a->json, "JSON report (schema ibrt-lids/1)");
        sub.add_flag("--csv", a->csv, "CSV, one row per destination");
        sub.footer("LIDs per destination are 2^ceil(lg k_d) for k_d configurations (LMC). "
                   "Exact mode reports\nper destination: optimal (proven), feasible (improved, "
                   "not proven) or timed-out.\nExit codes: 0 assigned, 2 bad input.");
        return [a] { return run_lids(*a); };
    },
}};

} // namespace
} // namespace ibrt::tools
