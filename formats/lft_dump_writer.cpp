// Writer of opensm's `opensm-lfts.dump` (osm_dump.c dump_ucast_lfts; opensm-plugin-api.md
// §6.1), byte for byte, so that the `file` engine (`-R file -U`) programs exactly these tables.
// The dump is written switch by switch: at LMC 2 on FT(36,3) it is 5.5 GB, which must never be
// held in memory at once (docs/history/performance-log.md). The `# <type> portguid ...` comment of
// a LID is the same on every switch, so it is formatted once per LID, not once per entry.
#include "formats/lft_dump.hpp"
#include "formats/table_text.hpp"

#include <fmt/format.h>

#include <iterator>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace ibrt {
namespace {

// The text after `0x<lid> <port> # ` for every LID 0..top, concatenated; LID l spans
// [start[l], start[l + 1]).
struct LidComments {
    std::string text;
    std::vector<std::size_t> start;

    LidComments(const Fabric& f, const Routing& r, unsigned top) {
        start.reserve(top + 2);
        auto it = std::back_inserter(text);
        for (unsigned lid = 0; lid <= top; ++lid) {
            start.push_back(text.size());
            const PortId owner = r.lids.owner(static_cast<Lid>(lid));
            if (owner == kNoPort) {
                text += "unknown node and type\n";
            } else {
                const Node& dst = f.node(f.port_node(owner));
                fmt::format_to(it, "{} portguid 0x{:016x}: '{}'\n",
                               table_text::opensm_type_name(dst.type), f.end_port_guid(owner),
                               dst.desc);
            }
        }
        start.push_back(text.size());
    }
    std::string_view of(unsigned lid) const {
        return std::string_view(text).substr(start[lid], start[lid + 1] - start[lid]);
    }
};

} // namespace

void write_lft_dump(std::ostream& out, const Fabric& f, const Routing& r, bool annotate) {
    // opensm dumps LIDs 0..max_lid_ho, the highest LID in use.
    const unsigned top = r.lids.max_lid();
    const LidComments comments(f, r, annotate ? top : 0);
    fmt::memory_buffer buf; // one switch block; reused so its capacity is allocated once
    auto it = std::back_inserter(buf);
    for (NodeId sw : f.switches()) {
        buf.clear();
        const Node& node = f.node(sw);
        const Lft* lft = sw < r.lft.size() ? &r.lft[sw] : nullptr;
        const PortId p0 = f.port_id(sw, 0);
        const unsigned own = p0 < r.lids.num_port_slots() ? r.lids.base(p0) : 0;
        fmt::format_to(it, "Unicast lids [0-{}] of switch Lid {} guid 0x{:016x} ('{}'):\n", top,
                       own, node.guid, node.desc);
        for (unsigned lid = 0; lft && lid <= top && lid < lft->size(); ++lid) {
            const PortNum port = (*lft)[lid];
            if (port > node.num_ports) continue; // kNoPath, or a port the switch lacks
            buf.append(std::string_view("0x"));
            table_text::put_hex(buf, lid, 4);
            buf.push_back(' ');
            table_text::put_dec(buf, port, 3, true);
            if (!annotate) {
                buf.push_back('\n');
                continue;
            }
            buf.append(std::string_view(" # "));
            const std::string_view c = comments.of(lid);
            buf.append(c.data(), c.data() + c.size());
        }
        fmt::format_to(it, "{} lids dumped\n", top);
        out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
    }
}

} // namespace ibrt
