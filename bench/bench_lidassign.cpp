// LID assignment performance (paper 001): color/L over every destination of a 512-machine,
// 64-switch random irregular fabric with path-selection paths (target < 1 s), the other
// heuristics for comparison, the distribution of exact-mode (GLPK ILP) solve times on 192/64,
// and peak RSS.
//
//   bench_lidassign [seeds=4] [time_limit_s=10]
#include "generators/random_graph.hpp"
#include "lidassign/path_compute.hpp"
#include "lidassign/plan.hpp"

#include <fmt/format.h>

#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>

using namespace ibrt;
using namespace ibrt::lidassign;

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
// CPU time of the process: steadier than wall time on a shared machine.
double cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}
long peak_rss_mib() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss / 1024;
}
Fabric random(int cas, int switches, std::uint64_t seed) {
    gen::RandomParams rp;
    rp.switches = switches;
    rp.degree = 8;
    rp.cas = cas;
    rp.seed = seed;
    return gen::random_fabric(rp);
}
} // namespace

int main(int argc, char** argv) {
    const int seeds = argc > 1 ? std::atoi(argv[1]) : 4;
    const double limit = argc > 2 ? std::atof(argv[2]) : 10;
    fmt::print("512/64, path selection, {} seeds\n", seeds);
    for (int s = 1; s <= seeds; ++s) {
        const Fabric f = random(512, 64, std::uint64_t(s));
        PathOptions po;
        po.seed = std::uint64_t(s);
        auto t0 = std::chrono::steady_clock::now();
        double c0 = cpu_seconds();
        const PathSet ps = compute_paths(f, PathScheme::PathSelection, po);
        const double t_paths = seconds_since(t0), c_paths = cpu_seconds() - c0;
        std::string line = fmt::format(
            "  seed {}: paths (Yen + selection) wall {:.2f} s cpu {:.2f} s", s, t_paths, c_paths);
        for (Heuristic h : kAllHeuristics) {
            c0 = cpu_seconds();
            const Plan p = plan_heuristic(f, ps, h);
            line += fmt::format(", {} wall {:.3f} s cpu {:.3f} s ({} LIDs)", to_string(h),
                                p.seconds, cpu_seconds() - c0, p.total_lids);
        }
        fmt::print("{}\n", line);
    }
    fmt::print("192/64 exact mode (per destination time limit {} s), {} seeds\n", limit, seeds);
    for (PathScheme scheme : {PathScheme::ShortestWidest, PathScheme::PathSelection}) {
        std::vector<double> times;
        std::uint32_t optimal = 0, feasible = 0, timed_out = 0, ilps = 0, dests = 0;
        for (int s = 1; s <= seeds; ++s) {
            const Fabric f = random(192, 64, std::uint64_t(s));
            PathOptions po;
            po.seed = std::uint64_t(s);
            const PathSet ps = compute_paths(f, scheme, po);
            const ExactPlan e = plan_exact(f, ps, limit);
            for (const ExactResult& r : e.per_dest) times.push_back(r.seconds);
            optimal += e.optimal;
            feasible += e.feasible;
            timed_out += e.timed_out;
            ilps += e.ilps;
            dests += std::uint32_t(e.per_dest.size());
        }
        std::sort(times.begin(), times.end());
        auto q = [&](double x) { return times[std::size_t(x * double(times.size() - 1))]; };
        fmt::print("  {}: {} destinations, optimal {}, feasible {}, timed out {}, {} ILPs; "
                   "solve time per destination median {:.2e} s, p90 {:.2e} s, p99 {:.2e} s, max "
                   "{:.2e} s\n",
                   to_string(scheme), dests, optimal, feasible, timed_out, ilps, q(0.5), q(0.9),
                   q(0.99), times.back());
    }
    fmt::print("peak RSS {} MiB\n", peak_rss_mib());
    return 0;
}
