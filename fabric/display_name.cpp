// display_name: the one way a node is named for a person.
#include "fabric/display_name.hpp"

#include <fmt/format.h>

namespace ibrt {

std::string display_name(const Fabric& f, NodeId n) {
    return display_name(f.node(n));
}

std::string display_name(const Node& node) {
    return display_name(node.type, node.desc, node.guid);
}

std::string display_name(NodeType type, std::string_view node_desc, std::uint64_t guid) {
    const char* kind = type == NodeType::Switch   ? "switch"
                       : type == NodeType::Router ? "router"
                                                  : "CA";
    std::string desc;
    desc.reserve(node_desc.size());
    for (unsigned char c : node_desc) // never echo control bytes from a file into a terminal
        if (c >= 0x20 && c != 0x7f)
            desc.push_back(static_cast<char>(c));
        else
            desc += fmt::format("\\x{:02x}", c);
    if (desc.empty()) return fmt::format("{} 0x{:016x}", kind, guid);
    return fmt::format("{} '{}' (GUID 0x{:016x})", kind, desc, guid);
}

std::string display_port(const Fabric& f, NodeId n, PortNum p) {
    return fmt::format("{} port {}", display_name(f, n), p);
}

std::string display_link(const Fabric& f, PortId port) {
    const Port& p = f.port(port);
    std::string s = display_port(f, f.port_node(port), f.port_num(port));
    if (p.connected()) s += " -> " + display_port(f, p.peer_node, p.peer_port);
    return s;
}

std::string display_channel(const Fabric& f, PortId port, unsigned vl) {
    return fmt::format("{} VL {}", display_link(f, port), vl);
}

std::string guid_hex(std::uint64_t guid) {
    return fmt::format("0x{:016x}", guid);
}

} // namespace ibrt
