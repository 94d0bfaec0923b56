// The checks of a SimConfig that need no fabric: every parameter combination the model cannot
// run (docs/sim-model.md), refused with a message that says why. simulate() runs them first;
// `ibrt sim` and `ibrt sweep` run them before they read a fabric or route it, so a bad
// configuration costs nothing. Checks that need the fabric (a pattern that does not fit the
// number of end nodes, a hot node out of range) stay with DestinationPattern and the network
// set-up.
#pragma once

#include "sim/simulator.hpp"

namespace ibrt::sim {

// Throws std::invalid_argument naming the problem.
void check_config(const SimConfig& c);

} // namespace ibrt::sim
