// The random irregular experiments of paper 001 §VI.A-B (Tables I-IV): X machines on Y
// switches of average switch degree 8 (generators/random_graph.hpp), one topology per
// seed, paths by shortest-widest and by path selection, LIDs counted as sum_d 2^ceil(lg k_d)
// and averaged over the seeds.
// Study code (studies/), not LID assignment: it drives lidassign/ for the paper's tables; its
// namespace stays the paper's.
#pragma once

#include "generators/random_graph.hpp"
#include "lidassign/path_compute.hpp"

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace ibrt::lidassign {

struct StudyOptions {
    int seeds = 32;
    double time_limit_s = 10; // exact mode, per destination
    std::vector<int> switches = {16, 32, 64};
    std::vector<int> machines_heuristics = {128, 256, 512}; // Tables I, II
    std::vector<int> machines_exact = {64, 128, 192};       // Tables III, IV
    bool path_selection = true;                             // Table II (false: Table I only)
    // Issue 39's variants (why Table I differs from the paper's); defaults = the study above.
    WidestOptions widest;                                                    // Table I's paths
    gen::RandomParams::Model model = gen::RandomParams::Model::SpanningTree; // the switch graph
    double waxman_beta = 0.2;
    // Path selection's candidates per pair (Yen's k shortest; the paper's 16, at most 16).
    int ps_candidates = 16;
    Candidates ps_which = Candidates::KShortest; // or only the shortest routes among them
    // Each destination's paths in a random order before the heuristics (lids_regular.hpp
    // shuffle_paths, seeded by the topology's seed); false: as computed (sources in order).
    bool shuffle_paths = false;
    std::function<void(const std::string&)> progress;
};

struct HeuristicRow { // Tables I, II
    int machines = 0, switches = 0, seeds = 0;
    double avg[5] = {};  // kAllHeuristics order
    double max_load = 0; // average max link load of the paths
};

struct ExactRow { // Tables III, IV
    int machines = 0, switches = 0, seeds = 0;
    double ilp = 0, greedy = 0, color_l = 0;
    std::uint64_t optimal = 0, feasible = 0, timed_out = 0, ilps = 0;
    double max_dest_seconds = 0, total_seconds = 0;
};

// Table V: the first `seeds` topologies ("random") against the first `seeds` topologies on
// which the exact mode proves every destination optimal for both path computations ("ILP
// selected", the topologies Tables III/IV average over). Seeds are tried in order up to
// 4 x seeds. Improvement = mean over topologies of (greedy - color/L) / color/L.
struct SelectionRow {
    int machines = 0, switches = 0;
    int random_n = 0, selected_n = 0, tried = 0;
    std::vector<int> rejected_seeds; // not fully proven within the time limit
    // [0] random, [1] ILP selected; per path computation (0 SW, 1 PS)
    double greedy[2][2] = {}, color_l[2][2] = {}, improvement[2][2] = {};
};

// One topology's figures (lids-seeds.csv): table 1, 2 (heuristics[5] in kAllHeuristics order,
// max_load) or 3, 4 (greedy and color/L in heuristics[0] and [4], the ILP, and how many
// destinations need more LIDs with greedy / color/L than with the ILP's optimum).
struct SeedRow {
    int table = 0, machines = 0, switches = 0, seed = 0;
    double heuristics[5] = {};
    double max_load = 0;
    double ilp = 0;
    int greedy_dests_above = 0, color_l_dests_above = 0;
};

struct StudyResult {
    std::vector<HeuristicRow> table1, table2; // shortest-widest, path selection
    std::vector<ExactRow> table3, table4;     // over the ILP-selected topologies
    std::vector<SelectionRow> table5;
    std::vector<SeedRow> seeds; // per topology, the tables' order (issue 39: the spread)
};

StudyResult run_study(const StudyOptions& opt);

// CSV files lids-table{1..5}.csv, lids-seeds.csv (one row per topology) and the markdown tables
// lids-study.md into dir.
void write_study(const StudyResult& r, const StudyOptions& opt, const std::string& dir);

} // namespace ibrt::lidassign
