// The network's core (sim/network.hpp): sources and injection, the IB switch's
// arbitration with credits per VL and VL arbitration (IBA vol. 1 §7.9, §7.6.9; paper 000
// §5.1), output buffers, the VC-router mode (BookSim's router, docs/sim-model.md), delivery,
// the event loop and the run's verdict.
#include "sim/network.hpp"

#include "sim/confidence.hpp"

namespace ibrt::sim::detail {

// Adds the busy interval [lo, hi) of port o to the time series.
template <class Model> void Network<Model>::series_add(PortId o, Time lo, Time hi) {
    const std::size_t P = slots_.size();
    while (lo < hi) {
        const std::size_t k = std::size_t(lo / series_step_);
        const Time end = std::min(hi, Time(k + 1) * series_step_);
        if (series_.size() < (k + 1) * P) series_.resize((k + 1) * P, 0);
        series_[k * P + o] += end - lo;
        lo = end;
    }
}

template <class Model> void Network<Model>::schedule_next_gen(std::uint32_t ca) {
    const double load = cfg_.traffic.load;
    if (load <= 0) return;
    Time t;
    Source& s = src_[ca];
    const std::uint64_t k = s.msg_count;
    if (cfg_.traffic.injection == Injection::Constant) {
        t = s.phase + Time(std::floor(double(k) * s.interval(load)));
    } else {
        // Geometric number of message slots until the next success.
        std::uint64_t gap = 1;
        if (load < 1) {
            const double u = (double(s.rng.next() >> 11) + 1.0) * 0x1.0p-53; // (0, 1]
            gap = 1 + std::uint64_t(std::floor(std::log(u) / log1p_load_));
        }
        s.phase += gap * s.slot_ps;
        t = s.phase;
    }
    if (t < end_) push_gen(t, ca);
}

template <class Model> void Network<Model>::generate(std::uint32_t ca, std::uint32_t dst) {
    const std::uint32_t msg = cfg_.message_bytes ? cfg_.message_bytes : cfg_.packet_bytes;
    // The source queues: the endpoint's own port's buffers, which arrivals never use (a packet
    // reaching an end port is delivered), so each end port of a multi-port CA has its own.
    const PortId src_buf = ca_out_[ca];
    // A full source queue refuses the whole message (unless empty: any message fits an empty
    // queue): it counts as offered but never enters the simulation, so memory stays bounded
    // by the queues and buffers however long a run above saturation lasts.
    const std::uint32_t npk = (msg + cfg_.packet_bytes - 1) / cfg_.packet_bytes;
    // Offered as `offered` counts it: whether the source queue takes the message or not.
    if (flow_stats_ && in_window(now_)) flow_acc(ca << 16 | dst).offered += msg;
    // With congestion control every destination has its own queue (a QP's send queue), so a
    // throttled flow cannot fill the room of the others.
    std::uint32_t cc_last = kNil;
    const std::uint32_t queued =
        cc_ ? (cfg_.source_queue_packets ? cc_dst_queued(ca, dst, cc_last) : 0) : src_[ca].queued;
    if (cfg_.source_queue_packets && queued > 0 && queued + npk > cfg_.source_queue_packets) {
        throttled_ += npk;
        if (in_window(now_)) {
            bytes_offered_ += msg;
            bytes_throttled_ += msg;
        }
        return;
    }
    gen::Rng& rng = src_[ca].rng;
    std::uint8_t sl = 0;
    if (cfg_.sl == SlPolicy::Spread) sl = std::uint8_t(rng.below(V_));
    bool head_changed = false;
    for (std::uint32_t off = 0; off < msg; off += cfg_.packet_bytes) {
        const std::uint32_t h = alloc();
        Packet& p = pkts_[h];
        times_[h].gen = now_;
        p.src = std::uint16_t(ca);
        p.dst = std::uint16_t(dst);
        p.size = std::uint16_t(std::min(cfg_.packet_bytes, msg - off));
        p.credits = std::uint16_t(need(p.size));
        switch (dlid_) {
        case DlidPolicy::Auto: // resolved in setup
        case DlidPolicy::Table:
            p.dlid = choice_.empty() ? ca_base_[dst] : choice_[ca * N_ + dst];
            if (p.dlid == 0) p.dlid = ca_base_[dst];
            break;
        case DlidPolicy::Base:
            p.dlid = ca_base_[dst];
            break;
        case DlidPolicy::Random:
            p.dlid = Lid(ca_base_[dst] + rng.below(std::uint64_t(1) << ca_lmc_[dst]));
            break;
        }
        if (drb_) {
            std::uint8_t rank;
            p.dlid = drb_->pick(ca, dst, p.dlid, now_, rank);
            p.cc = std::uint8_t(rank << kDrbRankShift);
        }
        p.sl = cfg_.sl == SlPolicy::Spread ? sl
               : !src_sl_row_.empty()      ? (p.dlid < src_sl_width_ ? src_sl(ca)[p.dlid] : 0)
                                           : r_.path_sl(ca_out_[ca], p.dlid);
        p.measured = in_window(now_) ? std::uint8_t(1 + batch_at(gen_batch_)) : 0;
        ++generated_;
        if (p.measured) {
            ++measured_open_;
            bytes_offered_ += p.size;
        }
        // The source's VL: the forwarding sets' table for this CA when they give one ("(Source,
        // Destination) -> (DLID, VL)"), else its SL2VL.
        const std::uint8_t vl = via_on_             ? via_->source_vl(rng)
                                : !src_vlt_.empty() ? src_vl_pool_[src_vlt_[ca]][p.sl & 15]
                                                    : source_vl(ca, p.sl);
        if (vl >= V_) {
            drop(h, kNoPort);
            continue;
        }
        p.out_vl = vl;
        p.out = ca_out_[ca];
        if (cc_) {
            cc_enqueue(h, cc_last);
            head_changed = true;
        } else {
            head_changed |= push_fifo(src_buf * V_ + vl, h);
        }
        peak_src_queued_ = std::max(peak_src_queued_, ++src_[ca].queued);
    }
    peak_live_ = std::max(peak_live_, live_);
    if (head_changed) arbitrate(ca_out_[ca]);
}

template <class Model> void Network<Model>::try_arbitrate(PortId o) {
    // The VC router's links choose a VC (try_arbitrate_vc); with output buffers its crossbar
    // fills them as the IB switch's does, and the link chooses (link_arbitrate).
    if constexpr (kVcRouter)
        if (!kOutputBuffers || !slots_[o].sw) return try_arbitrate_vc(o);
    if (slots_[o].peer == kNoPort) return;
    const bool xbar = kOutputBuffers && slots_[o].sw; // into the output buffers, not onto the link
    if (xbar ? slots_[o].xbar_busy : slots_[o].busy) return;
    const auto room = [&](std::uint32_t i) { return xbar ? ocredits_[i] : link_vl_[i].credits; };
    const Slot& out = slots_[o];
    const PortId first = o - out.pnum; // slot of the node's port 0
    std::uint32_t mask = 0;
    PortId cand_in[16];
    std::uint32_t cand_vl[16];
    if (!out.sw) {
        const std::uint32_t ca = ep_of_slot_[o];
        if (ca == kNil) return;
        if (cc_) return cc_ca_arbitrate(o, ca);
        const PortId s0 = o; // an endpoint's source queues: its own port's buffers
        for (std::uint32_t v = 0; v < V_; ++v) {
            const Buf& q = bufs_[s0 * V_ + v];
            if (q.head != kNil && link_vl_[o * V_ + v].credits >= std::int32_t(q.need)) {
                mask |= 1u << v;
                cand_in[v] = s0;
                cand_vl[v] = v;
            }
        }
        if (mask == 0) return;
    } else {
        if (slots_[o].waiting == 0) return;
        const std::uint32_t np = out.nports;
        const std::uint32_t start = out.rr;
        const std::uint32_t all = (1u << V_) - 1;
        std::uint32_t matched = 0;
        const std::uint32_t waiting = slots_[o].waiting;
        // Visits input port inp; false once every head routed here has been seen or every VL
        // has its candidate. The input's buffers are read only up to its last head routed
        // here: with 9 VLs they are three cache lines, and a static routing's heads all sit
        // in the first.
        const auto visit = [&](PortNum inp) {
            const PortId i = first + inp;
            const bool can_read = slots_[i].reads < cfg_.speedup;
            for (std::uint32_t v = 0; v < V_; ++v) {
                const std::uint32_t b = i * V_ + v;
                if (bufs_[b].out != o) continue;
                const std::uint32_t ovl = bufs_[b].ovl;
                if (can_read && !(mask >> ovl & 1u) && room(o * V_ + ovl) >= bufs_[b].need) {
                    mask |= 1u << ovl;
                    cand_in[ovl] = i;
                    cand_vl[ovl] = v;
                }
                if (++matched == waiting || mask == all) break;
            }
            return matched != waiting && mask != all;
        };
        if (use_req_) {
            // Inputs start, start+1, ..., np-1, 0, ..., start-1 (0-based), as the scan below.
            const std::uint64_t r = slots_[o].req;
            const std::uint64_t below = start >= 64 ? ~0ull : (1ull << start) - 1;
            bool more = true;
            for (std::uint64_t m = r & ~below; m && more; m &= m - 1)
                more = visit(PortNum(1 + std::countr_zero(m)));
            for (std::uint64_t m = r & below; m && more; m &= m - 1)
                more = visit(PortNum(1 + std::countr_zero(m)));
        } else {
            for (std::uint32_t k = 0; k < np; ++k)
                if (!visit(PortNum(1 + (start + k) % np))) break;
        }
        if (mask == 0) return;
    }
    int ovl = 0;
    if (xbar) {
        // The crossbar takes the VLs in turn; VLArb applies at the link (link_arbitrate).
        const std::uint32_t r = slots_[o].xvl_rr % V_;
        const std::uint32_t rot = ((mask >> r) | (mask << (V_ - r))) & ((1u << V_) - 1);
        ovl = int((r + std::uint32_t(std::countr_zero(rot))) % V_);
        slots_[o].xvl_rr = std::uint8_t((ovl + 1) % V_);
    } else if (V_ > 1) {
        ovl = vl_arbitrate(vlarb_, arb_[o], mask, cfg_.packet_bytes);
        if (ovl == kNoVl) return; // only VLs the tables never serve are ready
    }
    transmit(o, cand_in[ovl], cand_vl[ovl], std::uint8_t(ovl));
}

template <class Model>
void Network<Model>::transmit(PortId o, PortId in, std::uint32_t in_vl, std::uint8_t ovl) {
    const bool sw = slots_[o].sw;
    const std::uint32_t b = in * V_ + in_vl;
    const std::uint32_t h = pop_fifo(b);
    Packet& p = pkts_[h];
    if (sw) {
        --slots_[o].waiting;
        if (bufs_[b].out != kNoPort) ++slots_[bufs_[b].out].waiting;
        if (rf_) {
            // The packet's claim on its output becomes the credits it takes; the packet behind,
            // bound already (one candidate), claims its own.
            claim(o, p.out_vl, -std::int32_t(p.credits));
            if (bufs_[b].out != kNoPort)
                claim(bufs_[b].out, bufs_[b].ovl, std::int32_t(bufs_[b].need));
        }
        if (use_req_) {
            const std::uint64_t bit = 1ull << (slots_[in].pnum - 1);
            bool still = false;
            for (std::uint32_t v = 0; v < V_ && !still; ++v) still = bufs_[in * V_ + v].out == o;
            if (!still) slots_[o].req &= ~bit;
            if (bufs_[b].out != kNoPort) slots_[bufs_[b].out].req |= bit;
        }
        ++slots_[in].reads;
        slots_[o].rr = std::uint8_t(slots_[in].pnum % slots_[in].nports);
    }
    if (sw && kOutputBuffers) {
        // Across the crossbar, at the output link's rate and cut-through, into the output
        // buffer; the input buffer is free when the tail has crossed.
        const Time ser = Time(p.size) * slots_[o].ppb;
        const Time start = p.tail > now_ + ser ? p.tail - ser : now_;
        add_ocredits(o, ovl, -std::int32_t(p.credits));
        slots_[o].xbar_busy = 1;
        p.tail = start + ser;
        p.out_vl = ovl;
        const std::uint32_t ob = o * V_ + ovl;
        p.next = kNil;
        if (otail_[ob] == kNil)
            ohead_[ob] = h;
        else
            pkts_[otail_[ob]].next = h;
        otail_[ob] = h;
        q_.push(start + ser, kXbarFree, o, b, p.credits);
        link_arbitrate(o);
    } else {
        launch(o, h, ovl, sw ? b : kNil);
    }
    // The packet behind reached the head: with candidates, bind it now, with the credits the
    // one that left has just taken.
    if (rf_ && sw && bufs_[b].head != kNil && bufs_[b].out == kNoPort) bind_head(b);
}

// Starts packet h onto the link of o on VL ovl: from the input buffer in_buf of a switch
// without output buffers, from a CA's source queue (in_buf = kNil), or from o's output buffer
// (in_buf = kNil, a switch of a model with output buffers).
template <class Model>
void Network<Model>::launch(PortId o, std::uint32_t h, std::uint8_t ovl, std::uint32_t in_buf) {
    Packet& p = pkts_[h];
    const bool sw = slots_[o].sw;
    const std::uint32_t c = p.credits;
    const bool becn = becn_lanes_ && (p.cc & kCcBecn);
    add_credits(o, ovl, -std::int32_t(c));
    if constexpr (kVcRouter)
        if (cfg_.vc_release == SimConfig::VcRelease::Drained) vc_held_[o * V_ + ovl] = 1;
    slots_[o].busy = 1;
    if (cc_ && sw) cc_switch_out(o, ovl, p);
    const Time ser = Time(p.size) * slots_[o].ppb;
    Time start = now_;
    if (sw && p.tail > now_ + ser) start = p.tail - ser; // the tail cannot leave before it came
    const Time lo = std::max(start, win_lo_), hi = std::min(start + ser, win_hi_);
    // Beside the credits just taken: no line of its own (a port's busy time is its VLs' sum).
    if (hi > lo) link_vl_[o * V_ + ovl].busy_ps += hi - lo;
    if (series_step_) series_add(o, start, start + ser);
    p.vl = ovl;
    ++p.hops;
    ++hops_;
    last_hop_ = start;
    if (!sw) {
        times_[h].inj = start;
        ++in_network_;
        const std::uint32_t ca = ep_of_slot_[o];
        --src_[ca].queued; // a notification added itself first (cc_ca_arbitrate)
    }
    const PortId d = slots_[o].peer;
    p.tail = start + fly_ + ser;
    if (slots_[o].peer_sw) {
        // With a routing function: the index of the packet's candidate-set entry (the VL it
        // arrives on is ovl).
        const std::uint32_t cell =
            rf_ ? rf_entry_index(d, ovl, p.dlid) : flat_.cell_in(slots_[o].peer_row, p.dlid);
        if (early_ && cfg_.select_at == SimConfig::SelectAt::Sent) choose_when_sent(h, d, cell);
        q_.push(start + fly_ + cfg_.routing_ps, kReady, h, d, cell);
    } else {
        q_.push(p.tail, becn ? kDeliverBecn : kDeliver, h, d, becn_dlid_hint(p, d));
    }
    if (sw && !vc_free_at_.empty() && in_buf != kNil) {
        const Time t = start + ser + cfg_.vc_alloc_gap_ps;
        vc_free_at_[o * V_ + ovl] = in_free_at_[in_buf] = t;
        q_.push(t, kVcRetry, o, in_buf);
    }
    if (sw && kOutputBuffers) // the output buffer's space: per VL, or per class with a VC router
        q_.push(start + ser, kLinkFree, o, kVcRouter ? p.out_vl : ovl, c);
    else
        q_.push(start + ser, becn ? kOutFreeBecn : kOutFree, o, in_buf, c);
}

// VL arbitration among the output buffers of switch output o whose head has credits
// downstream.
template <class Model> void Network<Model>::link_arbitrate(PortId o) {
    if (slots_[o].busy || slots_[o].peer == kNoPort) return;
    if constexpr (kVcRouter) return link_arbitrate_vc(o);
    std::uint32_t mask = 0;
    for (std::uint32_t v = 0; v < V_; ++v) {
        const std::uint32_t h = ohead_[o * V_ + v];
        if (h != kNil && link_vl_[o * V_ + v].credits >= std::int32_t(pkts_[h].credits))
            mask |= 1u << v;
    }
    if (mask == 0) return;
    int ovl = 0;
    if (V_ > 1) {
        ovl = vl_arbitrate(vlarb_, arb_[o], mask, cfg_.packet_bytes);
        if (ovl == kNoVl) return;
    }
    const std::uint32_t ob = o * V_ + std::uint32_t(ovl);
    const std::uint32_t h = ohead_[ob];
    opopped_[ob] = 1;
    ohead_[ob] = pkts_[h].next;
    if (ohead_[ob] == kNil) otail_[ob] = kNil;
    launch(o, h, std::uint8_t(ovl), kNil);
}

template <class Model> void Network<Model>::drop(std::uint32_t h, PortId at) {
    Packet& p = pkts_[h];
    if (at != kNoPort) {
        // Free the buffer space the packet held once its tail is in.
        q_.push(std::max(now_, p.tail) + credit_delay_, kCredit, slots_[at].peer, p.vl, p.credits);
        --in_network_;
    }
    if (p.cc & kCcBecn) {
        ++ccs_.becn_dropped;
        --becn_live_;
    } else {
        ++dropped_;
        if (p.measured) --measured_open_;
    }
    release(h);
}

template <class Model>
void Network<Model>::on_ready(std::uint32_t h, PortId d, std::uint32_t cell) {
    Packet& p = pkts_[h];
    const Slot& in = slots_[d];
    const NodeId m = in.node;
    const PortNum inp = in.pnum;
    const PortId first = d - inp;
    if (p.hops > cfg_.max_hops) return drop(h, d);
    const PortNum outp = flat_.at(cell, p.dlid);
    if (outp == kNoPath || outp == 0 || outp > in.nports || slots_[first + outp].peer == kNoPort)
        return drop(h, d);
    const std::uint8_t ovl = sl_mod_vls_ ? sl_vl(p.sl) : vl_at(m, in.nports, inp, outp, p.sl);
    if (ovl >= V_) return drop(h, d);
    p.out = first + outp;
    p.out_vl = ovl;
    if (cc_) cc_bound(p);
    if (push_fifo(d * V_ + p.vl, h)) head_bound(p.out, inp, p.out_vl, p.credits);
}

// The LFT's port toward the packet's DLID, on the VL of its phase; at the source switch the
// path's decision first, at the intermediate switch the destination's DLID again.
template <class Model> void Network<Model>::on_ready_via(std::uint32_t h, PortId d) {
    Packet& p = pkts_[h];
    const Slot& in = slots_[d];
    const NodeId m = in.node;
    const PortId first = d - in.pnum;
    if (p.hops > cfg_.max_hops) return drop(h, d);
    ViaPacket& s = via_pkt_[h];
    if (p.hops == 1) // fresh from its host
        s = via_->start(m, p.dst, p.dlid, [&](PortNum o) {
            return o == kNoPath || o == 0 || o > in.nports ? 0 : used_credits(first + o);
        });
    if (s.phase == 0 && m == s.via) {
        s = ViaPacket{.dlid = s.dlid};
        p.dlid = s.dlid;
    }
    const PortNum outp = r_.out_port(m, p.dlid);
    if (outp == kNoPath || outp == 0 || outp > in.nports || slots_[first + outp].peer == kNoPort)
        return drop(h, d);
    if (!s.crossed && via_->leaves_group(m, outp)) s.crossed = true;
    p.out = first + outp;
    p.out_vl = via_->vl(s);
    if (push_fifo(d * V_ + p.vl, h)) head_bound(p.out, in.pnum, p.out_vl, p.credits);
}

template <class Model>
std::uint8_t Network<Model>::source_vl(std::uint32_t ca, std::uint8_t sl) const {
    const NodeId n = ca_node_[ca];
    const PortNum port = slots_[ca_out_[ca]].pnum;
    const PortNum np = slots_[ca_out_[ca]].nports;
    const Sl2VlTable* own = rf_ ? rf_->vl2vl.find(n, np, 0, port) : nullptr;
    return own ? (*own)[sl & 15] : sl_mod_vls_ ? sl_vl(sl) : vl_at(n, np, 0, port, sl);
}

template <class Model> void Network<Model>::on_deliver(std::uint32_t h, PortId d) {
    if (cc_or_flows_) return on_deliver_cc(h, d);
    Packet& p = pkts_[h];
    ++delivered_;
    --in_network_;
    if (ep_of_slot_[d] != p.dst) ++misdelivered_;
    if (in_window(now_)) accept_bytes(p.size);
    if (p.measured) {
        --measured_open_;
        sample_latency(now_ - times_[h].gen, now_ - times_[h].inj, p.measured - 1u);
    }
    return_credits(slots_[d].peer, p.vl, p.credits);
    release(h);
}

template <class Model> void Network<Model>::handle(const Event& e) {
    switch (e.type) {
    case kGen: {
        const std::uint32_t ca = e.a, dst = e.b;
        ++src_[ca].msg_count;
        if (dst != ca) generate(ca, dst);
        schedule_next_gen(ca);
        break;
    }
    case kTrace:
        generate(cfg_.trace[e.a].src, cfg_.trace[e.a].dst);
        break;
    case kReady:
        if (via_on_)
            on_ready_via(e.a, e.b);
        else if (rf_)
            on_ready_adaptive(e.a, e.b, e.c);
        else
            on_ready(e.a, e.b, e.c);
        break;
    case kDeliver:
    case kDeliverBecn:
        on_deliver(e.a, e.b);
        break;
    case kOutFree:
    case kOutFreeBecn: {
        const PortId o = e.a;
        slots_[o].busy = 0;
        if (e.b != kNil) {
            const PortId in = slot_of(e.b);
            --slots_[in].reads;
            return_credits(slots_[in].peer, vl_of(e.b), e.c);
            arbitrate(o);
            // Outputs the freed input port may now feed.
            for (std::uint32_t v = 0; v < V_; ++v)
                if (bufs_[in * V_ + v].out != kNoPort) arbitrate(bufs_[in * V_ + v].out);
        } else {
            arbitrate(o);
        }
        break;
    }
    case kCredit:
        add_credits(e.a, e.b, std::int32_t(e.c));
        if constexpr (kVcRouter) vc_held_[e.a * V_ + e.b] = 0; // the holder's tail left downstream
        if (kOutputBuffers && slots_[e.a].sw) {
            link_arbitrate(e.a);
        } else {
            arbitrate(e.a);
            if (rf_ && slots_[e.a].sw && unbound_[slots_[e.a].node]) rebind(e.a);
        }
        break;
    case kXbarFree: {
        const PortId o = e.a, in = slot_of(e.b);
        slots_[o].xbar_busy = 0;
        --slots_[in].reads;
        return_credits(slots_[in].peer, vl_of(e.b), e.c);
        arbitrate(o);
        for (std::uint32_t v = 0; v < V_; ++v)
            if (bufs_[in * V_ + v].out != kNoPort) arbitrate(bufs_[in * V_ + v].out);
        break;
    }
    case kLinkFree:
        slots_[e.a].busy = 0;
        add_ocredits(e.a, e.b, std::int32_t(e.c));
        arbitrate(e.a); // room in the output buffer for the crossbar
        link_arbitrate(e.a);
        if (rf_ && unbound_[slots_[e.a].node]) rebind(e.a);
        break;
    case kWatchdog:
        watchdog();
        break;
    case kCcReady:
        cc_ready(e.a, e.b);
        break;
    case kCcBecnArrives:
        --becn_live_;
        cc_becn(e.a, e.b, std::uint8_t(e.c & 0xff), std::uint8_t(e.c >> 8));
        break;
    case kCcFree:
        cc_free_check(e.a, e.b);
        break;
    case kVcRetry: {
        // The output's VC is free again, and the input VC's next head may go.
        arbitrate(e.a);
        if (const PortId next = bufs_[e.b].out; next != kNoPort && next != e.a) arbitrate(next);
        if (unbound_[slots_[e.a].node]) rebind(e.a);
        break;
    }
    case kDrbCheck:
        if (const Time t = drb_->check(e.a, e.b, now_)) q_.push(t, kDrbCheck, e.a, e.b);
        break;
    }
}

// No hop anywhere for a whole period while packets are in the network: a deadlock when the
// full buffers form a cycle, else stuck. Otherwise a partial deadlock while other traffic
// still moves: a cycle of buffers whose head packets have all sat there for a whole period.
template <class Model> void Network<Model>::watchdog() {
    if (in_network_ > 0 && hops_ == hops_at_tick_) {
        std::vector<std::uint32_t> cyc = blocked_cycle();
        const Verdict v = cyc.empty() ? Verdict::Stuck : Verdict::Deadlock;
        set_verdict(v, std::move(cyc));
        return;
    }
    const std::vector<std::uint8_t> stalled = stalled_buffers();
    if (std::vector<std::uint32_t> cyc = blocked_cycle(&stalled); !cyc.empty()) {
        set_verdict(Verdict::Deadlock, std::move(cyc));
        return;
    }
    hops_at_tick_ = hops_;
    // Credits alone make no packets: with nothing else to come, the run is over.
    if (live_ > 0 || q_.size_except_lane(kCredit) + (ccf_.size() - ccf_pos_) > 0)
        q_.push(now_ + deadlock_ps_, kWatchdog, 0);
}

template <class Model> SimResult Network<Model>::run(const ProgressFn& progress) {
    SimResult res;
    if (cfg_.trace.empty()) {
        for (std::uint32_t i = 0; i < N_; ++i) {
            const std::uint32_t msg = cfg_.message_bytes ? cfg_.message_bytes : cfg_.packet_bytes;
            const Time msg_time = Time(msg) * slots_[ca_out_[i]].ppb;
            Source& s = src_[i];
            s.slot_ps = msg_time;
            if (cfg_.traffic.load <= 0) continue;
            if (cfg_.traffic.injection == Injection::Constant) {
                // A random phase within one interval, so sources do not fire in lock step.
                const double interval = s.interval(cfg_.traffic.load);
                s.phase = interval >= 1 ? s.rng.below(Time(interval)) : 0;
                if (s.phase < end_) push_gen(s.phase, i);
            } else {
                // A random offset, then a geometric number of message slots.
                s.phase = s.rng.below(std::max<Time>(msg_time, 1));
                schedule_next_gen(i);
            }
        }
    } else {
        for (std::uint32_t k = 0; k < cfg_.trace.size(); ++k)
            q_.push(cfg_.trace[k].time, kTrace, k);
    }
    q_.push(deadlock_ps_, kWatchdog, 0);

    auto wall_last = std::chrono::steady_clock::now();
    bool complete = false; // every packet of the window delivered or dropped
    Event e;
    for (;;) {
        if (!next_event(end_, e)) break;
        if (const Event* x = q_.passed()) prefetch_for(*x);
        now_ = e.time;
        ++events_;
        if (const Event* x = q_.ahead(prefetch_next_ ? kPrefetchAheadLarge : kPrefetchAhead))
            prefetch_for(*x);
        if (prefetch_next_)
            if (const Event* x = q_.ahead(1)) prefetch_next(*x);
        handle(e);
        if (verdict_ != Verdict::Ok) break;
        if (now_ >= win_hi_ && measured_open_ == 0 && cfg_.trace.empty()) {
            complete = true;
            break;
        }
        if (progress && (events_ & 0xffff) == 0) {
            const auto w = std::chrono::steady_clock::now();
            if (w - wall_last > std::chrono::seconds(1)) {
                wall_last = w;
                progress(now_, end_);
            }
        }
    }
    // Notification packets are counted apart from data (CcStats).
    const std::uint64_t becn_packets = cfg_.cc.becn_delay_ps ? 0 : becn_live_;
    const std::uint64_t data_live = live_ - becn_packets;
    if (generated_ != delivered_ + dropped_ + data_live)
        throw std::logic_error("conservation violated: generated " + std::to_string(generated_) +
                               " != delivered " + std::to_string(delivered_) + " + dropped " +
                               std::to_string(dropped_) + " + in flight " +
                               std::to_string(data_live));
    if (ccs_.becn_sent != ccs_.becn_received + ccs_.becn_dropped + becn_live_)
        throw std::logic_error("conservation of congestion notifications violated: sent " +
                               std::to_string(ccs_.becn_sent) + " != received " +
                               std::to_string(ccs_.becn_received) + " + dropped " +
                               std::to_string(ccs_.becn_dropped) + " + in flight " +
                               std::to_string(becn_live_));

    res.generated = generated_;
    res.delivered = delivered_;
    res.dropped = dropped_;
    res.misdelivered = misdelivered_;
    res.in_flight = data_live;
    res.hops = hops_;
    res.events = events_;
    res.end_ps = now_;
    res.measured_unfinished = measured_open_;
    res.throttled = throttled_;
    res.peak_source_queue = peak_src_queued_;
    res.peak_packets = peak_live_;

    const double window_ns = double(cfg_.measure_ps) / double(kPsPerNs);
    double cap = 0; // mean CA link bandwidth in bytes/ns
    for (std::uint32_t i = 0; i < N_; ++i) cap += double(kPsPerNs) / double(slots_[ca_out_[i]].ppb);
    cap /= N_;
    res.offered_bytes_per_ns = double(bytes_offered_) / window_ns / N_;
    res.accepted_bytes_per_ns = double(bytes_accepted_) / window_ns / N_;
    res.offered_fraction = res.offered_bytes_per_ns / cap;
    res.accepted_fraction = res.accepted_bytes_per_ns / cap;
    res.throttled_fraction = double(bytes_throttled_) / window_ns / N_ / cap;
    if (cc_) {
        res.cc = true;
        res.cc_stats = ccs_;
        res.cc_stats.becn_in_flight = becn_live_;
        res.cc_stats.becn_bytes_per_ns = double(becn_in_window_bytes_) / window_ns / N_;
    }
    if (drb_) {
        res.drb = true;
        res.drb_stats = drb_->stats();
    }
    if (series_step_) {
        LinkSeries& ls = res.link_series;
        ls.step_ps = series_step_;
        const std::size_t P = slots_.size();
        const std::size_t K = (std::max<Time>(now_, 1) + series_step_ - 1) / series_step_;
        series_.resize(K * P, 0);
        for (PortId s = 0; s < P; ++s)
            if (slots_[s].peer != kNoPort) {
                ls.ports.push_back(s);
                ls.ps_per_byte.push_back(std::uint32_t(slots_[s].ppb));
            }
        ls.busy_ps.reserve(K * ls.ports.size());
        for (std::size_t k = 0; k < K; ++k)
            for (PortId s : ls.ports) ls.busy_ps.push_back(series_[k * P + s]);
    }
    res.endpoints = ca_out_;
    if (flow_stats_) {
        res.flows.reserve(flow_acc_.size());
        for (const FlowAcc& acc : flow_acc_) {
            FlowStat x;
            x.src = acc.key >> 16;
            x.dst = acc.key & 0xffffu;
            const double bw = double(kPsPerNs) / double(slots_[ca_out_[x.src]].ppb); // bytes/ns
            x.offered_fraction = double(acc.offered) / window_ns / bw;
            x.accepted_fraction = double(acc.accepted) / window_ns / bw;
            x.becns = acc.becns;
            res.flows.push_back(x);
        }
        std::sort(res.flows.begin(), res.flows.end(), [](const FlowStat& a, const FlowStat& b) {
            return a.src != b.src ? a.src < b.src : a.dst < b.dst;
        });
    }

    res.latency_samples = latency_n_;
    if (latency_n_ > 0) {
        // Selection, not a sort: three ranks of up to a million samples.
        const auto rank = [&](double q) {
            const std::size_t k = std::size_t(std::ceil(q * double(latencies_.size())));
            const auto at = latencies_.begin() + std::ptrdiff_t(std::max<std::size_t>(k, 1) - 1);
            std::nth_element(latencies_.begin(), at, latencies_.end());
            return double(*at) / double(kPsPerNs);
        };
        res.latency_mean_ns = double(latency_sum_) / double(latency_n_) / double(kPsPerNs);
        res.latency_p50_ns = rank(0.5);
        res.latency_p99_ns = rank(0.99);
        res.latency_max_ns = double(latency_max_) / double(kPsPerNs);
    }
    // Batch means: each batch's accepted fraction is the window's scaled by its share of the
    // bytes; each batch's mean latency is its own.
    if (bytes_accepted_ > 0) {
        std::vector<double> acc;
        for (std::uint64_t b : batch_bytes_)
            acc.push_back(res.accepted_fraction * double(b) * kBatches / double(bytes_accepted_));
        res.accepted_fraction_ci95 = ci95_half_width(acc);
    }
    std::vector<double> lat, net;
    for (unsigned k = 0; k < kBatches; ++k)
        if (batch_lat_n_[k] > 0) {
            lat.push_back(double(batch_lat_sum_[k]) / double(batch_lat_n_[k]) / double(kPsPerNs));
            net.push_back(double(batch_net_sum_[k]) / double(batch_lat_n_[k]) / double(kPsPerNs));
        }
    res.latency_mean_ci95_ns = ci95_half_width(lat);
    res.network_latency_mean_ci95_ns = ci95_half_width(net);
    if (latency_n_ > 0)
        res.network_latency_mean_ns =
            double(latency_net_sum_) / double(latency_n_) / double(kPsPerNs);

    res.vl_util_mean.assign(V_, 0);
    std::size_t nlinks = 0;
    for (PortId s = 0; s < slots_.size(); ++s) {
        if (slots_[s].peer == kNoPort) continue;
        LinkUse u;
        u.port = s;
        Time busy = 0;
        for (std::uint32_t v = 0; v < V_; ++v) busy += link_vl_[s * V_ + v].busy_ps;
        u.utilization = double(busy) / double(cfg_.measure_ps);
        for (std::uint32_t v = 0; v < V_; ++v) {
            const double x = double(link_vl_[s * V_ + v].busy_ps) / double(cfg_.measure_ps);
            u.vl_utilization.push_back(x);
            res.vl_util_mean[v] += x;
        }
        res.link_util_mean += u.utilization;
        res.link_util_max = std::max(res.link_util_max, u.utilization);
        res.links.push_back(std::move(u));
        ++nlinks;
    }
    if (nlinks) {
        res.link_util_mean /= double(nlinks);
        for (auto& x : res.vl_util_mean) x /= double(nlinks);
    }

    // The statistics above are those of the run; the verdict may look further.
    res.last_hop_ps = last_hop_;
    if (verdict_ == Verdict::Ok && !complete && live_ > 0) settle_verdict();
    // Delivering nothing says more than being stuck, a deadlock's cycle more than either.
    if ((verdict_ == Verdict::Ok || verdict_ == Verdict::Stuck) &&
        ((bytes_offered_ > 0 && bytes_accepted_ == 0) || (generated_ > 0 && delivered_ == 0)))
        verdict_ = Verdict::DeliveredNothing;
    if (verdict_ == Verdict::Ok && generated_ == 0 && bytes_offered_ == 0)
        verdict_ = Verdict::NothingOffered;
    res.verdict = verdict_;
    res.deadlock = verdict_ == Verdict::Deadlock;
    if (res.deadlock) {
        res.deadlock_at_ps = verdict_at_;
        for (std::uint32_t b : cycle_) res.deadlock_cycle.push_back(buffer_name(b));
    }
    res.dlid = dlid_;
    res.forwarding_sets = r_.forwarding_sets != nullptr;
    res.deadlock_period_ps = deadlock_ps_;
    res.credit_delay_ps = credit_delay_;
    return res;
}

// The run reached its time limit with packets inside. No hop for a whole watchdog period
// before the end is a stall: a deadlock if the full buffers form a cycle, else stuck. Packets
// still moving with a cycle of full buffers at the end may be a loop that closed too late for
// the watchdog: the run goes on without new traffic (the statistics are already taken) until
// the watchdog tells, or a buffer of the cycle moves, at most two periods. Last, a run in
// which no packet moved during the whole drain (long enough for a packet to cross a switch)
// ended stuck, whatever made it so (credits that return slower than the run lasts, say).
template <class Model> void Network<Model>::settle_verdict() {
    const Time last_hop = last_hop_;
    if (last_hop + deadlock_ps_ <= end_) {
        std::vector<std::uint32_t> cyc = blocked_cycle();
        const Verdict v = cyc.empty() ? Verdict::Stuck : Verdict::Deadlock;
        set_verdict(v, std::move(cyc));
        return;
    }
    const bool drain_stalled = last_hop < win_hi_ && end_ - win_hi_ >= transit_ps_;
    const std::vector<std::uint32_t> cyc = blocked_cycle();
    if (!cyc.empty()) extend_for(cyc);
    if (verdict_ == Verdict::Ok && drain_stalled) set_verdict(Verdict::Stuck);
}

template <class Model> void Network<Model>::extend_for(const std::vector<std::uint32_t>& cyc) {
    // A pop changes the buffer's head at once, and the packet popped stays alive (in flight)
    // until after the event, so its index cannot come back as the head within the event:
    // comparing the heads after each event sees every move.
    std::vector<std::uint32_t> heads;
    for (std::uint32_t b : cyc) heads.push_back(head_of(b));
    const auto moved = [&] {
        for (std::size_t i = 0; i < cyc.size(); ++i)
            if (head_of(cyc[i]) != heads[i]) return true;
        return false;
    };
    const Time limit = std::max(now_, end_) + 2 * deadlock_ps_;
    Event e;
    while (verdict_ == Verdict::Ok && live_ > 0 && next_event(limit, e)) {
        now_ = e.time;
        if (e.type == kGen || e.type == kTrace) continue; // no new traffic
        handle(e);
        if (moved()) return;
    }
}

#define IBRT_SIM_INSTANTIATE(M) template class Network<M>;
IBRT_SIM_FOR_EACH_SWITCH_MODEL(IBRT_SIM_INSTANTIATE)
#undef IBRT_SIM_INSTANTIATE

} // namespace ibrt::sim::detail
