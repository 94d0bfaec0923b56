// Deadlock detection (docs/sim-model.md "Verdicts"): buffers that held the same head for a
// whole watchdog period, and the wait-for graph of full buffers, whose cycle is a deadlock.
#include "sim/network.hpp"

namespace ibrt::sim::detail {

// Buffers occupied now and at the previous tick with no packet leaving in between: the same
// head packet has waited a whole watchdog period. Takes the snapshot for the next tick.
template <class Model> std::vector<std::uint8_t> Network<Model>::stalled_buffers() {
    const std::size_t IB = bufs_.size();
    std::vector<std::uint8_t> stalled(busy_seen_.size(), 0);
    for (std::size_t b = 0; b < busy_seen_.size(); ++b) {
        const bool occupied = head_of(b) != kNil;
        stalled[b] = occupied && busy_seen_[b] && !popped(b);
        busy_seen_[b] = occupied;
        (b < IB ? bufs_[b].popped : opopped_[b - IB]) = 0;
    }
    return stalled;
}

template <class Model> std::string Network<Model>::buffer_name(std::uint32_t b) const {
    // Named as the checker names its channels (fabric/display_name.hpp): an input buffer is
    // the channel that feeds it, an output buffer the channel it feeds.
    const std::size_t IB = bufs_.size(); // ids past the input buffers name output buffers
    const bool out = b >= IB;
    if (out) b -= std::uint32_t(IB);
    const PortId s = b / V_;
    const std::uint32_t vl = b % V_;
    if (out) return display_channel(f_, s, vl) + " (output buffer)";
    if (slots_[s].peer == kNoPort)
        return display_port(f_, f_.port_node(s), f_.port_num(s)) + " VL " + std::to_string(vl);
    return display_channel(f_, slots_[s].peer, vl);
}

// The wait-for graph of full buffers: a switch input buffer whose head packet lacks credits
// waits on the downstream buffer of its next VL. With output buffers, an input buffer's head
// waits on its output buffer when that is full, and an output buffer's head on the downstream
// input buffer (output buffers are numbered after the input buffers). A head not yet bound to
// an output (the extended switch) waits on every candidate's buffer, and on none when one has
// room: it is blocked only if all are. The deadlocked buffers are the largest set whose
// members wait only on members (found by peeling off buffers that wait on anything else);
// the cycle reported is the one the walk from the lowest of them along first waits reaches.
// With one wait per buffer (static tables) that is the first cycle of the old single-successor
// walk, so reports are unchanged.
template <class Model>
std::vector<std::uint32_t>
Network<Model>::blocked_cycle(const std::vector<std::uint8_t>* only) const {
    const std::size_t IB = bufs_.size();
    const std::size_t B = kOutputBuffers ? 2 * IB : IB;
    constexpr std::uint32_t kMoves = kNil;    // has room: not blocked
    constexpr std::uint32_t kSink = kNil - 1; // waits on a CA, which always drains
    // What a head bound for (out, VL) waits on from the buffer it is in; kMoves when it does
    // not wait. In VC-router mode any VC of `out` would do: it waits on them all.
    std::vector<std::uint32_t> to;
    const auto wait_for = [&](PortId out, std::uint32_t ovl, std::int32_t need) {
        const std::uint32_t ob = out * V_ + ovl;
        if constexpr (kOutputBuffers)
            return ocredits_[ob] >= need ? kMoves : std::uint32_t(IB + ob);
        const PortId d = slots_[out].peer;
        const bool sw = is_switch_[f_.port_node(d)];
        if constexpr (kVcRouter) {
            if (vc_free(out, std::uint32_t(need), ovl, false)) return kMoves;
            const std::uint32_t lo = vc_lo_[ovl], hi = vc_lo_[ovl + 1];
            for (std::uint32_t v = lo; v + 1 < hi; ++v) to.push_back(sw ? d * V_ + v : kSink);
            ovl = hi - 1; // the last one is returned
        } else if (link_vl_[ob].credits >= need) {
            return kMoves;
        }
        return sw ? d * V_ + ovl : kSink;
    };
    std::vector<std::uint32_t> begin(B + 1, 0);
    std::vector<std::uint8_t> in_set(B, 0);
    for (std::uint32_t b = 0; b < B; ++b) {
        begin[b] = std::uint32_t(to.size());
        if (only && !(*only)[b]) continue;
        if (b >= IB) { // an output buffer
            const std::uint32_t ob = b - std::uint32_t(IB);
            const std::uint32_t h = ohead_[ob];
            if (h == kNil) continue;
            const std::uint32_t need = pkts_[h].credits;
            const PortId d = slots_[ob / V_].peer;
            const bool sw = d != kNoPort && is_switch_[f_.port_node(d)];
            if constexpr (kVcRouter) { // paper 004's switch: any VC of the class's range
                                       // (link_arbitrate)
                const std::uint32_t c = ob % V_;
                if (vc_free(ob / V_, need, c, false)) continue;
                for (std::uint32_t v = vc_lo_[c]; v < vc_lo_[c + 1]; ++v)
                    to.push_back(sw ? d * V_ + v : kSink);
            } else {
                if (link_vl_[ob].credits >= std::int32_t(need)) continue;
                to.push_back(sw ? d * V_ + ob % V_ : kSink);
            }
            in_set[b] = 1;
            continue;
        }
        const std::uint32_t h = bufs_[b].head;
        if (h == kNil || !is_switch_[f_.port_node(b / V_)]) continue;
        const Packet& p = pkts_[h];
        const auto need = std::int32_t(p.credits);
        if (p.out != kNoPort) {
            const std::size_t mark = to.size();
            const std::uint32_t w = wait_for(p.out, p.out_vl, need);
            if (w == kMoves) {
                to.resize(mark);
                continue;
            }
            to.push_back(w);
            in_set[b] = 1;
            continue;
        }
        const PortId i = b / V_;
        const Slot& in = slots_[i];
        const PortId first = i - in.pnum;
        bool moves = false;
        const std::size_t mark = to.size();
        for (const Candidate& c : rf_->set(cset_[h])) {
            if (c.port == 0 || c.port > in.nports || slots_[first + c.port].peer == kNoPort)
                continue;
            const std::uint8_t ovl = candidate_vl(in.node, in.nports, in.pnum, c.port, p);
            if (ovl >= V_) continue;
            const std::uint32_t w = wait_for(first + c.port, ovl, need);
            if (w == kMoves) {
                moves = true;
                break;
            }
            to.push_back(w);
        }
        if (moves || to.size() == mark) {
            to.resize(mark);
            continue;
        }
        in_set[b] = 1;
    }
    begin[B] = std::uint32_t(to.size());
    // Peel off the buffers that wait on something outside the set, and then those that
    // waited on them.
    std::vector<std::uint32_t> rbegin(B + 1, 0), rto(to.size()), stack;
    for (std::uint32_t w : to)
        if (w < B) ++rbegin[w + 1];
    for (std::size_t b = 0; b < B; ++b) rbegin[b + 1] += rbegin[b];
    {
        std::vector<std::uint32_t> fill(rbegin.begin(), rbegin.end() - 1);
        for (std::uint32_t b = 0; b < B; ++b)
            for (std::uint32_t k = begin[b]; k < begin[b + 1]; ++k)
                if (to[k] < B) rto[fill[to[k]]++] = b;
    }
    for (std::uint32_t b = 0; b < B; ++b) {
        if (!in_set[b]) continue;
        for (std::uint32_t k = begin[b]; k < begin[b + 1]; ++k)
            if (to[k] >= B || !in_set[to[k]]) {
                stack.push_back(b);
                break;
            }
    }
    for (std::uint32_t b : stack) in_set[b] = 2; // leaving
    while (!stack.empty()) {
        const std::uint32_t b = stack.back();
        stack.pop_back();
        in_set[b] = 0;
        for (std::uint32_t k = rbegin[b]; k < rbegin[b + 1]; ++k)
            if (in_set[rto[k]] == 1) {
                in_set[rto[k]] = 2;
                stack.push_back(rto[k]);
            }
    }
    for (std::uint32_t s = 0; s < B; ++s) {
        if (!in_set[s]) continue;
        // Every wait of a member is a member: walk the first ones until a buffer repeats.
        std::vector<std::uint8_t> seen(B, 0);
        std::uint32_t x = s;
        while (!seen[x]) {
            seen[x] = 1;
            x = to[begin[x]];
        }
        std::vector<std::uint32_t> cyc;
        std::uint32_t y = x;
        do {
            cyc.push_back(y);
            y = to[begin[y]];
        } while (y != x);
        return cyc;
    }
    return {};
}

#define IBRT_SIM_INSTANTIATE(M) template class Network<M>;
IBRT_SIM_FOR_EACH_SWITCH_MODEL(IBRT_SIM_INSTANTIATE)
#undef IBRT_SIM_INSTANTIATE

} // namespace ibrt::sim::detail
