// Alternative paths for DRB (paper 002 §4.1: "a method to perform a multipath searching ...
// based on the well known Depth-first search (DFS) algorithm with some extra functionality to
// select disjoint paths only"), as a pure routing transform: a Routing whose CAs have too few
// LIDs becomes one with a higher LMC whose extra LIDs follow other paths.
//
// Why here (engines/) and not in sim/: the result is an ordinary Routing (LIDs, LFTs, path SLs,
// SL2VL tables) that every consumer understands — `ibrt check` can validate it, the writers
// can dump it for opensm's file engine, and the simulator merely replays it. Nothing in it is
// about simulation.
//
// What it does, per destination CA and each extra LID (offsets 2^old LMC .. paths - 1):
//   - An LFT forwards by DLID alone, so the paths to one LID form a tree toward the CA, not
//     independent per-pair paths. The tree is grown source switch by source switch: a DFS from
//     the source explores switch-to-switch cables, and as soon as it reaches a switch that
//     already forwards this LID it must follow that switch's entry (it joins the tree). Every
//     switch on the DFS path was unassigned, so the joined tree cannot lead back into it: no
//     LFT loop is possible, and each switch ends with exactly one entry per LID.
//   - Shortest first: the DFS is bounded to length d, d+1, ... d+slack (d = the switch
//     distance), each bound tried in full before the next.
//   - Link-disjoint as possible: first only cables that none of the pair's earlier paths (the
//     original LIDs and the extra LIDs already built) uses; when no such path exists within the
//     slack, shared cables are allowed, the fewest first (neighbours are tried in order of
//     (shared, distance), so the first path found is the one the paper's DFS would take).
//   - Deadlock freedom: an LFT path that wanders away from the engine's own routes can close a
//     cycle of channel dependencies (a torus's DOR with datelines is only acyclic as DOR). A
//     path is accepted on a "layer": layer 0 is the engine's own SL for the pair (its SL2VL
//     tables give the VL per hop), further layers are a fresh SL mapped to a fresh VL on every
//     hop, as LASH and DFSSSP layer their paths. A path takes the lowest layer whose channel
//     dependency graph stays acyclic with it; a new layer is opened when none does (a single
//     loop-free path alone is always acyclic). The result needs data_vls = the VLs of the
//     engine plus the layers opened; more than `max_vls` is an error.
//
// LIDs are renumbered: every CA port gets an aligned block of 2^new LMC LIDs (switch port 0
// keeps its LMC), in port order; offsets below 2^old LMC keep the original routes (the LFT
// entries, path SLs and path selection are carried over), so the original path of every pair
// is unchanged. A subnet has 49,151 unicast LIDs and LMC <= 7: a fabric that does not fit is
// an error (std::invalid_argument) naming the LIDs it would need.
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/routing.hpp"

#include <cstdint>

namespace ibrt {

struct DfsPathsOptions {
    std::uint32_t paths = 4; // LIDs per CA afterwards (original ones included), 2..128
    std::uint32_t slack = 2; // hops beyond the shortest a DFS path may take
    unsigned max_vls = 15;   // data VLs the result may need (IBA: at most 15)
    // Nodes a single DFS may expand before it settles for the best path found so far.
    std::uint64_t budget = 200000;
};

// Returns `r` with extra LIDs (see above); `r` itself when every CA already has `paths` LIDs.
// Stats added to Routing::stats: dfs_extra_lid_trees, dfs_pair_paths, dfs_pair_paths_disjoint,
// dfs_pair_paths_longer, dfs_layers. Throws std::invalid_argument on forwarding sets, too many
// LIDs, or more VLs than max_vls.
Routing add_dfs_paths(const Fabric& f, const Routing& r, const DfsPathsOptions& opt = {});

} // namespace ibrt
