// A sweep spec (issue 17 "one description of a sweep"): the grid of independent simulation
// points a study is made of — paper 003's table is routings x patterns x topologies of
// saturation searches, paper 000 §5.2's figures engines x VLs x loads — read from a JSON file
// and expanded into points in a fixed grid order, each with a stable id (a hash of its
// canonical JSON), so a sweep can be split over cores, shards and Slurm array tasks, resumed,
// and merged to the same bytes wherever its points ran. JSON because nlohmann-json is already
// a dependency (no new parser), its canonical dump (sorted keys) is what the ids hash, and
// every point's result is JSON too. Format and example: docs/sweeps.md.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace ibrt::sweep {

// One point: everything its run depends on, and nothing about where or when it runs.
//   fabric:  {"file": PATH} or {"gen": [ARGS of `ibrt gen`]}  (failure seed as --seed)
//   routing: {"engine": NAME, OPTION: VALUE...} or {"lfts": PATH, ...} (`ibrt sim` options)
//   sim:     {OPTION: VALUE...} (`ibrt sim` model/traffic/measurement options, incl. pattern
//            and seed)
//   vls:     data VL count
//   load:    offered load, or "saturation": {"max", "steps", "tolerance"}
struct SweepPoint {
    std::size_t index = 0; // grid order
    std::string id;        // 16 hex digits: FNV-1a 64 of json.dump()
    nlohmann::json json;   // canonical (nlohmann::json sorts keys)
};

struct SweepSpec {
    std::string file;     // where it was read from ("" for a spec built from options)
    std::string base_dir; // relative fabric/table paths are resolved against it
    std::string title;
    std::vector<SweepPoint> points;
};

// Stable id of a point's canonical JSON: FNV-1a 64, 16 lowercase hex digits.
std::string point_id(const nlohmann::json& canonical);

// More points than a spec may expand to (a few lines of lists can name billions): a study
// that large is several specs.
inline constexpr std::size_t kMaxSweepPoints = 1'000'000;

// Parses, checks and expands a spec. Every value is checked against the spec's schema (its
// keys, their types, the element types of lists, ranges, and `ibrt sim`'s own check of each
// option value) before any point is made; then every distinct option set of the grid is
// checked as `ibrt sim` would. Throws InputError naming the file, the line and the value's
// JSON pointer (`spec.json:7: /seeds/1: expected a whole number 0..2^64-1, got []`), for JSON
// syntax too, a key given twice and a grid of more than `max_points`.
SweepSpec parse_sweep_spec(const std::string& text, const std::string& file,
                           std::size_t max_points = kMaxSweepPoints);
// The spec file (a regular file, as every input: formats/input_file.hpp).
SweepSpec read_sweep_spec(const std::string& path);

// The points of shard i of n: index % n == i (round robin, so long and short points of one
// grid row spread over the shards).
std::vector<const SweepPoint*> shard_points(const SweepSpec& s, std::size_t i, std::size_t n);

// "i/N" -> {i, N}; throws InputError unless 0 <= i < N.
std::pair<std::size_t, std::size_t> parse_shard(const std::string& text);

} // namespace ibrt::sweep
