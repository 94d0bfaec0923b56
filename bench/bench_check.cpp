// Time and peak RSS of `ibrt check` (check/report.hpp) on a large fat tree.
//
//   bench_check [m=36] [n=3] [engine=mlid] [lmc=2]
//
// Builds FT(m,n) with generators/fat_tree.hpp (FT(36,3): 11,664 CAs, 1,620 switches),
// routes it with the named engine (engines/engine.hpp) and times each check separately:
// reachability + minimality, credit loops, all-to-all balance. With lmc = 2 the fabric has
// ~48k LIDs, i.e. ~5.6e8 (source CA, DLID) pairs that a naive checker would walk one by one.
#include "check/balance.hpp"
#include "check/credit_loops.hpp"
#include "check/reachability.hpp"
#include "engines/engine.hpp"
#include "generators/fat_tree.hpp"

#include <fmt/format.h>

#include <sys/resource.h>

#include <chrono>
#include <cstdlib>
#include <string>

using namespace ibrt;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

long peak_rss_mib() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss / 1024; // KiB on Linux
}

} // namespace

int main(int argc, char** argv) {
    const int m = argc > 1 ? std::atoi(argv[1]) : 36;
    const int n = argc > 2 ? std::atoi(argv[2]) : 3;
    const std::string engine_name = argc > 3 ? argv[3] : "mlid";
    const int lmc = argc > 4 ? std::atoi(argv[4]) : 2;

    auto t0 = std::chrono::steady_clock::now();
    const Fabric f = gen::fat_tree(m, n);
    fmt::print("FT({},{}): {} switches, {} CAs, {} links; generated in {:.2f} s\n", m, n,
               f.switches().size(), f.cas().size(), f.num_links(), seconds_since(t0));

    auto engine = make_engine(engine_name);
    if (!engine) {
        fmt::print(stderr, "no engine named {}\n", engine_name);
        return 2;
    }
    EngineOptions eo;
    eo.lmc = lmc;
    t0 = std::chrono::steady_clock::now();
    const Routing r = engine->route(f, nullptr, eo);
    std::size_t lids = 0;
    for (std::uint32_t l = 1; l <= r.lids.max_lid(); ++l) lids += r.lids.owner(Lid(l)) != kNoPort;
    fmt::print("routed by {} (LMC {}): {} LIDs in {:.2f} s\n", engine_name, int(r.lmc), lids,
               seconds_since(t0));

    t0 = std::chrono::steady_clock::now();
    const check::ForwardingReport fw = check::check_forwarding(f, r);
    fmt::print("reachability+minimality: {:.2f} s, {} pairs, {} failures, {} non-minimal\n",
               seconds_since(t0), fw.reach.pairs, fw.reach.failures(), fw.minimal.non_minimal);

    t0 = std::chrono::steady_clock::now();
    const check::DeadlockReport dl = check::check_credit_loops(f, r);
    fmt::print("credit loops: {:.2f} s, {} channels, {} dependencies, {} loops\n",
               seconds_since(t0), dl.channels, dl.dependencies, dl.loops.size());

    t0 = std::chrono::steady_clock::now();
    const check::BalanceReport b = check::check_balance(f, r, check::TrafficPattern{});
    fmt::print("balance all-to-all: {:.2f} s, {} flows, max {:g} mean {:g} max/mean {:.3f}\n",
               seconds_since(t0), b.flows, b.links.max, b.links.mean, b.links.spread);

    fmt::print("peak RSS: {} MiB\n", peak_rss_mib());
    return 0;
}
