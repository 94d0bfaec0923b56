// `ibrt map`: the direct topology a fabric's cabling is (paper 003 §2; mapping/map_fabric.hpp),
// its parameters in the paper's notation, and what is missing against the complete shape.
// Exit 0 when the fabric is one of the families, 1 when it is none (with the reason), 2 on
// bad input.
//
// JSON, schema "ibrt-map/1" (fields are only ever added):
//   { "schema", "file", "family": "flatfly"|"hypercube"|"torus"|"torus x flatfly"|
//     "dragonfly"|"dragonfly+"|"slimfly"|"unknown", "why_not": str (unknown only), "switches": n,
//     "cas_per_switch": n, "dimensions": [{"k": n, "width": n, "ring": b}]              (Cartesian
//     families) "groups": n, "group_size": n, "globals_per_switch": n,       (Dragonfly)
//     "missing_global_links": n, "unplaced": [name]  (switches whose group the cabling does
//     not tell; each is routed as a group of its own)
//     "groups", "leaves_per_group", "spines_per_group", "globals_per_spine",
//     "links_per_pair", "missing_global_links", "unplaced"                        (Dragonfly+)
//     "coordinates": [{"switch": name, "coord": [..]}]   (Dragonfly: [group, index];
//     Dragonfly+: [group, 0 leaf | 1 spine, index])
//     "q": n, "columns": n, "link_width": n,                      (Slim Fly; coord (t, x, y))
//     and "dimensions" for a Slim Fly x FlatFly's FlatFly factor (coord (t, x, y, c_1..c_N))
//     "missing_switches": [[..]], "missing_links": [{"a": name, "b": name, "cables": n}] }
#include "fabric/display_name.hpp"
#include "formats/routing_files.hpp"
#include "mapping/map_fabric.hpp"
#include "tools/command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace ibrt::tools {
namespace {

using namespace mapping;

struct MapArgs {
    std::string file;
    bool json = false;
    std::size_t max_examples = 10;
};

std::vector<int> coord_of(const Shape& s, std::uint32_t v) {
    if (s.family == Family::Dragonfly) return {s.group[v], s.index_in_group[v]};
    if (s.family == Family::DragonflyPlus) return {s.group[v], s.spine[v], s.index_in_group[v]};
    return s.coord[v];
}

void print_text(const Fabric& f, const SwitchLinks& g, const Shape& s, const MapArgs& a) {
    fmt::print("{}: {} switches, {} CAs\n", a.file, g.num_switches(), f.cas().size());
    if (s.family == Family::Unknown) {
        fmt::print(
            "family: none of flatfly, hypercube, torus, dragonfly, dragonfly+, slimfly\nwhy: {}\n",
            s.why_not);
        return;
    }
    fmt::print("family: {}\n", family_name(s.family));
    fmt::print("CAs per switch (C): {}\n", s.cas_per_switch);
    if (s.family == Family::SlimFly) {
        fmt::print("MMS graph: q = {}, 2 subgraphs of {} columns of {} switches (t, x, y), "
                   "{} switches when complete, L = {}\n",
                   s.q, s.q, s.q, 2 * s.q * s.q, s.link_width);
        if (!s.dims.empty()) { // Slim Fly x FlatFly (paper 003 §1.5)
            std::vector<std::string> k, w;
            for (const auto& d : s.dims) {
                k.push_back(std::to_string(d.k));
                w.push_back(std::to_string(d.width));
            }
            fmt::print(
                "times a FlatFly: K = {}, L = {} (coordinates t, x, y, then the FlatFly's)\n",
                fmt::join(k, " x "), fmt::join(w, ", "));
        }
    } else if (s.family == Family::DragonflyPlus) {
        fmt::print("groups: {} of {} leaves and {} spines, {} global links per spine, {} per "
                   "pair of groups\n",
                   s.groups - s.unplaced.size(), s.leaves_per_group, s.spines_per_group,
                   s.globals_per_switch, s.links_per_pair);
        fmt::print("pairs of groups not joined: {}\n", s.missing_global_links);
        fmt::print("not placed (spines with no leaf; each a group of its own): {}\n",
                   s.unplaced.size());
        for (std::size_t i = 0; i < s.unplaced.size() && i < a.max_examples; ++i)
            fmt::print("  {}\n", display_name(f, g.node[s.unplaced[i]]));
    } else if (s.family == Family::Dragonfly) {
        fmt::print("groups: {} of K = {} switches, G = {} global links per switch{}\n", s.groups,
                   s.group_size, s.globals_per_switch,
                   s.links_per_pair > 1 ? fmt::format(", {} per pair of groups", s.links_per_pair)
                                        : "");
        fmt::print("pairs of groups not joined: {}\n", s.missing_global_links);
        // Counted in `groups` above, each as a group of its own (how the engine routes them).
        fmt::print("not placed (the cabling does not tell their group): {}\n", s.unplaced.size());
        for (std::size_t i = 0; i < s.unplaced.size() && i < a.max_examples; ++i)
            fmt::print("  {}\n", display_name(f, g.node[s.unplaced[i]]));
    } else {
        std::vector<std::string> k, w;
        for (const auto& d : s.dims) {
            k.push_back(fmt::format("{}{}", d.k, d.ring ? " (ring)" : ""));
            w.push_back(std::to_string(d.width));
        }
        fmt::print("dimensions: N = {}, K = {}, L = {}\n", s.dims.size(), fmt::join(k, " x "),
                   fmt::join(w, ","));
    }
    fmt::print("missing switches: {}\n", s.missing_switches.size());
    for (std::size_t i = 0; i < s.missing_switches.size() && i < a.max_examples; ++i)
        fmt::print("  at ({})\n", fmt::join(s.missing_switches[i], ","));
    fmt::print("missing links: {}\n", s.missing_links.size());
    for (std::size_t i = 0; i < s.missing_links.size() && i < a.max_examples; ++i) {
        const MissingLink& m = s.missing_links[i];
        fmt::print("  {} ({}) - {} ({}){}\n", display_name(f, g.node[m.a]),
                   fmt::join(coord_of(s, m.a), ","), display_name(f, g.node[m.b]),
                   fmt::join(coord_of(s, m.b), ","),
                   m.cables ? fmt::format(": {} cables of the dimension's width", m.cables) : "");
    }
    const std::size_t more =
        std::max({s.missing_switches.size(), s.missing_links.size(), s.unplaced.size()});
    if (more > a.max_examples)
        fmt::print("(lists cut at {}; --max-examples N or --json for all)\n", a.max_examples);
}

nlohmann::ordered_json to_json(const Fabric& f, const SwitchLinks& g, const Shape& s,
                               const std::string& file) {
    using J = nlohmann::ordered_json;
    J j;
    j["schema"] = "ibrt-map/1";
    j["file"] = file;
    j["family"] = family_name(s.family);
    if (s.family == Family::Unknown) j["why_not"] = s.why_not;
    j["switches"] = g.num_switches();
    j["cas_per_switch"] = s.cas_per_switch;
    if (s.family == Family::Dragonfly) {
        j["groups"] = s.groups;
        j["group_size"] = s.group_size;
        j["globals_per_switch"] = s.globals_per_switch;
        j["links_per_pair"] = s.links_per_pair;
        j["missing_global_links"] = s.missing_global_links;
        J unplaced = J::array();
        for (std::uint32_t v : s.unplaced) unplaced.push_back(display_name(f, g.node[v]));
        j["unplaced"] = unplaced;
    } else if (s.family == Family::DragonflyPlus) {
        j["groups"] = s.groups - s.unplaced.size();
        j["leaves_per_group"] = s.leaves_per_group;
        j["spines_per_group"] = s.spines_per_group;
        j["globals_per_spine"] = s.globals_per_switch;
        j["links_per_pair"] = s.links_per_pair;
        j["missing_global_links"] = s.missing_global_links;
        J unplaced = J::array();
        for (std::uint32_t v : s.unplaced) unplaced.push_back(display_name(f, g.node[v]));
        j["unplaced"] = unplaced;
    } else if (s.family == Family::SlimFly) {
        j["q"] = s.q;
        j["columns"] = 2 * s.q;
        j["link_width"] = s.link_width;
    }
    // Cartesian families, and a Slim Fly x FlatFly's FlatFly factor.
    if (s.family != Family::Unknown && !s.dims.empty()) {
        J dims = J::array();
        for (const auto& d : s.dims)
            dims.push_back({{"k", d.k}, {"width", d.width}, {"ring", d.ring}});
        j["dimensions"] = dims;
    }
    if (s.family != Family::Unknown) {
        J coords = J::array();
        for (std::uint32_t v = 0; v < g.num_switches(); ++v)
            coords.push_back({{"switch", display_name(f, g.node[v])}, {"coord", coord_of(s, v)}});
        j["coordinates"] = coords;
    }
    j["missing_switches"] = s.missing_switches;
    J links = J::array();
    for (const MissingLink& m : s.missing_links)
        links.push_back({{"a", display_name(f, g.node[m.a])},
                         {"b", display_name(f, g.node[m.b])},
                         {"cables", m.cables}});
    j["missing_links"] = links;
    return j;
}

const CommandRegistrar reg{{
    "map",
    "Recover a direct topology (torus, FlatFly/HyperX, hypercube, Dragonfly, Dragonfly+, Slim Fly) "
    "from the "
    "cabling",
    [](CLI::App& sub) -> std::function<int()> {
        auto a = std::make_shared<MapArgs>();
        sub.add_option("FILE", a->file, "Topology: ibnetdiscover / ibsim net, or opensm-subnet.lst")
            ->required();
        sub.add_flag("--json", a->json,
                     "Print JSON (schema \"ibrt-map/1\") with every switch's "
                     "coordinates");
        sub.add_option("--max-examples", a->max_examples,
                       "Missing switches and links listed in the text output")
            ->default_val(10);
        sub.footer(
            "Mapping uses only which switches are cabled to which (paper 003 section 2): no node\n"
            "descriptions, GUIDs or port numbers. Links are classed by union-find (the two\n"
            "directions and parallel cables of a link are one; a triangle's links are\n"
            "equivalent; so are opposite sides of a rectangle); each class is a dimension (a\n"
            "ring position on a torus, a group's local links on a Dragonfly), and coordinates\n"
            "follow. Parameters as in the paper: N dimensions of K switches joined by L\n"
            "cables, C CAs per switch; Dragonfly groups of K switches with G global links each.\n"
            "On a torus, rings of 4 and 3 (as graphs K2 x K2 and K3) are given back as rings.\n"
            "A Slim Fly (2q^2 switches of degree (3q - delta)/2) is found by embedding the\n"
            "cabling in the MMS graph for q: coordinates (t, x, y) up to the graph's symmetries.\n"
            "Exit codes: 0 mapped, 1 none of the families (the reason is printed), 2 bad input.");
        return [a] {
            const Fabric f = load_topology(a->file);
            const SwitchLinks g = switch_links(f);
            const Shape s = map_fabric(f, g, link_classes(g));
            if (a->json)
                fmt::print("{}\n", to_json(f, g, s, a->file).dump(2));
            else
                print_text(f, g, s, *a);
            return s.family == Family::Unknown ? kExitViolations : kExitOk;
        };
    },
}};

} // namespace
} // namespace ibrt::tools
