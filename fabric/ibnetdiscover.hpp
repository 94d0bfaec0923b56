// Reader and writer of the `ibnetdiscover` topology format, which is also ibsim's net-file
// format (infiniband-diags ibnetdiscover.c; ibsim sim_net.c). See
// shared/notes/opensm-plugin-api.md §7 and ibsim-e2e.md §3 for the grammar.
#pragma once

#include "fabric/fabric.hpp"

#include <iosfwd>
#include <string>

namespace ibrt {

// Parses a topology. `source` names the input in error messages (`source:line: problem`).
// `include "file"` lines are resolved relative to `base_dir` (empty: the current directory).
// Throws InputError on malformed input.
Fabric read_ibnetdiscover(std::istream& in, const std::string& source,
                          const std::string& base_dir = {});
Fabric read_ibnetdiscover_file(const std::string& path);

struct IbnetdiscoverWriteOptions {
    bool ca_first = true;     // ibsim attaches its SM client to the first node in the file
    bool lid_comments = true; // `lid N lmc M` comments where LIDs are known
};

// Writes a file that ibsim loads and read_ibnetdiscover reads back to an equal fabric.
void write_ibnetdiscover(std::ostream& out, const Fabric& f,
                         const IbnetdiscoverWriteOptions& opt = {});
void write_ibnetdiscover_file(const std::string& path, const Fabric& f,
                              const IbnetdiscoverWriteOptions& opt = {});

} // namespace ibrt
