// The one JSON record of a simulator run: a run of ibrt-sim/1 (tools/cmd_sim.cpp's header gives
// the schema), written by `ibrt sim --json` and by every sweep point (tools/sweep_run.cpp), so a
// point's result and a rerun of it with `ibrt sim --config` read alike and cannot disagree.
#pragma once

#include "fabric/fabric.hpp"
#include "sim/simulator.hpp"

#include <nlohmann/json.hpp>

namespace ibrt::tools {

// Full: every link's utilization ("utilization"/"links") and every flow ("flows"), as
// `ibrt sim --json` writes them; Sweep: without those two lists, which grow with the fabric
// (a point's file stays small at 16,384 hosts) and which a sweep's merge does not read.
// "flow_summary" (hot spot and victims, sim/flow_summary.hpp) is in both when flows were kept.
enum class RunDetail { Full, Sweep };

nlohmann::ordered_json run_json(const Fabric& f, double load, const sim::SimResult& r,
                                RunDetail detail);

} // namespace ibrt::tools
