// Sweeps on a Slurm cluster (issue 17): one job array whose task t runs
// `ibrt sweep SPEC --shard t/N --out DIR` (shard t = the points with index % N == t), points
// packed so short points do not flood the scheduler, within MaxArraySize (several arrays
// when needed, each with an offset added to SLURM_ARRAY_TASK_ID), then a merge job that
// depends on them all (afterany: it merges what finished and lists what is missing). A
// resubmission schedules only the tasks with missing points; done points are skipped anyway.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ibrt::sweep {

struct SlurmArray {
    std::size_t offset = 0;         // shard = SLURM_ARRAY_TASK_ID + offset
    std::vector<std::size_t> tasks; // array indices (shard - offset), ascending
};
struct SlurmPlan {
    std::size_t shards = 0; // N of --shard i/N
    std::vector<SlurmArray> arrays;
};

// Shards N = ceil(points / points_per_task) (at least 1); `needed[t]` says whether shard t has
// a missing point (size N). Arrays hold at most max_array_size indices 0..max_array_size-1.
std::size_t slurm_shards(std::size_t points, std::size_t points_per_task);
SlurmPlan plan_slurm(const std::vector<bool>& needed, std::size_t max_array_size);

// "0-3,5,7-8": Slurm's --array list.
std::string array_ranges(const std::vector<std::size_t>& tasks);

// MaxArraySize of `scontrol show config` output ("MaxArraySize = 1001"); 1001, Slurm's
// default, when absent.
std::size_t parse_max_array_size(const std::string& scontrol_config);

struct SlurmScriptOptions {
    std::string ibrt, spec, out_dir; // absolute paths
    std::size_t shards = 1;
    std::vector<std::string> sbatch_opts; // as #SBATCH lines
    // #SBATCH --time for each job unless sbatch_opts give one (a cluster's default may be
    // minutes, or unlimited and scheduled last).
    std::string time = "1:00:00";
    // Shell lines run in each job before ibrt (e.g. `module load gcc`), in order.
    std::vector<std::string> setup;
};
std::string slurm_task_script(const SlurmScriptOptions& o);
std::string slurm_merge_script(const SlurmScriptOptions& o);

} // namespace ibrt::sweep
