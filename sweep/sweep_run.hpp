// Running and merging a sweep's points (issue 17): each point's result is one small JSON file
// under OUT/points/, written atomically (temporary file + rename), so a sweep interrupted on
// one machine, a killed Slurm array task or a re-run skips the points already done and no point
// is lost or counted twice; points run in parallel on -j threads, each seeded only from its
// own spec, so the results do not depend on -j, shards or hosts; the merge reads the files in
// grid order and writes CSV, JSON and SVG (paper 000 §5.2's latency / accepted-traffic form,
// drawn by matplotlib through plot/plot.hpp) to the same bytes wherever the points ran.
#pragma once

#include "sweep/sweep_spec.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace ibrt::sweep {

// Writes `text` to `path` through a temporary file in the same directory and rename(2): a
// reader (or a resumed run) sees the whole file or none. Throws InputError on failure.
void write_file_atomically(const std::string& path, const std::string& text);

// OUT/points/ID.json.
std::string point_result_path(const std::string& out_dir, const SweepPoint& p);

// Whether the point's result is there (a finished point; a crash leaves at most a temporary).
bool point_done(const std::string& out_dir, const SweepPoint& p);

// Runs one point and returns its result: {"id", "index", "point", "fabric_name", "runs": [...],
// "failed", "error"?, "declined"?, "seconds"}. A routing the engine declines is a result with
// "error" and "declined": true, not failed; bad input (a missing file) throws InputError.
nlohmann::json run_point(const SweepSpec& spec, const SweepPoint& p);

struct SweepRunOptions {
    std::string out_dir;
    unsigned jobs = 1;
    bool quiet = false;
};
struct SweepRunStats {
    std::size_t total = 0, skipped = 0, ran = 0, failed = 0, declined = 0;
};

// OUT/manifest.json: the spec's title and every point id in grid order (what the merge
// expects). Written by every runner, with the same bytes.
void write_manifest(const SweepSpec& spec, const std::string& out_dir);

// Runs the given points not done yet on `jobs` threads, with a progress line on stderr, and
// writes OUT/manifest.json (every point id of the spec, in grid order) for the merge.
SweepRunStats run_points(const SweepSpec& spec, const std::vector<const SweepPoint*>& points,
                         const SweepRunOptions& o);

struct MergeStats {
    std::size_t points = 0, missing = 0, failed = 0, declined = 0;
    // Each figure written (sweep.svg, saturation.svg, flows.svg) and its spec (plot/plot.hpp).
    std::map<std::string, nlohmann::ordered_json> plots;
};
// Merges OUT/points/*.json (in manifest order) into OUT/sweep.csv, OUT/sweep.json and
// OUT/sweep.svg; `plot_also`: more files drawn with sweep.svg's figure (the one-line form's
// --plot, SVG or PNG by the name). Missing points are listed on stderr and counted.
MergeStats merge_sweep(const std::string& out_dir, const std::string& title = "",
                       const std::vector<std::string>& plot_also = {});

} // namespace ibrt::sweep
