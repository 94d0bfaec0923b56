// Throughput of the ibnetdiscover/ibsim topology reader and writer (formats/ibnetdiscover_*.cpp)
// on a large two-level tree of 36-port switches: leaves with 18 CAs and 18 uplinks, the
// uplinks spread round-robin over enough spines to fill all their 36 ports.
//
//   bench_parse [cas=10008] [repeats=5]
//
// Prints file size, write and parse speed (MB/s, ms), node/link counts and peak RSS. MB/s is
// taken over CPU time; the wall time is printed too. IBRT_BENCH_KEEP=1 keeps the written file.
#include "formats/ibnetdiscover.hpp"

#include <fmt/format.h>

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <string>

using namespace ibrt;

namespace {

constexpr int kRadix = 36;
constexpr int kDown = kRadix / 2; // CAs per leaf, and uplinks per leaf

Fabric make_tree(int cas) {
    const int leaves = (cas + kDown - 1) / kDown;
    const int uplinks = leaves * kDown;
    const int spines = (uplinks + kRadix - 1) / kRadix;
    FabricBuilder b;
    std::vector<NodeId> spine(spines);
    Lid lid = 1;
    for (int s = 0; s < spines; ++s) {
        spine[s] = b.add_node(NodeType::Switch, kRadix, 0x7cfe900300a00000ull + s,
                              fmt::format("spine-{:04} MQM8790 HDR", s));
        b.node(spine[s]).id = fmt::format("spine-{}", s);
        b.node(spine[s]).vendor_id = 0x2c9;
        b.node(spine[s]).device_id = 0xcf08;
        b.port(spine[s], 0).base_lid = lid <= kMaxUnicastLid ? lid++ : 0;
    }
    std::vector<int> spine_next(spines, 1);
    int ca = 0;
    for (int l = 0; l < leaves; ++l) {
        const NodeId leaf = b.add_node(NodeType::Switch, kRadix, 0x0c42a10300b00000ull + l,
                                       fmt::format("leaf-{:04} MQM8790 HDR", l));
        b.node(leaf).id = fmt::format("leaf-{}", l);
        b.node(leaf).vendor_id = 0x2c9;
        b.node(leaf).device_id = 0xcf08;
        b.port(leaf, 0).base_lid = lid <= kMaxUnicastLid ? lid++ : 0;
        for (int k = 0; k < kDown; ++k) {
            const int s = (l * kDown + k) % spines;
            b.connect(leaf, static_cast<PortNum>(kDown + 1 + k), spine[s],
                      static_cast<PortNum>(spine_next[s]++), 4, LinkSpeed::HDR);
        }
        for (int h = 0; h < kDown && ca < cas; ++h, ++ca) {
            const std::uint64_t g = 0x0002c90300c00000ull + std::uint64_t(ca) * 2;
            const NodeId c = b.add_node(NodeType::CA, 1, g, fmt::format("node{:05} HCA-1", ca));
            b.node(c).id = fmt::format("node{:05}", ca);
            b.node(c).vendor_id = 0x2c9;
            b.node(c).device_id = 0x101b;
            b.port(c, 1).guid = g + 1;
            b.port(c, 1).base_lid = lid <= kMaxUnicastLid ? lid++ : 0;
            b.connect(c, 1, leaf, static_cast<PortNum>(h + 1), 4, LinkSpeed::HDR);
        }
    }
    return std::move(b).build();
}

double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// CPU time of this process: on a shared machine the wall clock also counts other jobs.
double cpu_s() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

} // namespace

int main(int argc, char** argv) {
    const int cas = argc > 1 ? std::atoi(argv[1]) : 10008;
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 5;
    if (cas < 1 || repeats < 1) {
        std::fprintf(stderr, "usage: bench_parse [cas] [repeats]\n");
        return 2;
    }
    double t = now_s();
    const Fabric f = make_tree(cas);
    const double build_s = now_s() - t;

    const std::string path = (std::filesystem::temp_directory_path() /
                              fmt::format("ibrt_bench_parse_{}.topo", ::getpid()))
                                 .string();
    double write_s = 1e9, write_cpu = 1e9;
    for (int i = 0; i < repeats; ++i) {
        t = now_s();
        const double c = cpu_s();
        write_ibnetdiscover_file(path, f);
        write_s = std::min(write_s, now_s() - t);
        write_cpu = std::min(write_cpu, cpu_s() - c);
    }
    const double mb = static_cast<double>(std::filesystem::file_size(path)) / 1e6;

    double parse_s = 1e9, parse_cpu = 1e9, total = 0;
    std::size_t nodes = 0, links = 0;
    for (int i = 0; i < repeats; ++i) {
        t = now_s();
        const double c = cpu_s();
        const Fabric g = read_ibnetdiscover_file(path);
        const double dt = now_s() - t;
        parse_cpu = std::min(parse_cpu, cpu_s() - c);
        parse_s = std::min(parse_s, dt);
        total += dt;
        nodes = g.num_nodes();
        links = g.num_links();
    }
    if (!std::getenv("IBRT_BENCH_KEEP")) std::filesystem::remove(path);
    if (nodes != f.num_nodes() || links != f.num_links()) {
        std::fprintf(stderr, "read back %zu nodes / %zu links, wrote %zu / %zu\n", nodes, links,
                     f.num_nodes(), f.num_links());
        return 1;
    }
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    fmt::print("fabric: {} nodes ({} switches, {} CAs), {} links; built in {:.1f} ms\n",
               f.num_nodes(), f.switches().size(), f.cas().size(), f.num_links(), build_s * 1e3);
    fmt::print("file:   {:.2f} MB\n", mb);
    fmt::print("write:  {:.1f} ms wall, {:.1f} ms CPU = {:.0f} MB/s (best of {})\n", write_s * 1e3,
               write_cpu * 1e3, mb / write_cpu, repeats);
    fmt::print("parse:  {:.1f} ms wall, {:.1f} ms CPU = {:.0f} MB/s (best of {}; mean wall {:.1f} "
               "ms)\n",
               parse_s * 1e3, parse_cpu * 1e3, mb / parse_cpu, repeats, total / repeats * 1e3);
    fmt::print("peak RSS: {:.1f} MB\n", static_cast<double>(ru.ru_maxrss) / 1024.0);
    return 0;
}
