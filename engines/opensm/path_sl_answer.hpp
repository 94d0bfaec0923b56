// The answer to opensm's path_sl(ctx, hint_sl, slid, dlid) (shared/notes/opensm-sl-cc-sa.md
// "SL2VL and path SL"), without opensm types so it is unit-tested: the SL of the path from the
// port that owns SLID to DLID (Routing::path_sl is per source port), or opensm's hint (its QoS
// policy's SL) when the routing sets no SLs at all.
#pragma once

#include "fabric/routing.hpp"

#include <cstdint>

namespace ibrt::osm {

inline std::uint8_t answer_path_sl(const Routing& r, std::uint8_t hint, Lid slid, Lid dlid) {
    if (r.path_sls.empty()) return hint;
    return r.path_sl(r.lids.owner(slid), dlid); // an unknown SLID (kNoPort): the default row
}

} // namespace ibrt::osm
