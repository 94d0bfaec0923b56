// `ibrt gen`'s options and the fabric they describe; see gen_options.hpp.
#include "cli/gen_options.hpp"

#include "cli/option_checks.hpp"
#include "fabric/input_error.hpp"
#include "generators/fat_tree.hpp"
#include "generators/gen_builder.hpp"
#include "generators/hyperx.hpp"
#include "generators/lid_preassign.hpp"
#include "generators/rebuild.hpp"
#include "generators/slimfly.hpp"
#include "generators/torus.hpp"

#include <map>
#include <string>
#include <tuple>
#include <utility>

namespace ibrt::cli {
namespace {

void add_common(CLI::App& app, GenOptions& o) {
    app.add_option("-o,--output", o.output, "Write the topology here ('-' = stdout)")
        ->capture_default_str()
        ->check(output_file());
    app.add_option("--fail-links", o.fail_links,
                   "Remove random switch-to-switch cables: a fraction if < 1, else a count")
        ->check(real_in(0, 1e9));
    app.add_option("--fail-switches", o.fail_switches,
                   "Remove random switches: a fraction if < 1, else a count; their CAs are "
                   "dropped and reported")
        ->check(real_in(0, 1e9));
    app.add_option("--fail-link", o.fail_link,
                   "Remove this cable, named by either end as NODE[PORT] (repeatable; NODE is "
                   "a label such as leaf-0 or a GUID)");
    app.add_option("--fail-switch", o.fail_switch, "Remove this switch (repeatable)");
    app.add_option("--seed", o.seed, "Seed for random topologies and failures")
        ->capture_default_str()
        ->check(whole_in(0, kMax<std::uint64_t>));
    app.add_flag("--keep-connected", o.keep_connected,
                 "Only fail cables/switches whose loss leaves the switches connected");
    app.add_flag("--assign-lids", o.assign_lids,
                 "Pre-assign aligned LIDs (CA ports with --lmc, switches LMC 0), written as "
                 "`lid N lmc M` comments");
    app.add_option("--lmc", o.lmc, "LMC of the CA ports for --assign-lids (implies it), 0..7")
        ->check(whole_in(0, 7));
    app.add_option("--link-width", o.width, "Lanes of every cable: 1, 2, 4, 8 or 12")
        ->capture_default_str()
        ->check(CLI::IsMember({1, 2, 4, 8, 12}));
    app.add_option("--link-speed", o.speed,
                   "Speed of every cable: SDR DDR QDR FDR10 FDR EDR HDR NDR")
        ->capture_default_str();
    app.add_option("--report-json", o.report_json,
                   "Write a JSON report (counts, removed cables and switches, dropped CAs)")
        ->check(output_file());
    app.add_flag("-q,--quiet", o.quiet, "No summary on stderr");
}

CLI::App* family(CLI::App& gen, GenOptions& o, const std::string& name, const std::string& desc) {
    CLI::App* f = gen.add_subcommand(name, desc);
    f->fallthrough(); // common options may follow the family's own
    f->callback([&o, name] { o.family = name; });
    return f;
}

std::pair<int, int> parse_ratio(const std::string& s) {
    const auto colon = s.find(':');
    try {
        std::size_t used = 0;
        if (colon == std::string::npos) {
            const int d = std::stoi(s, &used);
            if (used == s.size()) return {d, 1};
        } else {
            const int d = std::stoi(s.substr(0, colon), &used);
            const std::string rest = s.substr(colon + 1);
            std::size_t used2 = 0;
            const int u = std::stoi(rest, &used2);
            if (used == colon && used2 == rest.size()) return {d, u};
        }
    } catch (const std::exception&) {
    }
    throw gen::GenError("clos: --blocking must be DOWN:UP (e.g. 2:1) or DOWN, got \"" + s + "\"");
}

CLI::CheckedTransformer arrangements() {
    return CLI::CheckedTransformer(
        std::map<std::string, gen::GlobalArrangement>{
            {"absolute", gen::GlobalArrangement::Absolute},
            {"relative", gen::GlobalArrangement::Relative},
            {"circulant", gen::GlobalArrangement::Circulant},
            {"random", gen::GlobalArrangement::Random}},
        CLI::ignore_case);
}

void add_families(CLI::App& gen, GenOptions& o) {
    CLI::App* f;
    f = family(gen, o, "fat-tree", "m-port n-tree FT(m,n) of Lin, Chung, Huang §3");
    f->add_option("-m,--ports", o.m, "Switch ports m (even)")->required();
    f->add_option("-n,--levels", o.n, "Levels n")->required();

    f = family(gen, o, "kary-ntree", "k-ary n-tree of Gilabert et al. §2");
    f->add_option("--k", o.k, "Arity k (switches have 2k ports)")->required();
    f->add_option("--n", o.n, "Stages n")->required();

    f = family(gen, o, "clos", "Deployed 2- or 3-level fat tree of one switch radix");
    f->add_option("--radix", o.clos.radix, "Switch ports")->capture_default_str();
    f->add_option("--levels", o.clos.levels, "2 (leaf/spine) or 3 (pods and core)")
        ->capture_default_str();
    f->add_option("--blocking", o.blocking, "Leaf down:up port ratio (oversubscription), e.g. 2:1")
        ->capture_default_str();
    f->add_option("--parallel", o.clos.parallel, "Parallel cables per connected switch pair")
        ->capture_default_str();

    f = family(gen, o, "pgft", "General PGFT(h; m1..mh; w1..wh; p1..ph) / XGFT");
    f->add_option("--m", o.pgft.m, "Children per node, per level (comma list)")
        ->required()
        ->delimiter(',');
    f->add_option("--w", o.pgft.w, "Parents per node, per level (comma list)")
        ->required()
        ->delimiter(',');
    f->add_option("--p", o.pgft.p, "Parallel cables per level (comma list; default all 1)")
        ->delimiter(',');
    f->add_option("--radix", o.pgft.radix, "Switch port count (default: the most needed)");

    // The options of the Cartesian families (HyperX/FlatFly, torus/mesh): one set of dimensions.
    const auto dimensions = [&](CLI::App* g) {
        g->add_option("--k", o.dims, "Switches per dimension K1,...,KN")
            ->required()
            ->delimiter(',');
        g->add_option("--width", o.widths, "Parallel cables per dimension L1,...,LN")
            ->delimiter(',');
        g->add_option("--cas", o.cas, "CAs per switch C")->capture_default_str();
        g->add_option("--radix", o.radix, "Switch port count (default: the degree)");
    };
    for (const char* name : {"hyperx", "flatfly"})
        dimensions(
            family(gen, o, name, "HyperX / FlatFly: product of complete graphs (Daryin §1.2)"));

    f = family(gen, o, "hypercube", "Hypercube: HyperX with every Ki = 2 (Daryin §1.3)");
    f->add_option("--dims", o.dimensions, "Dimensions")->required();
    f->add_option("--width", o.parallel, "Parallel cables per neighbour")->capture_default_str();
    f->add_option("--cas", o.cas, "CAs per switch")->capture_default_str();

    for (const char* name : {"torus", "mesh"})
        dimensions(family(gen, o, name, std::string(name) + ": k-ary n-cube (Daryin §1.1)"));

    f = family(gen, o, "dragonfly", "Dragonfly of Kim et al.; Daryin §1.4 (K=a, G=h, C=p)");
    f->add_option("--a", o.df.a, "Switches per group (K)")->capture_default_str();
    f->add_option("--h", o.df.h, "Global ports per switch (G)")->capture_default_str();
    f->add_option("--p", o.df.p, "CAs per switch (C)")->capture_default_str();
    f->add_option("--balanced", o.balanced, "Balanced layout a = 2p = 2h with p = this");
    f->add_option("--groups", o.df.groups, "Group count (default a*h/links-per-pair + 1)");
    f->add_option("--links-per-pair", o.df.links_per_pair, "Global cables between every two groups")
        ->capture_default_str();
    f->add_flag("--omit-one-global", o.omit_one_global,
                "Daryin's variant: a*h groups, one global port per group left free");
    f->add_option("--radix", o.df.radix, "Switch port count (default p+a-1+h)");
    f->add_option("--arrangement", o.df.arrangement,
                  "Global cabling: absolute (group g's port t to group t or t+1), relative "
                  "(palm tree: to group g+t+1), circulant (+-1, +-2, ...) or random (any "
                  "bijection of group pairs to ports; uses --seed)")
        ->transform(arrangements())
        ->default_str("absolute");

    f = family(gen, o, "dragonfly-plus",
               "Dragonfly+ of Shpiner et al.: leaf/spine groups, spines joined globally");
    f->add_option("--leaves", o.dfp.leaves, "Leaf switches per group")->capture_default_str();
    f->add_option("--spines", o.dfp.spines, "Spine switches per group")->capture_default_str();
    f->add_option("--p", o.dfp.p, "Hosts per leaf")->capture_default_str();
    f->add_option("--h", o.dfp.h, "Global ports per spine")->capture_default_str();
    f->add_option("--balanced", o.balanced,
                  "Balanced form of radix 2R: leaves = spines = p = h = R, R^2 + 1 groups");
    f->add_option("--groups", o.dfp.groups, "Group count (default spines*h/links-per-pair + 1)");
    f->add_option("--links-per-pair", o.dfp.links_per_pair,
                  "Global cables between every two groups")
        ->capture_default_str();
    f->add_option("--radix", o.dfp.radix, "Switch port count (default: the most needed)");
    f->add_option("--arrangement", o.dfp.arrangement,
                  "Global cabling over each group's spine ports, as for dragonfly")
        ->transform(arrangements())
        ->default_str("absolute");

    f = family(gen, o, "slimfly", "Slim Fly: McKay-Miller-Siran graph (Daryin §1.5)");
    f->add_option("--q", o.q, "Prime or power of two q; 2q^2 switches")->required();
    f->add_option("--cas", o.cas, "CAs per switch (default ceil(degree/2))");
    f->add_option("--parallel", o.parallel, "Parallel cables per neighbour pair")
        ->capture_default_str();
    f->add_option("--radix", o.radix, "Switch port count (default: CAs + degree)");
    f->add_option("--ff", o.dims,
                  "Slim Fly x FlatFly (Daryin §1.5): the FlatFly factor's K1,...,KN, e.g. 8,8")
        ->delimiter(',');
    f->add_option("--ff-width", o.widths, "Parallel cables per FlatFly dimension L1,...,LN")
        ->delimiter(',');

    f = family(gen, o, "random", "Random irregular fabric (Nienaber et al. §VI); uses --seed");
    f->add_option("--switches", o.rnd.switches, "Switches")->required();
    f->add_option("--degree", o.rnd.degree, "Average switch-to-switch degree")->required();
    f->add_option("--cas", o.rnd.cas, "Machines, spread uniformly")->required();
    f->add_option("--radix", o.rnd.radix, "Switch port count (default: the most used)");
}

Fabric make_family(GenOptions& o, CLI::App& gen) {
    const std::string& fam = o.family;
    if (fam == "fat-tree") return gen::fat_tree(o.m, o.n);
    if (fam == "kary-ntree") return gen::kary_ntree(o.k, o.n);
    if (fam == "clos") {
        std::tie(o.clos.blocking_down, o.clos.blocking_up) = parse_ratio(o.blocking);
        return gen::clos(o.clos);
    }
    if (fam == "pgft") {
        if (o.pgft.p.empty()) o.pgft.p.assign(o.pgft.m.size(), 1);
        return gen::pgft(o.pgft);
    }
    if (fam == "hyperx" || fam == "flatfly") {
        gen::HyperXParams p{o.dims, o.widths, o.cas, o.radix};
        return gen::hyperx(p);
    }
    if (fam == "hypercube") return gen::hypercube(o.dimensions, o.parallel, o.cas);
    if (fam == "torus" || fam == "mesh") {
        gen::TorusParams p{o.dims, o.widths, o.cas, fam == "torus", o.radix};
        return gen::torus(p);
    }
    if (fam == "dragonfly") {
        if (o.balanced) {
            o.df.p = o.df.h = o.balanced;
            o.df.a = 2 * o.balanced;
        }
        if (o.omit_one_global) o.df.groups = o.df.a * o.df.h / o.df.links_per_pair;
        o.df.seed = o.seed;
        return gen::dragonfly(o.df);
    }
    if (fam == "dragonfly-plus") {
        if (o.balanced) o.dfp.leaves = o.dfp.spines = o.dfp.p = o.dfp.h = o.balanced;
        o.dfp.seed = o.seed;
        return gen::dragonfly_plus(o.dfp);
    }
    if (fam == "slimfly") {
        gen::SlimFlyParams p;
        p.q = o.q;
        p.cas_per_switch = gen.get_subcommand("slimfly")->count("--cas") ? o.cas : -1;
        p.parallel = o.parallel;
        p.radix = o.radix;
        p.ff_k = o.dims;
        p.ff_width = o.widths;
        return gen::slimfly(p);
    }
    if (fam == "random") {
        o.rnd.seed = o.seed;
        return gen::random_fabric(o.rnd);
    }
    throw gen::GenError("unknown family " + fam);
}

} // namespace

void add_gen_options(CLI::App& gen, GenOptions& o) {
    add_common(gen, o);
    add_families(gen, o);
}

// The fabric the options describe: the family, cable width/speed, failures, LIDs.
Fabric build_fabric(GenOptions& o, CLI::App& gen, gen::FailureReport& report) {
    Fabric f = make_family(o, gen);
    gen::LinkSpec link;
    const auto speed = parse_link_speed(o.speed);
    if (!speed || *speed == LinkSpeed::Unknown)
        throw gen::GenError("--link-speed: unknown speed \"" + o.speed + "\"");
    if (o.width != 1 && o.width != 2 && o.width != 4 && o.width != 8 && o.width != 12)
        throw gen::GenError("--link-width: must be 1, 2, 4, 8 or 12, got " +
                            std::to_string(o.width));
    link.width = static_cast<std::uint8_t>(o.width);
    link.speed = *speed;
    if (link.width != 4 || link.speed != LinkSpeed::SDR) f = gen::with_link_spec(f, link);

    gen::FailureSpec spec;
    spec.links = o.fail_links;
    spec.switches = o.fail_switches;
    spec.link_names = o.fail_link;
    spec.switch_names = o.fail_switch;
    spec.seed = o.seed;
    spec.keep_connected = o.keep_connected;
    const bool failing =
        o.fail_links > 0 || o.fail_switches > 0 || !o.fail_link.empty() || !o.fail_switch.empty();
    if (failing)
        f = gen::inject_failures(f, spec, report);
    else
        report.components = f.num_nodes() ? 1 : 0;
    if (o.assign_lids || o.lmc >= 0) f = gen::assign_lids(f, o.lmc < 0 ? 0 : o.lmc);
    return f;
}

Fabric generate_fabric(const std::vector<std::string>& args) {
    GenOptions o;
    CLI::App app{"ibrt gen", "gen"};
    app.require_subcommand(1);
    add_gen_options(app, o);
    std::vector<std::string> rev(args.rbegin(), args.rend()); // CLI11: last argument first
    try {
        app.parse(rev);
        gen::FailureReport report;
        return build_fabric(o, app, report);
    } catch (const CLI::ParseError& e) {
        throw InputError("gen", 0, e.what());
    } catch (const gen::GenError& e) {
        throw InputError("gen", 0, e.what());
    }
}

} // namespace ibrt::cli
