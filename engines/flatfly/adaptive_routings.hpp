// The adaptive FlatFly routings of paper 003 §3.3 as forwarding sets of the extended switch
// (fabric/routing_function.hpp), on the coordinates the mapping recovers from the cabling:
//   - ADOR: DOR that may take one extra hop in each dimension. A packet that has not yet moved
//     in the current dimension (it came from a host or another dimension) may go to any
//     switch of that dimension, the one with the destination's coordinate preferred (priority
//     0, the others 1); one that came in along the current dimension goes straight to the
//     destination's coordinate. Tables are per input port (paper 003 footnote 5) so that the
//     switch knows which. §3.3's VL rule: VL 1 when input and output port are in the same
//     dimension, else VL 0 — channels are ordered by (dimension, VL) along every path, so the
//     extended channel dependency graph is acyclic.
//   - Mixed DOR: one of four dimension orders, (1,2,3,4), (2,4,1,3), (3,1,4,2), (4,3,2,1) for
//     N = 4 (identity, reverse and the two rotations by one otherwise), chosen by the SL the
//     source sets, d mod 4 for the destination host's index d within its switch; each order on
//     its own VL (VL = SL), the order read back from the input VL.
//   - Mixed ADOR: both, VL = 2 SL for hops in order and 2 SL + 1 for the extra hop.
//   - Twisted DOR: a packet from a host first hops, in the last dimension of the order, to the
//     switch whose coordinate there is d mod K for the destination host's index d within its
//     switch (none if it is already there), on VL 1; then DOR on VL 0, so packets between one
//     pair of switches no longer all meet at the same intermediate switches. VL 1 carries only
//     first hops out of hosts, which nothing waits on, so DOR's acyclic VL 0 stays acyclic.
//     Tables per input port (footnote 8: the first hop is decided by where the packet came
//     from). §3.3 calls d "the index of the destination host" after defining it, for Mixed
//     DOR, as the index within the destination switch; ibrt takes that one (it needs no global
//     host numbering, and on the paper's 8 hosts per switch and K_n = 8 it is the global index
//     mod 8 for any numbering that counts hosts switch by switch).
//   - Twisted ADOR: the twist, then ADOR, but with no extra hop in the twist's dimension ("it
//     has been already made at the first step"). That exception is also what keeps 2 VLs
//     enough: the twist hop shares VL 1 with the extra hops, and since no hop in the last
//     dimension goes VL 0 -> VL 1 any more, VL 1 of the last dimension holds only hops
//     entered from a host. Every path then climbs (last, 1) < (1, 0) < (1, 1) < ... <
//     (n-1, 1) < (last, 0) in (dimension, VL): the hop that corrects the twist goes on VL 0
//     although it leaves by the dimension it came in on (VL 1 there would let twist chains
//     s -> t -> u -> s of a row wait on each other).
//   - Twisted Mixed DOR / Twisted Mixed ADOR: Twisted DOR / ADOR inside each of Mixed's four
//     orders, each order on its own pair of VLs (2 SL and 2 SL + 1, 8 VLs), the VL2VL never
//     leaving an order's pair, so the argument above holds per order. The twist is in the last
//     dimension *of the chosen order* (for N = 4: 4, 3, 2, 1): the paper's twist goes to
//     (x_1, ..., d mod K_n) in DOR's order (1, ..., n), i.e. into the dimension DOR corrects
//     last, so that the intermediate switches differ; twisting in an order's first dimension
//     would be undone by the next hop and spread nothing. d mod 4 picks the order and d mod K
//     the twist coordinate, so with K = 8 and 8 hosts an order's packets go to 2 twist
//     coordinates (the paper's rules, kept as written). `twist=n` (kTwistParam, below) twists
//     in dimension n for every order instead.
//   - Hypercubes (§3.4, every dimension of two switches; a "negative" dimension is one where the
//     current switch has coordinate 1 and the destination 0): Negative First routes adaptively
//     among all negative dimensions, then among all others; ABO Negative First takes the
//     negative dimensions but dimension 1 first; ABO Positive Last takes the negative
//     dimensions and dimension 1 first. All candidates are minimal (priority 0) and on VL 0;
//     whether a variant is deadlock-free on one VL is for `ibrt check --tables` to say (the
//     turn-model argument covers Negative First).
// Every candidate goes over any of the parallel cables to the chosen switch.
// Damaged fabrics (past the paper, whose fabrics are complete; missing cables, not switches):
//   - ADOR, Mixed ADOR: the same candidates over the cables present, and an extra hop to z
//     only where z is cabled on to the dimension's target t (row_detours.hpp). Where the
//     cable x-t is missing the extra hop is then the only way, and it exists unless every
//     switch of the row misses a cable to x or t. Every path is a path of the complete
//     routing, on the same VLs, so the (dimension, VL) order above still holds.
//   - Mixed DOR: where the cable x-t is missing, the detours x -> z -> t through every such z
//     (priority 1), the second hop on a second VL per order, 2 SL + 1 (so 8 VLs), as in Mixed
//     ADOR: its paths are Mixed ADOR paths, and so deadlock-free by the same order. Tables stay
//     per VL only: z is cabled to t, so at z the direct hop is what DOR takes anyway.
//   - Twisted DOR, Twisted ADOR: the twist only where its cable is there (else the packet goes
//     on untwisted, from VL 0, as one whose switch is at the twist's coordinate already); the
//     other dimensions as Mixed DOR and ADOR above, their detours' second hops on VL 1; in the
//     twist's dimension, where the last hop's cable is missing, a detour whose second hop goes
//     on a third VL, 2 (VL2VL: a hop in that dimension from that dimension goes from VL 1 to 0
//     as before, the twist's correction, and from VL 0 to 2, a detour's second hop). Every path
//     then climbs (last, 1) < (1, 0) < (1, 1) < ... < (last, 0) < (last, 2): a detour's second
//     hop in the last dimension cannot share VL 1 with the twists (which lead on to the first
//     dimension) nor VL 0 with its first hops (the detours of a row would wait on each other).
//     Twisted Mixed would need 3 VLs per order, 12: it declines.
//   - Negative First, ABO Negative First, ABO Positive Last: damaged_cube.hpp (non-minimal
//     hops, and one VL up per turn back to the first phase).
//   Mixed DOR on a hypercube has no row to detour in: it declines at a missing cable.
//   Hop budgets: as on the complete fabric, but Mixed DOR 2N, Twisted DOR and ADOR 2N + 1.
//   Where a row has no detour left the routing declines naming the switches, as do the
//   Twisted Mixed routings and every routing on a fabric missing a switch; Distance Based
//   routing (engines/direct/distance_based.hpp) is the adaptive choice there.
// The flatfly engine adds them with `adaptive=` (kAdaptiveChoices). Hop budgets: DOR N, ADOR
// 2N, Twisted DOR N + 1, Twisted ADOR 2N (the twist, two hops in N - 1 dimensions, one in the
// last); Mixed as its base routing.
#pragma once

