// Paper 001 §II (L = sum_d L_d) and §VI (LIDs counted as 2^ceil(lg k_d)).
#include "lidassign/plan.hpp"

#include <algorithm>
#include <chrono>

namespace ibrt::lidassign {

namespace {
double since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}
} // namespace

Plan plan_heuristic(const Fabric& f, const PathSet& paths, Heuristic h) {
    const auto t = std::chrono::steady_clock::now();
    Plan p;
    p.per_dest.reserve(paths.size());
    for (const DestPaths& d : paths) {
        p.per_dest.push_back(run_heuristic(h, f, d));
        const std::uint32_t k = p.per_dest.back().k;
        p.total_k += k;
        p.total_lids += lids_for(k);
        p.max_k = std::max(p.max_k, k);
    }
    p.seconds = since(t);
    return p;
}

ExactPlan plan_exact(const Fabric& f, const PathSet& paths, double time_limit_s) {
    const auto t = std::chrono::steady_clock::now();
    ExactPlan p;
    for (const DestPaths& d : paths) {
        p.per_dest.push_back(solve_exact(build_split_graph(f, d), time_limit_s));
        const ExactResult& r = p.per_dest.back();
        p.total_k += r.best.k;
        p.total_lids += lids_for(r.best.k);
        p.ilps += r.ilps_solved;
        switch (r.status) {
        case ExactStatus::Optimal:
            ++p.optimal;
            break;
        case ExactStatus::Feasible:
            ++p.feasible;
            break;
        case ExactStatus::TimedOut:
            ++p.timed_out;
            break;
        }
    }
    p.seconds = since(t);
    return p;
}

} // namespace ibrt::lidassign
