// Writer of opensm-subnet.lst; see subnet_lst_writer.hpp. The peer half prints VenID with 8
// digits and the DevID through cl_ntoh32 of its 16-bit field, i.e. shifted left by 16 bits
// (`DevID:10170000`), as 3.3.23 does.
#include "formats/subnet_lst_writer.hpp"
#include "formats/table_text.hpp"

#include <fmt/format.h>

#include <iterator>
#include <ostream>
#include <string_view>

namespace ibrt {
namespace {

std::string_view type_tag(NodeType t) {
    switch (t) {
    case NodeType::Switch:
        return "SW";
    case NodeType::CA:
        return "CA";
    case NodeType::Router:
        return "Rt";
    }
    return "**";
}

std::string_view speed_str(LinkSpeed s) {
    switch (s) {
    case LinkSpeed::SDR:
        return "2.5";
    case LinkSpeed::DDR:
        return "5";
    case LinkSpeed::QDR:
        return "10";
    case LinkSpeed::FDR10:
        return "FDR10";
    case LinkSpeed::FDR:
        return "14";
    case LinkSpeed::EDR:
        return "25";
    case LinkSpeed::HDR:
        return "50";
    default:
        return "??";
    }
}

// One half: `{ SW-SM Ports:08 ... PN:01 } `.
void side(fmt::memory_buffer& buf, const Fabric& f, const Lids& lids, Lid sm_lid, NodeId n,
          PortNum p, bool peer) {
    const Node& node = f.node(n);
    // A switch speaks through port 0: its GUID and LID; a CA or router port through itself.
    const PortId id = f.port_id(n, node.is_switch() ? 0 : p);
    const Lid lid = id < lids.num_port_slots() ? lids.base(id) : 0;
    const bool sm = sm_lid != 0 && lid == sm_lid;
    fmt::format_to(std::back_inserter(buf),
                   "{{ {}{} Ports:{:02X} SystemGUID:{:016x} NodeGUID:{:016x} PortGUID:{:016x} ",
                   type_tag(node.type), sm ? "-SM" : "", node.num_ports,
                   node.sysimg_guid ? node.sysimg_guid : node.guid, node.guid, f.end_port_guid(id));
    if (peer)
        fmt::format_to(std::back_inserter(buf), "VenID:{:08X} DevID:{:04X} ", node.vendor_id,
                       (node.device_id & 0xffffu) << 16);
    else
        fmt::format_to(std::back_inserter(buf), "VenID:{:06X} DevID:{:04X} ", node.vendor_id,
                       node.device_id & 0xffffu);
    fmt::format_to(std::back_inserter(buf), "Rev:{:08X} {{{}}} LID:{:04X} PN:{:02X} }} ",
                   node.revision, node.desc, lid, p);
}

} // namespace

void write_subnet_lst(std::ostream& out, const Fabric& f, const Lids& lids, Lid sm_lid) {
    std::vector<NodeId> all(f.num_nodes());
    for (NodeId n = 0; n < f.num_nodes(); ++n) all[n] = n;
    fmt::memory_buffer buf;
    for (NodeId n : table_text::opensm_guid_order(f, std::move(all))) {
        buf.clear();
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
            const Port& port = f.port(n, p);
            if (!port.connected()) continue;
            side(buf, f, lids, sm_lid, n, p, false);
            side(buf, f, lids, sm_lid, port.peer_node, port.peer_port, true);
            fmt::format_to(std::back_inserter(buf), "PHY={} LOG=ACT SPD={}\n",
                           link_width_str(port.width), speed_str(port.speed));
        }
        out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
    }
}

} // namespace ibrt
