// Slurm job-array scripts and plans for sweeps; see sweep_slurm.hpp.
#include "sweep/sweep_slurm.hpp"

#include <fmt/core.h>

#include <regex>

namespace ibrt::sweep {
namespace {

// Single-quoted for bash.
std::string quoted(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::string header(const SlurmScriptOptions& o, const std::string& name, const std::string& log) {
    std::string s = "#!/bin/bash\n";
    s += fmt::format("#SBATCH --job-name={}\n", name);
    s += fmt::format("#SBATCH --output={}/slurm/{}\n", o.out_dir, log);
    bool time = false;
    for (const auto& opt : o.sbatch_opts) {
        s += fmt::format("#SBATCH {}\n", opt);
        time |= opt.starts_with("--time") || opt.starts_with("-t");
    }
    if (!time && !o.time.empty()) s += fmt::format("#SBATCH --time={}\n", o.time);
    s += "set -eu\n";
    for (const auto& line : o.setup) s += line + "\n";
    // The output directory must be the one the submitting host sees: a node-local path
    // (/tmp on most clusters) would make each node's results its own and the merge miss them.
    s += fmt::format("[ -d {0} ] || {{ echo \"ibrt sweep: {0} is not visible on $(hostname): "
                     "give --out on a filesystem the compute nodes share\" >&2; exit 1; }}\n",
                     quoted(o.out_dir));
    return s;
}

} // namespace

std::size_t slurm_shards(std::size_t points, std::size_t points_per_task) {
    if (points_per_task == 0) points_per_task = 1;
    return std::max<std::size_t>(1, (points + points_per_task - 1) / points_per_task);
}

SlurmPlan plan_slurm(const std::vector<bool>& needed, std::size_t max_array_size) {
    SlurmPlan p;
    p.shards = needed.size();
    if (max_array_size == 0) max_array_size = 1;
    for (std::size_t t = 0; t < needed.size(); ++t) {
        if (!needed[t]) continue;
        const std::size_t offset = t / max_array_size * max_array_size;
        if (p.arrays.empty() || p.arrays.back().offset != offset) p.arrays.push_back({offset, {}});
        p.arrays.back().tasks.push_back(t - offset);
    }
    return p;
}

std::string array_ranges(const std::vector<std::size_t>& tasks) {
    std::string s;
    for (std::size_t i = 0; i < tasks.size();) {
        std::size_t j = i;
        while (j + 1 < tasks.size() && tasks[j + 1] == tasks[j] + 1) ++j;
        s += (s.empty() ? "" : ",") +
             (j == i ? fmt::format("{}", tasks[i]) : fmt::format("{}-{}", tasks[i], tasks[j]));
        i = j + 1;
    }
    return s;
}

std::size_t parse_max_array_size(const std::string& text) {
    static const std::regex re(R"(MaxArraySize\s*=\s*(\d+))");
    std::smatch m;
    if (std::regex_search(text, m, re)) return std::stoul(m[1].str());
    return 1001;
}

std::string slurm_task_script(const SlurmScriptOptions& o) {
    return header(o, "ibrt-sweep", "%A_%a.out") +
           fmt::format(
               "# Shard = array index + IBRT_SHARD_OFFSET (set by `ibrt sweep --slurm` when "
               "the sweep needs\n# more than one array). Done points are skipped.\n"
               "shard=$(( SLURM_ARRAY_TASK_ID + ${{IBRT_SHARD_OFFSET:-0}} ))\n"
               "exec {} sweep {} --shard \"$shard/{}\" --out {} -j "
               "\"${{SLURM_CPUS_PER_TASK:-1}}\" --quiet\n",
               quoted(o.ibrt), quoted(o.spec), o.shards, quoted(o.out_dir));
}

std::string slurm_merge_script(const SlurmScriptOptions& o) {
    return header(o, "ibrt-sweep-merge", "merge-%j.out") +
           fmt::format("exec {} sweep merge {}\n", quoted(o.ibrt), quoted(o.out_dir));
}

} // namespace ibrt::sweep
