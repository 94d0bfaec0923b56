// The dragonfly engine (paper 003 §3.5, engines/dragonfly/) on degraded Dragonflies at the
// paper's scale (§1.4: K = 16, G = 8, C = 8, one global link per group omitted: 128 groups,
// 2,048 switches, 16,384 hosts). Missing local links take layers of VLs selected by path SL;
// this measures how many, how long map + route takes, and whether `ibrt check`'s two verdicts
// (every pair reached, no credit loop with the engine's path SLs and SL2VL) hold.
//
//   bench_dragonfly                 map + route time and peak RSS: pristine, and with 1 %, 5 %
//                                   and 10 % of the switch-to-switch cables missing (seed 1)
//   bench_dragonfly --damage [--seeds N] [--singles M] [--no-check]
//       M single local-link failures (random local cables, seed 1; before, every one was
//       declined), then N seeds (default 20) at 1 %, 5 % and 10 % of all cables missing:
//       mapped, routed or declined (and why), data VLs, layers, switch pairs on layers, and
//       the check of each routing.
#include "check/credit_loops.hpp"
#include "check/reachability.hpp"
#include "engines/engine.hpp"
#include "generators/dragonfly.hpp"
#include "generators/failures.hpp"

#include "peak_rss.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace ibrt;

namespace {

Fabric paper_dragonfly() {
    gen::DragonflyParams p;
    p.a = 16;
    p.h = 8;
    p.p = 8;
    p.groups = 128; // K*G groups: one global port per group left free (§1.4 note 4)
    return gen::dragonfly(p);
}

Fabric damaged(const Fabric& full, double links, std::vector<std::string> names,
               std::uint64_t seed) {
    gen::FailureSpec spec;
    spec.links = links;
    spec.link_names = std::move(names);
    spec.seed = seed;
    gen::FailureReport rep;
    return gen::inject_failures(full, spec, rep);
}

double stat(const Routing& r, const char* name) {
    for (const auto& [k, v] : r.stats)
        if (k == name) return v;
    return -1;
}

struct Outcome {
    bool routed = false, dragonfly = true, clean = false;
    std::string why; // of a decline
    unsigned vls = 0;
    double layers = 0, layered_pairs = 0, seconds = 0, cpu = 0;
};

Outcome route_and_check(const Fabric& f, bool check) {
    Outcome o;
    const auto t0 = std::chrono::steady_clock::now();
    const std::clock_t c0 = std::clock();
    Routing r;
    try {
        r = make_engine("dragonfly")->route(f, nullptr, {});
    } catch (const RoutingError& e) {
        o.why = e.what();
        o.dragonfly = o.why.find("not a Dragonfly") == std::string::npos;
        return o;
    }
    o.cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
    o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    o.routed = true;
    o.vls = r.data_vls;
    o.layers = stat(r, "vl_layers");
    const double n = double(f.switches().size());
    o.layered_pairs = stat(r, "switch_pairs_on_layers") / (n * (n - 1));
    if (check) {
        const check::ForwardingReport fw = check::check_forwarding(f, r);
        o.clean = fw.reach.failures() == 0 && check::check_credit_loops(f, r).loops.empty();
    }
    return o;
}

void speed() {
    const Fabric full = paper_dragonfly();
    for (double links : {0.0, 0.01, 0.05, 0.10}) {
        const Fabric f = links > 0 ? damaged(full, links, {}, 1) : full;
        const Outcome o = route_and_check(f, false);
        const std::string name =
            links > 0 ? fmt::format("{:.0f} % cables missing", links * 100) : "pristine";
        if (!o.routed) {
            fmt::print("dragonfly K=16 G=8 {:<22} declined: {}\n", name, o.why);
            continue;
        }
        fmt::print("dragonfly K=16 G=8 {:<22} map + route {:.3f} s (CPU {:.3f} s)  {} data VLs, "
                   "{} layers, {:.2f} % of switch pairs on layers  peak RSS {:.0f} MB\n",
                   name, o.seconds, o.cpu, o.vls, o.layers, 100 * o.layered_pairs,
                   bench::peak_rss_mib());
    }
}

void summary(const std::string& what, const std::vector<Outcome>& v, bool check) {
    std::size_t routed = 0, mapped = 0, clean = 0;
    std::map<unsigned, std::size_t> vls;
    std::map<std::string, std::size_t> why;
    double pairs = 0, secs = 0, cpu = 0;
    for (const Outcome& o : v) {
        mapped += o.dragonfly;
        if (!o.routed) {
            if (o.dragonfly) ++why[o.why.substr(0, o.why.find(" ("))];
            continue;
        }
        ++routed;
        clean += o.clean;
        ++vls[o.vls];
        pairs += o.layered_pairs;
        secs += o.seconds;
        cpu += o.cpu;
    }
    std::string dist;
    for (const auto& [k, c] : vls) dist += fmt::format(" {}:{}", k, c);
    fmt::print("{:<26} tried {:>3}  mapped {:>3}  routed {:>3}  data VLs (VLs:count){}  pairs on "
               "layers {:.2f} %  check clean {}  map + route {:.2f} s (CPU {:.2f} s) mean\n",
               what, v.size(), mapped, routed, dist, routed ? 100 * pairs / double(routed) : 0.0,
               check ? fmt::format("{}/{}", clean, routed) : std::string("-"),
               routed ? secs / double(routed) : 0.0, routed ? cpu / double(routed) : 0.0);
    for (const auto& [w, c] : why) fmt::print("    declined {} x: {}\n", c, w);
    std::fflush(stdout);
}

void damage(int seeds, int singles, bool check) {
    const Fabric full = paper_dragonfly();
    // Single local cables: router r's port 8 + r2 goes to router r2 > r of its group
    // (generators/dragonfly.hpp).
    std::mt19937_64 rng(1);
    std::vector<Outcome> one;
    for (int k = 0; k < singles; ++k) {
        const int g = int(rng() % 128), r = int(rng() % 15), r2 = r + 1 + int(rng() % (15 - r));
        one.push_back(route_and_check(
            damaged(full, 0, {fmt::format("sw-g{}-{}[{}]", g, r, 8 + r2)}, 1), check));
    }
    if (singles > 0) summary("1 local cable missing", one, check);
    for (double links : {0.01, 0.05, 0.10}) {
        std::vector<Outcome> v;
        for (int seed = 1; seed <= seeds; ++seed)
            v.push_back(route_and_check(damaged(full, links, {}, std::uint64_t(seed)), check));
        summary(fmt::format("{:.0f} % of cables missing", links * 100), v, check);
    }
}

} // namespace

int main(int argc, char** argv) {
    bool dmg = false, check = true;
    int seeds = 20, singles = 20;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--damage"))
            dmg = true;
        else if (!std::strcmp(argv[i], "--seeds") && i + 1 < argc)
            seeds = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--singles") && i + 1 < argc)
            singles = std::max(0, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--no-check"))
            check = false;
        else {
            fmt::print(stderr, "usage: bench_dragonfly [--damage [--seeds N] [--singles M] "
                               "[--no-check]]\n");
            return 2;
        }
    }
    if (dmg)
        damage(seeds, singles, check);
    else
        speed();
    return 0;
}
