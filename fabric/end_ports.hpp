// Which ports of a CA or router are its end ports: the one rule every module uses (check,
// sim, engines, lidassign, the path-selection file, tools).
//
// End ports are CA/router ports and switch port 0 (IBA vol. 1 §7.11.1, fabric/lids.hpp), and
// opensm makes every active port of a CA an end port of its own (its own osm_port_t, LID and
// PathRecord endpoint), so a dual-port HCA cabled twice is two end ports. The rule here: a
// CA/router port is an end port iff it is cabled (ibnetdiscover lists only active links) and, once
// LIDs are known, has a LID (a port without one is not active in the subnet and sends nothing).
// Before LID assignment (engines, lidassign) pass no LIDs: every cabled port counts, as each will
// get one. Switches have one end port, port 0; it is not covered here.
//
// Tables kept per CA rather than per end port (Routing::dlid_choice, the path-selection file,
// paper 001's model of one machine per CA) name the CA by its first end port:
// first_end_port(); a CA's other end ports fall back to base LIDs. On single-port CAs both
// views coincide. Traffic, in `ibrt check` and `ibrt sim` alike, goes between end ports.
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/lids.hpp"

#include <vector>

namespace ibrt {

// True when `p` is a port 1..n of a CA/router, cabled, and (when `lids` is given) has a LID.
bool is_end_port(const Fabric& f, PortId p, const Lids* lids = nullptr);

// The end ports of CA/router `n` in port order (empty for a switch).
std::vector<PortId> end_ports(const Fabric& f, NodeId n, const Lids* lids = nullptr);

// The lowest-numbered end port of `n`, or kNoPort when it has none (never an uncabled port).
PortId first_end_port(const Fabric& f, NodeId n, const Lids* lids = nullptr);

// Every end port of the fabric: CAs/routers in Fabric::cas() order, ports ascending.
std::vector<PortId> all_end_ports(const Fabric& f, const Lids* lids = nullptr);

} // namespace ibrt
