// Dimension-order routing on a torus, with the detours of a degraded one (paper 003 §3.2; the
// failure handling follows what opensm's torus-2QoS documents, without its configuration).
//
// Pristine: a packet corrects its coordinates one dimension at a time, lowest first, each on
// the shorter way round its ring; at distance K/2 both ways are as short and the destination
// picks (parity of its coordinate sum plus the dimension), which halves the load of those
// paths over the two directions and keeps every switch on a path agreeing (past the first hop
// the distance is below K/2). Routing depends on the destination switch only, so one next hop
// per (switch, destination switch) is an LFT.
//
// Degraded: a ring that lost a link or a switch is a path, and a packet takes the way round
// that is still there (the long way if it must). A broken ring has no cycle to close, so its
// dateline no longer matters and the path SL need not change. When a packet cannot reach the
// coordinate it wants in the current dimension (the switch where DOR would turn is the failed
// one, or the ring is cut in two places), it turns early: as close to the obstacle as it can
// get, it takes one hop in the next dimension it still has to correct, and DOR resumes from
// there, which turns back into the lower dimension: a turn DOR forbids (see torus_engine.cpp for
// the VL it gets). A packet whose last dimension to correct is cut in two has no such turn:
// next() says kBlocked and the engine routes that destination on its escape VL.
#pragma once

#include "engines/torus/torus_grid.hpp"

#include <cstdint>

namespace ibrt::torus {

inline constexpr std::uint8_t kArrived = 0xfe; // next(): x is the destination
inline constexpr std::uint8_t kBlocked = 0xff; // next(): no hop that DOR or a detour allows

inline std::uint8_t hop_code(int dim, int dir) {
    return static_cast<std::uint8_t>(dim * 2 + dir);
}
inline int hop_dim(std::uint8_t code) {
    return code >> 1;
}
inline int hop_dir(std::uint8_t code) {
    return code & 1;
}

class DorRouter {
  public:
    explicit DorRouter(const TorusGrid& g) : g_(g) {}

    // The hop from switch x toward switch dst (hop_code), kArrived or kBlocked.
    std::uint8_t next(std::uint32_t x, std::uint32_t dst) const;
    // The direction the pristine torus takes in dimension d from coordinate xd to td.
    int preferred_dir(std::uint32_t dst, int d, int xd, int td) const {
        const int k = g_.k(d);
        int fw = td - xd;
        if (fw < 0) fw += k;
        if (2 * fw != k) return 2 * fw < k ? kPlus : kMinus;
        return (g_.parity(dst) ^ d) & 1 ? kMinus : kPlus;
    }
    // Dimensions (bit d) whose dateline the pristine route from x to dst crosses, among those
    // not in `skip`.
    std::uint32_t pristine_crossings(std::uint32_t x, std::uint32_t dst,
                                     std::uint32_t skip = 0) const;
    // Whether a hop from coordinate xd in direction dir crosses dimension d's dateline, the link
    // between coordinates K-1 and 0.
    bool crosses(int d, int xd, int dir) const {
        return dir == kPlus ? xd == g_.k(d) - 1 : xd == 0;
    }

  private:
    // A direction that gets from x to coordinate td along x's line in d, or -1. `short_by`
    // stops that many switches before td.
    int feasible_dir(std::uint32_t x, std::uint32_t dst, int d, int td, int short_by) const;
    const TorusGrid& g_;
};

} // namespace ibrt::torus
