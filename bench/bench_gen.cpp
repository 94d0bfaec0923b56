// Benchmark of the topology generators (generators/): building FT(36,3) of paper 000 §3
// (11,664 CAs, 1,620 switches) and the other large families, then writing each in the
// ibnetdiscover format. Prints wall milliseconds per step and the peak RSS of the process.
#include "formats/ibnetdiscover.hpp"
#include "generators/dragonfly.hpp"
#include "generators/failures.hpp"
#include "generators/fat_tree.hpp"
#include "generators/hyperx.hpp"
#include "generators/pgft.hpp"
#include "generators/slimfly.hpp"

#include <fmt/core.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <sys/resource.h>
#include <unistd.h>

using namespace ibrt;
using Clock = std::chrono::steady_clock;

namespace {

double ms_since(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

long peak_rss_kb() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

void run(const char* name, const std::function<Fabric()>& make, const std::string& path) {
    auto t0 = Clock::now();
    const Fabric f = make();
    const double gen_ms = ms_since(t0);
    t0 = Clock::now();
    write_ibnetdiscover_file(path, f);
    const double write_ms = ms_since(t0);
    const auto bytes = std::filesystem::file_size(path);
    std::filesystem::remove(path);
    fmt::print("{:<34} {:>6} switches {:>6} CAs {:>7} cables  generate {:8.1f} ms  write {:8.1f} ms"
               "  ({:.1f} MB)  peak RSS {:.1f} MB\n",
               name, f.switches().size(), f.cas().size(), f.num_links(), gen_ms, write_ms,
               bytes / 1e6, peak_rss_kb() / 1024.0);
}

} // namespace

int main() {
    const char* tmp = std::getenv("TMPDIR");
    const std::string path =
        std::string(tmp ? tmp : "/tmp") + "/ibrt-bench-gen-" + std::to_string(getpid()) + ".net";
    run(
        "fat-tree FT(36,3)", [] { return gen::fat_tree(36, 3); }, path);
    run(
        "clos radix 36, 3 levels",
        [] {
            return gen::clos({36, 3, 1, 1, 1});
        },
        path);
    run(
        "dragonfly K=16 G=8 C=8 (paper 003)",
        [] {
            return gen::dragonfly({16, 8, 8, 128, 0});
        },
        path);
    run(
        "flatfly 4x8x8x8 (paper 003)",
        [] {
            return gen::hyperx({{4, 8, 8, 8}, {2, 1, 1, 1}, 8, 0});
        },
        path);
    run(
        "slimfly q=17",
        [] {
            return gen::slimfly({17, 8, 1, 0});
        },
        path);
    run(
        "FT(36,3) minus 2% of the cables",
        [] {
            gen::FailureSpec spec;
            spec.links = 0.02;
            gen::FailureReport r;
            return gen::inject_failures(gen::fat_tree(36, 3), spec, r);
        },
        path);
    return 0;
}
