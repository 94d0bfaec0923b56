// The path-SL file: the SL of every path, in the format `ibdmchk -c` reads (Debian `ibutils`,
// ibdm Fabric.cpp parsePSLFile; shared/notes/opensm-sl-cc-sa.md "ibdmchk file formats"), so
// that ibdmchk can judge the credit loops of multi-SL routings independently of `ibrt check`.
//
// Format, one path a line:
//   0x<source node GUID> <DLID> <SL>      GUID in hex, DLID and SL in decimal
//   # comment lines and blank lines are ignored
//
// What ibdmchk does with it, and so what the writer lists: ibdmchk keeps one SL table per
// source *node* (a CA, or a switch with `-a`); a node that is not listed sends every path on
// SL 0, and a listed node must list every DLID it sends to, else ibdmchk fails those paths
// ("SL to destination is unassigned"). ibrt keys path SLs by ingress switch
// (Routing::path_sl), so the writer lists every node whose ingress switch has an SL other than
// 0 for some DLID, each with all assigned DLIDs, and no other node: a routing with SL 0
// everywhere writes only the comment header, which ibdmchk reads as "single SL".
//
// What the reader accepts is more lenient than ibdmchk in one way: a (source, DLID) pair the
// file does not list has SL 0. Binding turns source nodes into ingress switches: a switch is
// its own ingress; a CA or router enters at the switch of its first cabled port with a LID
// (of its first cabled port if none has a LID). ibdmchk's one table per node cannot give a
// dual-port CA's ports different SLs, so the writer gives such a node the SLs of that first
// port and counts it (PathSlWriteStats::split_nodes). Every source entering at one switch must
// give each DLID the same SL (LFT routing fixes the path from the ingress switch on, so no
// LFT-routed SM can do otherwise); a disagreement, counting a CA's unlisted pair as SL 0, is an
// error naming both nodes and lines.
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/lids.hpp"
#include "fabric/path_sl_table.hpp"
#include "fabric/routing.hpp"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace ibrt {

struct PathSlEntry {
    std::uint64_t node_guid = 0;
    Lid dlid = 0;
    std::uint8_t sl = 0;
    int line = 0;
};

// Throws InputError (`source:line: problem`) on a malformed line, a DLID outside 1..49151 or
// an SL above 15.
std::vector<PathSlEntry> read_path_sl_text(std::string_view text, const std::string& source);
std::vector<PathSlEntry> read_path_sl_file(const std::string& path);

// The path SLs per ingress switch (empty when every path has SL 0). Throws InputError naming
// the line of an unknown node GUID, a DLID no port owns, a pair listed twice, a CA that is not
// cabled to a switch, and two sources at one ingress switch that disagree (see above).
PathSlTable bind_path_sl(const std::vector<PathSlEntry>& entries, const Fabric& f, const Lids& lids,
                         const std::string& source);

struct PathSlWriteStats {
    std::size_t sources = 0; // nodes listed
    std::size_t lines = 0;   // paths written
    // CAs whose ports enter at switches with different SLs: ibdmchk has one table per node,
    // so the file gives such a CA the SLs of its first port with a LID.
    std::size_t split_nodes = 0;
};

// Writes r.path_sls for ibdmchk (see above); nodes in Fabric order, DLIDs ascending.
PathSlWriteStats write_path_sl(std::ostream& out, const Fabric& f, const Routing& r);

} // namespace ibrt
