// rebuild(): the copy underneath failure injection and LID pre-assignment.
#include "generators/rebuild.hpp"

namespace ibrt::gen {

namespace {

Fabric copy(const Fabric& f, const std::vector<bool>& keep_node,
            const std::vector<bool>& keep_cable, const std::function<void(PortId, Port&)>& edit,
            const LinkSpec* link) {
    FabricBuilder b;
    std::vector<NodeId> new_id(f.num_nodes(), kNoNode);
    for (NodeId n = 0; n < f.num_nodes(); ++n) {
        if (!keep_node[n]) continue;
        const Node& src = f.node(n);
        const NodeId id = b.add_node(src.type, src.num_ports, src.guid, src.desc);
        Node& dst = b.node(id);
        dst.enhanced_port0 = src.enhanced_port0;
        dst.sysimg_guid = src.sysimg_guid;
        dst.vendor_id = src.vendor_id;
        dst.device_id = src.device_id;
        dst.id = src.id;
        for (PortNum p = 0; p <= src.num_ports; ++p) {
            const Port& sp = f.port(n, p);
            Port& dp = b.port(id, p);
            dp.guid = sp.guid;
            dp.base_lid = sp.base_lid;
            dp.lmc = sp.lmc;
            dp.ext_num = sp.ext_num;
            if (edit) edit(f.port_id(n, p), dp);
        }
        new_id[n] = id;
    }
    for (NodeId n = 0; n < f.num_nodes(); ++n) {
        if (new_id[n] == kNoNode) continue;
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
            const Port& port = f.port(n, p);
            if (!port.connected() || new_id[port.peer_node] == kNoNode) continue;
            // Each cable once, from its lower (node, port) end.
            if (port.peer_node < n || (port.peer_node == n && port.peer_port < p)) continue;
            if (!keep_cable[f.port_id(n, p)] ||
                !keep_cable[f.port_id(port.peer_node, port.peer_port)])
                continue;
            b.connect(new_id[n], p, new_id[port.peer_node], port.peer_port,
                      link ? link->width : port.width, link ? link->speed : port.speed);
        }
    }
    return std::move(b).build();
}

} // namespace

Fabric rebuild(const Fabric& f, const std::vector<bool>& keep_node,
               const std::vector<bool>& keep_cable,
               const std::function<void(PortId, Port&)>& edit) {
    return copy(f, keep_node, keep_cable, edit, nullptr);
}

Fabric with_link_spec(const Fabric& f, LinkSpec link) {
    return copy(f, std::vector<bool>(f.num_nodes(), true),
                std::vector<bool>(f.num_port_slots(), true), {}, &link);
}

} // namespace ibrt::gen
