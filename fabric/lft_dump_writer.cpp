// Writer of opensm's `opensm-lfts.dump` (osm_dump.c dump_ucast_lfts; opensm-plugin-api.md
// §6.1), byte for byte, so that the `file` engine (`-R file -U`) programs exactly these tables.
// The whole dump is formatted into one buffer and written once.
#include "fabric/lft_dump.hpp"
#include "fabric/table_text.hpp"

#include <fmt/format.h>

#include <iterator>
#include <ostream>

namespace ibrt {

void write_lft_dump(std::ostream& out, const Fabric& f, const Routing& r) {
    // opensm dumps LIDs 0..max_lid_ho, the highest LID in use.
    const unsigned top = r.lids.max_lid();
    fmt::memory_buffer buf;
    auto it = std::back_inserter(buf);
    for (NodeId sw : f.switches()) {
        const Node& node = f.node(sw);
        const Lft* lft = sw < r.lft.size() ? &r.lft[sw] : nullptr;
        const PortId p0 = f.port_id(sw, 0);
        const unsigned own = p0 < r.lids.num_port_slots() ? r.lids.base(p0) : 0;
        fmt::format_to(it, "Unicast lids [0-{}] of switch Lid {} guid 0x{:016x} ('{}'):\n", top,
                       own, node.guid, node.desc);
        for (unsigned lid = 0; lft && lid <= top && lid < lft->size(); ++lid) {
            const PortNum port = (*lft)[lid];
            if (port > node.num_ports) continue; // kNoPath, or a port the switch lacks
            fmt::format_to(it, "0x{:04x} {:03d} # ", lid, port);
            const PortId owner = r.lids.owner(static_cast<Lid>(lid));
            if (owner == kNoPort) {
                fmt::format_to(it, "unknown node and type\n");
            } else {
                const Node& dst = f.node(f.port_node(owner));
                fmt::format_to(it, "{} portguid 0x{:016x}: '{}'\n",
                               table_text::opensm_type_name(dst.type), f.end_port_guid(owner),
                               dst.desc);
            }
        }
        fmt::format_to(it, "{} lids dumped\n", top);
    }
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
}

} // namespace ibrt
