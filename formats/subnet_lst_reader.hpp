// Reader of OpenSM's `opensm-subnet.lst` topology dump (opensm/osm_dump.c dump_topology_node;
// shared/notes/opensm-plugin-api.md §6.3): one line per connected port, each cable once from
// each end.
#pragma once

#include "fabric/fabric.hpp"

#include <iosfwd>
#include <string>

namespace ibrt {

// Parses a dump into a Fabric. Nodes get ibnetdiscover-style ids (`S-`/`H-`/`R-` + 16 hex
// digits of the node GUID); LMCs and unconnected ports are not in the dump (LMC 0, CA port
// GUID = node GUID + port, as ibsim assigns them). Throws InputError (`source:line: problem`).
Fabric read_subnet_lst(std::istream& in, const std::string& source);
Fabric read_subnet_lst_file(const std::string& path);

} // namespace ibrt
