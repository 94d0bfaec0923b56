// Mapping direct topologies (paper 003 §2) at the paper's scale: the 2,048-switch,
// 16,384-host configurations of §1 (FlatFly 4x8x8x8 with L = 2,1,1,1; the 11D hypercube with
// double links; Dragonfly K = 16, G = 8 with one global link per group omitted; the 4D torus
// 4x8x8x8 with L = 2,4,4,4). Target: each mapped in <= 0.2 s. Past the paper: the Slim Fly of
// 2,048 switches (q = 32, radix 56 with 8 CAs, §1.5), mapped by embedding in the MMS graph,
// and mapped + routed by the slimfly engine (§3.6); and §1.5's Slim Fly x FlatFly products
// SF x FF-1 (q = 4, L = 2, times 8 x 8) and SF x FF-2 (q = 8 times 16), the same way.
//
//   bench_map                       time and peak RSS of mapping each configuration, and of
//                                   mapping + routing the Slim Fly (slimfly engine)
//   bench_map --robustness [--seeds N] [--out DIR] [--config NAME]   (--config: that one
//       configuration's rows are replaced in DIR/mapping-robustness.csv, the others kept)
//       the fraction of seeds mapped correctly (mapping/shape_compare.hpp) as the fraction of
//       missing switches and of missing links grows, around the paper's claims (FlatFly
//       20 % / 15 %, hypercube 15 % / 10 %, Dragonfly 40 % / 10 %); CSV on stdout, and with
//       --out DIR also DIR/mapping-robustness.csv and one SVG per configuration (plot/). For a
//       Dragonfly, also the switches per seed whose group the cabling does not tell, and
//       those the mapping left unplaced (mapping/dragonfly_groups.hpp).
#include "engines/engine.hpp"
#include "generators/dragonfly.hpp"
#include "generators/failures.hpp"
#include "generators/hyperx.hpp"
#include "generators/slimfly.hpp"
#include "generators/torus.hpp"
#include "mapping/map_fabric.hpp"
#include "mapping/shape_compare.hpp"
#include "plot/plot.hpp"

#include "peak_rss.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

using namespace ibrt;

