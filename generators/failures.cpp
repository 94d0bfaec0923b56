// Failure injection; see failures.hpp.
#include "generators/failures.hpp"

#include "fabric/display_name.hpp"
#include "fabric/rng.hpp"
#include "generators/gen_builder.hpp"
#include "generators/rebuild.hpp"
#include "graph/fabric_walks.hpp"

#include <cmath>
#include <cstdlib>
#include <numeric>
#include <unordered_map>

namespace ibrt::gen {
namespace {

// Resolves the NODE of --fail-switch/--fail-link, and names nodes in the report the same way
// so that each entry can be given back: not a display name (fabric/display_name.hpp) but an
// identifier in the options' syntax, the description where it names one node, else the node
// id of the file, else the GUID (clusters give many HCAs one description).
class NodeNames {
  public:
    explicit NodeNames(const Fabric& f) : f_(f) {
        for (NodeId n = 0; n < f.num_nodes(); ++n) {
            auto [it, fresh] = by_desc_.emplace(f.node(n).desc, n);
            if (!fresh) it->second = kNoNode; // ambiguous
        }
    }
    NodeId find(const std::string& name, const std::string& what) const {
        if (auto id = f_.find_node_by_id(name)) return *id;
        if (auto it = by_desc_.find(name); it != by_desc_.end()) {
            require(it->second != kNoNode,
                    what + ": \"" + name + "\" names several nodes; use its GUID");
            return it->second;
        }
        if (name.size() > 2 && name[0] == '0' && (name[1] == 'x' || name[1] == 'X')) {
            char* end = nullptr;
            const unsigned long long g = std::strtoull(name.c_str() + 2, &end, 16);
            if (end && *end == '\0')
                if (auto id = f_.find_node_by_guid(g)) return *id;
        }
        throw GenError(what + ": no node named \"" + name + "\"");
    }
    std::string label(NodeId n) const {
        const Node& node = f_.node(n);
        if (const auto it = by_desc_.find(node.desc); !node.desc.empty() && it != by_desc_.end() &&
                                                      it->second == n &&
                                                      !f_.find_node_by_id(node.desc))
            return node.desc;
        if (!node.id.empty() && f_.find_node_by_id(node.id) == n) return node.id;
        return guid_hex(node.guid);
    }

