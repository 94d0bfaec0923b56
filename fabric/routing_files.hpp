// A Routing loaded from the files opensm and `ibrt route` write: the LIDs (a guid2lid file, or
// the topology's `lid N lmc M` comments), the LFT dump (opensm-lfts.dump or dump_fts/ibroute
// output), and optionally opensm-sl2vl.dump and ibrt's path-selection file. Shared by every
// consumer of real tables (`ibrt check`, `ibrt sim`).
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/routing.hpp"

#include <string>

namespace ibrt {

struct RoutingFiles {
    std::string fabric;                                // the topology's file name, for messages
    std::string lfts, guid2lid, sl2vl, path_selection; // empty = not given
};

// Throws InputError when the topology has no LIDs and no guid2lid is given, and when the dump
// names a switch LID other than the one the LIDs give it (every verdict would be wrong).
Routing load_routing_files(const Fabric& f, const RoutingFiles& files);

// Adds the optional SL2VL tables and path selection to a routing from any source (an engine
// run in-process, or load_routing_files).
void load_routing_extras(const Fabric& f, const RoutingFiles& files, Routing& r);

} // namespace ibrt
