// opensm's persistent LID file `guid2lid` (osm_db_files.c, osm_lid_mgr.c): records of
// `<port guid> <min lid> <max lid>` separated by blank lines. A file without the blank lines
// is what opensm silently misreads as one record, so the reader diagnoses it.
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/lids.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace ibrt {

struct Guid2LidEntry {
    std::uint64_t guid = 0; // CA/router port GUID or switch node GUID
    Lid min = 0, max = 0;
    int line = 0;
};

std::vector<Guid2LidEntry> read_guid2lid(std::istream& in, const std::string& source);
std::vector<Guid2LidEntry> read_guid2lid_file(const std::string& path);

// Resolves the GUIDs against `f`; LMC of each port is lg(max - min + 1). Throws InputError
// for unknown GUIDs, ranges that are not a power of two, or overlaps.
Lids bind_guid2lid(const std::vector<Guid2LidEntry>& entries, const Fabric& f,
                   const std::string& source);

// Writes every end port with a LID, in node order, in the exact form opensm writes.
void write_guid2lid(std::ostream& out, const Fabric& f, const Lids& lids);

} // namespace ibrt
