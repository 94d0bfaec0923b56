// `ibrt diff A B`: compares two topology files (ibnetdiscover / ibsim net format,
// shared/notes/opensm-plugin-api.md §7), or with --lfts two linear forwarding table dumps
// (opensm-lfts.dump or ibroute/dump_fts output, §6.1/§6.2). This is how the e2e tests show that
// what we wrote is what the real stack holds: a file we load into ibsim against ibnetdiscover's
// view of it, our LIDs against the LIDs opensm assigned, opensm's dump against dump_fts.
//
// Topologies are matched by node GUID, cables by their two (node GUID, port) ends, so the order
// of nodes in the files and the node ids ("S-...", "leaf-0") do not matter.
//
// JSON schema "ibrt-diff/1": {"schema", "mode": "topology"|"lfts", "a", "b", "equal": bool,
// "count": n, "differences": [{"kind", "text"}] (at most --max), "truncated": bool}.
// Kinds: node_only_in_a, node_only_in_b, node_type, node_ports, node_desc, port_guid,
// link_only_in_a, link_only_in_b, link_type, lid, switch_only_in_a, switch_only_in_b, lft_entry.
#include "cli/option_checks.hpp"
#include "fabric/display_name.hpp"
#include "fabric/input_error.hpp"
#include "fabric/lids.hpp"
#include "formats/lft_dump.hpp"
#include "formats/routing_files.hpp"
#include "tools/command.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace ibrt::tools {
namespace {

struct Difference {
    const char* kind;
    std::string text;
};

std::string link_type(std::uint8_t width, LinkSpeed speed) {
    return fmt::format("{}x{}", width == 0 ? std::string("?") : std::to_string(width),
                       to_string(speed));
}

void require_guids(const Fabric& f, const std::string& file) {
    for (NodeId n = 0; n < f.num_nodes(); ++n)
        if (f.node(n).guid == 0)
            throw InputError(file, 0,
                             display_name(f, n) + " has no GUID; diff matches nodes by GUID");
}

// A cable keyed by its two ends in GUID space, lower end first.
struct Cable {
    std::uint64_t g1;
    unsigned p1;
    std::uint64_t g2;
    unsigned p2;
    NodeId n1, n2; // ids in the fabric the cable came from, for naming
    std::uint8_t width;
    LinkSpeed speed;
    auto key() const { return std::tie(g1, p1, g2, p2); }
};

std::vector<Cable> cables_of(const Fabric& f) {
    std::vector<Cable> out;
    out.reserve(f.num_links());
    for (NodeId n = 0; n < f.num_nodes(); ++n) {
        const Node& node = f.node(n);
        for (unsigned p = 1; p <= node.num_ports; ++p) {
            const Port& port = f.port(n, static_cast<PortNum>(p));
            if (!port.connected()) continue;
            Cable c{node.guid,      p,         f.node(port.peer_node).guid,
                    port.peer_port, n,         port.peer_node,
                    port.width,     port.speed};
            if (std::tie(c.g2, c.p2) < std::tie(c.g1, c.p1)) continue; // seen from the other end
            out.push_back(c);
        }
    }
    std::sort(out.begin(), out.end(),
              [](const Cable& a, const Cable& b) { return a.key() < b.key(); });
    return out;
}

std::string cable_text(const Fabric& f, const Cable& c) {
    return fmt::format("{} <-> {} {}", display_port(f, c.n1, c.p1), display_port(f, c.n2, c.p2),
                       link_type(c.width, c.speed));
}

std::vector<Difference> diff_topologies(const Fabric& a, const Fabric& b, bool lids) {
    std::vector<Difference> d;
    for (NodeId na = 0; na < a.num_nodes(); ++na) {
        const Node& x = a.node(na);
        const auto nb = b.find_node_by_guid(x.guid);
        if (!nb) {
            d.push_back({"node_only_in_a", "only in A: " + display_name(a, na)});
            continue;
        }
        const Node& y = b.node(*nb);
        const std::string who = display_name(a, na);
        if (x.type != y.type)
            d.push_back({"node_type", fmt::format("{}: type A {}, B {}", who, to_string(x.type),
                                                  to_string(y.type))});
        if (x.num_ports != y.num_ports)
            d.push_back(
                {"node_ports", fmt::format("{}: ports A {}, B {}", who, x.num_ports, y.num_ports)});
        if (x.desc != y.desc)
            d.push_back({"node_desc",
                         fmt::format("{}: description A \"{}\", B \"{}\"", who, x.desc, y.desc)});
        const unsigned common = std::min(x.num_ports, y.num_ports);
        if (!x.is_switch() && !y.is_switch()) {
            for (unsigned p = 1; p <= common; ++p) {
                const auto pp = static_cast<PortNum>(p);
                const std::uint64_t ga = a.port(na, pp).guid, gb = b.port(*nb, pp).guid;
                if (ga != 0 && gb != 0 && ga != gb)
                    d.push_back({"port_guid",
                                 fmt::format("port GUID of {}: A {}, B {}", display_port(a, na, pp),
                                             guid_hex(ga), guid_hex(gb))});
            }
        }
    }
    for (NodeId nb = 0; nb < b.num_nodes(); ++nb) {
        const Node& y = b.node(nb);
        if (!a.find_node_by_guid(y.guid))
            d.push_back({"node_only_in_b", "only in B: " + display_name(b, nb)});
    }

    const std::vector<Cable> ca = cables_of(a), cb = cables_of(b);
    std::size_t i = 0, j = 0;
    while (i < ca.size() || j < cb.size()) {
        if (j == cb.size() || (i < ca.size() && ca[i].key() < cb[j].key())) {
            d.push_back({"link_only_in_a", "link only in A: " + cable_text(a, ca[i])});
            ++i;
        } else if (i == ca.size() || cb[j].key() < ca[i].key()) {
            d.push_back({"link_only_in_b", "link only in B: " + cable_text(b, cb[j])});
            ++j;
        } else {
            if (ca[i].width != cb[j].width || ca[i].speed != cb[j].speed)
                d.push_back({"link_type", fmt::format("link {} <-> {}: A {}, B {}",
                                                      display_port(a, ca[i].n1, ca[i].p1),
                                                      display_port(a, ca[i].n2, ca[i].p2),
                                                      link_type(ca[i].width, ca[i].speed),
                                                      link_type(cb[j].width, cb[j].speed))});
            ++i;
            ++j;
        }
    }

    if (lids) {
        for (NodeId na = 0; na < a.num_nodes(); ++na) {
            const Node& x = a.node(na);
            const auto nb = b.find_node_by_guid(x.guid);
            if (!nb || b.node(*nb).type != x.type) continue; // already reported
            const unsigned first = x.is_switch() ? 0 : 1;
            const unsigned last =
                x.is_switch() ? 0 : std::min<unsigned>(x.num_ports, b.node(*nb).num_ports);
            for (unsigned p = first; p <= last; ++p) {
                const Port& pa = a.port(na, static_cast<PortNum>(p));
                const Port& pb = b.port(*nb, static_cast<PortNum>(p));
                if (pa.base_lid != pb.base_lid || pa.lmc != pb.lmc)
                    d.push_back({"lid", fmt::format("LID of {}: A {} lmc {}, B {} lmc {}",
                                                    display_port(a, na, static_cast<PortNum>(p)),
                                                    pa.base_lid, pa.lmc, pb.base_lid, pb.lmc)});
            }
        }
    }
    return d;
}

// Names switches and destination LIDs in LFT differences, from a fabric when one is given.
struct LftNaming {
    const Fabric* fabric = nullptr;
    Lids lids;
    std::string switch_name(const LftDump::Switch& s) const {
        if (fabric)
            if (auto n = fabric->find_node_by_guid(s.guid)) return display_name(*fabric, *n);
        Node node; // as the dump describes it
        node.type = NodeType::Switch;
        node.guid = s.guid;
        node.desc = s.desc;
        return display_name(node);
    }
    std::string dest(Lid lid) const {
        if (!fabric) return {};
        const PortId owner = lids.owner(lid);
        if (owner == kNoPort) return {};
        const NodeId n = fabric->port_node(owner);
        return fabric->node(n).is_switch()
                   ? " (" + display_name(*fabric, n) + ")"
                   : " (" + display_port(*fabric, n, fabric->port_num(owner)) + ")";
    }
};

std::string out_port(PortNum p) {
    return p == kNoPath ? std::string("none") : std::to_string(p);
}

std::vector<Difference> diff_lfts(const LftDump& a, const LftDump& b, const LftNaming& names) {
    std::vector<Difference> d;
    std::unordered_map<std::uint64_t, const LftDump::Switch*> in_b;
    for (const auto& s : b.switches) in_b.emplace(s.guid, &s);
    std::unordered_map<std::uint64_t, const LftDump::Switch*> in_a;
    for (const auto& s : a.switches) in_a.emplace(s.guid, &s);
    for (const auto& sa : a.switches) {
        auto it = in_b.find(sa.guid);
        if (it == in_b.end()) {
            d.push_back({"switch_only_in_a", "only in A: " + names.switch_name(sa)});
            continue;
        }
        const LftDump::Switch& sb = *it->second;
        // A dump lists only valid entries, so a shorter table means kNoPath beyond its end.
        const std::size_t top = std::max(sa.lft.size(), sb.lft.size());
        for (std::size_t lid = 0; lid < top; ++lid) {
            const PortNum pa = lid < sa.lft.size() ? sa.lft[lid] : kNoPath;
            const PortNum pb = lid < sb.lft.size() ? sb.lft[lid] : kNoPath;
            if (pa != pb)
                d.push_back(
                    {"lft_entry",
                     fmt::format("{} LID {}{}: A port {}, B port {}", names.switch_name(sa), lid,
                                 names.dest(static_cast<Lid>(lid)), out_port(pa), out_port(pb))});
        }
    }
    for (const auto& sb : b.switches)
        if (!in_a.count(sb.guid))
            d.push_back({"switch_only_in_b", "only in B: " + names.switch_name(sb)});
    return d;
}

struct Options {
    std::string a, b, fabric;
    bool lids = false, lfts = false, json = false;
    std::size_t max = 20;
};

int run(const Options& o) {
    std::vector<Difference> d;
    if (o.lfts) {
        const LftDump a = read_lft_dump_file(o.a), b = read_lft_dump_file(o.b);
        LftNaming names;
        std::optional<Fabric> f;
        if (!o.fabric.empty()) {
            f = load_topology(o.fabric);
            (void)bind_lft_dump(a, *f, o.a); // every switch and port of both dumps exists
            (void)bind_lft_dump(b, *f, o.b);
            names.fabric = &*f;
            try {
                names.lids = Lids::from_fabric(*f);
            } catch (const std::invalid_argument& e) {
                throw InputError(o.fabric, 0, e.what());
            }
        }
        d = diff_lfts(a, b, names);
    } else {
        // Two LFT dumps given without --lfts read as topologies and fail on the first line:
        // say what to run instead.
        const auto topology = [&](const std::string& file) {
            try {
                return load_topology(file);
            } catch (const InputError& e) {
                if (e.problem().find("Unicast lids") == std::string::npos &&
                    e.problem().find("Lid ") == std::string::npos)
                    throw;
                throw InputError(e.file(), e.line(),
                                 e.problem() +
                                     "; it looks like an LFT dump: compare LFT dumps with "
                                     "`ibrt diff --lfts A B` (add --fabric TOPOLOGY to name "
                                     "switches and check ports)");
            }
        };
        const Fabric a = topology(o.a), b = topology(o.b);
        require_guids(a, o.a);
        require_guids(b, o.b);
        d = diff_topologies(a, b, o.lids);
    }

    const std::size_t shown = std::min(d.size(), o.max);
    if (o.json) {
        nlohmann::ordered_json j;
        j["schema"] = "ibrt-diff/1";
        j["mode"] = o.lfts ? "lfts" : "topology";
        j["a"] = o.a;
        j["b"] = o.b;
        j["equal"] = d.empty();
        j["count"] = d.size();
        auto arr = nlohmann::ordered_json::array();
        for (std::size_t i = 0; i < shown; ++i)
            arr.push_back({{"kind", d[i].kind}, {"text", d[i].text}});
        j["differences"] = arr;
        j["truncated"] = shown < d.size();
        fmt::print("{}\n", j.dump(2));
    } else {
        for (std::size_t i = 0; i < shown; ++i) fmt::print("{}\n", d[i].text);
        if (shown < d.size()) fmt::print("... {} more not shown (--max)\n", d.size() - shown);
        if (d.empty())
            fmt::print("equal\n");
        else
            fmt::print("{} difference{}\n", d.size(), d.size() == 1 ? "" : "s");
    }
    return d.empty() ? kExitOk : kExitViolations;
}

const CommandRegistrar reg{{
    "diff",
    "Compare two topology files, or (--lfts) two LFT dumps; exit 1 when they differ",
    [](CLI::App& sub) -> std::function<int()> {
        auto o = std::make_shared<Options>();
        sub.add_option("A", o->a, "First file")->required();
        sub.add_option("B", o->b, "Second file")->required();
        auto* lfts = sub.add_flag("--lfts", o->lfts,
                                  "Compare LFT dumps (opensm-lfts.dump or ibroute/dump_fts "
                                  "output, either in each position) entry by entry");
        sub.add_flag("--lids", o->lids,
                     "Topologies: also compare base LID and LMC of every end port")
            ->excludes(lfts);
        sub.add_option("--fabric", o->fabric,
                       "With --lfts: topology used to name switches and destination LIDs and "
                       "to check that every switch and port of the dumps exists")
            ->needs(lfts);
        sub.add_option("--max", o->max, "Print at most this many differences")
            ->capture_default_str()
            ->check(cli::whole_in(0, cli::kMax<std::uint32_t>));
        sub.add_flag("--json", o->json, "Print JSON (schema \"ibrt-diff/1\")");
        sub.footer(
            "Topologies are matched by node GUID and cables by their (node GUID, port) ends;\n"
            "compared are node type, port count, description, CA port GUIDs (where both files\n"
            "give one), cables and their width/speed, and with --lids the LIDs.\n"
            "LFTs are matched by switch GUID; an entry missing from a dump counts as no path.\n"
            "Exit: 0 equal, 1 different, 2 bad input.");
        return [o] { return run(*o); };
    },
}};

} // namespace
} // namespace ibrt::tools
