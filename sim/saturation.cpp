// Bisection for the saturation point (see saturation.hpp).
#include "sim/saturation.hpp"

namespace ibrt::sim {

bool is_saturated(const SimResult& r, double tolerance) {
    const bool progressed = r.verdict == Verdict::Ok || r.verdict == Verdict::NothingOffered;
    return !progressed || r.accepted_fraction < (1.0 - tolerance) * r.offered_fraction;
}

Saturation find_saturation(const Fabric& f, const Routing& r, SimConfig cfg, double hi, int steps,
                           double tolerance, const ProgressFn& progress) {
    Saturation s;
    s.tolerance = tolerance;
    auto run = [&](double load) {
        cfg.traffic.load = load;
        SaturationPoint p{load, simulate(f, r, cfg, progress), false};
        p.saturated = is_saturated(p.result, tolerance);
        if (p.result.accepted_fraction > s.max_accepted) {
            s.max_accepted = p.result.accepted_fraction;
            s.max_accepted_load = load;
        }
        if (!p.saturated && load > s.onset_load) {
            s.onset_load = load;
            s.onset_accepted = p.result.accepted_fraction;
        }
        s.runs.push_back(std::move(p));
        return s.runs.back().saturated;
    };
    if (!run(hi)) return s; // not even saturated at the top
    double lo = 0;
    for (int i = 0; i < steps; ++i) {
        const double mid = (lo + hi) / 2;
        if (run(mid))
            hi = mid;
        else
            lo = mid;
    }
    return s;
}

} // namespace ibrt::sim
