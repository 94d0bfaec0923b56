// The answer to path_lid_pairs(ctx, src, dst, SLID range, DLID range, ...), the routing-engine
// callback of opensm-patches/0001: which (SLID, DLID) pairs the SA hands out for a port pair,
// in which order. Without opensm types so it is unit-tested.
//
// Applications take the first PathRecord (rdma_cm, ibacm and MPI ask for one), so the first
// pair carries the path selection: the DLID Routing::dlid_choice holds for (source CA,
// destination CA), or the destination's base LID when the routing has no path selection
// (Routing's convention). Its SLID is the DLID the destination's own selection uses towards
// the source, so a connection's responder, which replies to the requester's SLID, follows the
// path selection as well. The other pairs follow so that a multipath query still lists every
// pair opensm lists, each once: first one pair per LID with both LIDs distinct (the pairs
// opensm ranks "preference 0"), then the rest, all counted cyclically from the chosen LIDs.
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/routing.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ibrt::osm {

inline constexpr std::uint32_t kNoCa = 0xffffffffu;

// The CA index (Fabric::cas() order, the rows and columns of Routing::dlid_choice) of every
// port slot of a CA or router; kNoCa for switch ports. All ports of a CA share its row: the
// path selection is per CA (fabric/end_ports.hpp).
inline std::vector<std::uint32_t> ca_index_of_ports(const Fabric& f) {
    std::vector<std::uint32_t> ca(f.num_port_slots(), kNoCa);
    for (std::size_t i = 0; i < f.cas().size(); ++i) {
        const NodeId n = f.cas()[i];
        for (PortNum p = 0; p <= f.node(n).num_ports; ++p)
            ca[f.port_id(n, p)] = static_cast<std::uint32_t>(i);
    }
    return ca;
}

// Writes up to max_pairs pairs into slids[i], dlids[i], each within [src_min, src_max] x
// [dst_min, dst_max] (the query's ranges: a port's LIDs, or the one LID a query names), and
// returns their number; 0 (opensm's own order) for empty or unknown ranges. `ca_of_port` is
// ca_index_of_ports() of the fabric `r` was computed on, `num_cas` its Fabric::cas().size().
inline std::size_t answer_path_lids(const Routing& r, const std::vector<std::uint32_t>& ca_of_port,
                                    std::size_t num_cas, Lid src_min, Lid src_max, Lid dst_min,
                                    Lid dst_max, Lid* slids, Lid* dlids, std::size_t max_pairs) {
    if (src_min == 0 || dst_min == 0 || src_max < src_min || dst_max < dst_min) return 0;
    const PortId sport = r.lids.owner(src_min);
    const PortId dport = r.lids.owner(dst_min);
    if (sport == kNoPort || dport == kNoPort) return 0; // not our LIDs: let opensm answer
    Lid slid = r.lids.base(sport), dlid = r.lids.base(dport);
    if (r.dlid_choice.size() == num_cas * num_cas && sport < ca_of_port.size() &&
        dport < ca_of_port.size()) {
        const std::uint32_t a = ca_of_port[sport], b = ca_of_port[dport];
        if (a != kNoCa && b != kNoCa && a != b) {
            dlid = r.dlid_choice[std::size_t(a) * num_cas + b];
            slid = r.dlid_choice[std::size_t(b) * num_cas + a];
        }
    }
    // A choice outside the query's range (a query naming one LID, or a second port of a CA
    // whose row names its first port): start at the range's first LID.
    const std::size_t ns = std::size_t(src_max - src_min) + 1,
                      nd = std::size_t(dst_max - dst_min) + 1;
    const std::size_t os = slid >= src_min && slid <= src_max ? slid - src_min : 0;
    const std::size_t od = dlid >= dst_min && dlid <= dst_max ? dlid - dst_min : 0;
    // Diagonal d pairs the j-th DLID (cyclically after the chosen one) with the (j + d)-th
    // SLID: d = 0 is the pairs with distinct LIDs on both ends, and over d = 0..ns-1 every
    // (SLID, DLID) pair comes exactly once.
    std::size_t k = 0;
    for (std::size_t d = 0; d < ns && k < max_pairs; ++d)
        for (std::size_t j = 0; j < nd && k < max_pairs; ++j, ++k) {
            slids[k] = static_cast<Lid>(src_min + (os + j + d) % ns);
            dlids[k] = static_cast<Lid>(dst_min + (od + j) % nd);
        }
    return k;
}

} // namespace ibrt::osm
