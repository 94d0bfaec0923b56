// MLID path selection (paper 000 §4.2): a source in gcpg(x p_a, a+1) sending to a destination
// in a sibling group gcpg(x p'_a, a+1) uses the LID BaseLID + rank, its rank being its digits
// below the least common ancestors (Definition 4).
//
// Generalized with the tree's source digits (fat_tree_shape.hpp): the rank of source s toward
// destination d is R(s, lca) = sum over levels L < lca of (digit_L(s) mod U_L) * U_1...U_{L-1},
// which equation (2) turns back into the up port digit_L(s) mod U_L at level L; so the sources
// of one group reach the destination over disjoint up links. With K = 2^LMC LIDs the source
// uses BaseLID + (R mod K): fewer LIDs than ranks spread the sources round-robin over the LIDs.
#pragma once

#include "fabric/lids.hpp"
#include "mapping/fat_tree_shape.hpp"

#include <vector>

namespace ibrt::mlid {

// dlid_choice[src * num_cas + dst] in Fabric::cas() order (Routing::dlid_choice), using each
// CA's first end port (fabric/end_ports.hpp); a CA's entry for itself is its base LID.
std::vector<Lid> select_paths_by_rank(const Fabric& f, const fattree::FatTreeShape& t,
                                      const Lids& lids);

} // namespace ibrt::mlid
