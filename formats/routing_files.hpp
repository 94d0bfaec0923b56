// The one way every command loads a topology and a Routing from the files opensm, ibdiagnet
// and `ibrt route` write:
// - the topology: an ibnetdiscover / ibsim net file, or opensm's `opensm-subnet.lst` (older
//   opensm and ibdiagnet: `subnet.lst`), told apart by content;
// - the LIDs: a guid2lid file, or the topology's own (`lid N lmc M` comments; the base LIDs of
//   a subnet.lst, which has no LMC);
// - the LFTs: opensm-lfts.dump, opensm.fdbs (osm.fdbs) or dump_fts/ibroute output;
// - optionally opensm-sl2vl.dump, the path-SL file (ibdmchk -c format, path_sl_file.hpp) and
//   ibrt's path-selection file.
// Shared by every consumer of real tables (`ibrt check`, `ibrt sim`) and every command that
// reads a topology.
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/routing.hpp"

#include <string>

namespace ibrt {

enum class TopologyFormat { Ibnetdiscover, SubnetLst };

// By content: the first line that is not blank and not a `#` comment starts with `{` in a
// subnet.lst. A file that cannot be read counts as ibnetdiscover (its reader says why).
TopologyFormat detect_topology_format(const std::string& path);

// Reads a topology in either format. Throws InputError (`file:line: problem`).
Fabric load_topology(const std::string& path);

struct RoutingFiles {
    std::string fabric;                                // the topology's file name, for messages
    std::string lfts, guid2lid, sl2vl, path_selection; // empty = not given
    std::string path_sl;                               // empty = SL 0 on every path
    std::string forwarding_sets; // the extended switch's candidate sets (forwarding_sets_file)
};

// Throws InputError when the topology has no LIDs and no guid2lid is given, when the dump
// names a switch LID other than the one the LIDs give it (every verdict would be wrong), and
// when the topology is a subnet.lst without a guid2lid and the LFTs route LIDs no port owns
// (the subnet ran with LMC > 0, which a subnet.lst does not record).
Routing load_routing_files(const Fabric& f, const RoutingFiles& files);

// Adds the optional SL2VL tables, path SLs and path selection to a routing from any source (an
// engine run in-process, or load_routing_files). Path SLs from the file replace the routing's.
void load_routing_extras(const Fabric& f, const RoutingFiles& files, Routing& r);

} // namespace ibrt
