// The simulator's network (sim/simulator.hpp): the state of every port, buffer and packet and
// the event handlers that move packets, shared by the files that implement its parts:
//   - network_setup.cpp: set-up (checks, the flat arrays);
//   - network.cpp: sources, the IB switch (arbitration, credits per VL, VL
//     arbitration, output buffers), delivery, the event loop, verdicts;
//   - vc_router.cpp: BookSim's VC router, and with output buffers paper 004's switch;
//   - extended_switch.cpp: routing by forwarding sets and the selection functions (paper 004,
//     paper 003 §3; docs/sim-model.md "The extended switch");
//   - congestion_control.cpp: IBA congestion control and DRB (IBA vol. 1 annex A10, paper 002);
//   - deadlock_detection.cpp: the wait-for graph of full buffers and its cycles;
//   - network_records.hpp: the event types, the packet and buffer records;
//   - look_ahead.hpp: what the next events will read, prefetched.
// The network is a class template over the switch model (sim/switch_models.hpp: the IB switch,
// with output buffers, BookSim's VC router, paper 004's switch), instantiated once per model in
// each of those files; simulate() picks the model once per run.
// Internal to sim/: nothing outside includes it.
//
// Packet-level virtual cut-through simulation with IBA credit-based flow control
// (IBA vol. 1 §7.9 flow control, §7.6.6 SL to VL mapping, §7.6.9 VL arbitration), in the
// switch model of paper 000 §5.1: input buffers per VL, a crossbar behind a routing delay,
// LFT forwarding. docs/sim-model.md states each assumption; the key ones in the code:
//   - time is integer picoseconds, so analytic results hold exactly;
//   - a packet may start onto a link only when the downstream buffer of its VL has room for
//     the whole packet (credits are reserved for the whole packet up front);
//   - an input buffer's space is freed when the packet's tail has left it, and the credit
//     reaches the upstream port credit_delay later;
//   - cut-through: the head may leave after the routing delay, but the tail never leaves
//     before it has arrived (start >= tail arrival - serialization on the output link).
// Hot state lives in flat arrays indexed by PortId (x VL); packets are pool indices linked
// into per-buffer FIFOs, so the per-packet path allocates nothing.
#pragma once

#include "sim/simulator.hpp"

#include "fabric/display_name.hpp"
#include "fabric/end_ports.hpp"
#include "fabric/huge_pages.hpp"
#include "fabric/routing_function.hpp"
#include "sim/config_check.hpp"
#include "sim/config_notes.hpp"
#include "sim/drb.hpp"
#include "sim/event_queue.hpp"
#include "sim/flat_lft.hpp"
#include "sim/flat_map.hpp"
#include "sim/network_records.hpp"
#include "sim/prefetch.hpp"
#include "sim/switch_models.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>

namespace ibrt::sim::detail {

// Serialization time per byte of the link `port` transmits on.
inline std::uint32_t link_ps_per_byte(const Port& port, const SimConfig& cfg) {
    if (cfg.ps_per_byte) return std::uint32_t(cfg.ps_per_byte);
    const double g = port.gbps();
    return g > 0 ? std::uint32_t(std::llround(8000.0 / g)) : 4000; // unknown width/speed: 1x SDR
}

inline Time credit_delay_of(const SimConfig& cfg) {
    return cfg.credit_delay_ps == ~Time(0) ? cfg.fly_ps : cfg.credit_delay_ps;
}

inline std::string us_text(Time ps) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", double(ps) / 1e6);
    return buf;
}

// The endpoints: every end port (all_end_ports()), after refusing a CA that has none (no
// cable, or no LID on any port), by name.
std::vector<PortId> sim_endpoints(const Fabric& f, const Lids& lids);

