// Paper 003 §3.5's Dragonfly routings as forwarding sets of the extended switch
// (fabric/routing_function.hpp): Static, and the adaptive family named by the letters G, S,
// I, D, each allowing one non-minimal hop of its kind, "using only local congestion
// information" (the simulator's selection function picks among the candidates):
//   G: one extra global hop, to an intermediate group (a group neither the source's nor the
//      destination's);
//   S: one extra local hop in the source group;
//   I: one extra local hop in the intermediate group (only with G);
//   D: one extra local hop in the destination group.
// Minimal candidates have priority 0, the non-minimal ones priority 1 (§3.5: "higher priority
// is assigned to minimal routes"). Groups, gateways and membership come from the union-find
// mapping of the cabling (mapping/map_fabric.hpp), never from labels.
//
// Minimal route (Static): in the source group a local hop to the gateway, the switch cabled to
// the destination group (none if the packet is there), the global hop, in the destination
// group a local hop to the destination switch (none if it arrives there). A packet whose source
// and destination share a group takes the one local hop, under every routing.
//
// What each letter adds, precisely (and the switch offers it at no other point):
//   S: at the source switch, fresh from its host, a local hop to any switch of the group but
//      the gateway (which is the minimal hop). From the gateway itself only with G: a local hop
//      there would only lead back, but with G it reaches the other switch's global ports.
//   G: in the source group, while at most one local hop has been taken there (at the source
//      switch, at the gateway after the minimal local hop, and at the switch an S hop reached),
//      any global port of the current switch toward a group other than the destination's. So
//      G alone reaches the groups cabled to the source switch and to its gateway, and GS every
//      group cabled to the source group. In the intermediate group the route is minimal: a
//      local hop to its gateway toward the destination group (I: or, instead, first a local
//      hop to any other switch of the group), then the global hop to the destination group.
//      A packet at its source-group gateway after two local hops (S, then the minimal one)
//      takes the minimal global hop: its input VL is the one a packet arriving in an
//      intermediate group has, and that one must not leave by a third global hop.
//   I: on arriving in the intermediate group at a switch other than its gateway, a local hop
//      to any switch but that gateway.
//   D: on arriving in the destination group at a switch other than the destination's, a local
//      hop to any switch but the destination's.
// So a packet that takes its G hop leaves the source group after at most one local hop (the S
// hop or the minimal one) and has at most 1 + 1 + (1 + I) + 1 + (1 + D) hops; one that does
// not, 1 + S + 1 + 1 + D. Per routing at most G ? 5 + I + D : 3 + S + D switch-to-switch hops:
// Static 3, S and D 4, SD, G, GS 5, GI, GD, GSI, GSD 6, GID and GSID 7, within §3.5's bound of
// 8. The paper's 8th hop would be a local hop, after an S hop, to the switch cabled to a chosen
// intermediate group: that switch would then have to leave by a global port whatever it is,
// and on the input VL it sees (1, see below) it cannot tell such a packet from one that just
// arrived in an intermediate group and must not; telling them apart takes tables per input
// port (6 x 37 tables per switch allocated at 16,384 hosts: 33 GB) or a 7th VL. Not done.
//
// VLs (§3.5: 0 and 1 in the source group, 2 and 3 in the intermediate one, 4 and 5 in the
// destination one). The input VL tells a switch the packet's phase; no table depends on the
// input port, which at 16,384 hosts would cost 37 times the tables' memory. Hop by hop (the
// VL2VL table of the switch, from the input port's class, the output port's and the input VL):
//   - a host sends on VL 4 (in a group other than the destination's no other packet arrives
//     on VL 4, so there it means "fresh from the host"; in the destination group it means what
//     a fresh packet there needs: no extra hop left);
//   - the first local hop in the source group on VL 0, the second on VL 1;
//   - a global hop out of the source group (to an intermediate or the destination group) on
//     VL 1;
//   - the first local hop after a global hop on VL 2, the second on VL 3 (in the intermediate
//     group, or in the destination group entered straight from the source group);
//   - the global hop out of the intermediate group on VL 3;
//   - in the destination group entered from an intermediate one, local hops on VL 4, then 5.
// Read back, at a switch of a group other than the destination's: VL 4 fresh (S, G offered),
// VL 0 one local hop taken in the source group (G offered), VL 1 arrived in an intermediate
// group (I offered) or two source-group local hops taken (only at the gateway, where I is
// never offered), VL 2 and 3 one or two local hops taken in the intermediate group. In the
// destination group: VL 1 and 3 just arrived (D offered), any other VL a local hop taken.
//
// Deadlock freedom: rank the (channel, VL) pairs source-local VL 0 < source-local VL 1 <
// global VL 1 < local VL 2 < local VL 3 < global VL 3 < local VL 4 < local VL 5 (a local
// channel on VL 0 also carries the single hop within a group, which ends at a host). Every
// dependency a path creates climbs that order strictly: VLs never fall along a path, and where
// two hops share a VL a local hop leads to a global one, never the reverse; a global hop on
// VL 1 leads to VL 2 or 3, one on VL 3 to VL 4. So the extended channel dependency graph is
// acyclic (`ibrt check --tables` confirms it).
//
// The routings are defined on a complete Dragonfly: complete groups and one global link between
// every two groups (paper 003's reference omits one global port per group and still joins
// every pair). On a damaged one (past the paper: cables missing, no switch) the same rules
// apply to the cables present: a missing gateway or local cable drops the candidate that
// needed it. Where that was the minimal local hop (fresh in the source group, or within one
// group; just arrived in an intermediate or the destination group), the hop S, I or D would
// take there is offered whatever the letters, to each switch of the group cabled to the
// hop's target (priority 1): the VL2VL tables already carry a second local hop in each group.
// That can still leave a packet where nothing is offered (a group with no global cable to the
// destination's, for a routing without G), so candidates leading to such dead ends are then
// removed until none is left (engines/direct/dead_ends.hpp); the routing declines, naming a
// source and DLID, only when a host's own switch is left without a candidate, i.e. where the
// letters cannot get round the damage (Static, S, D and SD lose every pair of groups whose
// global cable is missing; G gets round it through an intermediate group).
// Deadlock freedom needs nothing new: the rank argument above is a property of the VL2VL
// tables alone (every (in class, out class, VL) entry they map climbs the rank, and the rest
// drop), so it holds for any candidates, and the rank also bounds every path (one rank up per
// hop: at most 8 switch hops), so with no dead end left every packet is delivered. The dragonfly
// engine adds the routings with `adaptive=static|s|d|sd|g|gs|gi|gd|gsi|gid|gsd|gsid`.
#pragma once

