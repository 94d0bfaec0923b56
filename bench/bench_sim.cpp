// Simulator throughput (issue 6, Performance): simulated packet-hops per wall-clock second and
// peak RSS for FT(16,3) (1,024 CAs, 320 switches, mlid) at 50 % uniform Bernoulli load over
// 100 us of simulated time, and for the 11,664-CA 36-port 3-level tree FT(36,3) over 10 us
// (`bench_sim --large`; the route alone takes a second). Target: >= 5 M hops/s on one core.
// Packets are 256 bytes on 4x SDR links (1 ns/byte), 4 packets of buffer per VL, 1 and 4 VLs.
// Besides the process's peak RSS it prints the most packets alive at once, which the source
// queue bound (SimConfig::source_queue_packets) keeps independent of the run's length.
#include "engines/engine.hpp"
#include "fabric/generators/fat_tree.hpp"
#include "sim/simulator.hpp"

#include <fmt/core.h>
#include <sys/resource.h>

#include <chrono>
#include <cstring>

using namespace ibrt;

namespace {

double cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec) + double(u.ru_utime.tv_usec) / 1e6;
}

double peak_rss_mb() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;
}

void run(int m, int n, sim::Time simulated_ns, int vls) {
    const Fabric f = gen::fat_tree(m, n);
    const Routing r = make_engine("mlid")->route(f, nullptr, {});
    sim::SimConfig c;
    c.num_vls = std::uint8_t(vls);
    c.sl = vls > 1 ? sim::SlPolicy::Spread : sim::SlPolicy::Path;
    c.traffic.load = 0.5;
    c.warmup_ps = 0;
    c.measure_ps = simulated_ns * sim::kPsPerNs;
    c.drain_ps = 0;
    // The fixed cost of a run (the two-level LFT, the per-port arrays), measured by a run
    // without traffic, so that the loop's own rate can be told from it.
    sim::SimConfig idle = c;
    idle.traffic.load = 0;
    const double i0 = cpu_seconds();
    sim::simulate(f, r, idle);
    const double setup = cpu_seconds() - i0;
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = cpu_seconds();
    const sim::SimResult res = sim::simulate(f, r, c);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double cpu = cpu_seconds() - c0;
    // Wall time is what the issue asks for; CPU time shows what a shared machine hides.
    fmt::print("FT({},{}) CAs {:>6} VLs {} sim {:>6} us: {:>9} hops {:>9} events; wall {:.3f} s "
               "= {:.2f} M hops/s; cpu {:.3f} s = {:.2f} M hops/s, {:.2f} M events/s; setup cpu "
               "{:.3f} s, loop alone {:.2f} M hops/s; accepted {:.3f}, latency mean {:.0f} ns; "
               "peak packets alive {}; peak RSS {:.0f} MB\n",
               m, n, f.cas().size(), vls, simulated_ns / 1000, res.hops, res.events, s,
               double(res.hops) / s / 1e6, cpu, double(res.hops) / cpu / 1e6,
               double(res.events) / cpu / 1e6, setup, double(res.hops) / (cpu - setup) / 1e6,
               res.accepted_fraction, res.latency_mean_ns, res.peak_packets, peak_rss_mb());
}

} // namespace

int main(int argc, char** argv) {
    const bool large = argc > 1 && std::strcmp(argv[1], "--large") == 0;
    run(16, 3, 100 * 1000, 1);
    run(16, 3, 100 * 1000, 4);
    if (large) run(36, 3, 10 * 1000, 1);
    return 0;
}
