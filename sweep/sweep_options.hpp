// A sweep point's options as `ibrt sim` reads them (issue 11: one way to build a SimConfig):
// the point's "sim" and "routing" objects become `--option value` arguments parsed by the very
// CLI11 options `ibrt sim` registers (cli/sim_options.hpp), with the same checks and defaults.
#pragma once

#include "cli/sim_options.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ibrt::sweep {

// SimOptions of a point (its sim object, its "cc" lines, load/saturation); throws InputError
// naming the option. Relative file names of the sim object (opensm-conf, pairs-file) are
// relative to `base_dir` (the spec's directory).
cli::SimOptions sweep_sim_options(const nlohmann::json& point, const std::string& base_dir = "");

// A point's "cc" value (a string, or {"label", "value"}): the rest of its opensm.conf line,
// and how legends and CSV columns name it (the label, else the text).
std::string cc_option_text(const nlohmann::json& v);
std::string cc_option_label(const nlohmann::json& v);

struct SweepRouting {
    std::string engine; // "" = tables from files
    cli::RoutingOptions options;
};
SweepRouting sweep_routing_options(const nlohmann::json& point);

// What a key of a spec's "sim" object or of a routing object is to `ibrt sim`'s parser (the
// options add_sim_options and add_routing_options register, so the spec's schema is the
// command line's): not an option, a flag (true or false), an option taking one value, or one
// that takes several (--engine-opt, --cc-option).
enum class OptionKind { Unknown, Flag, Value, List };
OptionKind sim_option_kind(const std::string& key);
OptionKind routing_option_kind(const std::string& key);

// What `ibrt sim`'s parser says of `--key=value` alone (its conversion and range check, e.g.
// "--packet-bytes: must be a whole number in 1..65535, got '0'"), or "" when it takes it. The
// value is a string, a number or a boolean; a relative file name (opensm-conf, pairs-file) is
// relative to `base_dir`. Checks between options need the whole point (sweep_sim_options).
std::string sim_option_problem(const std::string& key, const nlohmann::json& value,
                               const std::string& base_dir = "");
std::string routing_option_problem(const std::string& key, const nlohmann::json& value);

// A JSON value as the command line's strings for one option: a string as it is, a number as
// JSON writes it; a list one string per element for a repeatable option (--engine-opt,
// --cc-option), else one comma-separated string (--load 0.1,0.2). Spec points and
// `ibrt sim --config` files (tools/sim_config_file.hpp) both go through it.
std::vector<std::string> option_strings(const nlohmann::json& v, bool repeatable);

} // namespace ibrt::sweep
