// `ibrt info FILE`: what a topology file holds (graph/fabric_stats.hpp), as a table for people
// or as JSON for scripts.
//
// JSON schema "ibrt-info/1" (stable: fields are only ever added, never renamed or removed):
//   { "schema": "ibrt-info/1", "file": str,
//     "nodes": {"switches": n, "cas": n, "routers": n, "unconnected_end_nodes": n},
//     "links": {"total": n, "switch_switch": n, "switch_end": n, "end_end": n},
//     "radix": [{"ports": n, "switches": n}],          ascending by ports
//     "used_ports": [{"ports": n, "switches": n}],     cabled ports per switch, ascending
//     "link_types": [{"name": "4xEDR", "width": n, "speed": "EDR", "links": n}],
//     "lids": {"end_ports": n, "with_lid": n, "max_lid": n, "lmc": [{"lmc": n, "ports": n}]},
//     "components": {"count": n, "sizes": [n, ...]},   largest first
//     "levels": {"switches_by_level": [{"level": n, "switches": n}], "max_level": n,
//                "unreached_switches": n} }           level 1 = cabled to an end node
#include "formats/routing_files.hpp"
#include "graph/fabric_stats.hpp"
#include "tools/command.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <string>

namespace ibrt::tools {
namespace {

std::string plural(std::size_t n, const char* one, const char* many) {
    return fmt::format("{} {}", n, n == 1 ? one : many);
}

nlohmann::ordered_json to_json(const FabricStats& s, const std::string& file) {
    using J = nlohmann::ordered_json;
    J j;
    j["schema"] = "ibrt-info/1";
    j["file"] = file;
    j["nodes"] = {{"switches", s.switches},
                  {"cas", s.cas},
                  {"routers", s.routers},
                  {"unconnected_end_nodes", s.unconnected_end_nodes}};
    j["links"] = {{"total", s.links},
                  {"switch_switch", s.switch_links},
                  {"switch_end", s.end_links},
                  {"end_end", s.end_to_end_links}};
    J radix = J::array(), used = J::array(), kinds = J::array(), lmc = J::array();
    for (const auto& c : s.radix) radix.push_back({{"ports", c.value}, {"switches", c.count}});
    for (const auto& c : s.used_ports) used.push_back({{"ports", c.value}, {"switches", c.count}});
    for (const auto& k : s.link_kinds)
        kinds.push_back({{"name", k.name()},
                         {"width", k.width},
                         {"speed", std::string(to_string(k.speed))},
                         {"links", k.count}});
    for (const auto& c : s.lmc) lmc.push_back({{"lmc", c.value}, {"ports", c.count}});
    j["radix"] = radix;
    j["used_ports"] = used;
    j["link_types"] = kinds;
    j["lids"] = {{"end_ports", s.end_ports},
                 {"with_lid", s.end_ports_with_lid},
                 {"max_lid", s.max_lid},
                 {"lmc", lmc}};
    j["components"] = {{"count", s.component_sizes.size()}, {"sizes", s.component_sizes}};
    J levels = J::array();
    for (std::size_t l = 1; l < s.switches_by_level.size(); ++l)
        levels.push_back({{"level", l}, {"switches", s.switches_by_level[l]}});
    j["levels"] = {{"switches_by_level", levels},
                   {"max_level", s.switches_by_level.empty() ? 0 : s.switches_by_level.size() - 1},
                   {"unreached_switches", s.unreached_switches}};
    return j;
}

void print_table(const FabricStats& s, const std::string& file) {
    auto row = [](const char* label, const std::string& value) {
        fmt::print("{:<12} {}\n", label, value);
    };
    auto join = [](const auto& items, auto&& fmt_one) {
        std::string out;
        for (const auto& it : items) {
            if (!out.empty()) out += ", ";
            out += fmt_one(it);
        }
        return out.empty() ? std::string("-") : out;
    };
    row("fabric", file);
    row("nodes", fmt::format("{}, {}, {}", plural(s.switches, "switch", "switches"),
                             plural(s.cas, "CA", "CAs"), plural(s.routers, "router", "routers")) +
                     (s.unconnected_end_nodes
                          ? fmt::format(" ({} end nodes uncabled)", s.unconnected_end_nodes)
                          : std::string()));
    row("links", fmt::format("{} ({} switch-switch, {} switch-end, {} end-end)", s.links,
                             s.switch_links, s.end_links, s.end_to_end_links));
    row("radix", join(s.radix, [](const FabricStats::Count& c) {
            return fmt::format("{} ports: {}", c.value, plural(c.count, "switch", "switches"));
        }));
    row("used ports", join(s.used_ports, [](const FabricStats::Count& c) {
            return fmt::format("{}: {}", c.value, plural(c.count, "switch", "switches"));
        }));
    row("link types", join(s.link_kinds, [](const FabricStats::LinkKind& k) {
            return fmt::format("{}: {}", k.name(), k.count);
        }));
    row("LIDs", fmt::format("{} of {} end ports, max LID {}", s.end_ports_with_lid, s.end_ports,
                            s.max_lid) +
                    (s.lmc.empty() ? std::string()
                                   : "; " + join(s.lmc, [](const FabricStats::Count& c) {
                                         return fmt::format("LMC {}: {}", c.value,
                                                            plural(c.count, "port", "ports"));
                                     })));
    row("components",
        fmt::format("{} (sizes {})", s.component_sizes.size(),
                    join(s.component_sizes, [](std::size_t n) { return std::to_string(n); })));
    std::string levels;
    for (std::size_t l = 1; l < s.switches_by_level.size(); ++l) {
        if (!levels.empty()) levels += ", ";
        levels += fmt::format("{}: {}", l, plural(s.switches_by_level[l], "switch", "switches"));
    }
    if (levels.empty()) levels = "-";
    if (s.unreached_switches) levels += fmt::format("; unreached: {}", s.unreached_switches);
    row("levels", levels);
}

const CommandRegistrar reg{{
    "info",
    "Summarize a topology file: nodes, links, radix, link types, LIDs, components, levels",
    [](CLI::App& sub) -> std::function<int()> {
        auto file = std::make_shared<std::string>();
        auto json = std::make_shared<bool>(false);
        sub.add_option("FILE", *file, "Topology: ibnetdiscover / ibsim net, or opensm-subnet.lst")
            ->required();
        sub.add_flag("--json", *json, "Print JSON (schema \"ibrt-info/1\") instead of a table");
        sub.footer(
            "Levels are breadth-first distances from the CAs/routers: level 1 switches are\n"
            "cabled to an end node. Switches no end node reaches are counted as unreached.\n"
            "End ports are switch port 0 and every CA/router port; max LID includes LMC ranges.\n"
            "JSON keys: schema, file, nodes{switches,cas,routers,unconnected_end_nodes},\n"
            "links{total,switch_switch,switch_end,end_end}, radix[{ports,switches}],\n"
            "used_ports[{ports,switches}], link_types[{name,width,speed,links}],\n"
            "lids{end_ports,with_lid,max_lid,lmc[{lmc,ports}]}, components{count,sizes},\n"
            "levels{switches_by_level[{level,switches}],max_level,unreached_switches}.\n"
            "Exit codes: 0 summarized, 2 bad input.");
        return [file, json] {
            const Fabric f = load_topology(*file);
            const FabricStats s = compute_fabric_stats(f);
            if (*json)
                fmt::print("{}\n", to_json(s, *file).dump(2));
            else
                print_table(s, *file);
            return kExitOk;
        };
    },
}};

} // namespace
} // namespace ibrt::tools
