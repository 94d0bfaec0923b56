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
//   - Twisted DOR: a packet from a host first hops, in the last dimension, to the switch whose
//     coordinate there is d mod K_n for the destination host's index d within its switch (none
//     if it is already there), on VL 1; then DOR on VL 0, so packets between one pair of
//     switches no longer all meet at the same intermediate switches. VL 1 carries only first
//     hops out of hosts, which nothing waits on, so DOR's acyclic VL 0 stays acyclic. Tables
//     per input port (footnote 8: the first hop is decided by where the packet came from).
//   - Hypercubes (§3.4, every dimension of two switches; a "negative" dimension is one where the
//     current switch has coordinate 1 and the destination 0): Negative First routes adaptively
//     among all negative dimensions, then among all others; ABO Negative First takes the
//     negative dimensions but dimension 1 first; ABO Positive Last takes the negative
//     dimensions and dimension 1 first. All candidates are minimal (priority 0) and on VL 0;
//     whether a variant is deadlock-free on one VL is for `ibrt check --tables` to say (the
//     turn-model argument covers Negative First).
// Every candidate goes over any of the parallel cables to the chosen switch. The routings
// assume a complete FlatFly (the paper's setting); on a damaged one they decline and Distance
// Based routing (engines/direct/distance_based.hpp) is the adaptive choice.
// The flatfly engine adds them with `adaptive=ador|mixed-dor|mixed-ador`.
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
    TwistedDor
};

inline constexpr std::string_view kAdaptiveChoices[] = {"none",
                                                        "ador",
                                                        "mixed-dor",
                                                        "mixed-ador",
                                                        "negative-first",
                                                        "abo-negative-first",
                                                        "abo-positive-last",
                                                        "twisted-dor"};
inline constexpr EngineParam kAdaptiveParam{
    "adaptive",
    EngineParam::Kind::Choice,
    "none",
    "also produce forwarding sets of an adaptive routing of paper 003 §3.3 for `ibrt sim`: "
    "ador, mixed-dor or mixed-ador (complete FlatFlies only); on hypercubes also negative-first, "
    "abo-negative-first, abo-positive-last (§3.4)",
    0,
    0,
    kAdaptiveChoices};

// Throws RoutingError when the fabric is not a complete FlatFly, HyperX or hypercube.
std::shared_ptr<const RoutingFunction> adaptive_sets(const Fabric& f, const Lids& lids,
                                                     AdaptiveRouting kind);

} // namespace ibrt::flatfly
