// `ibrt sim --config FILE` (issue 38: "an experiment is a file, as in BookSim"): a JSON object
// whose keys are `ibrt sim`'s options without their "--" — the names a sweep spec's "sim" uses
// (docs/sweeps.md) — or one sweep point as a sweep's OUT/points/ID.json holds it under "point"
// ("fabric": {"file"}, "routing", "sim", "cc", "vls", "load" or "saturation"), read as those
// options. There is no second vocabulary: each value goes through the option's own parser and
// checks, as if it had been given on the command line, so a file can say nothing the command
// line cannot, and an option given on the command line wins over the file.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <string>

namespace ibrt::tools {

// Sets the options of `sub` that the command line left unset from the file at `path` ("-":
// standard input). Relative file names in it are taken from the file's directory, as in a sweep
// spec (in a point's result file, from the current one: the file does not say the spec's). Output
// options (group "Output") are the command line's. Throws InputError naming the file, the key's
// line and the problem.
void apply_sim_config_file(CLI::App& sub, const std::string& path);

// The options of `sub` that were set (on the command line or by --config) under their names,
// output options left out: what `ibrt sim --json` echoes as "options", which --config reads
// back to the same run (its file names as given: run it from the same directory).
nlohmann::ordered_json set_sim_options(const CLI::App& sub);

} // namespace ibrt::tools
