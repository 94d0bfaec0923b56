// The subcommand registry (command.hpp), apart from main() so the commands' modules link into
// unit tests (tests/tools) as they link into the tool.
#include "tools/command.hpp"

namespace ibrt::tools {

std::vector<Command>& command_registry() {
    static std::vector<Command> registry;
    return registry;
}

} // namespace ibrt::tools
