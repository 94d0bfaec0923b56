// The one peak-memory figure every benchmark prints: the process's peak resident set size
// (getrusage; Linux reports ru_maxrss in KiB), in MiB.
#pragma once

#include <sys/resource.h>

namespace ibrt::bench {

inline double peak_rss_mib() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;
}

} // namespace ibrt::bench
