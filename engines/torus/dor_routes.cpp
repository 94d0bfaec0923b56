// DOR with detours; see dor_routes.hpp.
#include "engines/torus/dor_routes.hpp"

namespace ibrt::torus {

std::uint32_t DorRouter::pristine_crossings(std::uint32_t x, std::uint32_t dst,
                                            std::uint32_t skip) const {
    std::uint32_t mask = 0;
    for (int d = 0; d < g_.dims(); ++d) {
        const int xd = g_.coord(x, d), td = g_.coord(dst, d);
        if (xd == td || (skip >> d & 1)) continue;
        const int dir = preferred_dir(dst, d, xd, td);
        if (dir == kPlus ? td < xd : td > xd) mask |= 1u << d;
    }
    return mask;
}

int DorRouter::feasible_dir(std::uint32_t x, std::uint32_t dst, int d, int td, int short_by) const {
    const int k = g_.k(d), xd = g_.coord(x, d);
    const int fw = ((td - xd) % k + k) % k - short_by, bw = k - fw - 2 * short_by;
    const bool plus = fw >= 0 && fw <= g_.reach(x, d, kPlus);
    const bool minus = bw >= 0 && bw <= g_.reach(x, d, kMinus);
    if (plus && minus) {
        if (fw != bw) return fw < bw ? kPlus : kMinus;
        return preferred_dir(dst, d, xd, td);
    }
    return plus ? kPlus : minus ? kMinus : -1;
}

std::uint8_t DorRouter::next(std::uint32_t x, std::uint32_t dst) const {
    const int nd = g_.dims();
    int d = 0;
    while (d < nd && g_.coord(x, d) == g_.coord(dst, d)) ++d;
    if (d == nd) return kArrived;
    const int xd = g_.coord(x, d), td = g_.coord(dst, d);
    if (g_.intact(x, d)) return hop_code(d, preferred_dir(dst, d, xd, td));
    if (const int dir = feasible_dir(x, dst, d, td, 0); dir >= 0) return hop_code(d, dir);
    // Blocked in d. When the switch where DOR would turn is the missing one, travel on to its
    // neighbour and turn there; otherwise (the ring is cut twice) turn here.
    if (g_.at_offset(x, d, td - xd) == kNone) {
        const int dir = feasible_dir(x, dst, d, td, 1);
        const int k = g_.k(d);
        const int left = dir == kPlus    ? ((td - xd) % k + k) % k - 1
                         : dir == kMinus ? ((xd - td) % k + k) % k - 1
                                         : 0;
        if (dir >= 0 && left > 0) return hop_code(d, dir);
    }
    for (int e = d + 1; e < nd; ++e) {
        const int xe = g_.coord(x, e), te = g_.coord(dst, e);
        if (xe == te) continue;
        int dir = g_.intact(x, e) ? preferred_dir(dst, e, xe, te) : feasible_dir(x, dst, e, te, 0);
        if (dir < 0) dir = preferred_dir(dst, e, xe, te);
        if (g_.reach(x, e, dir) > 0) return hop_code(e, dir);
        if (g_.reach(x, e, 1 - dir) > 0) return hop_code(e, 1 - dir);
    }
    // Nothing left to correct after d: D is on x's line, which is cut between them. Step aside
    // into a later dimension, to a line that reaches td; the step back follows by DOR.
    for (int e = d + 1; e < nd; ++e)
        for (int dir : {kPlus, kMinus}) {
            if (g_.reach(x, e, dir) == 0) continue;
            const std::uint32_t y = g_.neighbour(x, e, dir);
            if (g_.intact(y, d) || feasible_dir(y, dst, d, td, 0) >= 0) return hop_code(e, dir);
        }
    return kBlocked;
}

} // namespace ibrt::torus
