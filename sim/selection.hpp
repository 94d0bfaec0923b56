// Selection functions of the extended switch (paper 004 §4; paper 003 §3.1): given the
// candidates of the best priority class that has one able to take the packet, pick one from a
// read-only view of the congestion state. The output is bound when the packet reaches the
// head of its input buffer (sim/extended_switch.cpp), so the view is the state at that moment
// (the oblivious selections may choose earlier: SimConfig::select_at).
//
// Paper 004's functions give a preferred candidate i and, when it cannot take the packet,
// search linearly from i + 1 round the class (its "linear rotative search"): FF (i = 0), SSP
// (i = the switch's own digit o_s), SDP (the destination's digit p_0), SOP (the source's p_0),
// SADP (the destination's digit of the switch's stage, p_s), CP (a per-switch counter of
// packets routed), RP (uniformly random). MC takes the candidate with the most credits over
// all VLs of its link. Beyond the paper: two random choices (two candidates that fit drawn,
// the one with more credits taken) and NVIDIA-style least loaded (fewest
// packets bound to the output, then most credits). MC and least loaded break ties round the
// class from CP's counter: a fixed tie-break (the first candidate) would make them first-free
// whenever the links are idle, i.e. at every low load. Oblivious is not adaptive: a uniformly
// random candidate of the best class, which the packet then waits for even when another could
// take it now (BookSim's `nca`, a random up port per hop; RP is its adaptive counterpart).
// UGAL is BookSim's `ugal` decision (networks/dragonfly.cpp, ugal_dragonflynew) as a selection:
// it sees every priority class of the set, draws a minimal candidate (the best class) and a
// non-minimal one (any worse class) uniformly, and takes the minimal one when its downstream
// buffer's credits in use (over its VLs, BookSim's GetUsedCredit), weighted by 1 + its class,
// are at most the non-minimal one's so weighted plus kUgalThreshold: BookSim's
// `1 * min_queue_size <= 2 * nonmin_queue_size + adaptive_threshold`, its "1 and 2" being the
// two classes' 1 + class. Like nca it binds the packet whether or not the candidate can take
// it. It decides at the packet's source switch alone (BookSim's "at the source router, make
// the adaptive routing decision"); elsewhere, and for a set of one class, it is a uniform draw
// in the best class.
#pragma once

#include "fabric/rng.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ibrt::sim {

// Tests iterate over every selection up to the last one (Ugal): a new one goes
// last, or the tests' bound moves with it.
enum class Selection : std::uint8_t {
    FirstFree,                // FF
    SwitchPriority,           // SSP
    DestinationPriority,      // SDP
    OriginPriority,           // SOP
    StageDestinationPriority, // SADP
    CyclicPriority,           // CP
    MoreCredits,              // MC
    RandomPriority,           // RP
    TwoRandomChoices,         // adaptive: two of those that fit, the one with more credits
    LeastLoaded,              // NVIDIA-style adaptive routing
    Oblivious, // BookSim's nca: uniformly random, bound whether or not it can take the packet
    // BookSim's anca: two draws (with replacement) among all candidates, the one with fewer
    // credits in use taken (the first on a tie), bound whether or not it can take the packet.
    TwoRandomOblivious,
    // BookSim's ugal: minimal unless its credits in use exceed twice a random non-minimal
    // candidate's plus kUgalThreshold; sees every class; bound whether or not it has room.
    Ugal,
};
// BookSim's `adaptive_threshold` of ugal_dragonflynew, in credits (its flits), biasing UGAL
// toward the minimal candidate.
inline constexpr std::int32_t kUgalThreshold = 30;
// The one UGAL rule (the selection above; sim/via_routing.hpp): minimal unless its queue,
// weighted, exceeds the non-minimal one's, weighted, by more than kUgalThreshold.
inline bool ugal_takes_minimal(std::int64_t weighted_min, std::int64_t weighted_nonmin) {
    return weighted_min <= weighted_nonmin + kUgalThreshold;
}
std::string_view to_string(Selection s); // "ff", "ssp", ..., "two-choices", "least-loaded"
std::optional<Selection> parse_selection(std::string_view name);
std::string selection_names(); // for --help: "ff, ssp, ..."
// SSP, SDP, SOP and SADP read fat-tree coordinates (fabric/routing_function.hpp TreeCoords).
bool needs_tree_coords(Selection s);
// MC, two random choices (both kinds), least loaded and UGAL read CandidateView::room_all,
// queued and used_all; the others only `fits`.
bool uses_load(Selection s);
// nca, anca and UGAL bind the packet to a candidate whether or not it can take the packet now.
bool is_oblivious(Selection s);
// UGAL chooses among every priority class of the set, not the best one alone.
bool sees_every_class(Selection s);

// What a selection function may see of one candidate (read-only).
struct CandidateView {
    // The resource it feeds has room for the whole packet after the heads already bound to
    // the same output and VL have taken theirs.
    bool fits = false;
    // The link's credits not yet claimed, summed over its VLs: downstream credits less what
    // already waits for them in the output buffer.
    std::int32_t room_all = 0;
    std::uint32_t queued = 0; // packets bound to this output and waiting for it, + 1 if busy
    // The credits in use in the downstream buffer, summed over its VLs (BookSim's
    // GetUsedCredit: the occupancy alone, blind to heads bound and waiting). UGAL only.
    std::int32_t used_all = 0;
    // The candidate's priority class in its set (0: minimal). UGAL only: the others see one
    // class.
    std::uint8_t priority = 0;
};

// What the preferred-link functions key on, for the packet and switch at hand.
struct SelectionKey {
    std::uint32_t switch_digit = 0;     // SSP: o_s
    std::uint32_t source_digit0 = 0;    // SOP: p_0 of the source
    std::uint32_t dest_digit0 = 0;      // SDP: p_0 of the destination
    std::uint32_t dest_stage_digit = 0; // SADP: p_s of the destination at this switch's stage
    std::uint32_t counter = 0;          // CP: packets this switch has routed
    // Links the packet has crossed, its host's included (1 at its source switch). UGAL
    // decides there alone, as BookSim's ugal does at the source router.
    std::uint32_t hops = 0;
};

// Picks a candidate among c (one priority class, in its rotative order), at least one of which
// fits (the oblivious ones: any; UGAL: every class, in priority order); returns its index.
// `rng` serves RP, two random choices, nca, anca and UGAL only.
std::uint32_t select_candidate(Selection s, std::span<const CandidateView> c,
                               const SelectionKey& key, gen::Rng& rng);

} // namespace ibrt::sim
