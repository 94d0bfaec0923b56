// The switch models beside the IB switch (docs/sim-model.md "VC-router mode"): BookSim's VC
// router (an output VC held by one packet, a VC per hop within the class's range of VCs that
// the routing's SL2VL/VL2VL class gives, BookSim's allocation timing), and with output buffers
// paper 004's switch (§4: the link takes the first VC with room). The IB switch's arbitration
// is in network.cpp.
#include "sim/network.hpp"

#include "sim/config_notes.hpp"

namespace ibrt::sim::detail {

template <class Model> void Network<Model>::vc_router_setup() {
    const std::size_t P = slots_.size();
    // The VC is chosen per hop, not by SL2VL: the extended switch's path does that.
    if (!rf_) {
        own_rf_ = std::make_unique<RoutingFunction>(static_routing_function(f_, r_));
        rf_ = own_rf_.get();
    }
    vc_held_.assign(P * V_, 0);
    vc_rr_.assign(P, 0);
    // The classes: the VLs the routing's tables give (as the IB switch would take them).
    SimConfig ib = cfg_;
    ib.vc_router = false;
    const std::uint32_t classes =
        via_ ? via_->vls()
             : std::max(1u, unsigned(std::bit_width(vls_carrying_traffic(f_, r_, ib))));
    for (std::uint32_t c = 0; c <= 16; ++c)
        vc_lo_[c] = std::uint8_t(std::min(c, classes) * V_ / classes);
    if (cfg_.vc_alloc_gap_ps) {
        vc_free_at_.assign(P * V_, 0);
        in_free_at_.assign(P * V_, 0);
    }
    if (cfg_.vc_input_first) in_ptr_.assign(P, 0);
}

// VC-router mode: the output serves one head at a time, inputs in round robin as the IB switch
// does, each packet onto a free VC of its class's range (round robin over them): with
// VcRelease::Drained one whose last holder's tail has left the downstream buffer (so it has
// credits for any packet), with Sent one with credits for this packet.
template <class Model> void Network<Model>::try_arbitrate_vc(PortId o) {
    Slot& out = slots_[o];
    if (out.peer == kNoPort || out.busy) return;
    const PortId first = o - out.pnum;
    // Sends the head of input buffer (in, in_vl) on a free VC, round robin over the VCs; false
    // when no VC can take it.
    const auto go = [&](PortId in, std::uint32_t in_vl) {
        const Buf& q = bufs_[in * V_ + in_vl];
        const std::uint32_t lo = vc_lo_[q.ovl], n = vc_lo_[q.ovl + 1] - lo;
        // Round robin over the VCs; paper 004's switch (with output buffers, whose links take
        // the first VC with room) has its sources do the same as its links.
        const std::uint32_t rr = kOutputBuffers ? 0 : vc_rr_[o];
        for (std::uint32_t j = 0; j < n; ++j)
            if (const std::uint32_t v = lo + (rr + j) % n; vc_usable(o, v, q.need)) {
                vc_rr_[o] = std::uint8_t((v + 1) % V_);
                transmit(o, in, in_vl, std::uint8_t(v));
                return true;
            }
        return false;
    };
    if (!out.sw) {
        if (ep_of_slot_[o] == kNil) return;
        for (std::uint32_t j = 0; j < V_; ++j) { // the source queues in turn
            const std::uint32_t v = (out.rr + j) % V_;
            if (bufs_[o * V_ + v].head == kNil) continue; // the endpoint's source queues
            if (go(o, v)) {
                out.rr = std::uint8_t((v + 1) % V_);
                return;
            }
            if (vc_lo_[1] == V_) return; // one class: every queue's head wants the same VCs
        }
        return;
    }
    if (out.waiting == 0) return;
    const std::uint32_t np = out.nports;
    // Input port j (0-based): true when arbitration is over (a head sent, or one class and a
    // head that found no VC).
    const auto visit = [&](std::uint32_t j) {
        const PortId i = first + 1 + j;
        if (slots_[i].reads >= cfg_.speedup) return false;
        if (!in_ptr_.empty() && requested_output(i) != o) return false;
        for (std::uint32_t v = 0; v < V_; ++v)
            if (bufs_[i * V_ + v].out == o &&
                (in_free_at_.empty() || in_free_at_[i * V_ + v] <= now_)) {
                const bool sent = go(i, v);
                if (sent && !in_ptr_.empty()) in_ptr_[i] = std::uint8_t(out.pnum % np);
                // With one class every head wants the same VCs; with several, a head whose
                // class has none free must not hold back the others' (a dependency the
                // routing never made).
                if (sent || vc_lo_[1] == V_) return true;
            }
        return false;
    };
    // Inputs rr, rr+1, ..., np-1, 0, ..., rr-1: only those with a head routed here (Slot::req,
    // as the IB switch's arbitration visits them), or every one past 64 ports.
    if (use_req_) {
        const std::uint64_t r = out.req, below = (1ull << out.rr) - 1;
        for (std::uint64_t m = r & ~below; m; m &= m - 1)
            if (visit(std::uint32_t(std::countr_zero(m)))) return;
        for (std::uint64_t m = r & below; m; m &= m - 1)
            if (visit(std::uint32_t(std::countr_zero(m)))) return;
        return;
    }
    for (std::uint32_t k = 0; k < np; ++k)
        if (visit((out.rr + k) % np)) return;
}

template <class Model> PortId Network<Model>::requested_output(PortId i) const {
    const std::uint32_t np = slots_[i].nports;
    PortId best = kNoPort;
    std::uint32_t best_dist = np;
    for (std::uint32_t v = 0; v < V_; ++v) {
        const Buf& q = bufs_[i * V_ + v];
        if (q.out == kNoPort || (!in_free_at_.empty() && in_free_at_[i * V_ + v] > now_) ||
            !vc_free(q.out, q.need, q.ovl))
            continue;
        const std::uint32_t dist = (slots_[q.out].pnum - 1 + np - in_ptr_[i]) % np;
        if (dist < best_dist) {
            best_dist = dist;
            best = q.out;
        }
    }
    return best;
}

// Paper 004's switch (§4: "the virtual channel will be selected when the packet is
// transferred through the link, and the first virtual channel with a free buffer will be
// selected"): the output buffers' heads by class in turn, each onto the first VC of its
// class's range that can take it.
template <class Model> void Network<Model>::link_arbitrate_vc(PortId o) {
    for (std::uint32_t j = 0; j < V_; ++j) {
        const std::uint32_t c = (slots_[o].xvl_link_rr + j) % V_;
        const std::uint32_t ob = o * V_ + c;
        const std::uint32_t h = ohead_[ob];
        if (h == kNil) continue;
        for (std::uint32_t v = vc_lo_[c]; v < vc_lo_[c + 1]; ++v)
            if (vc_usable(o, v, pkts_[h].credits)) {
                slots_[o].xvl_link_rr = std::uint8_t((c + 1) % V_);
                opopped_[ob] = 1;
                ohead_[ob] = pkts_[h].next;
                if (ohead_[ob] == kNil) otail_[ob] = kNil;
                return launch(o, h, std::uint8_t(v), kNil);
            }
    }
}

#define IBRT_SIM_INSTANTIATE(M) template class Network<M>;
IBRT_SIM_FOR_EACH_SWITCH_MODEL(IBRT_SIM_INSTANTIATE)
#undef IBRT_SIM_INSTANTIATE

} // namespace ibrt::sim::detail
