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

// Picks the VL to serve from `ready` (bit v set = VL v can send a packet of `bytes`).
int vl_arbitrate(const VlArbConfig& cfg, VlArbState& st, std::uint32_t ready, std::uint32_t bytes);

} // namespace ibrt::sim
