// Check 3 of `ibrt check`: deadlock freedom via the channel dependency graph (Dally & Seitz,
// "Deadlock-free message routing in multiprocessor interconnection networks", 1987; for
// InfiniBand with SL2VL as in DFSSSP/LASH, see opensm-plugin-api.md §4.3). The graph and
// its cycle search are the graph library's (graph/channel_dependency.hpp); this file fills
// it from the forwarding tables.
//
// A packet with SL s that enters switch X on port i over channel (in-link, VL_in) and leaves
// on port o moves to (out-link, SL2VL[X][i][o][s]); that is a dependency in -> out.
//
// Cost: per DLID every (switch, in port, VL) state is expanded once (epoch stamps), so a
// sweep is O(#DLIDs x #switch links).
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/routing.hpp"
#include "graph/channel_dependency.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ibrt::check {

struct DeadlockReport {
    // VLs the SL2VL tables use; without tables, those of the identity map (SL s on VL s: what
    // the switches keep when opensm runs without QoS, and what ibdmchk assumes without -d).
    unsigned vls = 1;
    std::uint16_t vls_used = 0;     // bit v: some path takes VL v from switch to switch
    std::uint64_t channels = 0;     // channels that take part in some dependency
    std::uint64_t dependencies = 0; // distinct dependencies
    std::uint64_t vl15_drops = 0;   // (switch, DLID) walks that SL2VL maps to VL15 (drop)
    // (source port, DLID) pairs whose SL is unknown (a partial path-SL file): not walked, so
    // a check without a credit loop among the others cannot judge.
    std::uint64_t unknown_sl_pairs = 0;
    std::vector<graph::CreditLoop> loops; // one per cyclic component, by lowest channel
};

// The VL a packet with `sl` gets from `in` to `out` on `node`: Sl2Vl::vl, the same answer the
// simulator uses (where the node has no table, SL mod `num_vls`; the check runs with the VLs
// the tables name, and without tables with one VL per SL, so the identity map).
std::uint8_t sl2vl_at(const Fabric& f, const Routing& r, NodeId node, PortNum in, PortNum out,
                      std::uint8_t sl, unsigned num_vls);

// Whether the SL of a packet changes its VL in some SL2VL table: if not, path SLs do not
// matter. False without tables (their absence is judged as the identity map, where SLs do
// matter: see sls_choose_vls).
bool sl2vl_depends_on_sl(const Routing& r);
// Whether a path's SL decides its VLs: SL-dependent tables, or no tables (identity).
bool sls_choose_vls(const Routing& r);

DeadlockReport check_credit_loops(const Fabric& f, const Routing& r,
                                  const std::function<void(double)>& progress = {});

} // namespace ibrt::check
