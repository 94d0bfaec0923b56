// Subcommand registry of the `ibrt` tool. Each tools/cmd_<name>.cpp defines one subcommand
// and registers it with a static CommandRegistrar, so adding a command touches one file.
//
// Exit codes follow the convention of checkers such as ibdiagnet and fsck:
//   0 success / clean, 1 violations found, 2 bad input or usage, 3 cannot judge (a check
//   lacked the data to decide, e.g. deadlock freedom without path SLs, or a simulation offered
//   no packet; not a pass).
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace ibrt::tools {

inline constexpr int kExitOk = 0;
inline constexpr int kExitViolations = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitCannotJudge = 3;

struct Command {
    std::string name;
    std::string description;
    // Adds options to `sub` and returns the action run when the subcommand is chosen.
    std::function<std::function<int()>(CLI::App& sub)> setup;
    // Optional: called when the command ends on bad input or usage (exit 2), before or during
    // its action, with the message printed; a command whose reports a CI reads (JUnit, JSON)
    // writes them here too, so that CI shows the reason instead of "no report". `sub` holds
    // the options as far as they were parsed (Option::results() has the raw values).
    std::function<void(const CLI::App& sub, const std::string& message)> on_bad_input;
};

std::vector<Command>& command_registry();

struct CommandRegistrar {
    explicit CommandRegistrar(Command c) { command_registry().push_back(std::move(c)); }
};

} // namespace ibrt::tools
