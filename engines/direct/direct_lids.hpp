// LIDs for the direct-topology engines (torus, flatfly, dragonfly, slimfly; paper 003 §3;
// dragonfly-plus):
// they route by destination switch, so any LID layout works; what they share is honouring
// opensm's preassigned LIDs or assigning their own, within the 49,151 unicast LIDs.
#pragma once

#include "engines/engine.hpp"
#include "fabric/fabric.hpp"
#include "fabric/lids.hpp"

#include <cstdint>
#include <string_view>

namespace ibrt::direct {

// `preassigned` when given (every cabled CA port and every switch must have a LID, else the
// engine declines naming the first without); otherwise end ports get aligned blocks of
// 2^lmc LIDs (opt.lmc, default 0), grouped by the switch they hang off, and switches single
// LIDs below the first block and after the last. Sets `lmc`.
Lids direct_lids(const Fabric& f, const Lids* preassigned, const EngineOptions& opt,
                 std::string_view engine, std::uint8_t& lmc);

} // namespace ibrt::direct