  private:
    const Fabric& f_;
    std::unordered_map<std::string, NodeId> by_desc_;
};

// Union-find over nodes for the keep-connected test.
struct Dsu {
    std::vector<NodeId> parent;
    explicit Dsu(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
    NodeId find(NodeId x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    }
    void unite(NodeId a, NodeId b) { parent[find(a)] = find(b); }
};

} // namespace

std::size_t failure_count(double value, std::size_t total, const std::string& what) {
    require(value >= 0 && std::isfinite(value), what + ": must not be negative");
    std::size_t count;
    if (value < 1) {
        count = static_cast<std::size_t>(std::llround(value * double(total)));
    } else {
        require(value == std::floor(value),
                what + ": a value >= 1 is a count and must be whole, got " + std::to_string(value));
        count = static_cast<std::size_t>(value);
    }
    require(count <= total, what + ": " + std::to_string(count) + " requested, but only " +
                                std::to_string(total) + " available");
    return count;
}

Fabric inject_failures(const Fabric& f, const FailureSpec& spec, FailureReport& report) {
    const NodeNames names(f);
    std::vector<bool> node_alive(f.num_nodes(), true);
    std::vector<bool> cable_alive(f.num_port_slots(), true); // by PortId, both ends marked
    Rng rng(spec.seed);

    auto kill_cable = [&](NodeId n, PortNum p) {
        const Port& port = f.port(n, p);
        cable_alive[f.port_id(n, p)] = false;
        cable_alive[f.port_id(port.peer_node, port.peer_port)] = false;
    };
    // The switches stay connected over the surviving cables.
    auto switches_connected = [&]() {
        Dsu d(f.num_nodes());
        for (NodeId s : f.switches()) {
            if (!node_alive[s]) continue;
            for (PortNum p = 1; p <= f.node(s).num_ports; ++p) {
                const Port& port = f.port(s, p);
                if (port.connected() && cable_alive[f.port_id(s, p)] &&
                    f.node(port.peer_node).is_switch() && node_alive[port.peer_node])
                    d.unite(s, port.peer_node);
            }
        }
        NodeId root = kNoNode;
        for (NodeId s : f.switches()) {
            if (!node_alive[s]) continue;
            if (root == kNoNode) root = d.find(s);
            if (d.find(s) != root) return false;
        }
        return true;
    };

    // Switches: explicit, then random among the rest.
    std::vector<bool> explicit_switch(f.num_nodes(), false);
    for (const std::string& name : spec.switch_names) {
        const NodeId n = names.find(name, "--fail-switch");
        require(f.node(n).is_switch(), "--fail-switch: \"" + name + "\" is not a switch");
        node_alive[n] = false;
        explicit_switch[n] = true;
    }
    {
        std::vector<NodeId> candidates;
        for (NodeId s : f.switches())
            if (node_alive[s]) candidates.push_back(s);
        std::size_t want = failure_count(spec.switches, candidates.size(), "--fail-switches");
        rng.shuffle(candidates);
        for (std::size_t i = 0; i < candidates.size() && want > 0; ++i) {
            node_alive[candidates[i]] = false;
            if (spec.keep_connected && !switches_connected()) {
                node_alive[candidates[i]] = true;
                continue;
            }
            --want;
        }
        require(want == 0, "--fail-switches: cannot remove that many switches and keep the "
                           "remaining switches connected");
    }
    for (NodeId s : f.switches())
        if (!node_alive[s]) report.removed_switches.push_back(names.label(s));

    // Cables: explicit, then random among the surviving switch-to-switch cables.
    for (const std::string& name : spec.link_names) {
        const auto open = name.rfind('[');
        require(open != std::string::npos && name.back() == ']' && open > 0,
                "--fail-link: \"" + name + "\" is not NODE[PORT]");
        const NodeId n = names.find(name.substr(0, open), "--fail-link");
        const std::string num = name.substr(open + 1, name.size() - open - 2);
        char* end = nullptr;
        const long p = std::strtol(num.c_str(), &end, 10);
        require(!num.empty() && *end == '\0' && p >= 1 && p <= f.node(n).num_ports,
                "--fail-link: \"" + name + "\" names no port of that node");
        require(f.port(n, static_cast<PortNum>(p)).connected(),
                "--fail-link: \"" + name + "\" is not cabled");
        kill_cable(n, static_cast<PortNum>(p));
    }
    {
        std::vector<PortId> candidates; // lower end of each surviving ISL
        for (NodeId s : f.switches()) {
            if (!node_alive[s]) continue;
            for (PortNum p = 1; p <= f.node(s).num_ports; ++p) {
                const Port& port = f.port(s, p);
                if (!port.connected() || !f.node(port.peer_node).is_switch() ||
                    !node_alive[port.peer_node] || !cable_alive[f.port_id(s, p)])
                    continue;
                if (port.peer_node < s || (port.peer_node == s && port.peer_port < p)) continue;
                candidates.push_back(f.port_id(s, p));
            }
        }
        std::size_t want = failure_count(spec.links, candidates.size(), "--fail-links");
        rng.shuffle(candidates);
        for (std::size_t i = 0; i < candidates.size() && want > 0; ++i) {
            const NodeId n = f.port_node(candidates[i]);
            const PortNum p = f.port_num(candidates[i]);
            kill_cable(n, p);
            if (spec.keep_connected && !switches_connected()) {
                const Port& port = f.port(n, p);
                cable_alive[candidates[i]] = true;
                cable_alive[f.port_id(port.peer_node, port.peer_port)] = true;
                continue;
            }
            --want;
        }
        require(want == 0, "--fail-links: cannot remove that many cables and keep the switches "
                           "connected");
    }
    // Report removed cables between surviving nodes (those of removed switches are implied),
    // then drop the CAs that lost every cable.
    for (NodeId n = 0; n < f.num_nodes(); ++n) {
        if (!node_alive[n]) continue;
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
            const Port& port = f.port(n, p);
            if (!port.connected() || cable_alive[f.port_id(n, p)] || !node_alive[port.peer_node])
                continue;
            if (port.peer_node < n || (port.peer_node == n && port.peer_port < p)) continue;
            report.removed_links.push_back(names.label(n) + "[" + std::to_string(p) + "] <-> " +
                                           names.label(port.peer_node) + "[" +
                                           std::to_string(port.peer_port) + "]");
        }
    }
    for (NodeId c : f.cas()) {
        bool any = false, had = false;
        for (PortNum p = 1; p <= f.node(c).num_ports; ++p) {
            const Port& port = f.port(c, p);
            if (!port.connected()) continue;
            had = true;
            any = any || (cable_alive[f.port_id(c, p)] && node_alive[port.peer_node]);
        }
        if (had && !any) {
            node_alive[c] = false;
            report.dropped_cas.push_back(names.label(c));
        }
    }
    Fabric out = rebuild(f, node_alive, cable_alive);
    report.components = connected_components(out).count;
    return out;
}

} // namespace ibrt::gen
