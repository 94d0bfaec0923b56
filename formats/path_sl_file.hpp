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
// ("SL to destination is unassigned"). So the writer lists every node whose SLs are not all 0,
// each with all assigned DLIDs, and no other node: a routing with SL 0 everywhere writes only
// the comment header, which ibdmchk reads as "single SL". A node's SLs are those of its first
// end port with a LID (a switch: port 0); a dual-port CA whose ports differ cannot be said in
// this format and is counted (PathSlWriteStats::split_nodes).
//
// The reader is more lenient than ibdmchk in one way: a (source, DLID) pair the file does not
// list has SL 0. Binding gives every end port of a listed node the node's SLs
// (Routing::path_sls is per source port, so two CAs behind one switch may differ, as opensm's
// dfsssp makes them when it balances paths over its layers).
//
// A partial file (`ibrt sa-path-sls --sample`, `--pairs` or `--to-end-ports` asks the SA for
// some pairs only) carries the comment line kPartialMarker. Then a pair it does not list has
// no SL (PathSlTable::kUnknownSl), not SL 0: taking it as SL 0 reported credit loops in
// deadlock-free dfsssp tables. ibdmchk reads the marker as a comment.
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

// The comment line (a prefix of it) that marks a partial file.
inline constexpr std::string_view kPartialMarker = "# ibrt-path-sl: partial";

// Throws InputError (`source:line: problem`) on a malformed line, a DLID outside 1..49151 or
// an SL above 15. `partial`, if given, is set when the text carries kPartialMarker.
std::vector<PathSlEntry> read_path_sl_text(std::string_view text, const std::string& source,
                                           bool* partial = nullptr);

// The path SLs per source port (empty when every path has SL 0; with `partial`, unlisted pairs
// are kUnknownSl). Throws InputError naming the line of an unknown node GUID, a DLID no port
// owns, or a pair listed twice.
PathSlTable bind_path_sl(const std::vector<PathSlEntry>& entries, const Fabric& f, const Lids& lids,
                         const std::string& source, bool partial = false);

// read + bind of a file, streamed: entries are bound as they are read and never held (a file
// of every (node, DLID) of FT(36,3) has 641 M lines).
PathSlTable load_path_sl_file(const std::string& path, const Fabric& f, const Lids& lids);

struct PathSlWriteStats {
    std::size_t sources = 0; // nodes listed
    std::size_t lines = 0;   // paths written
    // CAs whose ports enter at switches with different SLs: ibdmchk has one table per node,
    // so the file gives such a CA the SLs of its first port with a LID.
    std::size_t split_nodes = 0;
};

// Writes r.path_sls for ibdmchk (see above); nodes in Fabric order, DLIDs ascending. A table
// with unknown SLs is written partial: the marker, and the known pairs only.
PathSlWriteStats write_path_sl(std::ostream& out, const Fabric& f, const Routing& r);

// The lines write_path_sl writes at most (a line per listed source and DLID; unknown SLs are
// left out), without formatting them: what `ibrt route` weighs before writing the file.
std::uint64_t path_sl_file_lines(const Fabric& f, const Routing& r);

} // namespace ibrt
