// Weighted round robin over the VLArbitrationTable (IBA vol. 1 §7.6.9). An entry keeps the
// output until its weight is used up (a packet that overruns the remaining weight is still
// sent whole, as the spec allows), then the next entry with a ready VL takes over.
#include "sim/vl_arbiter.hpp"

namespace ibrt::sim {
namespace {

int pick(const std::vector<VlArbEntry>& table, std::uint16_t& idx, std::int32_t& left,
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

bool any_in(const std::vector<VlArbEntry>& table, std::uint32_t ready) {
    for (const auto& e : table)
        if (e.weight > 0 && (ready >> e.vl & 1u)) return true;
    return false;
}

} // namespace

int vl_arbitrate(const VlArbConfig& cfg, VlArbState& st, std::uint32_t ready, std::uint32_t bytes) {
    if (ready == 0) return kNoVl;
    if (cfg.high.empty()) { // the default: no high-priority table, nothing to limit
        const int v = pick(cfg.low, st.lo_idx, st.lo_left, ready, bytes);
        if (v != kNoVl) st.hi_sent = 0;
        return v;
    }
    const bool low_waiting = any_in(cfg.low, ready);
    const bool high_allowed =
        cfg.high_limit == 255 || !low_waiting || st.hi_sent < std::uint32_t(cfg.high_limit) * 4096u;
    if (high_allowed) {
        const int v = pick(cfg.high, st.hi_idx, st.hi_left, ready, bytes);
        if (v != kNoVl) {
            st.hi_sent += bytes;
            return v;
        }
    }
    const int v = pick(cfg.low, st.lo_idx, st.lo_left, ready, bytes);
    if (v != kNoVl) st.hi_sent = 0;
    return v;
}

} // namespace ibrt::sim
