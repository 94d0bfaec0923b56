// `ibrt`: the command-line front end. Parses the subcommand and maps failures to exit codes;
// each subcommand lives in its own tools/cmd_*.cpp.
#include "fabric/input_error.hpp"
#include "fabric/printable.hpp"
#include "tools/command.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>
#include <sstream>
#include <vector>

namespace ibrt::tools {

// CLI11 2.1 leaves a single space between an option name of 28 characters and its
// description, which reads as one run-on line; help2man, which makes the man pages from
// --help (tools/man/gen-man.sh), needs two to tell them apart. Such a name gets its own line.
class HelpFormatter : public CLI::Formatter {
  public:
    std::string make_option(const CLI::Option* opt, bool positional) const override {
        std::string name = make_option_name(opt, positional) + make_option_opts(opt);
        if (name.size() + 3 == get_column_width()) name += ' ';
        std::stringstream out;
        CLI::detail::format_help(out, name, make_option_desc(opt), get_column_width());
        return out.str();
    }
};

} // namespace ibrt::tools

int main(int argc, char** argv) {
    using namespace ibrt::tools;
    CLI::App app{"ibrt: InfiniBand routing toolkit (routing engines for fat trees and direct "
                 "topologies, LID assignment, table checking and packet-level simulation)",
                 "ibrt"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "ibrt 0.1.0");
    app.formatter(std::make_shared<HelpFormatter>()); // before the subcommands: they inherit it
    app.footer(
        "Run `ibrt <command> --help` for the options of a command (man ibrt-<command>).\n"
        "Exit codes: 0 success, 1 violations found (check, diff, sa-path-sls, sim, "
        "sweep), 2 bad\ninput or usage, 3 cannot judge (check; sim when a run offered nothing).");

    auto& cmds = command_registry();
    std::sort(cmds.begin(), cmds.end(), [](auto& a, auto& b) { return a.name < b.name; });
    std::function<int()> action;
    std::vector<CLI::App*> subs;
    for (auto& c : cmds) {
        CLI::App* sub = app.add_subcommand(c.name, c.description);
        auto act = c.setup(*sub);
        sub->callback([&action, act] { action = act; });
        subs.push_back(sub);
    }
    // Exit 2, after the message: the chosen command's own reports of it.
    auto bad_input = [&](const std::string& message) {
        for (std::size_t i = 0; i < cmds.size(); ++i)
            if (subs[i]->parsed() && cmds[i].on_bad_input) cmds[i].on_bad_input(*subs[i], message);
        return kExitBadInput;
    };
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        int rc = app.exit(e);
        return rc == 0 ? 0 : bad_input(e.what());
    }
    try {
        return action ? action() : kExitBadInput;
    } catch (const ibrt::InputError& e) {
        fmt::print(stderr, "ibrt: {}\n", e.what());
        return bad_input(e.what());
    } catch (const std::exception& e) {
        const std::string message = ibrt::printable(e.what());
        fmt::print(stderr, "ibrt: error: {}\n", message);
        return bad_input(message);
    }
}
