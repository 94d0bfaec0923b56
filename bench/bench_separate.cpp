// Route time and peak memory of the `separate` engine (paper 001 §VI.D: path selection over
// Yen's 16 Up*/Down* candidates, then color/L) at the sizes issue 12 reports:
//   512 hosts:   8-ary 3-tree (192 switches);
//   1,056 hosts: balanced Dragonfly, p = 4 (33 groups of 8 switches);
//   16,384 hosts: paper 003's Dragonfly K=16 G=8 C=8 (2,048 switches).
// Target: 1,056 hosts <= 2 s and 16,384 hosts <= 60 s on one core. Each size runs in a forked
// child, so its peak RSS is its own.
//
// Usage: bench_separate [512|1056|8192|16384 ...]   (default 512 1056; the larger ones (8,192:
// half of paper 003's groups) only run when named: docs/history/performance-log.md, "separate on
// real sizes", says why)
#include "engines/engine.hpp"
#include "generators/dragonfly.hpp"
#include "generators/fat_tree.hpp"

#include <fmt/core.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace ibrt;

namespace {

Fabric fabric_for(int hosts, std::string& name) {
    gen::DragonflyParams df;
    switch (hosts) {
    case 512:
        name = "8-ary 3-tree";
        return gen::kary_ntree(8, 3);
    case 1056:
        name = "dragonfly balanced p=4";
        df.a = 8;
        df.h = 4;
        df.p = 4;
        return gen::dragonfly(df);
    case 8192: // half of paper 003's groups
    case 16384:
        name = hosts == 8192 ? "dragonfly K=16 G=8 C=8/2" : "dragonfly K=16 G=8 C=8";
        df.a = 16;
        df.h = 8;
        df.p = 8;
        df.groups = hosts / 128;
        return gen::dragonfly(df);
    default:
        fmt::print(stderr, "bench_separate: no fabric with {} hosts (512, 1056, 8192, 16384)\n",
                   hosts);
        std::exit(2);
    }
}

// FNV-1a over the LIDs, LFTs and path selection: equal hashes before and after an
// optimisation show the tables did not change (the 16,384-host tables are 3 GB as files).
std::uint64_t tables_hash(const Fabric& f, const Routing& r) {
    std::uint64_t h = 1469598103934665603ull;
    auto mix = [&](std::uint64_t v) {
        for (int i = 0; i < 8; ++i) {
            h ^= (v >> (8 * i)) & 0xff;
            h *= 1099511628211ull;
        }
    };
    for (PortId p = 0; p < f.num_port_slots(); ++p)
        mix(r.lids.has_lid(p) ? (std::uint64_t(r.lids.base(p)) << 8 | r.lids.lmc(p)) : ~0ull);
    for (const auto& t : r.lft) {
        mix(t.size());
        for (auto x : t) mix(x);
    }
    for (Lid x : r.dlid_choice) mix(x);
    return h;
}

// CPU seconds of this process so far: the machine is shared, and wall time grows with its load.
double cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

void run(int hosts) {
    std::string name;
    const Fabric f = fabric_for(hosts, name);
    EngineOptions opt;
    const auto t0 = std::chrono::steady_clock::now();
    const double cpu0 = cpu_seconds();
    // Seconds from the start at which each phase reports each tenth done (stderr).
    std::string phase;
    int tenth = 0;
    opt.progress = [&](std::string_view ph, double x) {
        if (ph == phase && int(x * 10) <= tenth) return;
        tenth = int(x * 10);
        phase = ph;
        const double at =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        fmt::print(stderr, "  {:.2f} s (cpu {:.2f} s): {} {:.0f} %\n", at, cpu_seconds() - cpu0,
                   phase, x * 100);
    };
    const Routing r = make_engine("separate")->route(f, nullptr, opt);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double cpu = cpu_seconds() - cpu0;
    double lids = 0, load = 0;
    for (const auto& [stat, v] : r.stats) {
        if (stat == "lids_color_l") lids = v;
        if (stat == "max_link_load_selected") load = v;
    }
    fmt::print("{:<24} CAs {:>6} switches {:>5}  LMC {}  color/L LIDs {:>6.0f}  max link load "
               "{:.3f}  route {:.2f} s (cpu {:.2f} s)  tables {:016x}",
               name, f.cas().size(), f.switches().size(), r.lmc, lids, load, s, cpu,
               tables_hash(f, r));
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
    std::vector<int> sizes;
    for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
    if (sizes.empty()) sizes = {512, 1056};
    for (int hosts : sizes) {
        std::fflush(stdout); // or the child inherits and prints the parent's buffered lines
        const pid_t pid = fork();
        if (pid == 0) {
            run(hosts);
            std::_Exit(0);
        }
        int status = 0;
        rusage u{};
        wait4(pid, &status, 0, &u);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fmt::print("{} hosts: failed (status {})\n", hosts, status);
            return 1;
        }
        fmt::print("  peak RSS {:.0f} MB\n", double(u.ru_maxrss) / 1024.0);
    }
    return 0;
}
