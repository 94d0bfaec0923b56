// Route time and peak memory of the fat-tree engines (paper 000 §4 at scale), and the link-load
// comparison of full versus capped LMC that docs/engines/mlid.md quotes.
//   FT(16,3): 1,024 CAs, 320 switches; FT(36,3): 11,664 CAs, 1,620 switches, LMC 2.
// Target for FT(36,3): under 1 s and 1 GB on one core.
#include "check/balance.hpp"
#include "engines/engine.hpp"
#include "generators/fat_tree.hpp"

#include "peak_rss.hpp"

#include <fmt/core.h>

#include <chrono>
#include <optional>

using namespace ibrt;

namespace {

void time_route(const char* name, const Fabric& f, const char* engine, std::optional<int> lmc) {
    EngineOptions opt;
    opt.lmc = lmc;
    const auto t0 = std::chrono::steady_clock::now();
    const Routing r = make_engine(engine)->route(f, nullptr, opt);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    fmt::print("{:<10} {:<5} CAs {:>6} switches {:>5} LMC {} max LID {:>5}  route {:.3f} s  "
               "peak RSS {:.0f} MB\n",
               name, engine, f.cas().size(), f.switches().size(), r.lmc, r.lids.max_lid(), s,
               bench::peak_rss_mib());
}

// Link load under all-to-all and under hot spot (every CA sends to CA 0): paper §4 Figure 9.
void load(const char* name, const Fabric& f, const char* engine, std::optional<int> lmc) {
    EngineOptions opt;
    opt.lmc = lmc;
    Routing r = make_engine(engine)->route(f, nullptr, opt);
    const check::BalanceReport all =
        check::check_balance(f, r, check::TrafficPattern{}, check::DlidUse::Selection);
    // Hot spot: only flows toward CA 0 (keep dlid_choice but count one destination).
    std::uint64_t hot_max = 0;
    {
        const std::size_t n = f.cas().size();
        std::vector<std::uint64_t> flows(f.num_port_slots(), 0);
        for (std::size_t a = 1; a < n; ++a) {
            const Lid dl = r.dlid_choice.empty() ? r.lids.base(f.port_id(f.cas()[0], 1))
                                                 : r.dlid_choice[a * n];
            const Port& first = f.port(f.cas()[a], 1);
            NodeId s = first.peer_node;
            while (f.node(s).is_switch()) {
                const PortNum out = r.out_port(s, dl);
                if (out == kNoPath || out == 0) break;
                ++flows[f.port_id(s, out)];
                s = f.port(s, out).peer_node;
            }
        }
        for (NodeId s : f.switches())
            for (PortNum p = 1; p <= f.node(s).num_ports; ++p)
                if (f.port(s, p).connected() && f.node(f.port(s, p).peer_node).is_switch())
                    hot_max = std::max(hot_max, flows[f.port_id(s, p)]);
    }
    fmt::print("{:<10} {:<5} LMC {}  all-to-all links {:>5} max {:>6} min {:>6} mean {:>9.1f} "
               "max/mean {:.3f}  hot-spot max link {}\n",
               name, engine, r.lmc, all.links.links, all.links.max, all.links.min, all.links.mean,
               all.links.spread, hot_max);
}

} // namespace

int main() {
    fmt::print("== link load: full vs capped LMC ==\n");
    for (auto [m, n] : {std::pair{8, 3}, std::pair{16, 2}}) {
        const Fabric f = gen::fat_tree(m, n);
        const std::string name = fmt::format("FT({},{})", m, n);
        load(name.c_str(), f, "mlid", std::nullopt);
        for (int lmc : {2, 1}) load(name.c_str(), f, "mlid", lmc);
        load(name.c_str(), f, "slid", std::nullopt);
    }
    fmt::print("== route time ==\n");
    {
        const Fabric f = gen::fat_tree(16, 3);
        time_route("FT(16,3)", f, "mlid", std::nullopt);
        time_route("FT(16,3)", f, "mlid", 2);
        time_route("FT(16,3)", f, "slid", std::nullopt);
    }
    {
        const Fabric f = gen::fat_tree(36, 3);
        time_route("FT(36,3)", f, "mlid", 2);
        time_route("FT(36,3)", f, "slid", std::nullopt);
    }
    return 0;
}
