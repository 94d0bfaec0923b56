// Dynamic Routing Balancing (paper 002 §4; docs/sim-model.md "DRB"): a source spreads a flow
// over the alternative paths of its destination — the destination's LMC LIDs — as congestion
// notifications (BECNs) about the flow arrive, and narrows it back to the original path when
// they stop.
//
//   - Paths: the destination's LIDs whose LFT paths from the source differ, the original one
//     (the routing's path selection, else the base LID) first, then shortest first (fewest
//     hops; ties by LID). At most max_paths of them are ever used.
//   - Expansion (§4.1): every notifications_per_path BECNs of a flow open its next path, up to
//     max_paths (the paper: one new path per 10 notifications, at most 4).
//   - Selection, Eq. 1: the open path Cx is taken for the next packet with probability
//         rho(Cx) = 1 / sum_i (B_Cx / B_Ci) = (1 / B_Cx) / sum_i (1 / B_Ci),
//     B_Ci the BECNs received for path Ci since it opened: inverse to its notifications. A path
//     not yet notified counts as one notification (Eq. 1 is undefined for zero), so a fresh
//     path takes most of the traffic until it is notified in turn. Draws come from the run's
//     own stream (seeded from --seed), so a run is reproducible.
//   - Constriction (§4.1: "when counter expires and no more notification packets arrive ... is
//     gradually constricted until the original path is retrieved"): at every expiry of a timer
//     (timer_ps, the paper's 100 us) with no BECN since the flow's last one, the most recently
//     opened path closes; once only the original is left, the next expiry forgets the flow.
//     Expiries are applied lazily, from the time of the last BECN, when the flow is next read
//     (as the CCTI timer of sim/congestion_control.cpp), so an idle flow costs no event until it is
//     freed.
//   - State is kept only for flows that have been notified and not yet forgotten (a FlatMap64
//     from (source, destination) and a pool of fixed-size records), so memory grows with the
//     congested flows, not with N^2. A flow without state sends on its original path.
//
// The paths are ranked per flow; a packet carries its path's rank (< 64) so that the BECN it
// causes can name the path (sim/network.cpp puts it in spare bits of the packet).
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/rng.hpp"
#include "fabric/routing.hpp"
#include "sim/event_queue.hpp"
#include "sim/flat_map.hpp"

#include <cstdint>
#include <functional>
#include <vector>

namespace ibrt::sim {

inline constexpr std::uint32_t kDrbMaxPaths = 64; // a packet carries the rank in 6 bits

struct DrbConfig {
    bool on = false;
    std::uint32_t max_paths = 4;               // 1..kDrbMaxPaths (paper 002: 4)
    std::uint32_t notifications_per_path = 10; // BECNs that open the next path (paper: 10)
    Time timer_ps = 100'000'000;               // constriction timer (paper: 100 us); 0 = never
};

struct DrbStats {
    std::uint64_t notifications = 0;       // BECNs DRB counted
    std::uint64_t paths_opened = 0;        // expansions
    std::uint64_t constrictions = 0;       // paths closed by the timer
    std::uint64_t flows_freed = 0;         // flows back to the original path and forgotten
    std::uint64_t alternative_packets = 0; // packets sent on a path other than the original
    std::uint32_t peak_open_paths = 0;     // most paths one flow had open at once
    std::uint64_t peak_flows = 0;          // most flows with DRB state at once
};

// The alternative paths of the flow from CA port `src` to the CA whose LIDs are
// base .. base + 2^lmc - 1: the LIDs whose LFT walks reach it, identical paths once, the
// `original` LID first and the others by (hops, LID); at most `max` of them.
std::vector<Lid> drb_paths(const Fabric& f, const Routing& r, PortId src, Lid original, Lid base,
                           std::uint8_t lmc, std::uint32_t max);

class Drb {
  public:
    // `paths(src, dst, original, out)` fills a flow's ranked paths (drb_paths, in the
    // simulator); called once when a flow gets state.
    using PathsFn = std::function<void(std::uint32_t src, std::uint32_t dst, Lid original,
                                       std::vector<Lid>& out)>;
    Drb(const DrbConfig& cfg, std::uint64_t seed, PathsFn paths);

    // The DLID of the next packet of (src, dst) whose original path is `original`, and its
    // path's rank (0 = the original).
    Lid pick(std::uint32_t src, std::uint32_t dst, Lid original, Time now, std::uint8_t& rank);

    // A BECN for the packet of (src, dst) that took path `rank`. Returns the time at which
    // check() must be called for this flow (0: none needed now), with the flow's id and
    // generation in `flow`, `gen`.
    Time notify(std::uint32_t src, std::uint32_t dst, Lid original, std::uint8_t rank, Time now,
                std::uint32_t& flow, std::uint32_t& gen);
    // The timer check scheduled by notify: frees the flow if every path but the original has
    // closed and a further expiry passed; returns the next check time (0: none).
    Time check(std::uint32_t flow, std::uint32_t gen, Time now);

    const DrbStats& stats() const { return stats_; }
    std::uint64_t live_flows() const { return live_; }
    // Open paths of (src, dst) at `now` (1 without state); for tests.
    std::uint32_t open_paths(std::uint32_t src, std::uint32_t dst, Time now) const;
    // BECNs counted on path `rank` of (src, dst) (0 without state); for tests.
    std::uint32_t notifications(std::uint32_t src, std::uint32_t dst, std::uint32_t rank) const;

  private:
    struct Flow {
        std::uint32_t src = 0, dst = 0;
        std::uint32_t gen = 0;
        bool live = false;
        std::uint8_t npaths = 0;   // ranked paths known
        std::uint8_t open = 1;     // paths open right after the last BECN
        std::uint32_t pending = 0; // BECNs since the last expansion
        Time last = 0;             // time of the last BECN
        Time check_at = 0;         // a check() is scheduled then (0: none)
    };
    static std::uint64_t key(std::uint32_t src, std::uint32_t dst) {
        return std::uint64_t(src) << 32 | dst;
    }
    // Timer expiries since the flow's last BECN.
    std::uint64_t expiries(const Flow& fl, Time now) const {
        return cfg_.timer_ps == 0 || now <= fl.last ? 0 : (now - fl.last) / cfg_.timer_ps;
    }
    // Closes the paths the timer has closed by `now`; false when the flow has expired.
    bool settle(std::uint32_t f, Time now);
    void release(std::uint32_t f);

    DrbConfig cfg_;
    gen::Rng rng_;
    PathsFn paths_;
    FlatMap64 index_;
    std::vector<Flow> flows_;
    std::vector<Lid> lids_;            // flow f's paths at [f * max_paths, ...)
    std::vector<std::uint32_t> becns_; // per path: B_Ci
    std::vector<std::uint32_t> free_;
    std::vector<Lid> scratch_;
    std::uint64_t live_ = 0;
    DrbStats stats_;
};

} // namespace ibrt::sim
