// The `separate` routing scheme of paper 001 §VI.D: path selection (load-balanced
// deterministic Up*/Down* paths) for path computation, color/L for LID assignment, turned into
// LIDs, LFTs and a path-selection table (Routing::dlid_choice).
//
// - LID configuration j of destination d is LID base(d) + j; its LFT entries are the
//   configuration's paths, completed by complete_tree.hpp so that every switch reaches every
//   LID without a credit loop. LIDs j >= k_d repeat configuration j mod k_d.
// - opensm has one global LMC. Needed: ceil(lg max_d k_d), capped by the requested LMC (or 7,
//   or what the 49151 unicast LIDs allow). A destination with k_d > 2^LMC keeps its 2^LMC
//   largest configurations; each other path is re-selected as the walk of one kept
//   configuration's completed tree (that adds no split), choosing the fewest hops and then the
//   lowest maximum link load along it. SeparateStats reports the cost.
// - With preassigned LIDs (opensm's), each CA port's own LMC bounds its configurations.
// - A disconnected fabric is declined (RoutingError naming two nodes that cannot reach each
//   other): some CA could not reach some LID, and the tables would fail `ibrt check`.
// - Node order does not matter: the fabric is renumbered by node GUID first (when GUIDs are
//   unique and non-zero), so the opensm plugin and `ibrt route` on the discovered topology
//   compute the same tables.
#pragma once

#include "engines/engine.hpp"
#include "lidassign/paths.hpp"

namespace ibrt::separate {

struct SeparateStats {
    std::uint32_t needed_lmc = 0;   // ceil(lg max k_d) before refitting
    std::uint32_t lmc = 0;          // the LMC used
    std::uint64_t lids_color_l = 0; // sum 2^ceil(lg k_d) of color/L on the selected paths
    std::uint32_t refit_destinations = 0;
    std::uint64_t refit_paths = 0; // paths re-selected to fit 2^LMC LIDs
    std::uint64_t refit_extra_hops = 0;
    double max_load_selected = 0;     // max_link_load of path selection
    double max_load_final = 0;        // after refitting
    std::uint64_t forced_entries = 0; // LFT entries that had to turn down->up (complete_tree)
    lidassign::PathSet paths;         // the final paths, one per CA pair
};

Routing route_separate(const Fabric& f, const Lids* preassigned, const EngineOptions& opt,
                       SeparateStats* stats = nullptr);

} // namespace ibrt::separate