// `Model`: the switch model (sim/switch_models.hpp), a type, so that each model's network is
// compiled apart and tests of the model are constants.
template <class Model> class Network {
  public:
    // `flat` is r's LFTs in the two-level form the event loop reads (sim/flat_lft.hpp).
    Network(const Fabric& f, const Routing& r, const SimConfig& cfg, const FlatLft& flat)
        : f_(f), r_(r), cfg_(cfg), flat_(flat), rf_(r.forwarding_sets.get()), cc_(cfg.cc.on),
          sl_mod_vls_(r.sl2vl.empty()), V_(cfg.num_vls), ca_out_(sim_endpoints(f, r.lids)),
          pattern_(cfg.traffic, std::uint32_t(ca_out_.size()), cfg.seed,
                   host_order(f, ca_out_, cfg.traffic.host_order, cfg.seed)) {
        setup();
    }

    SimResult run(const ProgressFn& progress);

  private:
    void setup();
    std::uint32_t need(std::uint32_t bytes) const {
        return (bytes + cfg_.credit_unit - 1) / cfg_.credit_unit;
    }
    // The VL of a packet on SL `sl` leaving `node` through `out`, having come in on `in` (0 at
    // the source): SL2VL, or SL mod VLs where the node has no table.
    std::uint8_t vl_at(NodeId node, PortNum nports, PortNum in, PortNum out,
                       std::uint8_t sl) const {
        return r_.sl2vl.vl(node, nports, in, out, sl, V_);
    }
    // Buffer index -> slot and VL, and SL mod VLs: a shift and a mask where the VLs are a
    // power of two (1, 2, 4 or 8: nearly every run), not a division, which costs more than the
    // rest of a link-free event.
    std::uint32_t slot_of(std::uint32_t b) const { return vshift_ < 32 ? b >> vshift_ : b / V_; }
    std::uint32_t vl_of(std::uint32_t b) const { return vshift_ < 32 ? b & (V_ - 1) : b % V_; }
    std::uint8_t sl_vl(std::uint8_t sl) const { return V_ == 1 ? 0 : Sl2Vl::default_vl(sl, V_); }

    std::uint32_t alloc() {
        ++live_;
        if (free_ != kNil) {
            const std::uint32_t h = free_;
            free_ = pkts_[h].next;
            pkts_[h] = Packet{};
            return h;
        }
        pkts_.emplace_back();
        times_.emplace_back();
        if (rf_) cset_.emplace_back();
        if (early_) early_pick_.emplace_back();
        if (via_on_) via_pkt_.emplace_back();
        return std::uint32_t(pkts_.size() - 1);
    }
    void release(std::uint32_t h) {
        --live_;
        pkts_[h].next = free_;
        free_ = h;
    }
    // The head's routing decision is mirrored out of the pool into the buffer itself, so that
    // arbitration reads one 16-byte record per input instead of chasing packets.
    void cache_head(Buf& q) {
        if (q.head == kNil) {
            q.out = kNoPort;
            return;
        }
        const Packet& p = pkts_[q.head];
        q.out = p.out;
        q.ovl = p.out_vl;
        q.need = std::uint16_t(p.credits);
        // The packet behind is read when this one leaves, at least a packet time from now
        // (with candidates, bind_head then reads its set id too).
        if (p.next != kNil) {
            prefetch(&pkts_[p.next]);
            if (rf_) prefetch(&cset_[p.next]);
        }
    }
    // FIFO of buffer b; returns true when the packet became the head.
    bool push_fifo(std::uint32_t b, std::uint32_t h) {
        Buf& q = bufs_[b];
        pkts_[h].next = kNil;
        if (q.tail == kNil) {
            q.head = q.tail = h;
            cache_head(q);
            return true;
        }
        pkts_[q.tail].next = h;
        q.tail = h;
        return false;
    }
    std::uint32_t pop_fifo(std::uint32_t b) {
        Buf& q = bufs_[b];
        q.popped = 1;
        const std::uint32_t h = q.head;
        q.head = pkts_[h].next;
        if (q.head == kNil) q.tail = kNil;
        cache_head(q);
        return h;
    }

    void generate(std::uint32_t ca, std::uint32_t dst);
    // With forwarding sets every message read two tables scattered over the fabric (its
    // source's SL row, 33 MB on 16,384 hosts, and the CA's VL2VL entry): the rows the CAs use,
    // copied (src_sl_rows_, row src_sl_row_[ca] of src_sl_width_ DLIDs), so that the event
    // loop can fetch the SL ahead (prefetch_for), and per endpoint one byte naming its VL table
    // among the few distinct ones. Empty without forwarding sets (the static path reads r_),
    // src_vlt_ also with more than 256 distinct tables.
    void source_tables_setup();
    HugeVector<std::uint8_t> src_sl_rows_;
    std::vector<std::uint32_t> src_sl_row_;
    std::uint32_t src_sl_width_ = 0;
    const std::uint8_t* src_sl(std::uint32_t ca) const {
        return src_sl_rows_.data() + std::size_t(src_sl_row_[ca]) * src_sl_width_;
    }
    std::vector<std::uint8_t> src_vlt_;
    std::vector<Sl2VlTable> src_vl_pool_;
    // The destination is drawn when the message is scheduled, not when it is made, so that the
    // loop can prefetch its path selection entry (a 2 MB table on FT(16,3)). The source's
    // random stream is drawn in the same order as before (gap, destination, [SL, DLID], gap,
    // ...): drawing the destination right after the gap that precedes the message is the
    // same sequence.
    void push_gen(Time t, std::uint32_t ca) {
        q_.push(t, kGen, ca, pattern_.next(ca, src_[ca].rng, src_[ca].msg_count, t));
    }
    void schedule_next_gen(std::uint32_t ca);
    // Most calls find the output busy or nothing routed to it: decided inline, without the
    // call into the arbiter.
    // With output buffers a switch output's arbiter is the crossbar's (input buffers into the
    // output buffers); link_arbitrate then serves the output buffers onto the link.
    void arbitrate(PortId o) {
        if (slots_[o].sw ? (slots_[o].waiting == 0 ||
                            (kOutputBuffers ? slots_[o].xbar_busy : slots_[o].busy))
                         : slots_[o].busy)
            return;
        try_arbitrate(o);
    }
    void link_arbitrate(PortId o);
    void launch(PortId o, std::uint32_t h, std::uint8_t ovl, std::uint32_t in_buf);
    void try_arbitrate(PortId o);
    void transmit(PortId o, PortId in, std::uint32_t in_vl, std::uint8_t ovl);
    void on_ready(std::uint32_t h, PortId d, std::uint32_t cell);
    // SimConfig::via: the hop of a packet on a path through an intermediate (via_routing.hpp).
    void on_ready_via(std::uint32_t h, PortId d);
    // Credits in use in the buffer downstream of output o, over its VLs (BookSim's
    // GetUsedCredit: the occupancy, blind to heads bound and waiting).
    std::int32_t used_credits(PortId o) const {
        std::int32_t room = 0;
        for (std::uint32_t x = 0; x < V_; ++x) room += link_vl_[o * V_ + x].credits;
        return std::int32_t(V_ * (cfg_.buffer_bytes / cfg_.credit_unit)) - room;
    }
    // The head of an input buffer of port `inp` is now bound for output `out`: count it there
    // and let the output arbitrate.
    void head_bound(PortId out, PortNum inp, std::uint32_t ovl, std::uint32_t need) {
        if (rf_) claim(out, ovl, std::int32_t(need));
        ++slots_[out].waiting;
        if (use_req_) slots_[out].req |= 1ull << (inp - 1);
        arbitrate(out);
    }
    // The extended switch (docs/sim-model.md): the packet's candidate set is looked up on
    // arrival; a set of one candidate is bound then, as the static switch does, a larger one
    // when the packet reaches the head of its input buffer (bind_head), by the selection
    // function among the best priority class that has room. A head nothing could take is
    // offered again whenever an output of its switch gains room (rebind).
    // `entry`: RoutingFunction::entry_index of the packet at d, computed when it was sent.
    void on_ready_adaptive(std::uint32_t h, PortId d, std::uint32_t entry);
    bool bind_head(std::uint32_t b);
    // bind_head's two steps: the candidates' views into views_ and cand_vls_ (returns the best
    // priority class that can take the packet, 256 if none; `ports`: the candidates' bits,
    // all of them when it is 256), then the selection function's choice in that class (an
    // index into the set). `cands` come by class (candidates()).
    int view_candidates(PortId in_slot, std::span<const Candidate> cands, std::uint8_t vl_or_sl,
                        std::int32_t need, std::uint64_t& ports);
    std::uint32_t choose(const Packet& p, PortId in_slot, std::span<const Candidate> cands,
                         int best);
    void choose_when_sent(std::uint32_t h, PortId d, std::uint32_t entry);
    void rebind(PortId output);
    // The VL a packet at `m` (in by `inp`) takes out of `outp` under the routing function.
    std::uint8_t candidate_vl(NodeId m, PortNum nports, PortNum inp, PortNum outp,
                              const Packet& p) const {
        return candidate_vl_by(m, nports, inp, outp, vl_or_sl(p));
    }
    // The same from what the tables read, the packet's VL (VL2VL by input VL: the VL of the
    // buffer it waits in) or its SL, so that a head can be judged without reading the packet.
    [[gnu::always_inline]] std::uint8_t candidate_vl_by(NodeId m, PortNum nports, PortNum inp,
                                                        PortNum outp, std::uint8_t vl_or_sl) const {
        if (!vlx_begin_.empty())
            return vlx_pool_[vlx_rows_[std::size_t(vlx_row_[vlx_begin_[m] + inp]) * vlx_width_ +
                                       outp]][vl_or_sl & 15];
        if (rf_->vl2vl.empty())
            return sl_mod_vls_ ? sl_vl(vl_or_sl) : vl_at(m, nports, inp, outp, vl_or_sl);
        return rf_->vl2vl.vl(m, nports, inp, outp, vl_or_sl, V_);
    }
    // What candidate_vl_by reads of a packet: its VL (VL2VL by input VL) or its SL. In
    // VC-router mode the VL of the hop it arrived on is that hop's class (out_vl, until the
    // packet is bound here), not the VC it took.
    std::uint8_t vl_or_sl(const Packet& p) const {
        return vl2vl_by_vl_ ? (kVcRouter ? p.out_vl : p.vl) : p.sl;
    }
    // The same for the head of buffer b, from the buffer's VL where that is the packet's.
    std::uint8_t vl_or_sl_at(const Packet& p, std::uint32_t b) const {
        return vl2vl_by_vl_ ? (kVcRouter ? p.out_vl : std::uint8_t(vl_of(b))) : p.sl;
    }
    void vl2vl_setup();
    // Room for a packet going out of switch port o on VL v: the output buffer with output
    // buffers, else the downstream input buffer's credits — less what the heads already bound
    // to (o, v) will take (the extended switch's "can take the packet": an output whose
    // credits are all spoken for by waiting packets cannot, though none has left yet), unless
    // SimConfig::room_ignores_bound. The one room test: the selection and the re-offer of
    // refused heads must agree.
    std::int32_t room(PortId o, std::uint32_t v) const {
        const OutVl& r = ov_[o * V_ + v];
        return cfg_.room_ignores_bound ? r.avail : r.avail - r.claimed;
    }
    // Credits and claims change only through these three, so that with forwarding sets the
    // selection's copies (ov_, room_all_) stay equal to what they sum.
    void add_credits(PortId o, std::uint32_t v, std::int32_t d) {
        link_vl_[o * V_ + v].credits += d;
        if (rf_) {
            if (!(kOutputBuffers && slots_[o].sw)) ov_[o * V_ + v].avail += d;
            room_all_[o] += d;
        }
    }
    void add_ocredits(PortId o, std::uint32_t v, std::int32_t d) { // a switch's output buffer
        ocredits_[o * V_ + v] += d;
        if (rf_) {
            ov_[o * V_ + v].avail += d;
            room_all_[o] += d;
        }
    }
    void claim(PortId o, std::uint32_t v, std::int32_t d) { // with forwarding sets only
        ov_[o * V_ + v].claimed += d;
        room_all_[o] -= d;
    }
    // Most of an event's time went to waiting for the one cache line of a table or a packet
    // it needs (the path selection table alone is 2 MB on FT(16,3)). The event queue knows the
    // next events, so the loop fetches for them a little early: for the event two places ahead
    // in the bucket being popped, and for the one of the next bucket the queue's walk just
    // passed. Prefetching when an event is made is far too early: by the time it is due,
    // thousands of events have pushed the line out of L1 and L2 again. Where the ports' state
    // outgrows L2 (prefetch_next_), three places ahead: its lines come from memory, not L3
    // (16,384-host FlatFly 0.96x, 11 pairs).
    static constexpr std::size_t kPrefetchAhead = 2, kPrefetchAheadLarge = 3;
    [[gnu::always_inline]] void prefetch_for(const Event& x) const; // sim/look_ahead.hpp
    // The second stage, for the next event: what prefetch_for fetched is in the cache by now,
    // so a routed packet's output can be read from its LFT entry, and the state its
    // arbitration reads (the output's slot, credits and VLArb state) fetched in turn (at
    // 16,384 hosts that read missed on most hops). Only where the ports' state
    // outgrows the caches (prefetch_next_, set in setup): on BookSim's 256-node tree the extra
    // LFT read per event cost 8 % and saved nothing.
    bool prefetch_next_ = false;
    [[gnu::always_inline]] void prefetch_next(const Event& x) const;
    // Port p of node m (first: its port 0's slot) has a cable: one word per switch
    // (cabled_) instead of one slot per candidate, the slots' lines read only for the
    // candidates the selection compares.
    bool cabled(NodeId m, PortId first, PortNum p) const {
        return !cabled_.empty() ? (cabled_[m] >> (p - 1) & 1u) != 0
                                : slots_[first + p].peer != kNoPort;
    }
    void on_deliver(std::uint32_t h, PortId d);
    [[gnu::noinline]] void on_deliver_cc(std::uint32_t h, PortId d);
    // A FECN-marked packet's destination sends a BECN whose DLID is a cell of the path
    // selection table (2 MB on FT(16,3), nearly always cold: the read was 94 % of cc_notify's
    // samples). Its kDeliver event carries that cell (+1; 0: none) for the look-ahead to fetch.
    bool becn_dlid_table_ = false;
    bool becn_lanes_ = false; // kDeliverBecn and kOutFreeBecn have lanes (BECN packets)
    std::uint32_t becn_dlid_hint(const Packet& p, PortId d) const {
        if (!becn_dlid_table_ || !(p.cc & kCcFecn)) return 0;
        return std::uint32_t(std::size_t(ep_of_slot_[d]) * N_ + p.src + 1);
    }
    void drop(std::uint32_t h, PortId at);
    [[gnu::always_inline]] inline void handle(const Event& e);
    void watchdog();
    void settle_verdict();
    void extend_for(const std::vector<std::uint32_t>& cycle);
    // `only`: consider just these buffers (input buffers, then output buffers); null = all.
    // The buffers of a cycle of the wait-for graph, each waiting on the next; empty if none.
    std::vector<std::uint32_t> blocked_cycle(const std::vector<std::uint8_t>* only = nullptr) const;
    std::vector<std::uint8_t> stalled_buffers();
    std::string buffer_name(std::uint32_t b) const;
    void set_verdict(Verdict v, std::vector<std::uint32_t> cycle = {}) {
        verdict_ = v;
        verdict_at_ = now_;
        cycle_ = std::move(cycle);
    }
    bool in_window(Time t) const { return t >= win_lo_ && t < win_hi_; }

    const Fabric& f_;
    const Routing& r_;
    const SimConfig& cfg_;
    const FlatLft& flat_;
    const RoutingFunction* rf_ = nullptr; // forwarding sets, or null for the static LFT path
    // SimConfig::via: on_ready_via takes every hop. Beside rf_, which every hop reads too, so
    // the test costs the static path no cache line (via_ itself lies far from both).
    const bool via_on_ = cfg_.via != Via::None;
    // Per switch slot x arrival VL: RoutingFunction::entry_index of DLID 0 there (kNoEntry
    // when the key has no table), so that a hop's entry index is an add and a compare, not
    // entry_index's three dependent reads of three tables.
    HugeVector<std::uint32_t> rf_base_;
    std::uint32_t rf_entry_index(PortId d, std::uint32_t vl, Lid dlid) const {
        const std::uint32_t base = rf_base_[d * V_ + vl];
        if (base == RoutingFunction::kNoEntry || dlid > rf_->max_lid())
            return RoutingFunction::kNoEntry;
        const std::uint64_t i = std::uint64_t(base) + dlid; // as entry_index: kNoEntry past 32 bits
        return i < RoutingFunction::kNoEntry ? std::uint32_t(i) : RoutingFunction::kNoEntry;
    }
    std::unique_ptr<RoutingFunction> own_rf_; // the LFT as one-candidate sets (VC-router mode)
    // VC-router mode: per output slot x VC whether a packet holds it, and where the round
    // robin over free VCs starts.
    static constexpr bool kVcRouter = Model::vc_per_hop;
    std::vector<std::uint8_t> vc_held_;
    std::vector<std::uint8_t> vc_rr_;
    // SimConfig::vc_alloc_gap_ps: per output slot x VC and per input buffer, when the gap after
    // the last packet is over (empty without a gap).
    std::vector<Time> vc_free_at_, in_free_at_;
    // SimConfig::vc_input_first: per input slot, the port number its round robin over the
    // outputs it requests starts at.
    std::vector<std::uint8_t> in_ptr_;
    void try_arbitrate_vc(PortId o);
    void link_arbitrate_vc(PortId o); // with output buffers: paper 004's switch
    void vc_router_setup();
    // The output input slot i requests under SimConfig::vc_input_first, or kNoPort.
    PortId requested_output(PortId i) const;
    // VC v of output o can take a packet of `need` credits (SimConfig::VcRelease), and, when
    // `timed`, its allocation gap is over (a gap always ends: the deadlock walk leaves it out).
    bool vc_usable(PortId o, std::uint32_t v, std::uint32_t need, bool timed = true) const {
        if (timed && !vc_free_at_.empty() && vc_free_at_[o * V_ + v] > now_) return false;
        return cfg_.vc_release == SimConfig::VcRelease::Drained
                   ? !vc_held_[o * V_ + v]
                   : link_vl_[o * V_ + v].credits >= std::int32_t(need);
    }
    // VC-router mode: the VCs a packet of class c (the VL the routing's SL2VL or VL2VL gives
    // the hop, as BookSim's routing functions return a VC range per phase) may take: the
    // class's share [vc_lo_[c], vc_lo_[c + 1]) of the VCs. One class (no tables, or tables that
    // use one VL): every VC.
    std::array<std::uint8_t, 17> vc_lo_{};
    bool vc_free(PortId o, std::uint32_t need, std::uint32_t cls, bool timed = true) const {
        for (std::uint32_t v = vc_lo_[cls]; v < vc_lo_[cls + 1]; ++v)
            if (vc_usable(o, v, need, timed)) return true;
        return false;
    }
    // Congestion control (SimConfig::cc.on): see the block of cc_ members below.
    const bool cc_;
    // No SL2VL tables at all: SL mod VLs everywhere, without a lookup.
    const bool sl_mod_vls_;
    const std::uint32_t V_;
    const unsigned vshift_ = std::has_single_bit(V_) ? unsigned(std::countr_zero(V_)) : 32;
    // The endpoints: every end port (fabric/end_ports.hpp, all_end_ports() order), as `ibrt
    // check` numbers them, so a dual-port HCA is two; each sends from its own port's buffers
    // (its source queues: arrivals at an end port are delivered, never buffered). Built before
    // pattern_, which is made from it.
    std::vector<PortId> ca_out_;
    DestinationPattern pattern_;
    VlArbConfig vlarb_; // cfg_.vlarb, or every VL weight 1 in the low table when both are empty

    EventQueue q_;
    void return_credits(PortId o, std::uint32_t vl, std::uint32_t c) {
        q_.push(now_ + credit_delay_, kCredit, o, vl, c);
    }
    Time now_ = 0, win_lo_ = 0, win_hi_ = 0, end_ = 0, fly_ = 0, credit_delay_ = 0;
    Time deadlock_ps_ = 0;
    DlidPolicy dlid_ = DlidPolicy::Base; // cfg_.dlid resolved
    // Progress: the last start onto a link, hops at the last watchdog tick, the verdict.
    Time last_hop_ = 0;
    Time transit_ps_ = 0; // 2 x (packet serialization on the slowest link + fly + routing)
    std::uint64_t hops_at_tick_ = 0, events_ = 0;
    Verdict verdict_ = Verdict::Ok;
    Time verdict_at_ = 0;
    std::vector<std::uint32_t> cycle_;
    double log1p_load_ = 0; // log1p(-load), the same for every message

    HugeVector<Packet> pkts_;
    // By packet: when it was generated, and when its head started onto the first link (the
    // network latency's start, BookSim's), side by side: delivery reads both.
    struct PacketTimes {
        Time gen = 0, inj = 0;
    };
    HugeVector<PacketTimes> times_;
    std::uint32_t free_ = kNil;
    std::uint64_t live_ = 0;

    // Per port slot (Slot: network_records.hpp).
    HugeVector<Slot> slots_;
    // Slot::req, bit j: some FIFO head at input port j+1 of this (switch) output's node is routed
    // here. Arbitration visits only these inputs instead of scanning every port x VL; switches of
    // more than 64 ports (none in practice) fall back to the scan.
    bool use_req_ = true;
    HugeVector<VlArbState> arb_;
    std::vector<std::uint8_t> is_switch_; // by node
    // Per slot x VL: the input buffers (a CA's slot 0: its source queue).
    HugeVector<Buf> bufs_;
    // Per slot x VL: the credits the link has downstream and its busy time (LinkVl).
    HugeVector<LinkVl> link_vl_;
    // Per output buffer, Buf::popped's flag; per buffer (input buffers, then output buffers),
    // whether it was occupied at the last watchdog tick (the stall timer).
    std::vector<std::uint8_t> opopped_, busy_seen_;
    bool popped(std::size_t b) const {
        return b < bufs_.size() ? bufs_[b].popped : opopped_[b - bufs_.size()];
    }
    // The head of buffer b (input buffers, then output buffers), kNil when it is empty.
    std::uint32_t head_of(std::size_t b) const {
        return b < bufs_.size() ? bufs_[b].head : ohead_[b - bufs_.size()];
    }
    // Output buffers (SimConfig::output_buffer_bytes > 0), per switch slot x VL: FIFOs, free
    // space in credits, and per slot the crossbar-write busy flag and the VL round robin.
    static constexpr bool kOutputBuffers = Model::output_buffers;
    HugeVector<std::uint32_t> ohead_, otail_;
    HugeVector<std::int32_t> ocredits_;
    std::int32_t ocap_ = 0; // an output buffer's credits
    // The extended switch (rf_ set): each packet's candidate set; per input buffer whether its
    // head is waiting unbound, and per switch how many such heads it has; the CP counters.
    HugeVector<std::uint32_t> cset_;
    // SimConfig::select_at Entry or Sent: per packet, the candidate chosen before the head.
    const bool early_ = rf_ && cfg_.select_at != SimConfig::SelectAt::Head;
    std::vector<std::uint32_t> early_pick_;
    // Per output slot x VL, what room() reads, in one cache line: the credits the packet
    // needs (the output buffer's with output buffers, else downstream: a copy of ocredits_
    // or link_vl_'s) and those of the heads bound to it (claimed). Per slot, the link's credits
    // not yet claimed summed over its VLs, what the load-based selections compare
    // (CandidateView::room_all): one word per candidate instead of three arrays x VLs.
    struct OutVl {
        std::int32_t avail = 0, claimed = 0;
    };
    HugeVector<OutVl> ov_;
    HugeVector<std::int32_t> room_all_;
    // Per input buffer, 0 while its head is not waiting unbound, else bit p - 1 set for each
    // port p among the head's candidates (all bits: see bind_head). Room grows only where a
    // credit or a freed output buffer or VC calls rebind, so a head none of whose candidates
    // is that output would only be refused again: rebind skips it (MC left many such heads,
    // each re-offered at every credit of its switch).
    HugeVector<std::uint64_t> unbound_ports_;
    // Per input slot, the VLs whose buffer has such a head (unbound_ports_ not 0): rebind
    // reads one word per input port instead of one per (port, VL).
    std::vector<std::uint16_t> unbound_vls_;
    // The extended switch's VL2VL, read for every candidate of every head offered: per (node,
    // in port, out port) one byte naming its table among the few distinct ones (16 bytes per
    // pair in the Sl2Vl tables). Those bytes form one row per (node, in port), and the rows
    // repeat (Distance Based has 3 tables and a handful of rows: one for a host's input, one
    // for a switch's): each (node, in port) names its row among the distinct ones, so that the
    // whole structure stays in the cache (as one byte per pair it was 2.8 MB on the
    // 16,384-host FlatFly, and its read missed for nearly every head offered). Empty when
    // there are more than 256 distinct tables or 65,536 distinct rows (the tables are read).
    bool vl2vl_by_vl_ = false;             // candidate_vl reads the packet's VL, not its SL
    std::vector<std::uint32_t> vlx_begin_; // per node: its first (node, in port) in vlx_row_
    std::vector<std::uint16_t> vlx_row_;   // [vlx_begin_[n] + in]: the row's index
    std::vector<std::uint8_t> vlx_rows_;   // [row * vlx_width_ + out]: the table's index
    std::uint32_t vlx_width_ = 0;          // the most ports of a node, plus one
    std::vector<Sl2VlTable> vlx_pool_;
    std::vector<std::uint32_t> unbound_, routed_, rebind_rr_;
    // Per switch output slot, bit j: input port j + 1 may have a head waiting unbound with this
    // output among its candidates (set when a head is refused, cleared when rebind finds none
    // there: a superset), so that rebind visits those inputs alone, without a division per
    // port or a read of every unbound head's candidate ports. Unused (rebind scans every
    // input) with switches of more than 64 ports (use_req_ false).
    HugeVector<std::uint64_t> want_;
    // Per candidate set (by id), its candidates ordered by priority class (all one class with
    // SimConfig::one_priority_class), each class in the set's own order (the rotative order the
    // selection functions follow, so every choice is the same): view_candidates stops at the
    // first candidate of a class worse than one that can take the packet instead of reading
    // every candidate's VL and cable. Empty when every set is in that order already (rf_->set
    // is read then). The deadlock walk reads the sets as stored (its first waits name the
    // reported cycle).
    // Sets of at most 31 candidates (every one on the 16,384-host FlatFly: 27 at most) are
    // kept one to a cache line at a fixed stride (set_lines_), so that a packet's set is one
    // read from its id, not two dependent ones (its start, then its candidates).
    struct alignas(64) SetLine {
        std::uint8_t n = 0;
        Candidate c[31];
    };
    static_assert(sizeof(Candidate) == 2 && sizeof(SetLine) == 64);
    HugeVector<SetLine> set_lines_;
    std::vector<std::uint32_t> by_class_begin_;
    std::vector<Candidate> by_class_;
    std::span<const Candidate> candidates(std::uint32_t set) const {
        if (!set_lines_.empty()) return {set_lines_[set].c, set_lines_[set].n};
        if (by_class_begin_.empty()) return rf_->set(set);
        return {by_class_.data() + by_class_begin_[set],
                by_class_.data() + by_class_begin_[set + 1]};
    }
    void by_class_setup();
    // rebind's visit of input slot i: offers `output` (port bit `bit`) to its unbound heads
    // that have it among their candidates; false when there is none.
    bool rebind_input(PortId output, PortId i, std::uint64_t bit);
    std::vector<std::uint64_t> cabled_; // per node, bit p - 1: port p has a cable (see cabled)
    gen::Rng selection_rng_{0};
    std::vector<CandidateView> views_, class_views_;
    std::vector<std::uint8_t> cand_vls_;
    std::vector<std::uint32_t> class_idx_;

    // Per endpoint (ca_out_ above): its node, LIDs and source state.
    std::uint32_t N_ = 0;
    std::vector<NodeId> ca_node_;
    std::vector<std::uint32_t> ep_of_slot_; // per port slot: its endpoint (ca_out_), or kNil
    // Routing::dlid_choice by endpoint: the routing's own table when every CA is one endpoint,
    // else ep_dlid_ (a CA's table row for its first end port, 0 = the base LID elsewhere).
    std::span<const Lid> choice_;
    std::vector<Lid> ep_dlid_;
    std::vector<Lid> ca_base_;
    std::vector<std::uint8_t> ca_lmc_;
    // Per endpoint, what generating its next message reads and writes, in one cache line (as five
    // arrays it was five misses per message at 16,384 hosts).
    struct alignas(64) Source {
        explicit Source(std::uint64_t seed) : rng(seed) {}
        gen::Rng rng;
        std::uint64_t msg_count = 0; // messages drawn (the constant injection's k)
        Time phase = 0;              // the start, then (Bernoulli) the last slot drawn
        Time slot_ps = 0;            // a message's time on the CA's link
        std::uint32_t queued = 0;    // packets in its source queue
        // Constant injection: time between messages (the same double at every use).
        double interval(double load) const { return double(slot_ps) / load; }
    };
    static_assert(sizeof(Source) == 64);
    std::vector<Source> src_;

    // Statistics.
    std::uint64_t generated_ = 0, delivered_ = 0, dropped_ = 0, misdelivered_ = 0, hops_ = 0;
    std::uint64_t in_network_ = 0, measured_open_ = 0;
    std::uint64_t bytes_offered_ = 0, bytes_accepted_ = 0;
    std::uint64_t throttled_ = 0, bytes_throttled_ = 0, peak_live_ = 0;
    std::uint32_t peak_src_queued_ = 0;
    // Latency samples for the percentiles: every one up to SimConfig::latency_samples, then a
    // uniform sample of that many (reservoir sampling on its own seeded stream).
    std::vector<Time> latencies_;
    std::uint64_t latency_n_ = 0, latency_sum_ = 0;
    Time latency_max_ = 0;
    gen::Rng latency_rng_{0};
    // Batch means (docs/sim-model.md "Confidence intervals"): the measurement window cut into
    // kBatches equal batches; bytes accepted by the batch they arrive in, latencies by the batch
    // their packet was generated in.
    static constexpr unsigned kBatches = 10;
    // The batch of time now_, which only grows: a cursor per use (generation, delivery) that
    // moves on when now_ passes its batch's end, instead of a division per packet (that cost 4 %
    // of a static run).
    struct BatchCursor {
        unsigned k = 0;
        Time end = 0;
    };
    BatchCursor gen_batch_, acc_batch_;
    unsigned batch_at(BatchCursor& c) const {
        while (now_ >= c.end && c.k + 1 < kBatches)
            c.end = win_lo_ + (win_hi_ - win_lo_) * (++c.k + 1) / kBatches;
        return c.k;
    }
    void accept_bytes(std::uint32_t size) {
        bytes_accepted_ += size;
        batch_bytes_[batch_at(acc_batch_)] += size;
    }
    // t: the latency of a measured packet of batch k from its generation, net: from its
    // injection into the network.
    void sample_latency(Time t, Time net, unsigned k) {
        batch_lat_sum_[k] += t;
        batch_net_sum_[k] += net;
        latency_net_sum_ += net;
        ++batch_lat_n_[k];
        latency_sum_ += t;
        latency_max_ = std::max(latency_max_, t);
        if (latencies_.size() < cfg_.latency_samples) {
            latencies_.push_back(t);
        } else if (const std::uint64_t j = latency_rng_.below(latency_n_ + 1);
                   j < cfg_.latency_samples) {
            latencies_[j] = t;
        }
        ++latency_n_;
    }

    // Congestion control (IBA annex A10; paper 002 §3-4; docs/sim-model.md "Congestion
    // control"). Switches: the bytes bound to each output x VL inside the switch (its input
    // FIFOs and output buffer), compared with the threshold when a packet leaves; sources:
    // per-destination flows with their own injection delay, served round robin.
    void cc_setup();
    // A packet of a switch leaves by output o on VL ovl: FECN marking (A10.2.1).
    [[gnu::noinline]] void cc_switch_out(PortId o, std::uint32_t ovl, Packet& p);
    void cc_bound(const Packet& p) { cc_queued_[p.out * V_ + p.out_vl] += p.size; }
    // The source CA's injection: notifications first, then its flows.
    [[gnu::noinline]] void cc_ca_arbitrate(PortId o, std::uint32_t ca);
    // Packet h (its src, dst, SL and first VL set) joins its flow; `last` caches the flow of
    // the message's previous packet.
    void cc_enqueue(std::uint32_t h, std::uint32_t& last);
    // A FECN-marked packet reached CA `at`: notify its source (A10.2.2).
    [[gnu::noinline]] void cc_notify(const Packet& p, std::uint32_t at);
    // The source `ca` hears of congestion on its flow to `dst` on `sl` (A10.2.3).
    [[gnu::noinline]] void cc_becn(std::uint32_t ca, std::uint32_t dst, std::uint8_t sl,
                                   std::uint8_t rank);
    [[gnu::noinline]] void cc_free_check(std::uint32_t f, std::uint32_t gen);
    // The kCcFree events of idle flows, kept in a FIFO beside the event queue when they come in
    // time order (they nearly all do: a late BECN's flow is freed CCTI_Increase x CCTI_Timer
    // after it, 5.12 us on bench_sim, beyond the calendar's ring, so each went through its far
    // heap). Each takes a sequence number from the queue when made (take_seq) and next_event
    // merges the two by (time, seq): the events and their order are exactly those of one queue.
    std::vector<Event> ccf_;
    std::size_t ccf_pos_ = 0;
    static constexpr Time kNoTime = ~Time(0);
    Time ccf_next_ = kNoTime; // the FIFO's first time, kNoTime when empty
    // The next event up to `limit`, of the queue or of that FIFO.
    [[gnu::always_inline]] bool next_event(Time limit, Event& e) {
        if (ccf_next_ <= limit) [[unlikely]] {
            const Event& f = ccf_[ccf_pos_];
            if (q_.pop_before(f.time, f.seq, e)) return true;
            e = f;
            ++ccf_pos_;
            if (ccf_pos_ < ccf_.size()) {
                const Event& g = ccf_[ccf_pos_];
                ccf_next_ = g.time;
                prefetch_for(g); // its flow and map cell, a while ahead
            } else {
                ccf_next_ = kNoTime;
            }
            return true;
        }
        return q_.pop_until(limit, e);
    }
    struct Throttle {
        Time next_send = 0; // earliest start of the next packet (injection rate delay)
        Time tick = 0;      // next CCTI timer expiry
        std::uint16_t ccti = 0;
    };
    // CCTI_Timer expiries since the last look, lazily: one decrement each, not below CCTI_Min.
    void cc_decay(Throttle& t, std::uint8_t sl) const {
        const Time T = cc_timer_ps_[sl];
        if (T == 0 || now_ < t.tick) return;
        const Time k = (now_ - t.tick) / T + 1;
        t.tick += k * T;
        const std::uint16_t lo = cc_min_[sl];
        if (t.ccti > lo) t.ccti = std::uint16_t(t.ccti - std::min<Time>(k, t.ccti - lo));
    }
    // The fields the round robin's scan reads (own.next_send, need, next, head) come first, so
    // that they share a cache line: a flow waiting in the ring is usually cold.
    struct Flow {
        Throttle own;           // per QP (flow) control
        std::uint16_t need = 0; // the head packet's credits: the scan reads no packet
        std::uint16_t src = 0;
        std::uint32_t next = kNil, prev = kNil; // the CA's round robin over its flows on this VL
        std::uint32_t head = kNil, tail = kNil; // queued packets
        std::uint32_t gen = 0;                  // bumped when freed (stale kCcFree events)
        std::uint32_t queued = 0;               // packets in its queue (--source-queue)
        Time free_at = 0;                       // a kCcFree event is pending for then
        std::uint16_t dst = 0;
        std::uint8_t sl = 0, vl = 0;
        bool live = false, in_ring = false;
        bool parked = false; // out of the ring until its delay is over (a kCcReady event)
    };
    std::uint8_t source_vl(std::uint32_t ca, std::uint8_t sl) const;
    Throttle& throttle(Flow& fl) { return cc_per_sl_ ? sl_thr_[fl.src * 16u + fl.sl] : fl.own; }
    static std::uint64_t flow_key(std::uint32_t src, std::uint32_t dst, std::uint8_t sl) {
        return std::uint64_t(src) << 21 | std::uint64_t(dst) << 4 | sl;
    }
    std::uint32_t cc_flow(std::uint32_t src, std::uint32_t dst, std::uint8_t sl, std::uint8_t vl);
    void cc_ring_insert(std::uint32_t f);
    void cc_ring_remove(std::uint32_t f);
    void cc_release_flow(std::uint32_t f);
    void cc_park(std::uint32_t f, Time until);
    void cc_ready(std::uint32_t f, std::uint32_t gen);
    // Packets the CA has queued for `dst` over its flows' SLs; `hint` gets the flow when the
    // CA has used one SL only (so the message's first packet needs no second lookup).
    std::uint32_t cc_dst_queued(std::uint32_t ca, std::uint32_t dst, std::uint32_t& hint) const;
    // Per endpoint: the SLs it has had a flow on, so that the count above is one lookup, not 16.
    std::vector<std::uint16_t> cc_sls_;
    // The CA whose link is port slot o, or kNil (a switch port); the look-ahead uses it to fetch
    // the flow a CA's arbitration will read first (the ring's next, usually cold: it has waited
    // its turn behind the others).
    std::vector<std::uint32_t> cc_port_ca_;
    void cc_prefetch_ring(PortId o) const {
        const std::uint32_t ca = cc_port_ca_[o];
        if (ca == kNil) return;
        if (const std::uint32_t f = ring_[ca * V_]; f != kNil) prefetch(&flows_[f]);
    }
    // Per endpoint: notifications in its source FIFOs. Most arbitrations find none, and reading the
    // FIFOs to learn it missed the cache (a third of cc_ca_arbitrate's samples).
    std::vector<std::uint32_t> becn_queued_;
    // `slack`: the CA's link is busy that long anyway, so a delay within it binds nothing.
    void cc_flow_idle(std::uint32_t f, Time slack = 0);
    std::vector<std::int32_t> cc_queued_;      // per output slot x VL: bytes bound to it
    std::vector<std::uint16_t> cc_mark_count_; // per output slot x VL: packets to skip
    std::int32_t cc_threshold_bytes_ = 0;      // congested above this (INT32_MAX: never)
    std::uint32_t cc_min_bytes_ = 0;           // smaller packets are never marked
    std::uint16_t cc_marking_rate_ = 0;
    std::array<std::uint8_t, 32> cc_victim_mask_{};
    std::int32_t cc_root_room_ = 0; // credits left downstream below which a port is a victim
    std::int32_t cc_min_need_ = 0;  // credits of the smallest data packet the traffic makes
    bool cc_per_sl_ = false;
    std::array<Time, 16> cc_timer_ps_{};
    std::array<std::uint16_t, 16> cc_min_{}, cc_increase_{};
    std::vector<CctEntry> cct_;    // CCT[0..CCTI_Limit]
    std::vector<Throttle> sl_thr_; // per endpoint x 16 SLs (per-SL control)
    std::vector<Flow> flows_;
    std::vector<std::uint32_t> flow_free_;
    FlatMap64 flow_of_;
    std::vector<std::uint32_t> ring_; // per endpoint x VL: the flow served next, kNil when none
    std::vector<std::uint32_t> park_; // flows a scan found waiting out their delay
    std::uint64_t live_flows_ = 0, becn_live_ = 0, becn_in_window_bytes_ = 0;
    CcStats ccs_;
    // DRB (SimConfig::drb, sim/drb.hpp): the source side picks each packet's DLID, BECNs feed
    // it (cc_becn).
    std::optional<Drb> drb_;
    // SimConfig::via: the paths' decisions, and per packet its phase and destination.
    std::optional<ViaRouting> via_;
    std::vector<ViaPacket> via_pkt_;
    void drb_notify(std::uint32_t ca, std::uint32_t dst, std::uint8_t rank);
    // The DLID the source's policy gives (DRB's original path).
    Lid policy_dlid(std::uint32_t ca, std::uint32_t dst) const {
        const Lid l = dlid_ == DlidPolicy::Base || choice_.empty()
                          ? ca_base_[dst]
                          : choice_[std::size_t(ca) * N_ + dst];
        return l ? l : ca_base_[dst];
    }
    // SimConfig::link_series_ps: busy time per interval x port slot.
    Time series_step_ = 0;
    std::vector<Time> series_;
    void series_add(PortId o, Time lo, Time hi);
    // SimConfig::flow_stats: per (src << 16 | dst), bytes offered and accepted in the window.
    struct FlowAcc {
        std::uint32_t key = 0;
        std::uint64_t offered = 0, accepted = 0, becns = 0;
    };
    FlowAcc& flow_acc(std::uint32_t key) {
        bool fresh;
        const std::uint32_t i =
            flow_acc_of_.get_or_insert(key, std::uint32_t(flow_acc_.size()), fresh);
        if (fresh) flow_acc_.push_back({key});
        return flow_acc_[i];
    }
    bool flow_stats_ = false;
    bool cc_or_flows_ = false; // on_deliver takes the slow path
    FlatMap64 flow_acc_of_;
    std::vector<FlowAcc> flow_acc_;
    // The batch means' sums (sample_latency, accept_bytes), last: placed among the hot members
    // they pushed those across cache lines (a static run 6 % slower).
    std::array<std::uint64_t, kBatches> batch_bytes_{}, batch_lat_sum_{}, batch_net_sum_{},
        batch_lat_n_{};
    std::uint64_t latency_net_sum_ = 0;
};

} // namespace ibrt::sim::detail

#include "sim/look_ahead.hpp" // the two member functions above, defined there
