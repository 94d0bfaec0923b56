// FabricBuilder and Fabric: consistency checks and the freeze into flat arrays.
#include "fabric/fabric.hpp"

#include "fabric/display_name.hpp"
#include "fabric/input_error.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace ibrt {

namespace {
constexpr std::array<std::string_view, 10> kSpeedNames = {"??",  "SDR", "DDR", "QDR", "FDR10",
                                                          "FDR", "EDR", "HDR", "NDR", "XDR"};
} // namespace

std::string_view to_string(NodeType t) {
    switch (t) {
    case NodeType::CA:
        return "CA";
    case NodeType::Switch:
        return "Switch";
    case NodeType::Router:
        return "Router";
    }
    return "?";
}

std::string_view to_string(LinkSpeed s) {
    return kSpeedNames[static_cast<std::size_t>(s)];
}

std::optional<LinkSpeed> parse_link_speed(std::string_view s) {
    for (std::size_t i = 1; i < kSpeedNames.size(); ++i)
        if (kSpeedNames[i] == s) return static_cast<LinkSpeed>(i);
    return std::nullopt;
}

double lane_data_gbps(LinkSpeed s) {
    switch (s) {
    case LinkSpeed::Unknown:
        return 0;
    case LinkSpeed::SDR:
        return 2.0;
    case LinkSpeed::DDR:
        return 4.0;
    case LinkSpeed::QDR:
        return 8.0;
    case LinkSpeed::FDR10:
        return 10.0 * 64 / 66;
    case LinkSpeed::FDR:
        return 14.0625 * 64 / 66;
    case LinkSpeed::EDR:
        return 25.78125 * 64 / 66;
    case LinkSpeed::HDR:
        return 50.0;
    case LinkSpeed::NDR:
        return 100.0;
    case LinkSpeed::XDR:
        return 200.0;
    }
    return 0;
}

std::string_view link_width_str(std::uint8_t lanes) {
    switch (lanes) {
    case 1:
        return "1x";
    case 2:
        return "2x";
    case 4:
        return "4x";
    case 8:
        return "8x";
    case 12:
        return "12x";
    default:
        return "??";
    }
}

std::optional<std::uint8_t> parse_link_width(std::string_view s) {
    if (s == "1x") return 1;
    if (s == "2x") return 2;
    if (s == "4x") return 4;
    if (s == "8x") return 8;
    if (s == "12x") return 12;
    return std::nullopt;
}

std::optional<NodeId> Fabric::find_node_by_guid(std::uint64_t g) const {
    auto it = node_by_guid_.find(g);
    if (it == node_by_guid_.end()) return std::nullopt;
    return it->second;
}

std::optional<PortId> Fabric::find_port_by_guid(std::uint64_t g) const {
    auto it = port_by_guid_.find(g);
    if (it == port_by_guid_.end()) return std::nullopt;
    return it->second;
}

std::optional<NodeId> Fabric::find_node_by_id(std::string_view id) const {
    auto it = node_by_id_.find(std::string(id));
    if (it == node_by_id_.end()) return std::nullopt;
    return it->second;
}

std::uint64_t Fabric::end_port_guid(PortId id) const {
    const Port& p = ports_[id];
    if (p.guid != 0) return p.guid;
    return nodes_[port_owner_[id]].guid;
}

NodeId FabricBuilder::add_node(NodeType type, PortNum num_ports, std::uint64_t guid,
                               std::string desc, Where where) {
    if (guid != 0 && by_guid_.count(guid))
        throw InputError(where.file, where.line, "duplicate node GUID " + guid_hex(guid));
    const NodeId id = static_cast<NodeId>(nodes_.size());
    Node n;
    n.type = type;
    n.num_ports = num_ports;
    n.guid = guid;
    n.desc = std::move(desc);
    nodes_.push_back(std::move(n));
    ports_.emplace_back(std::size_t(num_ports) + 1);
    node_where_.push_back(std::move(where));
    if (guid != 0) by_guid_.emplace(guid, id);
    return id;
}

Port& FabricBuilder::port(NodeId n, PortNum p) {
    auto& v = ports_.at(n);
    if (p >= v.size()) v.resize(std::size_t(p) + 1); // a port line beyond the declared count
    return v[p];
}

std::optional<NodeId> FabricBuilder::find_node_by_guid(std::uint64_t guid) const {
    auto it = by_guid_.find(guid);
    if (it == by_guid_.end()) return std::nullopt;
    return it->second;
}

