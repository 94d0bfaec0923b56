// Test helpers for the topology reader/writer tests: a field-by-field fabric comparison that
// matches nodes by GUID (or id), since a written file may order nodes differently, and a
// builder-made two-level fat tree with everything a file can carry.
#pragma once

#include "fabric/fabric.hpp"

#include <fmt/format.h>

#include <string>
#include <unordered_map>

namespace ibrt::test {

struct CompareOptions {
    bool ids = true;      // node ids equal (off when the writer had to rename nodes)
    bool lids = true;     // LIDs/LMCs of switch port 0 and connected end ports
    bool sysimg = true;   // system image GUIDs (ibsim reports the node GUID when none is set)
    bool vendor = true;   // vendor and device ids
    bool speeds = true;   // link speeds (widths are always compared)
    bool enhanced = true; // switches' enhanced port 0
};

// First difference between two fabrics, or "" when they are equal under `opt`.
inline std::string fabric_diff(const Fabric& a, const Fabric& b, const CompareOptions& opt = {}) {
    if (a.num_nodes() != b.num_nodes())
        return fmt::format("node count {} vs {}", a.num_nodes(), b.num_nodes());
    if (a.num_links() != b.num_links())
        return fmt::format("link count {} vs {}", a.num_links(), b.num_links());
    std::vector<NodeId> map(a.num_nodes(), kNoNode);
    for (NodeId n = 0; n < a.num_nodes(); ++n) {
        const Node& x = a.node(n);
        const auto m = x.guid != 0 ? b.find_node_by_guid(x.guid) : b.find_node_by_id(x.id);
        if (!m) return fmt::format("node {} ({:#x}) missing", x.id, x.guid);
        map[n] = *m;
    }
    for (NodeId n = 0; n < a.num_nodes(); ++n) {
        const Node& x = a.node(n);
        const Node& y = b.node(map[n]);
        const std::string who = fmt::format("node \"{}\" ({:#x})", x.id, x.guid);
        if (x.type != y.type) return who + ": type";
        if (x.num_ports != y.num_ports)
            return fmt::format("{}: ports {} vs {}", who, x.num_ports, y.num_ports);
        if (x.guid != y.guid) return who + ": guid";
        if (opt.ids && x.id != y.id) return fmt::format("{}: id vs \"{}\"", who, y.id);
        if (x.desc != y.desc) return fmt::format("{}: desc \"{}\" vs \"{}\"", who, x.desc, y.desc);
        if (opt.enhanced && x.enhanced_port0 != y.enhanced_port0 && x.is_switch())
            return who + ": enhanced port 0";
        if (opt.sysimg && x.sysimg_guid != y.sysimg_guid)
            return fmt::format("{}: sysimgguid {:#x} vs {:#x}", who, x.sysimg_guid, y.sysimg_guid);
        if (opt.vendor && (x.vendor_id != y.vendor_id || x.device_id != y.device_id))
            return fmt::format("{}: vendid/devid {:#x}/{:#x} vs {:#x}/{:#x}", who, x.vendor_id,
                               x.device_id, y.vendor_id, y.device_id);
        for (PortNum p = x.is_switch() ? 0 : 1; p <= x.num_ports; ++p) {
            const Port& u = a.port(n, p);
            const Port& v = b.port(map[n], p);
            const std::string where = fmt::format("{} port {}", who, p);
            if (u.connected() != v.connected()) return where + ": connected";
            if (a.end_port_guid(a.port_id(n, p)) != b.end_port_guid(b.port_id(map[n], p)) &&
                (p == 0 || !x.is_switch()))
                return fmt::format("{}: port guid {:#x} vs {:#x}", where,
                                   a.end_port_guid(a.port_id(n, p)),
                                   b.end_port_guid(b.port_id(map[n], p)));
            if (opt.lids && (p == 0 || (u.connected() && !x.is_switch())) &&
                (u.base_lid != v.base_lid || u.lmc != v.lmc))
                return fmt::format("{}: lid/lmc {}/{} vs {}/{}", where, u.base_lid, u.lmc,
                                   v.base_lid, v.lmc);
            if (!u.connected() || p == 0) continue;
            if (map[u.peer_node] != v.peer_node || u.peer_port != v.peer_port)
                return where + ": peer";
            if (u.width != v.width || (opt.speeds && u.speed != v.speed))
                return fmt::format("{}: link {}x{} vs {}x{}", where, u.width, to_string(u.speed),
                                   v.width, to_string(v.speed));
            if (u.ext_num != v.ext_num) return where + ": ext port number";
        }
    }
    return "";
}

// A two-level fat tree of `leaves` leaf switches with `hosts` CAs each and `spines` spine
// switches, every leaf cabled once to every spine; ports, GUIDs, descriptions, LIDs, speeds
// filled in the way ibsim/opensm would (CA port GUID = node GUID + port).
inline Fabric make_fat_tree(int leaves, int hosts, int spines, PortNum leaf_ports = 36,
                            PortNum spine_ports = 36) {
    FabricBuilder b;
    Lid next_lid = 1;
    std::vector<NodeId> leaf(leaves), spine(spines);
    const LinkSpeed speeds[] = {LinkSpeed::EDR, LinkSpeed::HDR, LinkSpeed::QDR, LinkSpeed::FDR};
    for (int s = 0; s < spines; ++s) {
        spine[s] = b.add_node(NodeType::Switch, spine_ports, 0x7cfe900300000000ull + s,
                              fmt::format("spine-{} MQM8790", s));
        b.node(spine[s]).id = fmt::format("spine-{}", s);
        b.node(spine[s]).vendor_id = 0x2c9;
        b.node(spine[s]).device_id = 0xcf08;
        b.node(spine[s]).enhanced_port0 = true;
        b.node(spine[s]).sysimg_guid = 0x7cfe900300000000ull + s;
        b.port(spine[s], 0).base_lid = next_lid++;
    }
    for (int l = 0; l < leaves; ++l) {
        leaf[l] = b.add_node(NodeType::Switch, leaf_ports, 0x0c42a10300000000ull + l,
                             fmt::format("leaf-{} MQM8790", l));
        b.node(leaf[l]).id = fmt::format("leaf-{}", l);
        b.node(leaf[l]).vendor_id = 0x2c9;
        b.node(leaf[l]).device_id = 0xcf08;
        b.port(leaf[l], 0).base_lid = next_lid++;
        for (int s = 0; s < spines; ++s)
            b.connect(leaf[l], static_cast<PortNum>(hosts + 1 + s), spine[s],
                      static_cast<PortNum>(l + 1), 4, LinkSpeed::HDR);
    }
    next_lid += next_lid & 1; // LMC 1 base LIDs are even (IBA: aligned to 2^LMC)
    for (int l = 0; l < leaves; ++l)
        for (int h = 0; h < hosts; ++h) {
            const std::uint64_t g = 0x0002c90300000000ull + (std::uint64_t(l) * hosts + h) * 4;
            const NodeId c = b.add_node(NodeType::CA, 2, g, fmt::format("host-{}-{} HCA-1", l, h));
            b.node(c).id = fmt::format("host-{}-{}", l, h);
            b.node(c).vendor_id = 0x2c9;
            b.node(c).device_id = 0x101b;
            b.port(c, 1).guid = g + 1;
            b.port(c, 2).guid = g + 2;
            b.port(c, 1).base_lid = next_lid;
            b.port(c, 1).lmc = 1;
            next_lid += 2;
            b.connect(c, 1, leaf[l], static_cast<PortNum>(h + 1), 4, speeds[(l + h) % 4]);
        }
    return std::move(b).build();
}

} // namespace ibrt::test
