// Writer of opensm's `opensm.fdbs` (osm_dump.c dump_ucast_routes, opensm 3.3.23), the unicast
// table file `ibdmchk -f` reads (shared/notes/opensm-sl-cc-sa.md "ibdmchk file formats"):
//
//   dump_ucast_routes: Switch 0x<node GUID>
//   LID    : Port : Hops : Optimal
//   0x<LID, %04X> : UNREACHABLE                       no port owns the LID, or no LFT entry
//   0x<LID> : <port %03u>  : HOPS UNKNOWN             no min-hop entry for that port
//   0x<LID> : <port>  : <hops %02u>   : yes           the port is on a shortest path
//   0x<LID> : <port>  : <hops>   : No <n> hop path possible via port <p>!
//
// for LIDs 1..max LID, switches in opensm's map order. The hops are opensm's min-hop matrix
// (osm_ucast_mgr.c ucast_mgr_process_hop_0_1 / _process_neighbor with hop weight 1): through
// port p of switch s towards switch t it is 1 + the switch distance from p's peer to t, defined
// only when that peer is another switch; port 0 holds the least over all ports. A CA or router
// LID is judged by the switch it hangs off, one hop added on both sides, and a CA hanging off s
// itself always counts as 1 hop (dump_ucast_routes does not look at the port). The port named
// in a "No ..." line is, here, the lowest port with the least hops; opensm asks its own
// minhop port choice (osm_switch_recommend_path), which depends on its port load counters.
// ibdmchk reads only the LID and the port.
#include "formats/lft_dump.hpp"
#include "formats/table_text.hpp"
#include "graph/switch_distance.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <ostream>
#include <vector>

namespace ibrt {
namespace {

constexpr std::uint8_t kNoHops = 0xff; // OSM_NO_PATH

// Switch-to-switch hop distances (graph/switch_distance.hpp, the one switch BFS) as opensm
// keeps them: 8 bits, 255 (OSM_NO_PATH) for unreachable and for anything farther.
class SwitchDistances {
  public:
    explicit SwitchDistances(const Fabric& f) : f_(f), index_(f.num_nodes(), kNoNode) {
        const auto sw = f.switches();
        for (std::size_t i = 0; i < sw.size(); ++i) index_[sw[i]] = static_cast<NodeId>(i);
        n_ = sw.size();
        dist_.assign(n_ * n_, kNoHops);
        std::vector<std::uint32_t> d;
        std::vector<NodeId> queue;
        for (std::size_t i = 0; i < n_; ++i) {
            graph::switch_distances(f, sw[i], d, queue);
            for (std::size_t j = 0; j < n_; ++j)
                dist_[i * n_ + j] = std::uint8_t(std::min<std::uint32_t>(d[sw[j]], kNoHops));
        }
    }
    // Least hops from switch a to switch b.
    std::uint8_t least(NodeId a, NodeId b) const { return dist_[index_[a] * n_ + index_[b]]; }
    // opensm's hop count from switch s out of `port` to switch t.
    std::uint8_t via(NodeId s, PortNum port, NodeId t) const {
        if (port == 0) return least(s, t);
        const NodeId peer = f_.port(s, port).peer_node;
        if (peer == kNoNode || peer == s || !f_.node(peer).is_switch()) return kNoHops;
        const std::uint8_t d = least(peer, t);
        return d == kNoHops ? kNoHops : static_cast<std::uint8_t>(d + 1);
    }

  private:
    const Fabric& f_;
    std::vector<NodeId> index_;
    std::size_t n_ = 0;
    std::vector<std::uint8_t> dist_;
};

} // namespace

void write_opensm_fdbs(std::ostream& out, const Fabric& f, const Routing& r) {
    const SwitchDistances hops(f);
    const Lid top = r.lids.max_lid();
    // Per LID: the switch that judges it (the owner, or the switch a CA hangs off) and whether
    // the owner is an end node; kNoNode when no port owns it or a CA hangs off no switch.
    std::vector<NodeId> base(std::size_t(top) + 1, kNoNode);
    std::vector<char> owned(std::size_t(top) + 1, 0), end_node(std::size_t(top) + 1, 0);
    for (std::uint32_t lid = 1; lid <= top; ++lid) {
        const PortId p = r.lids.owner(static_cast<Lid>(lid));
        if (p == kNoPort) continue;
        owned[lid] = 1;
        const NodeId n = f.port_node(p);
        if (f.node(n).is_switch()) {
            base[lid] = n;
        } else {
            end_node[lid] = 1;
            const NodeId peer = f.port(p).peer_node;
            if (peer != kNoNode && f.node(peer).is_switch()) base[lid] = peer;
        }
    }
    const std::vector<NodeId> order(f.switches().begin(), f.switches().end());
    fmt::memory_buffer buf;
    auto it = std::back_inserter(buf);
    for (NodeId sw : table_text::opensm_guid_order(f, order)) {
        buf.clear();
        const Node& node = f.node(sw);
        fmt::format_to(it, "dump_ucast_routes: Switch 0x{:016x}\nLID    : Port : Hops : Optimal\n",
                       node.guid);
        for (std::uint32_t lid = 1; lid <= top; ++lid) {
            buf.append(std::string_view("0x"));
            table_text::put_hex(buf, lid, 4, true);
            buf.append(std::string_view(" : "));
            const PortNum port = r.out_port(sw, static_cast<Lid>(lid));
            if (!owned[lid] || port > node.num_ports) {
                fmt::format_to(it, "UNREACHABLE\n");
                continue;
            }
            const NodeId t = base[lid];
            std::uint8_t n = kNoHops;
            if (t != kNoNode) n = end_node[lid] && t == sw ? 0 : hops.via(sw, port, t);
            if (n == kNoHops) {
                fmt::format_to(it, "{:03d}  : HOPS UNKNOWN\n", port);
                continue;
            }
            std::uint8_t best = hops.least(sw, t);
            if (end_node[lid]) {
                ++best;
                ++n;
            }
            table_text::put_dec(buf, port, 3, true);
            buf.append(std::string_view("  : "));
            table_text::put_dec(buf, n, 2, true);
            buf.append(std::string_view("   : "));
            if (best == n) {
                buf.append(std::string_view("yes\n"));
                continue;
            }
            PortNum best_port = 0;
            for (PortNum p = 1; p <= node.num_ports; ++p)
                if (hops.via(sw, p, t) == hops.least(sw, t)) {
                    best_port = p;
                    break;
                }
            fmt::format_to(it, "No {} hop path possible via port {}!\n", best, best_port);
        }
        out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
    }
}

} // namespace ibrt