void FabricBuilder::connect(NodeId a, PortNum pa, NodeId b, PortNum pb, std::uint8_t width,
                            LinkSpeed speed, Where where) {
    add_half_link(a, pa, b, pb, width, speed, where);
    add_half_link(b, pb, a, pa, width, speed, where);
}

void FabricBuilder::add_half_link(NodeId a, PortNum pa, NodeId b, PortNum pb, std::uint8_t width,
                                  LinkSpeed speed, Where where) {
    half_links_.push_back({a, pa, b, pb, width, speed, std::move(where)});
}

Fabric FabricBuilder::build() && {
    auto name = [&](NodeId n) { return display_name(nodes_[n]); };
    // Apply the half-links, checking that ports exist and no port gets two peers.
    for (const HalfLink& h : half_links_) {
        for (auto [n, p] : {std::pair{h.a, h.pa}, std::pair{h.b, h.pb}}) {
            if (n >= nodes_.size())
                throw InputError(h.where.file, h.where.line, "link to an unknown node");
            if (p == 0 || p > nodes_[n].num_ports)
                throw InputError(h.where.file, h.where.line,
                                 "port " + std::to_string(p) + " does not exist on " + name(n) +
                                     ", which has " + std::to_string(nodes_[n].num_ports) +
                                     " ports");
        }
        if (h.a == h.b && h.pa == h.pb)
            throw InputError(h.where.file, h.where.line,
                             name(h.a) + " port " + std::to_string(h.pa) + " is cabled to itself");
        Port& p = ports_[h.a][h.pa];
        if (p.connected() && (p.peer_node != h.b || p.peer_port != h.pb))
            throw InputError(h.where.file, h.where.line,
                             name(h.a) + " port " + std::to_string(h.pa) + " is cabled twice: to " +
                                 name(p.peer_node) + " port " + std::to_string(p.peer_port) +
                                 " and to " + name(h.b) + " port " + std::to_string(h.pb));
        p.peer_node = h.b;
        p.peer_port = h.pb;
        p.width = h.width;
        p.speed = h.speed;
    }
    // Every cable must be seen from both ends.
    for (const HalfLink& h : half_links_) {
        const Port& back = ports_[h.b][h.pb];
        if (back.peer_node != h.a || back.peer_port != h.pa)
            throw InputError(h.where.file, h.where.line,
                             name(h.a) + " port " + std::to_string(h.pa) + " names " + name(h.b) +
                                 " port " + std::to_string(h.pb) +
                                 " as its peer, but that port does not name it back");
    }

    Fabric f;
    std::size_t total = 0;
    for (const auto& v : ports_) total += v.size();
    f.ports_.reserve(total);
    f.port_owner_.reserve(total);
    // Sizing the lookup maps up front saves their rehashes, a large share of a big parse
    // (docs/history/performance-log.md, bench_parse).
    std::size_t guid_ports = 0, ids = 0;
    for (NodeId n = 0; n < nodes_.size(); ++n) {
        for (const Port& p : ports_[n]) guid_ports += p.guid != 0;
        guid_ports += nodes_[n].is_switch();
        ids += !nodes_[n].id.empty();
    }
    f.node_by_guid_.reserve(nodes_.size());
    f.port_by_guid_.reserve(guid_ports);
    f.node_by_id_.reserve(ids);
    f.nodes_ = std::move(nodes_);
    for (NodeId n = 0; n < f.nodes_.size(); ++n) {
        Node& node = f.nodes_[n];
        node.first_port = static_cast<PortId>(f.ports_.size());
        for (const Port& p : ports_[n]) {
            f.ports_.push_back(p);
            f.port_owner_.push_back(n);
        }
        (node.is_switch() ? f.switches_ : f.cas_).push_back(n);
        if (node.guid != 0) f.node_by_guid_.emplace(node.guid, n);
        if (!node.id.empty() && !f.node_by_id_.emplace(node.id, n).second) {
            const Where& w = node_where_[n];
            throw InputError(w.file, w.line, "duplicate node id \"" + node.id + "\"");
        }
        for (PortNum p = 0; p <= node.num_ports; ++p) {
            const Port& port = f.ports_[node.first_port + p];
            if (port.connected() &&
                (n < port.peer_node || (n == port.peer_node && p < port.peer_port)))
                ++f.num_links_;
            if (port.guid != 0) f.port_by_guid_.emplace(port.guid, node.first_port + p);
        }
        // A switch's port 0 is found by its node GUID when it has no port GUID of its own.
        if (node.is_switch() && node.guid != 0) f.port_by_guid_.emplace(node.guid, node.first_port);
    }
    return f;
}

} // namespace ibrt
