// The event loop's look-ahead (sim/network.hpp, Network::prefetch_for and prefetch_next): what
// the next events will read, fetched into the cache before they are handled. Why and how far
// ahead: the comments at their declarations. Included by network.hpp only.
#pragma once

#include "sim/network.hpp"

namespace ibrt::sim::detail {

template <class Model> inline void Network<Model>::prefetch_for(const Event& x) const {
    if (x.type == kReady) {
        if (!rf_)
            prefetch(flat_.address(x.c));
        else if (x.c != RoutingFunction::kNoEntry)
            prefetch(rf_->entry_address(x.c));
        prefetch(&pkts_[x.a]);
        prefetch(&slots_[x.b]);
        prefetch(&bufs_[x.b * V_]);
    } else if (x.type == kDeliver || x.type == kDeliverBecn) {
        prefetch(&pkts_[x.a]);
        prefetch(&times_[x.a]);                    // a measured packet's latency
        if (x.c != 0) prefetch(&choice_[x.c - 1]); // the BECN's DLID (cc_notify)
    } else if (x.type == kGen) {
        prefetch(&src_[x.a]);
        prefetch(&ca_base_[x.b]);
        // The source queues (its port's own buffers) and link credits its arbitration reads.
        const PortId out = ca_out_[x.a];
        prefetch(&bufs_[out * V_]);
        prefetch(&link_vl_[out * V_]);
        if (dlid_ == DlidPolicy::Table && !choice_.empty())
            prefetch(&choice_[std::size_t(x.a) * N_ + x.b]);
        // The source's SL for the base LID (the source_sls row; what a path selection or
        // a random LID picks is not known yet).
        if (!src_sl_row_.empty() && dlid_ == DlidPolicy::Base && ca_base_[x.b] < src_sl_width_)
            prefetch(src_sl(x.a) + ca_base_[x.b]);
        // The message's flow lookup (its first SL's cell; a CA that has used none inserts).
        if (cc_ && cc_sls_[x.a] != 0)
            flow_of_.prefetch(flow_key(x.a, x.b, std::uint8_t(std::countr_zero(cc_sls_[x.a]))));
    } else if (x.type == kCcFree) {
        prefetch(&flows_[x.a]);
        flow_of_.prefetch_hint(x.c); // the erase when the flow is freed
    } else if (x.type == kCcReady) {
        prefetch(&flows_[x.a]);
    } else if (x.type == kOutFree || x.type == kOutFreeBecn) {
        prefetch(&slots_[x.a]);
        prefetch(&link_vl_[x.a * V_]); // the output's credits, read by its arbitration
        if (V_ > 1) prefetch(&arb_[x.a]);
        if (x.b != kNil) {
            prefetch(&slots_[slot_of(x.b)]);
            prefetch(&bufs_[x.b]);
        } else {
            prefetch(&bufs_[x.a * V_]); // an endpoint's source queues: its port's buffers
        }
        if (cc_) cc_prefetch_ring(x.a);
    } else if (x.type == kCredit) {
        prefetch(&slots_[x.a]);
        if (V_ > 1) prefetch(&arb_[x.a]);
        prefetch(&link_vl_[x.a * V_ + x.b].credits);
        if (rf_) prefetch(&ov_[x.a * V_ + x.b]);
        if (cc_) cc_prefetch_ring(x.a);
    }
}

template <class Model> inline void Network<Model>::prefetch_next(const Event& x) const {
    if (x.type != kReady || rf_) return;
    const PortNum outp = flat_.at(x.c, pkts_[x.a].dlid);
    const Slot& in = slots_[x.b];
    if (outp == kNoPath || outp == 0 || outp > in.nports) return;
    const PortId out = x.b - in.pnum + outp;
    prefetch(&slots_[out]);
    prefetch(&link_vl_[out * V_]);
    if (V_ > 1) prefetch(&arb_[out]);
}

} // namespace ibrt::sim::detail
