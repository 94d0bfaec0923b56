// The forwarding-sets file: the extended switch's routing function (fabric/routing_function.hpp)
// as text, written by `ibrt route` for engines that produce one and read by `ibrt sim
// --tables`, so that users can simulate their own adaptive designs. docs/sim-model.md
// "Forwarding-sets file" has the format; in short:
//
//   # comments and blank lines anywhere
//   vl-keys 1            forwarding per input VL: 1 = not keyed, N = tables for VLs 0..N-1
//   in-port-keys no      yes = a table per input port too (paper 003 footnotes 5 and 8)
//   vl-by sl             what indexes the vl2vl lines: sl (IBA SL2VL) or in-vl (VL2VL)
//   tree-height 3        optional: fat-tree coordinates for SSP/SDP/SOP/SADP follow
//   switch 0x<node GUID> [level L digit D]
//   dlid 5-16 [vl V] [in P] : 5 6 7/1 8/1     candidates `port[/priority]`, in search order
//   vl2vl in 3 out 5 : 0 1 2 15 ...            16 output VLs, by SL or by input VL
//   ca 0x<node GUID> digits d1 d2 d3            tree coordinates of an end node
//   source-sl 0x<switch GUID> 5-16 : 3          the SL every source entering the fabric at
//                                               that switch gives those DLIDs (0 if unlisted)
//   source-vl 0x<CA GUID> port 1 : 0 1 2 ...    the VL a CA's port starts a packet on, by SL
//
// The header lines come before the first switch. DLIDs are decimal or 0x hex; `vl` and `in`
// appear exactly when the header keys tables by them.
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/routing_function.hpp"

#include <iosfwd>
#include <string>
#include <string_view>

namespace ibrt {

// Throws InputError (`source:line: problem`) on a malformed line, an unknown GUID, a DLID
// above max_lid, a port beyond the switch or a priority above 15.
RoutingFunction read_forwarding_sets_text(std::string_view text, const std::string& source,
                                          const Fabric& f, Lid max_lid);
RoutingFunction load_forwarding_sets_file(const std::string& path, const Fabric& f, Lid max_lid);

void write_forwarding_sets(std::ostream& out, const Fabric& f, const RoutingFunction& rf);

} // namespace ibrt
