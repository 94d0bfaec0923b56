// LID assignment and the LMC policy of the fat-tree engines (paper 000 §4.1).
//
// Paper mode: BaseLID(P(p)) = 2^LMC * PID(P(p)) + 1, PID = tree-order index of the end port;
// switches follow the CAs one LID each. The +1 leaves base LIDs unaligned (opensm rejects
// them), so it is for reproducing the paper only.
// Default mode (aligned, what opensm accepts): CA i gets BaseLID = 2^LMC * (i + 1); the first
// 2^LMC - 1 switches take LIDs 1 .. 2^LMC - 1 (the block below the first CA, which no CA can
// use), the other switches follow the last CA block. Both modes fit when
//   2^LMC * end ports + max(switches, 2^LMC - 1) <= 49151.
// LMC (auto): the smallest LMC with 2^LMC >= P (the path space, one LID per distinct up path),
// then lowered until LMC <= 7 and the LIDs fit. Fewer LIDs than paths is handled by the path
// selection (sources spread round-robin over the LIDs) and equation (2) (destinations take
// turns over the path space); see docs/engines/mlid.md.
#pragma once

#include "engines/engine.hpp"
#include "fabric/lids.hpp"
#include "mapping/fat_tree_shape.hpp"

#include <optional>

namespace ibrt::fattree {

// Whether 2^lmc LIDs for each end port plus one per switch fit in the unicast LID space.
bool lids_fit(std::size_t end_ports, std::size_t switches, int lmc);

// The LMC to use: `requested` if given (RoutingError if outside 0..7 or too many LIDs), else
// the auto policy above for path space `paths`.
int choose_lmc(std::size_t end_ports, std::size_t switches, std::uint64_t paths,
               std::optional<int> requested);

Lids assign_tree_lids(const Fabric& f, const FatTreeShape& t, int lmc, bool paper);

// mlid's and slid's paper_lids=true numbers LIDs as paper 000 §4.1 does where the engine
// assigns the LIDs itself; inside opensm the engines route on opensm's LIDs, so it is
// declared offline only (the plugin says it is ignored there).
inline constexpr EngineParam kPaperLidsParam{
    .key = "paper_lids",
    .kind = EngineParam::Kind::Flag,
    .default_value = "false",
    .help = "number LIDs as paper 000 §4.1 (BaseLID = 2^LMC * PID + 1, not aligned to 2^LMC: "
            "opensm refuses such LIDs, so this is for reproducing the paper offline)",
    .offline_only = "opensm assigns the LIDs inside opensm, and the engine routes on those"};

// Checks that `pre` gives every end port of `t` a LID, and returns it; RoutingError otherwise.
// Returns the largest LMC of the end ports.
int check_preassigned(const Fabric& f, const FatTreeShape& t, const Lids& pre);

} // namespace ibrt::fattree
