// The subcommand registry and the progress line (command.hpp), apart from main() so the
// commands' modules link into unit tests (tests/tools) as they link into the tool.
#include "tools/command.hpp"

#include <fmt/core.h>

#include <cstdio>
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
