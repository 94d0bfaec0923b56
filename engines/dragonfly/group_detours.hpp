// Which way each pair of Dragonfly groups is routed (paper 003 §3.5, past the paper for
// missing global links): directly over their global link, or through an intermediate group i
// joined to both, and on which path SL.
//
// The Static routing's two VLs order the channels local VL 0 < global VL 0 < local VL 1 (a
// packet that entered from a global port). A detour g -> i -> h whose arriving switch in i is
// itself i's gateway to h (local, global, global, local) still fits: its second global hop
// enters from a global port, so it is on VL 1, and what follows on VL 1 ends at a destination.
//
// Any other detour takes a local hop in i, and then 2 VLs cannot do: i's gateway w would send
// it on to h from a local port as it sends i's own traffic (VL 0), and its local hop in i
// would share VL 1 with the last hops that end there. Then every detour gets a path SL s >= 1
// and three VLs: local 0 < global 0 < local 1 (the hop in i) < global 1 (the second global
// hop) < local 2 (the last hop, after the second global hop). Direct paths keep SL 0 and the
// class rule. The SL s entries that differ from that rule are the second global hop (w, in
// from the switch arriving from g, out to h) -> VL 1, and the last hop (h's switch reached
// from i, in from i, out to a local or host port) -> VL 2. A detour (i, h2) through h on the
// same SL would use exactly those two entries as its first global hop (VL 0) and its hop in
// h (VL 1), so detours (g, h) through i and (i, h2) through h take different SLs: a greedy
// colouring over SLs 1-15. No entry then needs two VLs, and every path climbs the order
// above, so there is no credit loop.
//
// With missing links (dragonfly_engine.cpp) two more kinds of pair leave that order; their
// paths go on the engine's layers of VLs instead, so they take no SL here:
// - far: no group is joined to both; the pair goes to a neighbour one step closer to h in
//   the graph of groups (breadth-first), and on from there as that group routes to h;
// - a local detour in i: the arriving switch and i's gateway to h are not cabled, only
//   reached over two or more local hops. Intermediates with a single local hop (or none) are
//   preferred.
// With `hop_on_layers` (the engine has layers anyway) a single local hop in i goes on the
// layers as well, instead of on path SLs and a third VL: measured, that saves the third VL.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace ibrt::dragonfly {

struct GroupDetours {
    std::size_t groups = 0;
    // via[g * groups + h]: g itself when g and h are joined, else the next group on the way.
    std::vector<std::size_t> via;
    // sl[g * groups + h]: the detour's path SL; all 0 when no detour takes a local hop, and 0
    // for the pairs whose paths go on layers (far, local detour in i).
    std::vector<std::uint8_t> sl;
    // Ordered group pairs of each kind: through one intermediate (any), of those with a
    // single local hop in it on the SLs, of those on layers (a local detour in it, or with
    // hop_on_layers a single local hop); far.
    std::size_t indirect = 0, local_hop = 0, local_detour = 0, far = 0;
    unsigned vls = 2; // 3 when a detour takes a single local hop
};

// `gate[g * groups + h]` is the switch of group g cabled to group h and `peer` the switch at
// the other end (kNone: not joined). `linked(u, w)` tells whether two switches of one group
// are cabled. Throws RoutingError naming two groups that cannot reach each other at all (the
// mapping already declines such a fabric), or when the detours need more than 15 SLs.
GroupDetours plan_group_detours(std::size_t groups, const std::vector<std::uint32_t>& gate,
                                const std::vector<std::uint32_t>& peer,
                                const std::function<bool(std::uint32_t, std::uint32_t)>& linked,
                                bool hop_on_layers);

} // namespace ibrt::dragonfly
