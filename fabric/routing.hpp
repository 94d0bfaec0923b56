// The result of a routing engine, and what writers, the checker, the simulator and the opensm
// adapter consume: LIDs, one linear forwarding table per switch, optional SL2VL tables, the
// SL of each path and which DLID each source uses for each destination.
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/lids.hpp"
#include "fabric/path_sl_table.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ibrt {

inline constexpr PortNum kNoPath = 0xff; // OSM_NO_PATH: an LFT entry that drops

// A linear forwarding table: out port by DLID.
using Lft = std::vector<PortNum>;

// SL -> VL for one (in port, out port) pair of a switch, or for an end port. VL 15 = drop.
using Sl2VlTable = std::array<std::uint8_t, 16>;

// SL2VL tables (IBA 7.6.6; opensm-plugin-api.md §4.4, §6.4). Per node, a flat vector indexed
// by index(num_ports, in, out):
//   - a switch: the table for packets entering `in` (0 = from the switch itself) and leaving
//     `out`, as SLtoVLMappingTable with modifier in << 8 | out;
//   - a CA or router: the table of its port p is at (in = 0, out = p), i.e. "from the node
//     out of port p" (on the wire the MAD modifier is 0 on that port).
// An empty vector for a node means no tables are known for it (opensm keeps its configured
// ones); an empty `tables` means none for any node. Pairs a source does not give (opensm's
// dump omits out ports without a cable, and port 0 of a base-SP0 switch) hold VL 15.
struct Sl2Vl {
    std::vector<std::vector<Sl2VlTable>> tables;
    bool empty() const { return tables.empty(); }
    static std::size_t index(PortNum num_ports, PortNum in, PortNum out) {
        return std::size_t(in) * (std::size_t(num_ports) + 1) + out;
    }
    static std::size_t size(PortNum num_ports) {
        return (std::size_t(num_ports) + 1) * (std::size_t(num_ports) + 1);
    }
    // The table, or nullptr when the node has no tables (or the pair is out of range).
    const Sl2VlTable* find(NodeId n, PortNum num_ports, PortNum in, PortNum out) const {
        if (n >= tables.size()) return nullptr;
        const std::size_t i = index(num_ports, in, out);
        return i < tables[n].size() ? &tables[n][i] : nullptr;
    }
    // The VL where no table is known, on ports running `num_vls` data VLs: SL mod VLs, which is
    // what opensm's default SL2VL (0..7 repeated, reduced to the operational VLs) programs and
    // VL 0 everywhere with one VL (IBA 7.6.6: a port with only VL 0 maps every SL to it).
    static std::uint8_t default_vl(std::uint8_t sl, unsigned num_vls) {
        return num_vls > 1 ? static_cast<std::uint8_t>((sl & 15) % num_vls) : 0;
    }
    // The VL of a packet on `sl` entering node n by `in` (0 = from the node itself) and leaving
    // by `out`: its table, else default_vl. VL 15 (or one >= num_vls) drops. The checker and
    // the simulator both ask this.
    std::uint8_t vl(NodeId n, PortNum num_ports, PortNum in, PortNum out, std::uint8_t sl,
                    unsigned num_vls) const {
        const Sl2VlTable* t = find(n, num_ports, in, out);
        return t ? (*t)[sl & 15] : default_vl(sl, num_vls);
    }
};

inline constexpr Sl2VlTable kSl2VlDropAll = {15, 15, 15, 15, 15, 15, 15, 15,
                                             15, 15, 15, 15, 15, 15, 15, 15};

class RoutingFunction; // fabric/routing_function.hpp

struct Routing {
    Lids lids;
    // One LFT per node (empty for non-switches), each sized max_lid + 1 and filled with kNoPath.
    std::vector<Lft> lft;
    Sl2Vl sl2vl;
    // Path SL per (source end port, DLID); empty = SL 0 everywhere.
    PathSlTable path_sls;
    // Data VLs the routing needs on every link it uses: its SL2VL tables map its path SLs into
    // VL 0..data_vls-1. An engine that needs more than a port offers declines (engine.hpp).
    std::uint8_t data_vls = 1;
    // Path selection: dlid_choice[src_ca_index * num_cas + dst_ca_index] = DLID the source uses
    // for that destination, CA indices as in Fabric::cas(). Empty = use the base LID.
    std::vector<Lid> dlid_choice;
    std::uint8_t lmc = 0; // the subnet-wide LMC the routing was computed for
    // Figures the engine reports about this routing (name, value), e.g. what fitting paths into
    // the LMC cost; written to `ibrt route`'s report.json and to the opensm log.
    std::vector<std::pair<std::string, double>> stats;
    // The extended switch's routing function (candidate sets and VL2VL), for engines that
    // produce one on request (adaptive routing in `ibrt sim`; opensm cannot install it). Null:
    // the LFTs and SL2VL are the whole routing.
    std::shared_ptr<const RoutingFunction> forwarding_sets;

    PortNum out_port(NodeId sw, Lid dlid) const {
        const Lft& t = lft[sw];
        return dlid < t.size() ? t[dlid] : kNoPath;
    }
    // The SL of the path from end port `src` to `dlid` (opensm's path_sl(slid, dlid)).
    std::uint8_t path_sl(PortId src, Lid dlid) const { return path_sls.sl(src, dlid); }
};

} // namespace ibrt
