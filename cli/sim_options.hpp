// The options `ibrt sim` and `ibrt sweep` share (issue 11: "ibrt sim and ibrt sweep build one
// SimConfig the same way"): every model, traffic and measurement parameter of sim::SimConfig,
// registered on both commands by one function with one set of defaults (docs/sim-model.md)
// and turned into a SimConfig by one function; the routing options (tables from files or an
// engine in-process) loaded by one function; and the JSON that echoes the configuration a run
// actually used. What differs is only what each command varies: `sim` runs one VL count over a
// list of loads (or a saturation search), `sweep` every engine x VL count x load.
#pragma once

#include <string_view>

#include "cli/engine_cli.hpp"
#include "fabric/fabric.hpp"
#include "fabric/routing.hpp"
#include "sim/simulator.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace ibrt::cli {

struct SimOptions {
    // Traffic.
    std::string pattern = "uniform", injection = "bernoulli", dlid = "auto", sl = "path";
    std::string selection = "mc";
    double hot_fraction = 0.1;
    std::uint32_t hot_node = 0;
    int shift = -1;                     // rotation; -1 = N/2
    std::uint32_t group_hosts = 0;      // bad-dragon: hosts per group
    std::string host_order = "natural"; // sim/host_order.hpp
    std::string pairs_file;             // pairs: SOURCE DESTINATION per line (sim::read_pairs)
    std::uint32_t packet_bytes = 256, message_bytes = 0;
    // Model.
    std::uint32_t buffer_bytes = 1024, output_buffer_bytes = 0, source_queue = 256;
    std::uint32_t credit_unit = 64;
    double fly_ns = 20, routing_ns = 100, ns_per_byte = 0, credit_delay_ns = -1;
    int speedup = 1, vlarb_limit = 0;
    bool vc_router = false, one_priority_class = false, room_ignores_bound = false;
    std::string vc_release = "drained";
    double vc_alloc_gap_ns = 0;
    bool vc_input_first = false;
    std::string select_at = "head";
    std::string via = "none";
    std::string vlarb_high, vlarb_low;
    // Measurement.
    double warmup_us = 10, measure_us = 50, drain_us = 50, deadlock_us = 0;
    double ci_target = 0, max_measure_us = 0; // sim::SimConfig::ci_target, max_measure_ps
    std::uint64_t seed = 1;
    bool saturation = false;
    double saturation_max = 1.0, saturation_tolerance = 0.05;
    int saturation_steps = 7;
    // Congestion control (sim/cc_config.hpp): opensm.conf's options, then --cc-option lines.
    std::string opensm_conf;
    std::vector<std::string> cc_options;
    double cc_becn_delay_ns = 0;
    std::uint32_t cc_becn_bytes = 34;
    bool flow_stats = false;
    std::string cc_injection_delay = "on"; // off: FECN/BECN only (DRB alone, paper 002)
    // DRB (paper 002 §4; sim/drb.hpp).
    bool drb = false;
    std::uint32_t drb_max_paths = 4, drb_notifications = 10;
    double drb_timer_us = 100;
    std::string drb_paths = "lmc"; // lmc: the routing's LIDs; dfs: extra LIDs by DFS
    // hotspot: the hot spot's window (-1: to the end of the run).
    double hot_start_us = 0, hot_end_us = -1;
};

// Help of --vls, said the same way by both commands.
inline constexpr const char* kVlsHelp =
    "Data VLs. A packet takes VL = SL2VL[SL] (SL mod VLs where a node has no table) with the SL "
    "--sl gives: with --sl path and every path on SL 0, VLs other than 0 stay unused (said on "
    "stderr); --sl spread uses them all";

// The --help groups of the model's options (add_sim_options): `ibrt sweep --print-spec`
// collects the options of these groups into a spec's "sim".
inline constexpr std::string_view kSimOptionGroups[] = {
    "Traffic", "Switch model", "Selection (forwarding sets)",
    "Timing",  "Measurement",  "Congestion control"};

// Registers every SimOptions field (groups Traffic, Model, Measurement). The VL count and the
// offered loads are the caller's: sim takes one VL count, sweep a list.
void add_sim_options(CLI::App& sub, SimOptions& o);

// The one SimConfig both commands run (num_vls 1, load 0: the caller sets them). Throws
// InputError naming the option.
sim::SimConfig make_sim_config(const SimOptions& o);

// sim::check_config as bad input: called once the VL count is set, before any file is read,
// so a configuration the model cannot run costs nothing.
void check_sim_config(const sim::SimConfig& c);

// "VL:WEIGHT,..." (--vlarb-high / --vlarb-low).
std::vector<sim::VlArbEntry> parse_vlarb(const std::string& s, const char* what);
// "0.1,0.2,..." (--load): numbers >= 0.
std::vector<double> parse_loads(const std::string& s, const char* what);

// Where the routing comes from: tables from files (--lfts and its companions) or an engine
// in-process (--engine; --guid2lid then pre-assigns its LIDs), plus optional SL2VL tables and
// path selection in either case.
struct RoutingOptions {
    std::string lfts, guid2lid, sl2vl, path_selection, path_sl, tables;
    EngineCli engine; // --lmc, --engine-opt, --data-vls
};
void add_routing_options(CLI::App& sub, RoutingOptions& o);

// Routes `f` (read from `fabric_path`) with `engine`, or reads the tables when `engine` is
// empty. Throws InputError (bad files, unknown engine) and RoutingError (the engine declined).
Routing load_sim_routing(const Fabric& f, const std::string& fabric_path, const RoutingOptions& o,
                         const std::string& engine);

// With --drb-paths dfs (with or without --drb), `r` with extra LIDs whose paths a DFS found
// (engines/multipath/dfs_paths.hpp), as many as --drb-max-paths; with --drb-paths lmc, a note
// when the routing gives DRB no alternative. `vls` > 0: the VLs the run has, refused (exit 2)
// when the DFS paths need more. Notes go to stderr prefixed by `who`.
void apply_drb_paths(const Fabric& f, const SimOptions& o, Routing& r, unsigned vls,
                     const char* who);

// The configuration a run used: every SimConfig parameter, with what the simulator resolved
// (DLID policy, credit delay, watchdog period, VLArb tables, message size, rotation shift) from
// its result.
nlohmann::ordered_json sim_config_json(const sim::SimConfig& c, const sim::SimResult& ran);

} // namespace ibrt::cli
