// The path-selection file: which DLID each source port uses for each destination port, the
// output of MLID path selection (paper 000 §4.2) that the simulator replays.
//
// Format (text, one record a line, written by ibrt route, read by ibrt sim):
//   # comment lines start with '#'; blank lines are ignored
//   <source port GUID> <destination port GUID> <DLID>
// GUIDs are hex with a 0x prefix (the end-port GUIDs opensm keys guid2lid by), the DLID is
// decimal 1..49151 and must be one of the destination port's LIDs; source and destination
// differ. Pairs missing from a file use the destination's base LID.
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/routing.hpp"

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace ibrt {

struct PathSelectionEntry {
    std::uint64_t src_guid = 0, dst_guid = 0;
    Lid dlid = 0;
    int line = 0;
};

// Throws InputError("source:line: problem") on malformed lines.
std::vector<PathSelectionEntry> read_path_selection(std::string_view text,
                                                    const std::string& source);

// Routing::dlid_choice layout (Fabric::cas() order; a CA is named by any of its port GUIDs).
// Throws InputError for unknown GUIDs, ports that are not CA ports, a DLID the destination does
// not own, and a pair given twice.
std::vector<Lid> bind_path_selection(const std::vector<PathSelectionEntry>& entries,
                                     const Fabric& f, const Lids& lids, const std::string& source);

// read + bind of a file, streamed: the entries are bound as they are read and never held, so a
// file of every CA pair of a large fabric costs the table, not its text.
std::vector<Lid> load_path_selection_file(const std::string& path, const Fabric& f,
                                          const Lids& lids);

// One line per ordered pair of distinct CAs, each named by its first end port (fabric/
// end_ports.hpp; CAs without one are left out), CAs in Fabric::cas() order, DLIDs from
// r.dlid_choice. A routing without a choice (every pair on the base LID, as the direct
// engines route) writes no pair, since that is what a pair not listed means: at 16,384 hosts
// that is 268 M lines (11 GB) not written.
void write_path_selection(std::ostream& out, const Fabric& f, const Routing& r);

} // namespace ibrt
