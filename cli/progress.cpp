// The progress line; see progress.hpp.
#include "cli/progress.hpp"

#include <fmt/core.h>

#include <cstdio>
#include <unistd.h>

namespace ibrt::cli {

void progress(const std::string& line) {
    static const bool tty = isatty(fileno(stderr));
    if (tty) fmt::print(stderr, "\r\033[K{}", line);
}

} // namespace ibrt::cli
