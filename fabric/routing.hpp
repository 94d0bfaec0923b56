// The result of a routing engine, and what writers, the checker, the simulator and the opensm
// adapter consume: LIDs, one linear forwarding table per switch, optional SL2VL tables, the
// SL of each path and which DLID each source uses for each destination.
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/lids.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace ibrt {

inline constexpr PortNum kNoPath = 0xff; // OSM_NO_PATH: an LFT entry that drops

// A linear forwarding table: out port by DLID.
using Lft = std::vector<PortNum>;

// SL -> VL for one (in port, out port) pair of a switch, or for an end port (in = out = 0).
using Sl2VlTable = std::array<std::uint8_t, 16>;

struct Sl2Vl {
    // Per node: tables indexed by in_port * (num_ports + 1) + out_port; empty = identity/VL0.
    std::vector<std::vector<Sl2VlTable>> tables;
    bool empty() const { return tables.empty(); }
};

struct Routing {
    Lids lids;
    // One LFT per node (empty for non-switches), each sized max_lid + 1 and filled with kNoPath.
    std::vector<Lft> lft;
    Sl2Vl sl2vl;
    // Path SL by destination LID; empty = SL 0 everywhere.
    std::vector<std::uint8_t> sl_by_dlid;
    // Path selection: dlid_choice[src_ca_index * num_cas + dst_ca_index] = DLID the source uses
    // for that destination, CA indices as in Fabric::cas(). Empty = use the base LID.
    std::vector<Lid> dlid_choice;
    std::uint8_t lmc = 0; // the subnet-wide LMC the routing was computed for

    PortNum out_port(NodeId sw, Lid dlid) const {
        const Lft& t = lft[sw];
        return dlid < t.size() ? t[dlid] : kNoPath;
    }
    std::uint8_t path_sl(Lid dlid) const {
        return dlid < sl_by_dlid.size() ? sl_by_dlid[dlid] : 0;
    }
};

} // namespace ibrt