namespace {

struct Config {
    const char* name;
    std::function<Fabric()> make;
    double claim_switches, claim_links; // the paper's claim; 0/0: none (the torus)
    bool robustness = true;             // in the --robustness study (not the Slim Fly)
    bool dragonfly = false;             // groups: switches not known, not placed (CSV)
};

// A Slim Fly q (L cables per neighbour) times a FlatFly K_1 x ..., 8 CAs per switch.
Fabric sf_x_ff(int q, int parallel, std::vector<int> ff_k) {
    gen::SlimFlyParams p;
    p.q = q;
    p.parallel = parallel;
    p.ff_k = std::move(ff_k);
    p.cas_per_switch = 8;
    return gen::slimfly(p);
}

Fabric k16_g8(gen::GlobalArrangement arrangement) {
    gen::DragonflyParams p;
    p.a = 16;
    p.h = 8;
    p.p = 8;
    p.groups = 128;
    p.arrangement = arrangement;
    return gen::dragonfly(p);
}

std::vector<Config> configs() {
    return {
        {"flatfly-4x8x8x8",
         [] {
             return gen::hyperx({{4, 8, 8, 8}, {2, 1, 1, 1}, 8, 0});
         },
         0.20, 0.15},
        {"hypercube-11d", [] { return gen::hypercube(11, 2, 8); }, 0.15, 0.10},
        {"dragonfly-k16-g8",
         [] {
             gen::DragonflyParams p;
             p.a = 16;
             p.h = 8;
             p.p = 8;
             p.groups = 128; // K*G groups: one global port per group left free (§1.4 note 4)
             return gen::dragonfly(p);
         },
         0.40, 0.10, true, true},
        // The same Dragonfly cabled in the other global arrangements (issue 37): measured
        // only with --config, at the same claim point.
        {"dragonfly-k16-g8-relative", [] { return k16_g8(gen::GlobalArrangement::Relative); }, 0.40,
         0.10, false, true},
        {"dragonfly-k16-g8-circulant", [] { return k16_g8(gen::GlobalArrangement::Circulant); },
         0.40, 0.10, false, true},
        {"dragonfly-k16-g8-random", [] { return k16_g8(gen::GlobalArrangement::Random); }, 0.40,
         0.10, false, true},
        {"torus-4x8x8x8",
         [] {
             return gen::torus({{4, 8, 8, 8}, {2, 4, 4, 4}, 8, true, 0});
         },
         0.0, 0.0},
        {"slimfly-q32",
         [] {
             gen::SlimFlyParams p;
             p.q = 32;
             p.cas_per_switch = 8;
             return gen::slimfly(p);
         },
         0.0, 0.0, false},
        // §1.5's two products of 2,048 switches (mapping/slimfly_product_map.hpp).
        {"slimfly-sfxff-1",
         [] {
             return sf_x_ff(4, 2, {8, 8});
         },
         0.0, 0.0, false},
        {"slimfly-sfxff-2", [] { return sf_x_ff(8, 1, {16}); }, 0.0, 0.0, false},
    };
}

void speed() {
    for (const Config& c : configs()) {
        const Fabric f = c.make();
        std::vector<double> times;
        mapping::Shape s;
        for (int i = 0; i < 5; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            const mapping::SwitchLinks g = mapping::switch_links(f);
            s = mapping::map_fabric(f, g, mapping::link_classes(g));
            times.push_back(
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
        std::sort(times.begin(), times.end());
        fmt::print("{:<18} switches {:>5} CAs {:>6} -> {:<10} map {:.3f} s (median of 5, range "
                   "{:.3f}..{:.3f})  peak RSS {:.0f} MB\n",
                   c.name, f.switches().size(), f.cas().size(), mapping::family_name(s.family),
                   times[2], times.front(), times.back(), bench::peak_rss_mib());
    }
    // Map + route: the slimfly engine maps inside Engine::route.
    for (const Config& c : configs()) {
        if (std::string_view(c.name).substr(0, 7) != "slimfly") continue;
        const Fabric f = c.make();
        const auto t0 = std::chrono::steady_clock::now();
        const std::clock_t c0 = std::clock();
        const Routing r = make_engine("slimfly")->route(f, nullptr, {});
        const double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
        const double t =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        fmt::print("{:<18} switches {:>5} CAs {:>6} -> slimfly engine map + route {:.3f} s (CPU "
                   "{:.3f} s), {} LIDs, {} VLs  peak RSS {:.0f} MB\n",
                   c.name, f.switches().size(), f.cas().size(), t, cpu, r.lids.max_lid(),
                   int(r.data_vls), bench::peak_rss_mib());
    }
}

// Of `seeds` damaged copies: the fraction mapped to the generator's structure, and per seed
// on average (a Dragonfly; empty in the CSV for the others) the switches whose group the cabling
// does not tell (mapping::dragonfly_known) and those the mapping left unplaced (Shape::unplaced). A
// seed is correct when every switch the cabling places is where the generator put it.
struct Outcome {
    double correct = 0, unknown = 0, unplaced = 0;
};

Outcome measure(const Fabric& full, double switches, double links, int seeds) {
    Outcome o;
    for (int seed = 1; seed <= seeds; ++seed) {
        gen::FailureSpec spec;
        spec.switches = switches;
        spec.links = links;
        spec.seed = std::uint64_t(seed);
        gen::FailureReport rep;
        const Fabric f = gen::inject_failures(full, spec, rep);
        const mapping::SwitchLinks g = mapping::switch_links(f);
        const mapping::Shape s = mapping::map_fabric(f, g, mapping::link_classes(g));
        const auto want = mapping::generator_coords(f, g);
        o.correct += mapping::matches_generator(s, g, want);
        if (!want.empty() && want[0].size() == 2) {
            const std::vector<bool> known = mapping::dragonfly_known(g, want);
            o.unknown += double(std::count(known.begin(), known.end(), false));
        }
        o.unplaced += double(s.unplaced.size());
    }
    o.correct /= seeds;
    o.unknown /= seeds;
    o.unplaced /= seeds;
    return o;
}

void robustness(int seeds, const std::string& out, const std::string& only) {
    // Fractions missing: the paper's claims (10, 15, 20 and 40 %) and past them.
    const std::vector<double> steps = {0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6};
    std::string csv = "config,missing_switches,missing_links,seeds,correct_fraction,"
                      "unknown_switches,unplaced_switches\n";
    fmt::print("{}", csv);
    for (const Config& c : configs()) {
        if ((!only.empty() && only != c.name) || (only.empty() && !c.robustness)) continue;
        const Fabric full = c.make();
        const double cs = c.claim_switches > 0 ? c.claim_switches : 0.2;
        const double cl = c.claim_links > 0 ? c.claim_links : 0.1;
        plot::Figure fig;
        fig.title = fmt::format("{}: seeds mapped correctly ({} seeds)", c.name, seeds);
        fig.x_label = "missing (%)";
        fig.y_label = "fraction of seeds correct";
        fig.curves = {{{{"missing", fmt::format("switches missing (links {:.0f} %)", cl * 100)}},
                       {},
                       {},
                       {},
                       {}},
                      {{{"missing", fmt::format("links missing (switches {:.0f} %)", cs * 100)}},
                       {},
                       {},
                       {},
                       {}}};
        for (double x : steps) {
            for (int pass = 0; pass < 2; ++pass) {
                const double sw = pass == 0 ? x : cs, ln = pass == 0 ? cl : x;
                const Outcome o = measure(full, sw, ln, seeds);
                const double frac = o.correct;
                const std::string groups =
                    c.dragonfly ? fmt::format("{:.2f},{:.2f}", o.unknown, o.unplaced) : ",";
                const std::string row = fmt::format("{},{:.2f},{:.2f},{},{:.3f},{}\n", c.name, sw,
                                                    ln, seeds, frac, groups);
                fmt::print("{}", row);
                std::fflush(stdout);
                csv += row;
                fig.curves[std::size_t(pass)].x.push_back(x * 100);
                fig.curves[std::size_t(pass)].y.push_back(frac);
            }
        }
        if (!out.empty()) plot::write_plot(fig, out + "/mapping-" + c.name + ".svg");
    }
    if (out.empty()) return;
    // With --config, the other configurations' rows of an earlier run are kept.
    const std::string path = out + "/mapping-robustness.csv";
    if (!only.empty()) {
        std::ifstream in(path);
        std::string line, kept;
        while (std::getline(in, line))
            if (line.find(',') != std::string::npos && !line.starts_with("config,") &&
                !line.starts_with(only + ","))
                kept += line + "\n";
        csv += kept;
    }
    std::ofstream(path) << csv;
}

} // namespace

int main(int argc, char** argv) {
    bool robust = false;
    int seeds = 50;
    std::string out, only;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--robustness"))
            robust = true;
        else if (!std::strcmp(argv[i], "--seeds") && i + 1 < argc)
            seeds = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--out") && i + 1 < argc)
            out = argv[++i];
        else if (!std::strcmp(argv[i], "--config") && i + 1 < argc)
            only = argv[++i];
        else {
            fmt::print(stderr, "usage: bench_map [--robustness [--seeds N] [--out DIR] "
                               "[--config NAME]]\n");
            return 2;
        }
    }
    if (robust)
        robustness(seeds, out, only);
    else
        speed();
    return 0;
}
