// Fabric -> Fabric transforms go through FabricBuilder again, so a transformed fabric passes
// the same consistency checks as a parsed one (every cable seen from both ends).
#pragma once

#include "fabric/fabric.hpp"
#include "generators/gen_builder.hpp"

#include <functional>
#include <vector>

namespace ibrt::gen {

// Copies `f` keeping the nodes with keep_node[n] and the cables whose both end ports have
// keep_cable[port] (indexed by PortId; a cable is kept only if both its ends say so and
// both nodes are kept). Node attributes, port GUIDs, LIDs and link attributes are preserved;
// kept nodes keep their relative order. `edit` may change each kept port's LID fields.
Fabric rebuild(const Fabric& f, const std::vector<bool>& keep_node,
               const std::vector<bool>& keep_cable,
               const std::function<void(PortId, Port&)>& edit = {});

// The same fabric with every cable set to `link` (width and speed).
Fabric with_link_spec(const Fabric& f, LinkSpec link);

} // namespace ibrt::gen
