// Pre-assigned LIDs for generated fabrics, written as the `lid N lmc M` comments of the
// ibnetdiscover format (ibsim presets port LIDs from them). Rules of IBA 7.11.1 / opensm:
// a CA port with LMC m owns 2^m LIDs from a base that is a multiple of 2^m; switches answer on
// port 0 with LMC 0 (base switch port 0).
//
// Order: CA ports first (CAs in node order, ports ascending, only cabled ports), each at the
// next aligned base; then switches in node order on the lowest free LIDs, which fills the
// alignment gaps below each CA block first.
#pragma once

#include "fabric/fabric.hpp"

namespace ibrt::gen {

Fabric assign_lids(const Fabric& f, int lmc);

} // namespace ibrt::gen
