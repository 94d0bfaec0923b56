// The 95 % confidence interval of a mean from independent samples: Student's t (0.975
// quantile, n - 1 degrees of freedom) times the standard error. One answer for the simulator's
// batch means (network.cpp) and a sweep's seeds (sweep/sweep_run.cpp).
#pragma once

#include <cmath>
#include <vector>

namespace ibrt::sim {

// Half-width of the interval around the mean of `x`; -1 for fewer than 2 samples.
inline double ci95_half_width(const std::vector<double>& x) {
    // t(0.975, df) for df = 1..30; past 30 the normal 1.96 is within 2 %.
    static constexpr double t975[] = {0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
                                      2.306, 2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
                                      2.120, 2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
                                      2.064, 2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
    const std::size_t n = x.size();
    if (n < 2) return -1;
    double mean = 0, ss = 0;
    for (double v : x) mean += v;
    mean /= double(n);
    for (double v : x) ss += (v - mean) * (v - mean);
    const double t = n - 1 <= 30 ? t975[n - 1] : 1.96;
    return t * std::sqrt(ss / double(n - 1) / double(n));
}

} // namespace ibrt::sim
