// `ibrt`: the command-line front end. Parses the subcommand and maps failures to exit codes;
// each subcommand lives in its own tools/cmd_*.cpp.
#include "fabric/input_error.hpp"
#include "fabric/printable.hpp"
#include "tools/command.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <unistd.h>

namespace ibrt::tools {

std::vector<Command>& command_registry() {
    static std::vector<Command> registry;
    return registry;
}

void progress(const std::string& line) {
    static const bool tty = isatty(fileno(stderr));
    if (tty) fmt::print(stderr, "\r\033[K{}", line);
}

} // namespace ibrt::tools

int main(int argc, char** argv) {
    using namespace ibrt::tools;
    CLI::App app{"ibrt: InfiniBand routing toolkit (fat-tree MLID routing, LID assignment, "
                 "table checking and packet-level simulation)",
                 "ibrt"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "ibrt 0.1.0");
    app.footer("Exit codes: 0 success, 1 violations found (check), 2 bad input or usage.\n"
               "Run `ibrt <command> --help` for the options of a command.");

    auto& cmds = command_registry();
    std::sort(cmds.begin(), cmds.end(), [](auto& a, auto& b) { return a.name < b.name; });
    std::function<int()> action;
    for (auto& c : cmds) {
        CLI::App* sub = app.add_subcommand(c.name, c.description);
        auto act = c.setup(*sub);
        sub->callback([&action, act] { action = act; });
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        int rc = app.exit(e);
        return rc == 0 ? 0 : kExitBadInput;
    }
    try {
        return action ? action() : kExitBadInput;
    } catch (const ibrt::InputError& e) {
        fmt::print(stderr, "ibrt: {}\n", e.what());
        return kExitBadInput;
    } catch (const std::exception& e) {
        fmt::print(stderr, "ibrt: error: {}\n", ibrt::printable(e.what()));
        return kExitBadInput;
    }
}
