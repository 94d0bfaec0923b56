// IBA congestion control (IBA vol. 1 annex A10; paper 002 §3-4; docs/sim-model.md): switches
// mark FECN, destinations return BECNs, sources raise a flow's CCTI and delay its injection;
// and DRB (paper 002, sim/drb.hpp), which spreads a congested flow over its destination's LIDs.
#include "sim/network.hpp"

namespace ibrt::sim::detail {

template <class Model> void Network<Model>::cc_setup() {
    const CcConfig& c = cfg_.cc.settings;
    const std::size_t P = slots_.size();
    cc_queued_.assign(P * V_, 0);
    cc_mark_count_.assign(P * V_, 0);
    // SwitchCongestionSetting (A10.4.3): a switch takes the fields its control map marks valid
    // (opensm's cc_sw_cong_setting_control_map); the others keep their reset value, 0.
    const bool thr_valid = c.sw_control_map & 4u;
    const unsigned thr = thr_valid ? c.threshold & 15u : 0; // 4 bits on the wire
    cc_min_bytes_ = thr_valid ? 64u * c.packet_size : 0;    // in 64-byte credits (IBA)
    if (c.sw_control_map & 1u) cc_victim_mask_ = c.victim_mask;
    cc_marking_rate_ = (c.sw_control_map & 16u) ? c.marking_rate : 0;
    // The threshold scale is IBA's 0 (off), 1 (loose) .. 15 (aggressive), its levels left to
    // the implementation; ours: a port VL is congested while more than (16 - t)/16 of the
    // buffer space that feeds it waits for it (t = 15: 1/16, t = 1: 15/16; paper 002's 80 %
    // is t = 3, 81 %). That space is an input buffer's, plus the output buffer's when the
    // switch has them (docs/sim-model.md, "Congestion control").
    const std::int64_t space = std::int64_t(cfg_.buffer_bytes) + cfg_.output_buffer_bytes;
    cc_threshold_bytes_ =
        thr == 0 ? std::numeric_limits<std::int32_t>::max() : std::int32_t(space * (16 - thr) / 16);
    // A port that has taken its credits and is left with less than a full packet's worth
    // downstream waits on the next hop: a victim of congestion there, not its root.
    cc_root_room_ = std::int32_t(need(cfg_.packet_bytes));
    const std::uint32_t msg = cfg_.message_bytes ? cfg_.message_bytes : cfg_.packet_bytes;
    const std::uint32_t last = msg % cfg_.packet_bytes;
    cc_min_need_ = std::int32_t(need(last ? std::min(last, cfg_.packet_bytes) : cfg_.packet_bytes));

    // CACongestionSetting: the SLs of the control map get their entry, the others none (no
    // reaction to BECNs).
    cc_per_sl_ = c.per_sl();
    cct_ = c.cct;
    // No CCT: opensm sets CCTI_Limit 0 and entry 0 is zero (no delay).
    if (cct_.empty()) cct_.push_back(CctEntry{});
    const auto limit = std::uint16_t(cct_.size() - 1);
    for (unsigned sl = 0; sl < 16; ++sl) {
        if (!(c.ca_control_map >> sl & 1u)) continue;
        const CaCongEntry& e = c.ca_entries[sl];
        cc_timer_ps_[sl] = Time(e.ccti_timer) * 1024 * kPsPerNs; // units of 1.024 us
        cc_increase_[sl] = e.ccti_increase;
        cc_min_[sl] = std::min<std::uint16_t>(e.ccti_min, limit);
    }
    if (cc_per_sl_) {
        sl_thr_.assign(std::size_t(N_) * 16, Throttle{});
        for (std::uint32_t ca = 0; ca < N_; ++ca)
            for (unsigned sl = 0; sl < 16; ++sl) {
                Throttle& t = sl_thr_[ca * 16 + sl];
                t.ccti = cc_min_[sl];
                t.tick = cc_timer_ps_[sl];
            }
    }
    ring_.assign(std::size_t(N_) * V_, kNil);
    cc_sls_.assign(N_, 0);
    becn_queued_.assign(N_, 0);
    cc_port_ca_.assign(P, kNil);
    for (std::uint32_t ca = 0; ca < N_; ++ca)
        if (ca_out_[ca] < P) cc_port_ca_[ca_out_[ca]] = ca;
}

// A10.2.1: a switch port VL in the congested state marks the FECN of the packets it sends
// that are eligible: not smaller than Packet_Size, one in every Marking_Rate + 1 (the mean
// number of packets between marks, here exactly that: a counter, not a random draw), and, when
// the port is a victim rather than the root of the congestion, only if the Victim_Mask has
// the port.
template <class Model> void Network<Model>::cc_switch_out(PortId o, std::uint32_t ovl, Packet& p) {
    const std::uint32_t ob = o * V_ + ovl;
    cc_queued_[ob] -= p.size;
    if (p.cc & kCcBecn) ++ccs_.becn_hops;
    // What still waits for this port VL behind the packet leaving.
    if (cc_queued_[ob] <= cc_threshold_bytes_ || (p.cc & kCcBecn) || p.size < cc_min_bytes_) return;
    if (link_vl_[ob].credits < cc_root_room_ &&
        !CcConfig::mask_bit(cc_victim_mask_, slots_[o].pnum))
        return;
    if (cc_mark_count_[ob] > 0) {
        --cc_mark_count_[ob];
        return;
    }
    cc_mark_count_[ob] = cc_marking_rate_;
    if (!(p.cc & kCcFecn)) {
        p.cc |= kCcFecn;
        ++ccs_.fecn_marked;
    }
}

// A10.2.2: the destination of a FECN-marked packet returns a congestion notification to its
// source: a BECN packet on the reverse path (a CNP, as UD traffic needs; an RC ACK would carry
// the bit instead), or, idealised, the BECN itself a fixed delay later.
template <class Model> void Network<Model>::cc_notify(const Packet& p, std::uint32_t at) {
    ++ccs_.becn_sent;
    ++becn_live_;
    const std::uint32_t rank = std::uint32_t(p.cc) >> kDrbRankShift;
    if (cfg_.cc.becn_delay_ps) {
        q_.push(now_ + cfg_.cc.becn_delay_ps, kCcBecnArrives, p.src, at, p.sl | rank << 8);
        return;
    }
    const std::uint32_t h = alloc();
    Packet& b = pkts_[h];
    times_[h].gen = now_;
    b.src = std::uint16_t(at);
    b.dst = p.src;
    b.size = std::uint16_t(cfg_.cc.becn_bytes);
    b.credits = std::uint16_t(need(b.size));
    b.sl = p.sl;
    b.cc = std::uint8_t(kCcBecn | rank << kDrbRankShift);
    // The source's base LID, or the path selection's LID for it: a notification draws no
    // random number, so data traffic sees the same streams with or without it.
    b.dlid = dlid_ == DlidPolicy::Table && !choice_.empty() ? choice_[std::size_t(at) * N_ + p.src]
                                                            : ca_base_[p.src];
    if (b.dlid == 0) b.dlid = ca_base_[p.src];
    // With DRB the marked packet's SL may be that of an alternative path's layer
    // (engines/multipath/dfs_paths.hpp); the notification takes its own path's SL.
    if (drb_) b.sl = r_.path_sl(ca_out_[at], b.dlid);
    const std::uint8_t vl = source_vl(at, b.sl);
    if (vl >= V_) return drop(h, kNoPort);
    b.out_vl = vl;
    b.out = ca_out_[at];
    push_fifo(ca_out_[at] * V_ + vl, h); // the endpoint's source queues
    ++becn_queued_[at];
    peak_live_ = std::max(peak_live_, live_);
    arbitrate(ca_out_[at]);
}

// DRB hears of congestion on the flow's path `rank` (paper 002 §4.1); its timer check, when
// one is due, is an event.
template <class Model>
void Network<Model>::drb_notify(std::uint32_t ca, std::uint32_t dst, std::uint8_t rank) {
    std::uint32_t flow, gen;
    if (const Time t = drb_->notify(ca, dst, policy_dlid(ca, dst), rank, now_, flow, gen))
        q_.push(t, kDrbCheck, flow, gen);
}

// A10.2.3: a BECN at its source raises the CCTI of the flow (QP control) or of the SL (port
// control) by CCTI_Increase, up to CCTI_Limit.
template <class Model>
void Network<Model>::cc_becn(std::uint32_t ca, std::uint32_t dst, std::uint8_t sl,
                             std::uint8_t rank) {
    ++ccs_.becn_received;
    if (flow_stats_) ++flow_acc(ca << 16 | dst).becns;
    if (drb_) drb_notify(ca, dst, rank);
    if (!cfg_.cc.throttle) return; // marking and notifications only (DRB alone)
    sl &= 15;
    const std::uint16_t inc = cc_increase_[sl];
    if (inc == 0) return;
    const auto limit = std::uint32_t(cct_.size() - 1);
    std::uint32_t f = kNil;
    Throttle* t;
    if (cc_per_sl_) {
        t = &sl_thr_[ca * 16 + sl];
    } else {
        f = cc_flow(ca, dst, sl, source_vl(ca, sl));
        t = &flows_[f].own;
    }
    cc_decay(*t, sl);
    t->ccti = std::uint16_t(std::min<std::uint32_t>(limit, t->ccti + inc));
    ccs_.peak_ccti = std::max<std::uint32_t>(ccs_.peak_ccti, t->ccti);
    if (f != kNil && flows_[f].head == kNil) cc_flow_idle(f);
}

template <class Model>
std::uint32_t Network<Model>::cc_flow(std::uint32_t src, std::uint32_t dst, std::uint8_t sl,
                                      std::uint8_t vl) {
    bool fresh;
    std::uint32_t& slot = flow_of_.get_or_insert(flow_key(src, dst, sl), 0, fresh);
    if (!fresh) return slot;
    std::uint32_t f;
    if (!flow_free_.empty()) {
        f = flow_free_.back();
        flow_free_.pop_back();
    } else {
        f = std::uint32_t(flows_.size());
        flows_.emplace_back();
    }
    Flow& fl = flows_[f];
    const std::uint32_t gen = fl.gen;
    fl = Flow{};
    fl.gen = gen;
    fl.live = true;
    fl.src = std::uint16_t(src);
    fl.dst = std::uint16_t(dst);
    fl.sl = sl;
    fl.vl = vl;
    fl.own.ccti = cc_min_[sl & 15];
    fl.own.tick = now_ + cc_timer_ps_[sl & 15];
    slot = f;
    cc_sls_[src] = std::uint16_t(cc_sls_[src] | 1u << (sl & 15));
    ccs_.peak_flows = std::max(ccs_.peak_flows, ++live_flows_);
    return f;
}

template <class Model> void Network<Model>::cc_ring_insert(std::uint32_t f) {
    Flow& fl = flows_[f];
    std::uint32_t& r = ring_[fl.src * V_ + fl.vl];
    fl.in_ring = true;
    if (r == kNil) {
        fl.prev = fl.next = f;
        r = f;
        return;
    }
    // Last in the round-robin order: just before the flow served next.
    fl.next = r;
    fl.prev = flows_[r].prev;
    flows_[fl.prev].next = f;
    flows_[r].prev = f;
}

template <class Model> void Network<Model>::cc_ring_remove(std::uint32_t f) {
    Flow& fl = flows_[f];
    std::uint32_t& r = ring_[fl.src * V_ + fl.vl];
    fl.in_ring = false;
    if (fl.next == f) {
        r = kNil;
        return;
    }
    flows_[fl.prev].next = fl.next;
    flows_[fl.next].prev = fl.prev;
    if (r == f) r = fl.next;
}

template <class Model> void Network<Model>::cc_release_flow(std::uint32_t f) {
    Flow& fl = flows_[f];
    flow_of_.erase(flow_key(fl.src, fl.dst, fl.sl));
    fl.live = false;
    ++fl.gen;
    flow_free_.push_back(f);
    --live_flows_;
}

// A flow with nothing queued is kept only while it holds state a new message must find: a
// CCTI above CCTI_Min or a pending injection delay (QP control; with port control the state
// is the SL's). So the flows alive are the active ones, not every pair: a flow that sent its
// last packet at CCTI_Min with no delay is freed at once.
template <class Model> void Network<Model>::cc_flow_idle(std::uint32_t f, Time slack) {
    Flow& fl = flows_[f];
    if (cc_per_sl_) return cc_release_flow(f);
    cc_decay(fl.own, fl.sl);
    const std::uint16_t lo = cc_min_[fl.sl];
    Time until = fl.own.next_send > now_ + slack ? fl.own.next_send : 0;
    if (fl.own.ccti > lo) {
        const Time T = cc_timer_ps_[fl.sl];
        if (T == 0) return; // never decays: kept
        until = std::max(until, fl.own.tick + Time(fl.own.ccti - lo - 1) * T);
    }
    if (until <= now_) return cc_release_flow(f);
    if (fl.free_at != 0 && fl.free_at <= until) return; // a check is pending
    fl.free_at = until;
    const std::uint32_t hint = FlatMap64::hint(flow_key(fl.src, fl.dst, fl.sl));
    if (ccf_pos_ == ccf_.size()) {
        ccf_.clear();
        ccf_pos_ = 0;
    } else if (until < ccf_.back().time) {
        return q_.push(until, kCcFree, f, fl.gen, hint); // out of the FIFO's order
    } else if (ccf_pos_ >= 4096 && 2 * ccf_pos_ >= ccf_.size()) {
        ccf_.erase(ccf_.begin(), ccf_.begin() + std::ptrdiff_t(ccf_pos_));
        ccf_pos_ = 0;
    }
    ccf_.push_back(Event{until, q_.take_seq(), f, fl.gen, hint, kCcFree});
    ccf_next_ = ccf_[ccf_pos_].time;
}

template <class Model> void Network<Model>::cc_free_check(std::uint32_t f, std::uint32_t gen) {
    Flow& fl = flows_[f];
    if (!fl.live || fl.gen != gen || fl.free_at != now_) return;
    fl.free_at = 0;
    if (fl.head == kNil) cc_flow_idle(f);
}

template <class Model> void Network<Model>::cc_enqueue(std::uint32_t h, std::uint32_t& last) {
    Packet& p = pkts_[h];
    std::uint32_t f = last;
    if (f == kNil || flows_[f].dst != p.dst || flows_[f].sl != p.sl)
        f = cc_flow(p.src, p.dst, p.sl, p.out_vl);
    last = f;
    Flow& fl = flows_[f];
    p.next = kNil;
    if (fl.tail == kNil) {
        fl.head = h;
        fl.need = p.credits;
    } else {
        pkts_[fl.tail].next = h;
    }
    fl.tail = h;
    ++fl.queued;
    if (!fl.in_ring && !fl.parked) cc_ring_insert(f);
}

template <class Model>
std::uint32_t Network<Model>::cc_dst_queued(std::uint32_t ca, std::uint32_t dst,
                                            std::uint32_t& hint) const {
    std::uint32_t n = 0;
    const std::uint32_t sls = cc_sls_[ca];
    for (std::uint32_t m = sls; m != 0; m &= m - 1) {
        const auto sl = std::uint8_t(std::countr_zero(m));
        const std::uint32_t f = flow_of_.find(flow_key(ca, dst, sl));
        if (f == FlatMap64::kAbsent) continue;
        n += flows_[f].queued;
        if (m == sls && (m & (m - 1)) == 0) hint = f;
    }
    return n;
}

// A flow waiting out its injection delay leaves the round robin until then, so that a CA's
// arbitration visits only flows that may send.
template <class Model> void Network<Model>::cc_park(std::uint32_t f, Time until) {
    Flow& fl = flows_[f];
    cc_ring_remove(f);
    fl.parked = true;
    q_.push(until, kCcReady, f, fl.gen);
}

template <class Model> void Network<Model>::cc_ready(std::uint32_t f, std::uint32_t gen) {
    Flow& fl = flows_[f];
    if (!fl.live || fl.gen != gen || !fl.parked) return;
    fl.parked = false;
    if (fl.head == kNil) return;
    cc_ring_insert(f);
    arbitrate(ca_out_[fl.src]);
}

// The CA's link with congestion control: its notifications first (few, small, and late ones
// throttle late), then its flows in round robin, each packet of a flow no earlier than the
// flow's injection rate delay after the one before (A10.2.3). Among VLs, VLArb.
template <class Model> void Network<Model>::cc_ca_arbitrate(PortId o, std::uint32_t ca) {
    const PortId s0 = o; // the endpoint's source queues
    for (std::uint32_t v = 0; becn_queued_[ca] != 0 && v < V_; ++v) {
        const Buf& q = bufs_[s0 * V_ + v];
        if (q.head != kNil && link_vl_[o * V_ + v].credits >= std::int32_t(q.need)) {
            const std::uint32_t h = pop_fifo(s0 * V_ + v);
            --becn_queued_[ca];
            ++ccs_.becn_hops;
            ++src_[ca].queued; // launch takes a data packet off the source queue: not this one
            launch(o, h, std::uint8_t(v), kNil);
            return;
        }
    }
    std::uint32_t mask = 0;
    std::uint32_t pick[16];
    park_.clear();
    for (std::uint32_t v = 0; v < V_; ++v) {
        const std::uint32_t start = ring_[ca * V_ + v];
        if (start == kNil) continue;
        const std::int32_t room = link_vl_[o * V_ + v].credits;
        if (room < cc_min_need_) continue; // no head fits: skip the flows unread
        std::uint32_t f = start;
        do {
            Flow& fl = flows_[f];
            const Throttle& t = throttle(fl);
            // With per-SL control a flow's delay may have begun with another flow's packet.
            if (t.next_send > now_) {
                park_.push_back(f);
            } else if (room >= std::int32_t(fl.need)) {
                pick[v] = f;
                mask |= 1u << v;
                break;
            }
            f = fl.next;
        } while (f != start);
    }
    for (std::uint32_t f : park_) cc_park(f, throttle(flows_[f]).next_send);
    if (mask == 0) return; // a parked flow's kCcReady, or credits, will call again
    int v = 0;
    if (V_ > 1) {
        v = vl_arbitrate(vlarb_, arb_[o], mask, cfg_.packet_bytes);
        if (v == kNoVl) return;
    }
    const std::uint32_t f = pick[v];
    Flow& fl = flows_[f];
    ring_[ca * V_ + std::uint32_t(v)] = fl.next; // the next turn starts after this flow
    const std::uint32_t h = fl.head;
    fl.head = pkts_[h].next;
    if (fl.head == kNil) {
        fl.tail = kNil;
        // Most flows are freed after their last packet (cc_flow_idle): fetch the map cell
        // the erase will probe while launch works.
        flow_of_.prefetch(flow_key(fl.src, fl.dst, fl.sl));
    } else {
        fl.need = pkts_[fl.head].credits;
    }
    const Time ser = Time(pkts_[h].size) * slots_[o].ppb;
    --fl.queued;
    launch(o, h, std::uint8_t(v), kNil);
    // The injection rate delay of CCT[CCTI]: a gap of multiplier / 2^shift packet times
    // after the packet (rate B / (1 + IRD), paper 002 §3; hfi1 computes it the same way).
    Throttle& t = throttle(fl);
    cc_decay(t, fl.sl);
    const CctEntry& e = cct_[t.ccti];
    t.next_send = now_ + ser + (cfg_.cc.throttle ? (ser * e.multiplier) >> e.shift : 0);
    if (fl.head == kNil) {
        cc_ring_remove(f);
        cc_flow_idle(f, ser);
    } else if (t.next_send > now_ + ser) {
        cc_park(f, t.next_send); // the link is free before the flow may send again
    }
}

// Delivery with congestion control or per-flow statistics: notifications to their source,
// a BECN for each FECN-marked packet, the pair's accepted bytes.
template <class Model> void Network<Model>::on_deliver_cc(std::uint32_t h, PortId d) {
    Packet& p = pkts_[h];
    if (p.cc & kCcBecn) { // a notification reached its source
        --in_network_;
        --becn_live_;
        if (in_window(now_)) becn_in_window_bytes_ += p.size;
        return_credits(slots_[d].peer, p.vl, p.credits);
        const std::uint32_t ca = p.dst, dst = p.src;
        const std::uint8_t sl = p.sl;
        const auto rank = std::uint8_t(p.cc >> kDrbRankShift);
        release(h);
        cc_becn(ca, dst, sl, rank);
        return;
    }
    ++delivered_;
    --in_network_;
    const std::uint32_t at = ep_of_slot_[d];
    if (at != p.dst) ++misdelivered_;
    if (in_window(now_)) {
        accept_bytes(p.size);
        if (flow_stats_) flow_acc(std::uint32_t(p.src) << 16 | p.dst).accepted += p.size;
    }
    if (p.measured) {
        --measured_open_;
        sample_latency(now_ - times_[h].gen, now_ - times_[h].inj, p.measured - 1u);
    }
    return_credits(slots_[d].peer, p.vl, p.credits);
    if (p.cc & kCcFecn) {
        const Packet marked = p; // cc_notify may grow the pool
        release(h);
        cc_notify(marked, at);
        return;
    }
    release(h);
}

#define IBRT_SIM_INSTANTIATE(M) template class Network<M>;
IBRT_SIM_FOR_EACH_SWITCH_MODEL(IBRT_SIM_INSTANTIATE)
#undef IBRT_SIM_INSTANTIATE

} // namespace ibrt::sim::detail
