// Writer of opensm's `opensm-subnet.lst` (osm_dump.c dump_topology_node, opensm 3.3.23;
// shared/notes/opensm-plugin-api.md §6.3), the topology file `ibdmchk -s` reads: one line per
// cabled port, nodes in opensm's map order, byte for byte as opensm writes it when the fabric
// carries what opensm knows (vendor, device, revision, system GUID, LIDs).
//
// A node without a system image GUID is written with its node GUID, as ibsim and most HCAs
// report it: ibdmchk groups nodes into systems by this GUID, and zeros would fuse the whole
// fabric into one system it cannot route. What the Fabric cannot say is written as opensm
// would for a healthy subnet: every link
// LOG=ACT; widths 1x/2x/4x/8x/12x, `??` when unknown; speeds 2.5/5/10/FDR10/14/25/50, `??` for
// NDR and faster (3.3.23 has no string for them) and when unknown. `-SM` marks the node whose
// LID is the SM's (`sm_lid`; 0 = none known, as offline).
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/lids.hpp"

#include <iosfwd>

namespace ibrt {

void write_subnet_lst(std::ostream& out, const Fabric& f, const Lids& lids, Lid sm_lid = 0);

} // namespace ibrt
