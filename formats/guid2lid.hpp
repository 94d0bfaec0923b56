// opensm's persistent LID file `guid2lid` (osm_db_files.c osm_db_restore, osm_db_pack.c
// unpack_lids, osm_lid_mgr.c; opensm-plugin-api.md §3.3): records of
// `<port guid> <min lid> <max lid>` separated by blank lines, numbers as strtoul(.., 0) reads
// them (0x hex, leading-0 octal, decimal). The reader rejects what opensm would misread or
// drop, naming the line:
//   - a record followed by another non-empty line without a blank line in between (opensm
//     appends it to the first record's value and silently loses that GUID);
//   - lines that start with a blank or are blank-only, and CR line endings (opensm's reader
//     either stops there or does not see a separator);
//   - comments (opensm has none; it would take `#...` as a key);
//   - LIDs of 0 or >= 0xC000, min > max, text after the max LID, a GUID listed twice.
// Except `0x0000 0x0000`: opensm writes it for a port it could give no LID (it ran out, e.g.
// `lmc 7` on a large fabric) and drops it when it reads the file back; the port has no LID,
// which `ibrt check` reports as a violation (CA ports without a LID), not as bad input.
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/lids.hpp"

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace ibrt {

struct Guid2LidEntry {
    std::uint64_t guid = 0; // CA/router port GUID or switch node GUID
    Lid min = 0, max = 0;   // both 0: the port has no LID
    int line = 0;
};

std::vector<Guid2LidEntry> read_guid2lid(std::istream& in, const std::string& source);
std::vector<Guid2LidEntry> read_guid2lid_text(std::string_view text, const std::string& source);
std::vector<Guid2LidEntry> read_guid2lid_file(const std::string& path);

// Resolves the GUIDs against `f`: a CA/router port by its port GUID, a switch (its port 0) by
// its node GUID (or port-0 GUID). The LMC of each port is lg(max - min + 1). Throws InputError
// naming the record's line for unknown GUIDs, ranges that are not a power of two or wider
// than LMC 7, a min LID not aligned to 2^LMC (IBA; opensm drops such records, and only
// `ibrt route --paper-lids` writes them), overlapping ranges and two records for one port.
Lids bind_guid2lid(const std::vector<Guid2LidEntry>& entries, const Fabric& f,
                   const std::string& source);

// Writes every end port with a LID, in node order (switch port 0, then CA/router ports 1..n),
// in the exact form opensm writes: `0x%016llx 0x%04x 0x%04x` and a blank line.
void write_guid2lid(std::ostream& out, const Fabric& f, const Lids& lids);

} // namespace ibrt
