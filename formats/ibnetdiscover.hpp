// Reader and writer of the `ibnetdiscover` topology format, which is also ibsim's net-file
// format (infiniband-diags ibnetdiscover.c; ibsim sim_net.c). See
// shared/notes/opensm-plugin-api.md §7 and ibsim-e2e.md §3 for the grammar.
#pragma once

#include "fabric/fabric.hpp"

#include <iosfwd>
#include <string>

namespace ibrt {

// Parses a topology. `source` names the input in error messages (`source:line: problem`).
// `include "file"` lines are resolved relative to `base_dir` (empty: the current directory);
// includes inside an included file relative to that file's directory.
// Throws InputError on malformed input.
//
// The result is the fabric ibsim would simulate from the file: Node::id is the file's id
// (with a `module=` prefix: "prefix#id"); missing GUIDs follow ibsim's sequential rule; a CA or
// router port's GUID is the one the file states, else node GUID + port number; a missing
// description is the id; switch port 0 and CA ports get the LIDs/LMCs of the `lid N lmc M`
// comments; widths/speeds follow ibsim's negotiation of both ends (a `??` end does not count;
// both `??`: width 0 / LinkSpeed::Unknown). Node::sysimg_guid stays 0 without a sysimgguid line.
Fabric read_ibnetdiscover(std::istream& in, const std::string& source,
                          const std::string& base_dir = {});
Fabric read_ibnetdiscover_file(const std::string& path);

struct IbnetdiscoverWriteOptions {
    bool ca_first = true;     // ibsim attaches its SM client to the first node in the file
    bool lid_comments = true; // `lid N lmc M` comments where LIDs are known
};

// Writes a file that ibsim loads and read_ibnetdiscover reads back to an equal fabric. Node ids
// that ibsim cannot take (empty, over 64 chars, or with '#', '@', '"', control characters) are
// replaced by ibnetdiscover's `S-`/`H-`/`R-` + GUID; descriptions are cut to 64 bytes with '"',
// '=' and control characters turned into spaces; an empty description reads back as the id.
// What cannot round-trip: LIDs of unconnected ports, CA port GUIDs of unconnected ports other
// than node GUID + port. ibsim itself ignores stated CA port GUIDs (node GUID + port), cannot
// simulate NDR/XDR (Debian ibsim 0.10), and ignores router port comments (4xSDR, no LID).
void write_ibnetdiscover(std::ostream& out, const Fabric& f,
                         const IbnetdiscoverWriteOptions& opt = {});
void write_ibnetdiscover_file(const std::string& path, const Fabric& f,
                              const IbnetdiscoverWriteOptions& opt = {});

} // namespace ibrt