#include "engines/engine.hpp"
#include "fabric/routing_function.hpp"

#include <memory>
#include <optional>
#include <string_view>

namespace ibrt::dragonfly {

// The letters of a routing of the family; all false: Static.
struct AdaptiveLetters {
    bool g = false, s = false, i = false, d = false;
    // Switch-to-switch hops at most (see the header).
    unsigned max_hops() const { return g ? 5u + i + d : 3u + s + d; }
};

inline constexpr std::string_view kAdaptiveChoices[] = {
    "none", "static", "s", "d", "sd", "g", "gs", "gi", "gd", "gsi", "gid", "gsd", "gsid"};
inline constexpr EngineParam kAdaptiveParam{
    "adaptive",
    EngineParam::Kind::Choice,
    "none",
    "also produce forwarding sets of a Dragonfly routing of paper 003 §3.5 for `ibrt sim` "
    "(6 VLs; on damaged Dragonflies, missing cables but no switch): static, or the letters of the "
    "extra hops allowed, "
    "g (global, to an intermediate group), s, i, d (local, in the source, intermediate, "
    "destination group): s, d, sd, g, gs, gi, gd, gsi, gid, gsd, gsid",
    0,
    0,
    kAdaptiveChoices,
    kForwardingSetsOnly};

// The letters of an `adaptive=` choice; nullopt for "none". Throws std::invalid_argument for
// anything not in kAdaptiveChoices.
std::optional<AdaptiveLetters> parse_adaptive(std::string_view choice);

// Throws RoutingError when the fabric is not a Dragonfly, misses switches, or misses cables
// its letters cannot get round.
std::shared_ptr<const RoutingFunction> adaptive_sets(const Fabric& f, const Lids& lids,
                                                     AdaptiveLetters letters);

} // namespace ibrt::dragonfly
