// Forwarding sets on a damaged fabric (past paper 003, whose routings assume complete
// fabrics): a routing's candidate rules, applied to the cables present, can offer a hop that
// leads where the next table has nothing usable for the packet (the hop it would need is over a
// missing cable, or its VL2VL drops it). This removes such candidates, repeatedly, until every
// candidate of every state a packet can reach leads to a state with a usable one, or to the
// destination: then no packet is ever stuck, and every path ends at its destination as long
// as the routing's VL rules bound the path length (e.g. when every hop climbs a rank of
// (channel class, VL), which is also what keeps its extended channel dependency graph
// acyclic). Removing candidates only removes channel dependencies, so the pruned routing
// keeps whatever deadlock freedom its VL rules give.
//
// States are (switch, input port, input VL) per destination LID of a CA, reached from every CA
// port on the VL its VL2VL (CA table, input 0) gives the source's SL (the routing's
// source_sls, else 0). A set shared by several input ports (tables not keyed by input port) loses a
// candidate when it is a dead end from any of them that packets reach.
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/lids.hpp"
#include "fabric/routing_function.hpp"

#include <memory>
#include <string_view>

namespace ibrt::direct {

// `rf` uses VL2VL by input VL (vl_by_in_vl) on `vls` data VLs. Returns the pruned copy; throws
// RoutingError ("`who`: no route from ... to DLID ...; use distance_based ...") when a source
// is left without a candidate.
std::shared_ptr<const RoutingFunction> prune_dead_ends(const Fabric& f, const Lids& lids,
                                                       const RoutingFunction& rf, unsigned vls,
                                                       std::string_view who);

} // namespace ibrt::direct
