// Output VL arbitration as the IBA VLArbitrationTable describes it (IBA vol. 1 §7.6.9): a high-
// and a low-priority table of (VL, weight) entries, weights in units of 64 bytes, served
// weighted round robin; the high table may send at most LimitOfHighPriority x 4096 bytes while
// low-priority packets wait (255 = unlimited). The arbiter only picks a VL among those that
// have a packet ready and credits for it; the simulator does the rest.
#pragma once

#include <climits>
#include <cstdint>
#include <vector>

namespace ibrt::sim {

struct VlArbEntry {
    std::uint8_t vl = 0;
    std::uint8_t weight = 1; // 64-byte units; 0 = entry disabled
};

struct VlArbConfig {
    std::vector<VlArbEntry> high, low; // empty low = every data VL with weight 1
    std::uint8_t high_limit = 0;       // units of 4096 bytes; 255 = unlimited
};

inline constexpr std::int32_t kFreshWeight = INT32_MIN; // no entry served yet

struct VlArbState {
    std::uint16_t hi_idx = 0, lo_idx = 0;
    std::int32_t hi_left = kFreshWeight, lo_left = kFreshWeight;
    std::uint32_t hi_sent = 0;
};

inline constexpr int kNoVl = -1;

// One table's weighted round robin: the VL to serve from `ready`, kNoVl if none; `idx` and
// `left` are the table's state. Inline with vl_arbitrate below: it runs for every packet sent
// with VLs, and the two calls cost more than the search itself.
inline int vl_arb_pick(const std::vector<VlArbEntry>& table, std::uint16_t& idx, std::int32_t& left,
                       std::uint32_t ready, std::uint32_t bytes) {
    const std::size_t n = table.size();
    if (n == 0) return kNoVl;
    // A fresh state starts at entry 0; otherwise the current entry keeps the output while it
    // has weight left, then the search starts after it.
    const bool fresh = left == kFreshWeight;
    if (idx >= n) idx = 0; // a table shorter than the state's index (not in one run)
    if (!fresh) {
        const VlArbEntry& e = table[idx];
        if (left > 0 && e.weight > 0 && (ready >> e.vl & 1u)) {
            left -= std::int32_t(bytes);
            return e.vl;
        }
    }
    for (std::size_t k = fresh ? 0 : 1, i = idx + k; k <= n; ++k, ++i) {
        if (i >= n) i -= n; // no division per entry: this runs for every packet with VLs
        const VlArbEntry& e = table[i];
        if (e.weight > 0 && (ready >> e.vl & 1u)) {
            idx = std::uint16_t(i);
            left = std::int32_t(e.weight) * 64 - std::int32_t(bytes);
            return e.vl;
        }
    }
    return kNoVl;
}

// vl_arbitrate with a high-priority table (out of line: not the default).
int vl_arbitrate_with_high(const VlArbConfig& cfg, VlArbState& st, std::uint32_t ready,
                           std::uint32_t bytes);

// Picks the VL to serve from `ready` (bit v set = VL v can send a packet of `bytes`).
inline int vl_arbitrate(const VlArbConfig& cfg, VlArbState& st, std::uint32_t ready,
                        std::uint32_t bytes) {
    if (ready == 0) return kNoVl;
    if (!cfg.high.empty()) return vl_arbitrate_with_high(cfg, st, ready, bytes);
    // The default: no high-priority table, nothing to limit.
    const int v = vl_arb_pick(cfg.low, st.lo_idx, st.lo_left, ready, bytes);
    if (v != kNoVl) st.hi_sent = 0;
    return v;
}

} // namespace ibrt::sim
