// Weighted round robin over the VLArbitrationTable (IBA vol. 1 §7.6.9). An entry keeps the
// output until its weight is used up (a packet that overruns the remaining weight is still
// sent whole, as the spec allows), then the next entry with a ready VL takes over.
#include "sim/vl_arbiter.hpp"

namespace ibrt::sim {
namespace {

bool any_in(const std::vector<VlArbEntry>& table, std::uint32_t ready) {
    for (const auto& e : table)
        if (e.weight > 0 && (ready >> e.vl & 1u)) return true;
    return false;
}

} // namespace

int vl_arbitrate_with_high(const VlArbConfig& cfg, VlArbState& st, std::uint32_t ready,
                           std::uint32_t bytes) {
    const bool low_waiting = any_in(cfg.low, ready);
    const bool high_allowed =
        cfg.high_limit == 255 || !low_waiting || st.hi_sent < std::uint32_t(cfg.high_limit) * 4096u;
    if (high_allowed) {
        const int v = vl_arb_pick(cfg.high, st.hi_idx, st.hi_left, ready, bytes);
        if (v != kNoVl) {
            st.hi_sent += bytes;
            return v;
        }
    }
    const int v = vl_arb_pick(cfg.low, st.lo_idx, st.lo_left, ready, bytes);
    if (v != kNoVl) st.hi_sent = 0;
    return v;
}

} // namespace ibrt::sim
