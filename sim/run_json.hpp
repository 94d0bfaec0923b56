// The one JSON record of a simulator run: a run of ibrt-sim/1 (tools/cmd_sim.cpp's header gives
// the schema), written by `ibrt sim --json` and by every sweep point (sweep/sweep_run.cpp), so a
// point's result and a rerun of it with `ibrt sim --config` read alike and cannot disagree
// (issue 41: one simulator result writer, JSON and CSV from one record). It lives beside
// SimResult, as the checker's verdict and its JSON do (check/report.hpp), so that every writer
// above the simulator reads one record.
#pragma once

#include "fabric/fabric.hpp"
#include "sim/simulator.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ibrt::sim {

// Full: every link's utilization ("utilization"/"links") and every flow ("flows"), as
// `ibrt sim --json` writes them; Sweep: without those two lists, which grow with the fabric
// (a point's file stays small at 16,384 hosts) and which a sweep's merge does not read.
// "flow_summary" (hot spot and victims, sim/flow_summary.hpp) is in both when flows were kept.
enum class RunDetail { Full, Sweep };

nlohmann::ordered_json run_json(const Fabric& f, double load, const SimResult& r, RunDetail detail);

// The name of each endpoint (SimResult::endpoints) in the flows of `ibrt sim --json` and
// --flows-csv: its node's name, with the port where the node has more than one end port.
std::vector<std::string> endpoint_names(const Fabric& f, const std::vector<PortId>& endpoints);

// The same records as CSV, for `ibrt sim --csv` and a sweep's sweep.csv alike: load, the
// figures and the verdict (columns 1-16, which scripts read by position), then the optional
// groups some run has (a run without one gets empty cells): congestion-control counters, DRB
// counters; then the 95 % intervals and network latency, measured_unfinished, the flow summary,
// and the stop rule's converged,measure_us.
struct RunCsvColumns {
    bool cc = false, drb = false, flows = false, stop = false;
    // The groups any of `records` (run records above, any JSON type) has.
    template <class Records> static RunCsvColumns of(const Records& records) {
        RunCsvColumns c;
        for (const auto& x : records) {
            c.cc |= x.contains("congestion_control");
            c.drb |= x.contains("drb");
            c.flows |= x.contains("flow_summary");
            c.stop |= x.contains("converged");
        }
        return c;
    }
};
std::string run_csv_header(const RunCsvColumns& c);
std::string run_csv_row(const nlohmann::json& record, const RunCsvColumns& c); // no newline
std::string run_csv_empty(const RunCsvColumns& c); // a run that did not happen: empty cells

} // namespace ibrt::sim
