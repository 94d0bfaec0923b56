// Map + route time and peak memory of the torus engine at the paper's scale (paper 003 §1.1:
// the 4D torus 4 x 8 x 8 x 8 with links 2,4,4,4 wide and 8 CAs per switch, 2,048 switches and
// 16,384 hosts; issue 13 asks for <= 1 s and <= 1 GB on one core), pristine and with a failed
// switch plus failed links.
#include "engines/engine.hpp"
#include "generators/failures.hpp"
#include "generators/torus.hpp"

#include "peak_rss.hpp"

#include <fmt/core.h>

#include <chrono>

using namespace ibrt;

namespace {

void time_route(const char* name, const Fabric& f) {
    const auto t0 = std::chrono::steady_clock::now();
    try {
        const Routing r = make_engine("torus")->route(f, nullptr, {});
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        fmt::print("{:<28} switches {:>5} CAs {:>6} data VLs {}  map+route {:.3f} s  peak RSS "
                   "{:.0f} MB\n",
                   name, f.switches().size(), f.cas().size(), r.data_vls, s, bench::peak_rss_mib());
    } catch (const RoutingError& e) {
        fmt::print("{:<28} declined: {}\n", name, e.what());
    }
}

} // namespace

int main() {
    gen::TorusParams p;
    p.k = {4, 8, 8, 8};
    p.width = {2, 4, 4, 4};
    p.cas_per_switch = 8;
    const Fabric f = gen::torus(p);
    time_route("torus 4x8x8x8", f);
    gen::FailureSpec spec;
    spec.switches = 1;
    spec.links = 8;
    spec.seed = 3;
    gen::FailureReport rep;
    time_route("  1 switch + 8 cables failed", gen::inject_failures(f, spec, rep));
}
