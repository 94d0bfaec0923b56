// opensm subnet -> Fabric + Lids (shared/notes/opensm-plugin-api.md §5.1 for the structures).
#include "engines/opensm/subnet_snapshot.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ibrt::osm {

namespace {

std::uint8_t width_lanes(std::uint8_t active) {
    switch (active) { // PortInfo:LinkWidthActive bits
    case 1:
        return 1;
    case 2:
        return 4;
    case 4:
        return 8;
    case 8:
        return 12;
    case 16:
        return 2;
    default:
        return 0;
    }
}

LinkSpeed speed_of(const ib_port_info_t& pi) {
    switch (ib_port_info_get_link_speed_active(&pi)) {
    case 1:
        return LinkSpeed::SDR;
    case 2:
        return LinkSpeed::DDR;
    case 4:
        return LinkSpeed::QDR;
    default:
        return LinkSpeed::Unknown; // FDR and faster are in the extended field
    }
}

std::string node_desc(const osm_node_t& n) {
    const char* d = reinterpret_cast<const char*>(n.node_desc.description);
    return std::string(d, strnlen(d, IB_NODE_DESCRIPTION_SIZE));
}

} // namespace

SubnetSnapshot snapshot_subnet(osm_subn_t& subn) {
    std::vector<osm_node_t*> nodes;
    for (cl_map_item_t* it = cl_qmap_head(&subn.node_guid_tbl);
         it != cl_qmap_end(&subn.node_guid_tbl); it = cl_qmap_next(it))
        nodes.push_back(reinterpret_cast<osm_node_t*>(it));
    std::sort(nodes.begin(), nodes.end(), [](osm_node_t* a, osm_node_t* b) {
        return cl_ntoh64(osm_node_get_node_guid(a)) < cl_ntoh64(osm_node_get_node_guid(b));
    });

    FabricBuilder b;
    SubnetSnapshot s;
    std::unordered_map<const osm_node_t*, NodeId> id_of;
    for (osm_node_t* n : nodes) {
        NodeType type = NodeType::CA;
        switch (osm_node_get_type(n)) {
        case IB_NODE_TYPE_SWITCH:
            type = NodeType::Switch;
            break;
        case IB_NODE_TYPE_ROUTER:
            type = NodeType::Router;
            break;
        default:
            type = NodeType::CA;
            break;
        }
        const auto num_ports = static_cast<PortNum>(osm_node_get_num_physp(n) - 1);
        const NodeId id =
            b.add_node(type, num_ports, cl_ntoh64(osm_node_get_node_guid(n)), node_desc(*n));
        b.node(id).sysimg_guid = cl_ntoh64(n->node_info.sys_guid);
        id_of.emplace(n, id);
        s.switch_of.push_back(n->sw);
        for (PortNum p = 0; p <= num_ports; ++p) {
            osm_physp_t* ph = osm_node_get_physp_ptr(n, p);
            if (!ph) continue;
            Port& port = b.port(id, p);
            port.guid = cl_ntoh64(osm_physp_get_port_guid(ph));
            port.width = width_lanes(ph->port_info.link_width_active);
            port.speed = speed_of(ph->port_info);
            // OperationalVLs is an encoding (1: VL0, 2: VL0-1, 3: VL0-3, 4: VL0-7, 5: VL0-14);
            // 0 before the link manager set it: unknown, the engine's default applies.
            static constexpr std::uint8_t kVls[] = {0, 1, 2, 4, 8, 15};
            const unsigned op = ib_port_info_get_op_vls(&ph->port_info);
            port.data_vls = op < std::size(kVls) ? kVls[op] : 0;
        }
    }
    for (osm_node_t* n : nodes) {
        const NodeId a = id_of.at(n);
        const PortNum num_ports = static_cast<PortNum>(osm_node_get_num_physp(n) - 1);
        for (PortNum p = 1; p <= num_ports; ++p) {
            osm_physp_t* ph = osm_node_get_physp_ptr(n, p);
            if (!ph) continue;
            osm_physp_t* remote = osm_physp_get_remote(ph);
            if (!remote) continue;
            auto it = id_of.find(osm_physp_get_node_ptr(remote));
            if (it == id_of.end()) continue;
            const Port& port = b.port(a, p);
            b.add_half_link(a, p, it->second, osm_physp_get_port_num(remote), port.width,
                            port.speed);
        }
    }
    s.fabric = std::move(b).build();
    s.lids = Lids(s.fabric);

    // LIDs: every end port opensm knows, with the range opensm assigned.
    for (cl_map_item_t* it = cl_qmap_head(&subn.port_guid_tbl);
         it != cl_qmap_end(&subn.port_guid_tbl); it = cl_qmap_next(it)) {
        osm_port_t* port = reinterpret_cast<osm_port_t*>(it);
        if (!port->p_physp || !port->p_node) continue;
        auto nit = id_of.find(port->p_node);
        if (nit == id_of.end()) continue;
        uint16_t lo = 0, hi = 0;
        osm_port_get_lid_range_ho(port, &lo, &hi);
        if (lo == 0) continue;
        unsigned count = unsigned(hi) - lo + 1, lmc = 0;
        while ((1u << lmc) < count) ++lmc;
        const PortId pid = s.fabric.port_id(nit->second, osm_physp_get_port_num(port->p_physp));
        s.lids.assign(pid, lo, static_cast<std::uint8_t>(lmc));
    }
    for (NodeId n = 0; n < s.fabric.num_nodes(); ++n)
        s.node_by_guid.emplace(s.fabric.node(n).guid, n);
    return s;
}

} // namespace ibrt::osm