#include "engines/engine.hpp"
#include "fabric/routing_function.hpp"

#include <memory>
#include <string_view>

namespace ibrt::flatfly {

enum class AdaptiveRouting {
    Ador,
    MixedDor,
    MixedAdor,
    NegativeFirst,
    AboNegativeFirst,
    AboPositiveLast,
    TwistedDor,
    TwistedAdor,
    TwistedMixedDor,
    TwistedMixedAdor
};

inline constexpr std::string_view kAdaptiveChoices[] = {"none",
                                                        "ador",
                                                        "mixed-dor",
                                                        "mixed-ador",
                                                        "negative-first",
                                                        "abo-negative-first",
                                                        "abo-positive-last",
                                                        "twisted-dor",
                                                        "twisted-ador",
                                                        "twisted-mixed-dor",
                                                        "twisted-mixed-ador"};
inline constexpr EngineParam kAdaptiveParam{
    "adaptive",
    EngineParam::Kind::Choice,
    "none",
    "also produce forwarding sets of an adaptive routing of paper 003 §3.3 for `ibrt sim`: "
    "ador, mixed-dor, mixed-ador, twisted-dor, twisted-ador, twisted-mixed-dor or "
    "twisted-mixed-ador (the Twisted Mixed ones on complete FlatFlies only); on hypercubes also "
    "negative-first, abo-negative-first, abo-positive-last (§3.4)",
    0,
    0,
    kAdaptiveChoices,
    kForwardingSetsOnly};

// The routing `adaptive=name` selects (name one of kAdaptiveChoices but "none").
AdaptiveRouting adaptive_routing(std::string_view name);

// Where the Twisted Mixed routings twist. §3.3 gives the twist as (x_1, ..., d mod K_n), always
// dimension n, and says only that Twisted Mixed "combines" Twisted and Mixed; `order` (the
// default) reads that as each order's own last dimension, `n` takes the formula as written.
// Either is deadlock-free by the same argument: the twist's (dimension, odd VL) channels carry
// only packets fresh from a host, and no extra hop is offered in the twist's dimension. The
// Twisted (one order) routings twist in dimension n either way.
inline constexpr std::string_view kTwistChoices[] = {"order", "n"};
inline constexpr EngineParam kTwistParam{
    "twist",
    EngineParam::Kind::Choice,
    "order",
    "with adaptive=twisted-mixed-dor or twisted-mixed-ador, the dimension of the twist: order "
    "(the last dimension of the packet's dimension order) or n (dimension n for every order, "
    "paper 003 §3.3's formula as written)",
    0,
    0,
    kTwistChoices,
    kForwardingSetsOnly};

// Throws RoutingError when the fabric is not a FlatFly, HyperX or hypercube, or is damaged
// beyond what the routing gets round (see above).
std::shared_ptr<const RoutingFunction> adaptive_sets(const Fabric& f, const Lids& lids,
                                                     AdaptiveRouting kind, bool twist_in_n = false);

} // namespace ibrt::flatfly
