// The progress line of long runs (`ibrt route`, `lids`, `sim`, `sweep`): one line on stderr,
// rewritten in place, shown only when stderr is a terminal, so that logs and pipes get none.
#pragma once

#include <string>

namespace ibrt::cli {

// Replaces the progress line with `line` ("" clears it).
void progress(const std::string& line);

} // namespace ibrt::cli
