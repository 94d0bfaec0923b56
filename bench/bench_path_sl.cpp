// Memory of Routing::path_sls (fabric/path_sl_table.hpp), the SL per (source port, DLID), at
// the sizes issue 11 names: FT(36,3) at LMC 2 (11,664 CAs, 1,620 switches, 48,276 LIDs) and
// paper 003's 16,384-node Dragonfly (2,048 switches, K=16 G=8 C=8). Three cases each:
//   - one SL per DLID (a per-destination rule): one shared row;
//   - an SL per (ingress switch, DLID), every switch's row different (the worst an LFT-routed
//     engine can need: torus datelines, per-layer SLs), CAs sharing their switch's row;
//   - an SL per (source port, DLID), every end port its own row (what an SM reading back
//     dfsssp's per-port layers could produce at worst).
// Prints bytes and build milliseconds; a flat (source port x DLID) byte table is the
// reference.
#include "fabric/end_ports.hpp"
#include "fabric/lids.hpp"
#include "fabric/path_sl_table.hpp"
#include "generators/dragonfly.hpp"
#include "generators/fat_tree.hpp"
#include "generators/lid_preassign.hpp"

#include <fmt/core.h>

#include <chrono>
#include <vector>

using namespace ibrt;
using Clock = std::chrono::steady_clock;

namespace {

// A different SL pattern per source k: every row distinct, as the worst case needs.
std::uint8_t sl_of(std::size_t k, std::size_t d) {
    std::uint64_t x = (d + 1) * 0x9e3779b97f4a7c15ull ^ (k + 1) * 0xc2b2ae3d27d4eb4full;
    x ^= x >> 31;
    return std::uint8_t((x * 0xbf58476d1ce4e5b9ull) >> 61);
}

void report(const char* fabric, const char* kind, const PathSlTable& t, double ms,
            std::size_t flat) {
    fmt::print("{:<28} {:<34} rows {:>6}  {:>9.1f} MB  (flat {:>8.1f} MB)  build {:>8.1f} ms\n",
               fabric, kind, t.num_rows(), t.bytes() / 1e6, flat / 1e6, ms);
}

void measure(const char* name, const Fabric& f) {
    const Lids lids = Lids::from_fabric(f);
    const std::size_t width = std::size_t(lids.max_lid()) + 1;
    const std::vector<PortId> ends = all_end_ports(f, &lids);
    const std::size_t flat = (ends.size() + f.switches().size()) * width;
    std::vector<std::uint8_t> row(width);

    auto t0 = Clock::now();
    for (std::size_t d = 0; d < width; ++d) row[d] = std::uint8_t(d % 8);
    const PathSlTable per_dlid = PathSlTable::by_dlid(row);
    report(name, "per DLID", per_dlid,
           std::chrono::duration<double, std::milli>(Clock::now() - t0).count(), flat);

    t0 = Clock::now();
    PathSlTable per_switch(f.num_port_slots(), lids.max_lid());
    std::size_t k = 0;
    for (NodeId s : f.switches()) {
        ++k;
        for (std::size_t d = 0; d < width; ++d) row[d] = sl_of(k, d);
        per_switch.set_switch_row(f, s, row);
    }
    report(name, "per ingress switch (all differ)", per_switch,
           std::chrono::duration<double, std::milli>(Clock::now() - t0).count(), flat);

    t0 = Clock::now();
    PathSlTable per_port(f.num_port_slots(), lids.max_lid());
    k = 0;
    for (PortId p : ends) {
        ++k;
        for (std::size_t d = 0; d < width; ++d) row[d] = sl_of(k, d);
        per_port.set_row(p, row);
    }
    report(name, "per source port (all differ)", per_port,
           std::chrono::duration<double, std::milli>(Clock::now() - t0).count(), flat);
}

} // namespace

int main() {
    measure("FT(36,3) LMC 2", gen::assign_lids(gen::fat_tree(36, 3), 2));
    gen::DragonflyParams df;
    df.a = 16;
    df.h = 8;
    df.p = 8;
    df.groups = 128;
    measure("Dragonfly K=16 G=8 C=8", gen::assign_lids(gen::dragonfly(df), 0));
    return 0;
}
