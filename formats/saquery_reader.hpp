// Reader of infiniband-diags' `saquery -p` output: the PathRecords a running SM's SA hands
// out, of which ibrt needs (SLID, DLID, SL). The SL of a path lives in no dump (opensm's
// dfsssp, lash and torus-2QoS choose it per path and answer path_sl through the SA), so asking
// the SA is the only way to check such tables for credit loops (docs/check.md, exit 3).
#pragma once

#include "fabric/fabric.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace ibrt {

struct SaPathRecord {
    Lid slid = 0, dlid = 0;
    std::uint8_t sl = 0;
    int line = 0; // of the record's "PathRecord dump:" header
};

// Parses every "PathRecord dump:" block; a block without slid, dlid or sl, or with a bad
// value, is an InputError naming source:line. Records with SLID or DLID 0 (what a truncated
// multi-packet answer leaves) are skipped.
std::vector<SaPathRecord> read_saquery_path_records(std::string_view text,
                                                    const std::string& source);

} // namespace ibrt
