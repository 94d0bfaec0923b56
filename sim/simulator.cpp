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
#include "sim/prefetch.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>

namespace ibrt::sim {
namespace {

constexpr std::uint32_t kNil = 0xffffffffu;

// Serialization time per byte of the link `port` transmits on.
std::uint32_t link_ps_per_byte(const Port& port, const SimConfig& cfg) {
    if (cfg.ps_per_byte) return std::uint32_t(cfg.ps_per_byte);
    const double g = port.gbps();
    return g > 0 ? std::uint32_t(std::llround(8000.0 / g)) : 4000; // unknown width/speed: 1x SDR
}

Time credit_delay_of(const SimConfig& cfg) {
    return cfg.credit_delay_ps == ~Time(0) ? cfg.fly_ps : cfg.credit_delay_ps;
}

std::string us_text(Time ps) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", double(ps) / 1e6);
    return buf;
}

enum EventType : std::uint8_t {
    kGen,      // a = CA, b = destination CA: generate the next message
    kTrace,    // a = trace index
    kReady,    // a = packet, b = input slot, c = FlatLft cell or RF entry_index: routed
    kDeliver,  // a = packet, b = CA port slot: tail arrived at the destination
    kOutFree,  // a = output slot, b = input buffer (slot * V + vl), c = credits to return
    kCredit,   // a = output slot, b = VL, c = credits
    kWatchdog, // deadlock detection
    // Output buffers only:
    kXbarFree, // a = output slot, b = input buffer, c = credits: the crossbar move is done
    kLinkFree, // a = output slot, b = VL, c = credits: the output buffer's packet has left
    // Congestion control only:
    kCcReady,       // a = flow, b = its generation: its injection delay is over
    kCcBecnArrives, // a = source CA, b = destination CA, c = SL: an idealised BECN arrives
    kCcFree,        // a = flow, b = its generation, c = its map key's hint: free the idle flow
                    // once its CCTI is back at min
    // VC-router mode with an allocation gap only:
    kVcRetry, // a = output slot, b = input buffer: the gap after their last packet is over
    // DRB only:
    kDrbCheck, // a = DRB flow, b = its generation: its constriction timer (sim/drb.hpp)
    // BECN packets (congestion control): kDeliver and kOutFree of a notification packet, handled
    // as those. A BECN is 34 bytes, a data packet 256: its link is free and its tail arrives
    // ~220 ns earlier than a data packet's started at the same time, so in the data packets'
    // lanes it broke the time order and went to the calendar (~0.3 M events of bench_sim's
    // aggressive run); in lanes of their own they are in order. (Their credits stay kCredit:
    // which credits are in the kCredit lane is what the watchdog's pending-events test reads.)
    kDeliverBecn,
    kOutFreeBecn,
};

// Packet::cc bits.
constexpr std::uint8_t kCcFecn = 1; // a switch marked it (IBA A10: FECN)
constexpr std::uint8_t kCcBecn = 2; // a congestion notification packet (BECN) to its source
// Bits 2..7: with DRB, the rank of the path a data packet took among its flow's paths, copied
// into the BECN it causes so that the source knows which path was congested.
constexpr unsigned kDrbRankShift = 2;

// 32 bytes, aligned: every hop reads and writes the packet, and a 48-byte one straddled two
// cache lines half the time. The generation time, needed once at delivery, lives beside the
// pool (Network::gen_). Sizes and credits fit 16 bits (setup checks), CA indices too (a CA
// needs a LID, and there are 49,151).
struct alignas(32) Packet {
    Time tail = 0; // tail arrival at the buffer the packet is in
    std::uint32_t next = kNil;
    PortId out = kNoPort; // output slot chosen at the current node
    std::uint16_t size = 0;
    std::uint16_t credits = 0; // ceil(size / credit unit), computed once: a division per hop
    std::uint16_t src = 0, dst = 0;
    Lid dlid = 0;
    std::uint8_t sl = 0, vl = 0, out_vl = 0, hops = 0;
    bool measured = false;
    std::uint8_t cc = 0; // kCcFecn, kCcBecn
};
static_assert(sizeof(Packet) == 32);

// A FIFO of packets (pool indices) and its head's routing decision.
struct Buf {
    std::uint32_t head = kNil, tail = kNil;
    PortId out = kNoPort;   // out slot of the head packet, kNoPort when empty
    std::uint16_t need = 0; // the head's credits
    std::uint8_t ovl = 0;   // the head's VL on the way out
};

class Network {
  public:
    // `flat` is r's LFTs in the two-level form the event loop reads (sim/flat_lft.hpp).
    Network(const Fabric& f, const Routing& r, const SimConfig& cfg, const FlatLft& flat)
        : f_(f), r_(r), cfg_(cfg), flat_(flat), rf_(r.forwarding_sets.get()),
          vc_router_(cfg.vc_router), cc_(cfg.cc.on), sl_mod_vls_(r.sl2vl.empty()), V_(cfg.num_vls),
          pattern_(cfg.traffic, std::uint32_t(f.cas().size()), cfg.seed,
                   host_order(f, cfg.traffic.host_order, cfg.seed)) {
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
        gen_.emplace_back();
        if (rf_) cset_.emplace_back();
        if (early_) early_pick_.emplace_back();
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
        ++pops_[b];
        Buf& q = bufs_[b];
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
    // loop can fetch the SL ahead (prefetch_for), and per CA one byte naming its VL table
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
        q_.push(t, kGen, ca, pattern_.next(ca, rng_[ca], msg_count_[ca], t));
    }
    void schedule_next_gen(std::uint32_t ca);
    // Most calls find the output busy or nothing routed to it: decided inline, without the
    // call into the arbiter.
    // With output buffers a switch output's arbiter is the crossbar's (input buffers into the
    // output buffers); link_arbitrate then serves the output buffers onto the link.
    void arbitrate(PortId o) {
        if (sl_[o].sw ? (sl_[o].waiting == 0 || (obuf_ ? sl_[o].xbar_busy : sl_[o].busy))
                      : sl_[o].busy)
            return;
        try_arbitrate(o);
    }
    void link_arbitrate(PortId o);
    void launch(PortId o, std::uint32_t h, std::uint8_t ovl, std::uint32_t in_buf);
    void try_arbitrate(PortId o);
    void transmit(PortId o, PortId in, std::uint32_t in_vl, std::uint8_t ovl);
    void on_ready(std::uint32_t h, PortId d, std::uint32_t cell);
    // The head of an input buffer of port `inp` is now bound for output `out`: count it there
    // and let the output arbitrate.
    void head_bound(PortId out, PortNum inp, std::uint32_t ovl, std::uint32_t need) {
        if (rf_) claim(out, ovl, std::int32_t(need));
        ++sl_[out].waiting;
        if (use_req_) sl_[out].req |= 1ull << (inp - 1);
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
        return vl2vl_by_vl_ ? (vc_router_ ? p.out_vl : p.vl) : p.sl;
    }
    // The same for the head of buffer b, from the buffer's VL where that is the packet's.
    std::uint8_t vl_or_sl_at(const Packet& p, std::uint32_t b) const {
        return vl2vl_by_vl_ ? (vc_router_ ? p.out_vl : std::uint8_t(vl_of(b))) : p.sl;
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
        credits_[o * V_ + v] += d;
        if (rf_) {
            if (!(obuf_ && sl_[o].sw)) ov_[o * V_ + v].avail += d;
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
    // thousands of events have pushed the line out of L1 and L2 again.
    static constexpr std::size_t kPrefetchAhead = 2;
    [[gnu::always_inline]] void prefetch_for(const Event& x) const {
        if (x.type == kReady) {
            if (!rf_)
                prefetch(flat_.address(x.c));
            else if (x.c != RoutingFunction::kNoEntry)
                prefetch(rf_->entry_address(x.c));
            prefetch(&pkts_[x.a]);
            prefetch(&sl_[x.b]);
            prefetch(&bufs_[x.b * V_]);
        } else if (x.type == kDeliver || x.type == kDeliverBecn) {
            prefetch(&pkts_[x.a]);
            if (x.c != 0) prefetch(&r_.dlid_choice[x.c - 1]); // the BECN's DLID (cc_notify)
        } else if (x.type == kGen) {
            if (dlid_ == DlidPolicy::Table && !r_.dlid_choice.empty())
                prefetch(&r_.dlid_choice[std::size_t(x.a) * N_ + x.b]);
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
            prefetch(&sl_[x.a]);
            if (V_ > 1) prefetch(&arb_[x.a]);
            if (x.b != kNil) {
                prefetch(&sl_[slot_of(x.b)]);
                prefetch(&bufs_[x.b]);
            }
            if (cc_) cc_prefetch_ring(x.a);
        } else if (x.type == kCredit) {
            prefetch(&sl_[x.a]);
            if (V_ > 1) prefetch(&arb_[x.a]);
            prefetch(&credits_[x.a * V_ + x.b]);
            if (rf_) prefetch(&ov_[x.a * V_ + x.b]);
            if (cc_) cc_prefetch_ring(x.a);
        }
    }
    // Port p of node m (first: its port 0's slot) has a cable: one word per switch
    // (cabled_) instead of one slot per candidate, the slots' lines read only for the
    // candidates the selection compares.
    bool cabled(NodeId m, PortId first, PortNum p) const {
        return !cabled_.empty() ? (cabled_[m] >> (p - 1) & 1u) != 0
                                : sl_[first + p].peer != kNoPort;
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
        return std::uint32_t(std::size_t(ca_of_node_[sl_[d].node]) * N_ + p.src + 1);
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
    const bool vc_router_;
    std::vector<std::uint8_t> vc_held_;
    std::vector<std::uint8_t> vc_rr_;
    // SimConfig::vc_alloc_gap_ps: per output slot x VC and per input buffer, when the gap after
    // the last packet is over (empty without a gap).
    std::vector<Time> vc_free_at_, in_free_at_;
    // SimConfig::vc_input_first: per input slot, the port number its round robin over the
    // outputs it requests starts at.
    std::vector<std::uint8_t> in_ptr_;
    void try_arbitrate_vc(PortId o);
    // The output input slot i requests under SimConfig::vc_input_first, or kNoPort.
    PortId requested_output(PortId i) const;
    // VC v of output o can take a packet of `need` credits (SimConfig::VcRelease), and, when
    // `timed`, its allocation gap is over (a gap always ends: the deadlock walk leaves it out).
    bool vc_usable(PortId o, std::uint32_t v, std::uint32_t need, bool timed = true) const {
        if (timed && !vc_free_at_.empty() && vc_free_at_[o * V_ + v] > now_) return false;
        return cfg_.vc_release == SimConfig::VcRelease::Drained
                   ? !vc_held_[o * V_ + v]
                   : credits_[o * V_ + v] >= std::int32_t(need);
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
    HugeVector<Time> gen_; // by packet: generation time
    std::uint32_t free_ = kNil;
    std::uint64_t live_ = 0;

    // Per port slot.
    // The per-slot state one event touches, in one struct: arbitration reads most of it at
    // once, and one cache line beats a dozen arrays.
    // The node's own facts are copied in too (node, port number, port count), so that the
    // event loop never reads the Fabric's Node records (100 bytes each, with strings).
    struct Slot {
        std::uint64_t req = 0;      // see req_ below
        std::uint32_t ppb = 0;      // ps per byte of the link this slot transmits on
        PortId peer = kNoPort;      // slot at the other end of the cable, kNoPort if none
        NodeId node = 0;            // the node the port belongs to
        std::uint16_t waiting = 0;  // FIFO heads routed to this output
        std::uint8_t rr = 0;        // next input to consider (0-based port index)
        std::uint8_t pnum = 0;      // port number at its node (0 = the CA's source queue)
        std::uint8_t nports = 0;    // ports of its node
        std::uint8_t busy = 0;      // output transmitting
        std::uint8_t reads = 0;     // crossbar reads in progress from this input
        std::uint8_t sw = 0;        // the port is a switch's
        std::uint8_t xbar_busy = 0; // output buffers: a crossbar move into this output
        std::uint8_t xvl_rr = 0;    // output buffers: next VL the crossbar serves
    };
    HugeVector<Slot> sl_;
    // Slot::req, bit j: some FIFO head at input port j+1 of this (switch) output's node is routed
    // here. Arbitration visits only these inputs instead of scanning every port x VL; switches of
    // more than 64 ports (none in practice) fall back to the scan.
    bool use_req_ = true;
    HugeVector<VlArbState> arb_;
    std::vector<std::uint8_t> is_switch_; // by node
    // Per slot x VL: the input buffers (a CA's slot 0: its source queue).
    HugeVector<Buf> bufs_;
    HugeVector<std::int32_t> credits_;
    // Per buffer (input buffers, then output buffers): packets that left it, and at the last
    // watchdog tick that count and whether it was occupied (the stall timer).
    HugeVector<std::uint32_t> pops_, pops_seen_;
    std::vector<std::uint8_t> busy_seen_;
    // Output buffers (SimConfig::output_buffer_bytes > 0), per switch slot x VL: FIFOs, free
    // space in credits, and per slot the crossbar-write busy flag and the VL round robin.
    bool obuf_ = false;
    HugeVector<std::uint32_t> ohead_, otail_;
    HugeVector<std::int32_t> ocredits_;
    std::int32_t ocap_ = 0; // an output buffer's credits
    HugeVector<Time> busy_ps_, vl_busy_ps_;
    // The extended switch (rf_ set): each packet's candidate set; per input buffer whether its
    // head is waiting unbound, and per switch how many such heads it has; the CP counters.
    HugeVector<std::uint32_t> cset_;
    // SimConfig::select_at Entry or Sent: per packet, the candidate chosen before the head.
    const bool early_ = rf_ && cfg_.select_at != SimConfig::SelectAt::Head;
    std::vector<std::uint32_t> early_pick_;
    // Per output slot x VL, what room() reads, in one cache line: the credits the packet
    // needs (the output buffer's with output buffers, else downstream: a copy of ocredits_
    // or credits_) and those of the heads bound to it (claimed). Per slot, the link's credits
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

    // End nodes, in Fabric::cas() order.
    std::uint32_t N_ = 0;
    std::vector<NodeId> ca_node_;
    std::vector<PortId> ca_out_;
    std::vector<std::uint32_t> ca_of_node_;
    std::vector<Lid> ca_base_;
    std::vector<std::uint8_t> ca_lmc_;
    std::vector<gen::Rng> rng_;
    std::vector<std::uint64_t> msg_count_;
    std::vector<Time> phase_;
    std::vector<double> interval_;
    std::vector<Time> slot_ps_;

    // Statistics.
    std::uint64_t generated_ = 0, delivered_ = 0, dropped_ = 0, misdelivered_ = 0, hops_ = 0;
    std::uint64_t in_network_ = 0, measured_open_ = 0;
    std::uint64_t bytes_offered_ = 0, bytes_accepted_ = 0;
    std::uint64_t throttled_ = 0, bytes_throttled_ = 0, peak_live_ = 0;
    std::vector<std::uint32_t> src_queued_; // packets in each CA's source queue
    std::uint32_t peak_src_queued_ = 0;
    // Latency samples for the percentiles: every one up to SimConfig::latency_samples, then a
    // uniform sample of that many (reservoir sampling on its own seeded stream).
    std::vector<Time> latencies_;
    std::uint64_t latency_n_ = 0, latency_sum_ = 0;
    Time latency_max_ = 0;
    gen::Rng latency_rng_{0};
    void sample_latency(Time t) {
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
    // Per CA: the SLs it has had a flow on, so that the count above is one lookup, not 16.
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
    // Per CA: notifications in its source FIFOs. Most arbitrations find none, and reading the
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
    std::vector<Throttle> sl_thr_; // per CA x 16 SLs (per-SL control)
    std::vector<Flow> flows_;
    std::vector<std::uint32_t> flow_free_;
    FlatMap64 flow_of_;
    std::vector<std::uint32_t> ring_; // per CA x VL: the flow served next, kNil when none
    std::vector<std::uint32_t> park_; // flows a scan found waiting out their delay
    std::uint64_t live_flows_ = 0, becn_live_ = 0, becn_in_window_bytes_ = 0;
    CcStats ccs_;
    // DRB (SimConfig::drb, sim/drb.hpp): the source side picks each packet's DLID, BECNs feed
    // it (cc_becn).
    std::optional<Drb> drb_;
    void drb_notify(std::uint32_t ca, std::uint32_t dst, std::uint8_t rank);
    // The DLID the source's policy gives (DRB's original path).
    Lid policy_dlid(std::uint32_t ca, std::uint32_t dst) const {
        const Lid l = dlid_ == DlidPolicy::Base || r_.dlid_choice.empty()
                          ? ca_base_[dst]
                          : r_.dlid_choice[std::size_t(ca) * N_ + dst];
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
};

void Network::setup() {
    check_config(cfg_);

    // The events scheduled a (mostly) constant delay ahead: see EventQueue's lanes.
    for (EventType t : {kReady, kDeliver, kOutFree, kCredit}) q_.add_lane(t);
    becn_lanes_ = cfg_.cc.on && !cfg_.cc.becn_delay_ps;
    if (becn_lanes_)
        for (EventType t : {kDeliverBecn, kOutFreeBecn}) q_.add_lane(t);
    if (cfg_.output_buffer_bytes > 0)
        for (EventType t : {kXbarFree, kLinkFree}) q_.add_lane(t);
    vlarb_ = effective_vlarb(cfg_);
    fly_ = cfg_.fly_ps;
    credit_delay_ = credit_delay_of(cfg_);
    win_lo_ = cfg_.warmup_ps;
    win_hi_ = cfg_.warmup_ps + cfg_.measure_ps;
    end_ = win_hi_ + cfg_.drain_ps;

    const std::size_t P = f_.num_port_slots();
    sl_.assign(P, Slot{});
    arb_.assign(P, VlArbState{});
    bufs_.assign(P * V_, Buf{});
    credits_.assign(P * V_, 0);
    obuf_ = cfg_.output_buffer_bytes > 0;
    pops_.assign((obuf_ ? 2 : 1) * P * V_, 0);
    pops_seen_.assign(pops_.size(), 0);
    busy_seen_.assign(pops_.size(), 0);
    if (obuf_) {
        ohead_.assign(P * V_, kNil);
        otail_.assign(P * V_, kNil);
        ocap_ = std::int32_t(cfg_.output_buffer_bytes / cfg_.credit_unit);
        ocredits_.assign(P * V_, ocap_);
    }
    busy_ps_.assign(P, 0);
    vl_busy_ps_.assign(P * V_, 0);
    is_switch_.assign(f_.num_nodes(), 0);
    const auto cap = std::int32_t(cfg_.buffer_bytes / cfg_.credit_unit);
    for (NodeId n = 0; n < f_.num_nodes(); ++n) {
        is_switch_[n] = f_.node(n).is_switch();
        if (is_switch_[n] && f_.node(n).num_ports > 64) use_req_ = false;
        for (PortNum p = 0; p <= f_.node(n).num_ports; ++p) {
            Slot& x = sl_[f_.port_id(n, p)];
            x.sw = is_switch_[n];
            x.node = n;
            x.pnum = p;
            x.nports = f_.node(n).num_ports;
        }
        for (PortNum p = 1; p <= f_.node(n).num_ports; ++p) {
            const Port& port = f_.port(n, p);
            if (!port.connected()) continue;
            const PortId s = f_.port_id(n, p);
            sl_[s].peer = f_.port_id(port.peer_node, port.peer_port);
            sl_[s].ppb = link_ps_per_byte(port, cfg_);
            for (std::uint32_t v = 0; v < V_; ++v) credits_[s * V_ + v] = cap;
        }
    }

    N_ = std::uint32_t(f_.cas().size());
    if (N_ > 0x10000)
        throw std::invalid_argument(std::to_string(N_) +
                                    " end nodes: the simulator takes up to "
                                    "65536 (a subnet has 49,151 unicast LIDs)");
    ca_of_node_.assign(f_.num_nodes(), kNil);
    for (std::uint32_t i = 0; i < N_; ++i) {
        const NodeId n = f_.cas()[i];
        // One injection port per CA: its first end port (fabric/end_ports.hpp). A dual-port
        // HCA's other end ports receive nothing here, though `ibrt check` counts them.
        const PortId out = first_end_port(f_, n, &r_.lids);
        ca_node_.push_back(n);
        ca_out_.push_back(out);
        ca_of_node_[n] = i;
        if (out == kNoPort) {
            const PortId cabled = first_end_port(f_, n);
            if (cabled == kNoPort)
                throw std::invalid_argument(display_name(f_, n) + " has no cable");
            throw std::invalid_argument(display_port(f_, n, f_.port_num(cabled)) + " has no LID");
        }
        const Lid base = r_.lids.base(out);
        ca_base_.push_back(base);
        ca_lmc_.push_back(r_.lids.lmc(out));
        rng_.emplace_back(cfg_.seed * 0x9e3779b97f4a7c15ull + i);
    }
    if (!r_.dlid_choice.empty() && r_.dlid_choice.size() != std::size_t(N_) * N_)
        throw std::invalid_argument("path selection has " + std::to_string(r_.dlid_choice.size()) +
                                    " entries, expected " + std::to_string(N_) + "^2");
    const Time min_period = min_deadlock_period_ps(f_, cfg_);
    transit_ps_ = min_period - 2 * credit_delay_;
    if (cfg_.deadlock_ps == 0) {
        Time slow = 0;
        for (const Slot& x : sl_) slow = std::max<Time>(slow, x.ppb);
        // No hop anywhere for 100 packet times (and 10 routing + credit round trips) while
        // packets are inside cannot be congestion: some buffer would have drained.
        deadlock_ps_ = std::max({100 * Time(cfg_.packet_bytes) * std::max<Time>(slow, 1),
                                 10 * (cfg_.routing_ps + fly_ + credit_delay_), min_period});
    } else if (cfg_.deadlock_ps < min_period) {
        throw std::invalid_argument(
            "a deadlock watchdog period of " + us_text(cfg_.deadlock_ps) + " us is below the " +
            us_text(min_period) +
            " us this configuration needs to tell a stall from a packet in transit (twice "
            "serialization on the slowest link + fly + routing + credit delay)");
    } else {
        deadlock_ps_ = cfg_.deadlock_ps;
    }
    dlid_ = resolve_dlid_policy(cfg_.dlid, f_, r_);
    // DRB's original path is the path selection's or the base LID, never a random one.
    if (cfg_.drb.on && cfg_.dlid == DlidPolicy::Auto)
        dlid_ = r_.dlid_choice.empty() ? DlidPolicy::Base : DlidPolicy::Table;
    if (vc_router_) {
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
            std::max(1u, unsigned(std::bit_width(vls_carrying_traffic(f_, r_, ib))));
        for (std::uint32_t c = 0; c <= 16; ++c)
            vc_lo_[c] = std::uint8_t(std::min(c, classes) * V_ / classes);
        if (cfg_.vc_alloc_gap_ps) {
            vc_free_at_.assign(P * V_, 0);
            in_free_at_.assign(P * V_, 0);
        }
        if (cfg_.vc_input_first) in_ptr_.assign(P, 0);
    }
    if (rf_) {
        if (needs_tree_coords(cfg_.selection) && rf_->tree.empty())
            throw std::invalid_argument("selection function " +
                                        std::string(to_string(cfg_.selection)) +
                                        " needs fat-tree coordinates, which these forwarding "
                                        "sets do not have");
        if (rf_->tree.level.size() > 0 &&
            (rf_->tree.level.size() != f_.num_nodes() ||
             rf_->tree.ca_digits.size() != std::size_t(N_) * rf_->tree.height))
            throw std::invalid_argument("the forwarding sets' tree coordinates are not this "
                                        "fabric's");
        unbound_ports_.assign(bufs_.size(), 0);
        unbound_vls_.assign(sl_.size(), 0);
        ov_.assign(bufs_.size(), OutVl{});
        room_all_.assign(sl_.size(), 0);
        for (PortId o = 0; o < sl_.size(); ++o)
            for (std::uint32_t v = 0; v < V_; ++v) {
                const std::size_t i = std::size_t(o) * V_ + v;
                ov_[i].avail = obuf_ && sl_[o].sw ? ocredits_[i] : credits_[i];
                room_all_[o] += credits_[i] - (obuf_ ? ocap_ - ocredits_[i] : 0);
            }
        unbound_.assign(f_.num_nodes(), 0);
        routed_.assign(f_.num_nodes(), 0);
        rebind_rr_.assign(f_.num_nodes(), 0);
        want_.assign(use_req_ ? sl_.size() : 0, 0);
        by_class_setup();
        selection_rng_ = gen::Rng(cfg_.seed ^ 0x73656c6563742121ull); // "select!!"
        vl2vl_setup();
        rf_base_.assign(P * V_, RoutingFunction::kNoEntry);
        for (PortId s = 0; s < P; ++s)
            if (sl_[s].sw)
                for (std::uint32_t v = 0; v < V_; ++v)
                    rf_base_[s * V_ + v] = rf_->entry_index(sl_[s].node, v, sl_[s].pnum, 0);
        source_tables_setup();
        cabled_.assign(f_.num_nodes(), 0);
        for (NodeId n = 0; n < f_.num_nodes() && !cabled_.empty(); ++n) {
            if (f_.node(n).num_ports > 64) cabled_.clear(); // read the slots
            for (PortNum q = 1; q <= f_.node(n).num_ports && !cabled_.empty(); ++q)
                if (sl_[f_.port_id(n, q)].peer != kNoPort) cabled_[n] |= 1ull << (q - 1);
        }
    }

    latency_rng_ = gen::Rng(cfg_.seed ^ 0x6c6174656e6379ull); // "latency"
    log1p_load_ = std::log1p(-cfg_.traffic.load);
    msg_count_.assign(N_, 0);
    src_queued_.assign(N_, 0);
    phase_.assign(N_, 0);
    interval_.assign(N_, 0);
    slot_ps_.assign(N_, 0);
    for (const auto& t : cfg_.trace)
        if (t.src >= N_ || t.dst >= N_)
            throw std::invalid_argument("trace message names an end node out of range");
    flow_stats_ = cfg_.flow_stats;
    cc_or_flows_ = cc_ || flow_stats_;
    if (cc_) cc_setup();
    becn_dlid_table_ = cc_ && !cfg_.cc.becn_delay_ps && dlid_ == DlidPolicy::Table &&
                       !r_.dlid_choice.empty() && std::size_t(N_) * N_ < 0xffffffffu;
    if (cfg_.drb.on) {
        if (!cc_)
            throw std::invalid_argument(
                "DRB needs congestion control's FECN marking and BECNs: give an opensm.conf with "
                "congestion_control TRUE (for DRB alone, without injection throttling, turn the "
                "injection delay off)");
        if (dlid_ == DlidPolicy::Random)
            throw std::invalid_argument("DRB chooses among a destination's LIDs itself: it "
                                        "cannot run with random DLIDs (use --dlid table or base)");
        drb_.emplace(
            cfg_.drb, cfg_.seed,
            [this](std::uint32_t src, std::uint32_t dst, Lid original, std::vector<Lid>& out) {
                out = drb_paths(f_, r_, ca_out_[src], original, ca_base_[dst], ca_lmc_[dst],
                                cfg_.drb.max_paths);
            });
    }
    if (cfg_.link_series_ps) {
        series_step_ = cfg_.link_series_ps;
        const Time span = cfg_.warmup_ps + cfg_.measure_ps + cfg_.drain_ps;
        const double cells = (double(span) / double(series_step_) + 2) * double(sl_.size());
        if (cells > 5e7)
            throw std::invalid_argument("a link time series of " + us_text(series_step_) +
                                        " us steps over this run would hold " +
                                        std::to_string(std::uint64_t(cells)) +
                                        " values; take longer steps");
    }
}

// Adds the busy interval [lo, hi) of port o to the time series.
void Network::series_add(PortId o, Time lo, Time hi) {
    const std::size_t P = sl_.size();
    while (lo < hi) {
        const std::size_t k = std::size_t(lo / series_step_);
        const Time end = std::min(hi, Time(k + 1) * series_step_);
        if (series_.size() < (k + 1) * P) series_.resize((k + 1) * P, 0);
        series_[k * P + o] += end - lo;
        lo = end;
    }
}

void Network::schedule_next_gen(std::uint32_t ca) {
    const double load = cfg_.traffic.load;
    if (load <= 0) return;
    Time t;
    const std::uint64_t k = msg_count_[ca];
    if (cfg_.traffic.injection == Injection::Constant) {
        t = phase_[ca] + Time(std::floor(double(k) * interval_[ca]));
    } else {
        // Geometric number of message slots until the next success.
        std::uint64_t gap = 1;
        if (load < 1) {
            const double u = (double(rng_[ca].next() >> 11) + 1.0) * 0x1.0p-53; // (0, 1]
            gap = 1 + std::uint64_t(std::floor(std::log(u) / log1p_load_));
        }
        phase_[ca] += gap * slot_ps_[ca];
        t = phase_[ca];
    }
    if (t < end_) push_gen(t, ca);
}

void Network::generate(std::uint32_t ca, std::uint32_t dst) {
    const std::uint32_t msg = cfg_.message_bytes ? cfg_.message_bytes : cfg_.packet_bytes;
    const PortNum port = sl_[ca_out_[ca]].pnum;
    const PortId src_buf = ca_out_[ca] - port; // slot 0: the source queue
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
        cc_ ? (cfg_.source_queue_packets ? cc_dst_queued(ca, dst, cc_last) : 0) : src_queued_[ca];
    if (cfg_.source_queue_packets && queued > 0 && queued + npk > cfg_.source_queue_packets) {
        throttled_ += npk;
        if (in_window(now_)) {
            bytes_offered_ += msg;
            bytes_throttled_ += msg;
        }
        return;
    }
    gen::Rng& rng = rng_[ca];
    std::uint8_t sl = 0;
    if (cfg_.sl == SlPolicy::Spread) sl = std::uint8_t(rng.below(V_));
    bool head_changed = false;
    for (std::uint32_t off = 0; off < msg; off += cfg_.packet_bytes) {
        const std::uint32_t h = alloc();
        Packet& p = pkts_[h];
        gen_[h] = now_;
        p.src = std::uint16_t(ca);
        p.dst = std::uint16_t(dst);
        p.size = std::uint16_t(std::min(cfg_.packet_bytes, msg - off));
        p.credits = std::uint16_t(need(p.size));
        switch (dlid_) {
        case DlidPolicy::Auto: // resolved in setup
        case DlidPolicy::Table:
            p.dlid = r_.dlid_choice.empty() ? ca_base_[dst] : r_.dlid_choice[ca * N_ + dst];
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
        p.measured = in_window(now_);
        ++generated_;
        if (p.measured) {
            ++measured_open_;
            bytes_offered_ += p.size;
        }
        // The source's VL: the forwarding sets' table for this CA when they give one ("(Source,
        // Destination) -> (DLID, VL)"), else its SL2VL.
        const std::uint8_t vl =
            !src_vlt_.empty() ? src_vl_pool_[src_vlt_[ca]][p.sl & 15] : source_vl(ca, p.sl);
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
        peak_src_queued_ = std::max(peak_src_queued_, ++src_queued_[ca]);
    }
    peak_live_ = std::max(peak_live_, live_);
    if (head_changed) arbitrate(ca_out_[ca]);
}

void Network::try_arbitrate(PortId o) {
    if (vc_router_) return try_arbitrate_vc(o);
    if (sl_[o].peer == kNoPort) return;
    const bool xbar = obuf_ && sl_[o].sw; // into the output buffers, not onto the link
    if (xbar ? sl_[o].xbar_busy : sl_[o].busy) return;
    const std::int32_t* room = xbar ? ocredits_.data() : credits_.data();
    const Slot& out = sl_[o];
    const PortId first = o - out.pnum; // slot of the node's port 0
    std::uint32_t mask = 0;
    PortId cand_in[16];
    std::uint32_t cand_vl[16];
    if (!out.sw) {
        const std::uint32_t ca = ca_of_node_[out.node];
        if (ca == kNil || ca_out_[ca] != o) return;
        if (cc_) return cc_ca_arbitrate(o, ca);
        const PortId s0 = first;
        for (std::uint32_t v = 0; v < V_; ++v) {
            const Buf& q = bufs_[s0 * V_ + v];
            if (q.head != kNil && credits_[o * V_ + v] >= std::int32_t(q.need)) {
                mask |= 1u << v;
                cand_in[v] = s0;
                cand_vl[v] = v;
            }
        }
        if (mask == 0) return;
    } else {
        if (sl_[o].waiting == 0) return;
        const std::uint32_t np = out.nports;
        const std::uint32_t start = out.rr;
        const std::uint32_t all = (1u << V_) - 1;
        std::uint32_t matched = 0;
        const std::uint32_t waiting = sl_[o].waiting;
        // Visits input port inp; false once every head routed here has been seen or every VL
        // has its candidate. The input's buffers are read only up to its last head routed
        // here: with 9 VLs they are three cache lines, and a static routing's heads all sit
        // in the first.
        const auto visit = [&](PortNum inp) {
            const PortId i = first + inp;
            const bool can_read = sl_[i].reads < cfg_.speedup;
            for (std::uint32_t v = 0; v < V_; ++v) {
                const std::uint32_t b = i * V_ + v;
                if (bufs_[b].out != o) continue;
                const std::uint32_t ovl = bufs_[b].ovl;
                if (can_read && !(mask >> ovl & 1u) && room[o * V_ + ovl] >= bufs_[b].need) {
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
            const std::uint64_t r = sl_[o].req;
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
        const std::uint32_t r = sl_[o].xvl_rr % V_;
        const std::uint32_t rot = ((mask >> r) | (mask << (V_ - r))) & ((1u << V_) - 1);
        ovl = int((r + std::uint32_t(std::countr_zero(rot))) % V_);
        sl_[o].xvl_rr = std::uint8_t((ovl + 1) % V_);
    } else if (V_ > 1) {
        ovl = vl_arbitrate(vlarb_, arb_[o], mask, cfg_.packet_bytes);
        if (ovl == kNoVl) return; // only VLs the tables never serve are ready
    }
    transmit(o, cand_in[ovl], cand_vl[ovl], std::uint8_t(ovl));
}

// VC-router mode: the output serves one head at a time, inputs in round robin as the IB switch
// does, each packet onto a free VC of the output (round robin over the VCs): with
// VcRelease::Drained one whose last holder's tail has left the downstream buffer (so it has
// credits for any packet), with Sent one with credits for this packet.
void Network::try_arbitrate_vc(PortId o) {
    Slot& out = sl_[o];
    if (out.peer == kNoPort || out.busy) return;
    const PortId first = o - out.pnum;
    // Sends the head of input buffer (in, in_vl) on a free VC, round robin over the VCs; false
    // when no VC can take it.
    const auto go = [&](PortId in, std::uint32_t in_vl) {
        const Buf& q = bufs_[in * V_ + in_vl];
        const std::uint32_t lo = vc_lo_[q.ovl], n = vc_lo_[q.ovl + 1] - lo;
        for (std::uint32_t j = 0; j < n; ++j)
            if (const std::uint32_t v = lo + (vc_rr_[o] + j) % n; vc_usable(o, v, q.need)) {
                vc_rr_[o] = std::uint8_t((v + 1) % V_);
                transmit(o, in, in_vl, std::uint8_t(v));
                return true;
            }
        return false;
    };
    if (!out.sw) {
        const std::uint32_t ca = ca_of_node_[out.node];
        if (ca == kNil || ca_out_[ca] != o) return;
        for (std::uint32_t j = 0; j < V_; ++j) { // the source queues in turn
            const std::uint32_t v = (out.rr + j) % V_;
            if (bufs_[first * V_ + v].head == kNil) continue;
            if (go(first, v)) {
                out.rr = std::uint8_t((v + 1) % V_);
                return;
            }
            if (vc_lo_[1] == V_) return; // one class: every queue's head wants the same VCs
        }
        return;
    }
    if (out.waiting == 0) return;
    const std::uint32_t np = out.nports;
    for (std::uint32_t k = 0; k < np; ++k) {
        const PortId i = first + 1 + (out.rr + k) % np;
        if (sl_[i].reads >= cfg_.speedup) continue;
        if (!in_ptr_.empty() && requested_output(i) != o) continue;
        for (std::uint32_t v = 0; v < V_; ++v)
            if (bufs_[i * V_ + v].out == o &&
                (in_free_at_.empty() || in_free_at_[i * V_ + v] <= now_)) {
                const bool sent = go(i, v);
                if (sent && !in_ptr_.empty()) in_ptr_[i] = std::uint8_t(out.pnum % np);
                // With one class every head wants the same VCs; with several, a head whose
                // class has none free must not hold back the others' (a dependency the
                // routing never made).
                if (sent || vc_lo_[1] == V_) return;
            }
    }
}

PortId Network::requested_output(PortId i) const {
    const std::uint32_t np = sl_[i].nports;
    PortId best = kNoPort;
    std::uint32_t best_dist = np;
    for (std::uint32_t v = 0; v < V_; ++v) {
        const Buf& q = bufs_[i * V_ + v];
        if (q.out == kNoPort || (!in_free_at_.empty() && in_free_at_[i * V_ + v] > now_) ||
            !vc_free(q.out, q.need, q.ovl))
            continue;
        const std::uint32_t dist = (sl_[q.out].pnum - 1 + np - in_ptr_[i]) % np;
        if (dist < best_dist) {
            best_dist = dist;
            best = q.out;
        }
    }
    return best;
}

void Network::transmit(PortId o, PortId in, std::uint32_t in_vl, std::uint8_t ovl) {
    const bool sw = sl_[o].sw;
    const std::uint32_t b = in * V_ + in_vl;
    const std::uint32_t h = pop_fifo(b);
    Packet& p = pkts_[h];
    if (sw) {
        --sl_[o].waiting;
        if (bufs_[b].out != kNoPort) ++sl_[bufs_[b].out].waiting;
        if (rf_) {
            // The packet's claim on its output becomes the credits it takes; the packet behind,
            // bound already (one candidate), claims its own.
            claim(o, p.out_vl, -std::int32_t(p.credits));
            if (bufs_[b].out != kNoPort)
                claim(bufs_[b].out, bufs_[b].ovl, std::int32_t(bufs_[b].need));
        }
        if (use_req_) {
            const std::uint64_t bit = 1ull << (sl_[in].pnum - 1);
            bool still = false;
            for (std::uint32_t v = 0; v < V_ && !still; ++v) still = bufs_[in * V_ + v].out == o;
            if (!still) sl_[o].req &= ~bit;
            if (bufs_[b].out != kNoPort) sl_[bufs_[b].out].req |= bit;
        }
        ++sl_[in].reads;
        sl_[o].rr = std::uint8_t(sl_[in].pnum % sl_[in].nports);
    }
    if (sw && obuf_) {
        // Across the crossbar, at the output link's rate and cut-through, into the output
        // buffer; the input buffer is free when the tail has crossed.
        const Time ser = Time(p.size) * sl_[o].ppb;
        const Time start = p.tail > now_ + ser ? p.tail - ser : now_;
        add_ocredits(o, ovl, -std::int32_t(p.credits));
        sl_[o].xbar_busy = 1;
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
// (in_buf = kNil, obuf_ and a switch).
void Network::launch(PortId o, std::uint32_t h, std::uint8_t ovl, std::uint32_t in_buf) {
    Packet& p = pkts_[h];
    const bool sw = sl_[o].sw;
    const std::uint32_t c = p.credits;
    const bool becn = becn_lanes_ && (p.cc & kCcBecn);
    add_credits(o, ovl, -std::int32_t(c));
    if (vc_router_ && cfg_.vc_release == SimConfig::VcRelease::Drained) vc_held_[o * V_ + ovl] = 1;
    sl_[o].busy = 1;
    if (cc_ && sw) cc_switch_out(o, ovl, p);
    const Time ser = Time(p.size) * sl_[o].ppb;
    Time start = now_;
    if (sw && p.tail > now_ + ser) start = p.tail - ser; // the tail cannot leave before it came
    const Time lo = std::max(start, win_lo_), hi = std::min(start + ser, win_hi_);
    if (hi > lo) {
        // One line written per hop: with VLs a port's busy time is its VLs' sum, at the end.
        if (V_ > 1)
            vl_busy_ps_[o * V_ + ovl] += hi - lo;
        else
            busy_ps_[o] += hi - lo;
    }
    if (series_step_) series_add(o, start, start + ser);
    p.vl = ovl;
    ++p.hops;
    ++hops_;
    last_hop_ = start;
    if (!sw) {
        ++in_network_;
        const std::uint32_t ca = ca_of_node_[sl_[o].node];
        --src_queued_[ca]; // a notification added itself first (cc_ca_arbitrate)
    }
    const PortId d = sl_[o].peer;
    p.tail = start + fly_ + ser;
    if (sl_[d].sw) {
        // With a routing function: the index of the packet's candidate-set entry (the VL it
        // arrives on is ovl).
        const std::uint32_t cell =
            rf_ ? rf_entry_index(d, ovl, p.dlid) : flat_.cell(sl_[d].node, p.dlid);
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
    if (sw && obuf_)
        q_.push(start + ser, kLinkFree, o, ovl, c);
    else
        q_.push(start + ser, becn ? kOutFreeBecn : kOutFree, o, in_buf, c);
}

// VL arbitration among the output buffers of switch output o whose head has credits
// downstream.
void Network::link_arbitrate(PortId o) {
    if (sl_[o].busy || sl_[o].peer == kNoPort) return;
    std::uint32_t mask = 0;
    for (std::uint32_t v = 0; v < V_; ++v) {
        const std::uint32_t h = ohead_[o * V_ + v];
        if (h != kNil && credits_[o * V_ + v] >= std::int32_t(pkts_[h].credits)) mask |= 1u << v;
    }
    if (mask == 0) return;
    int ovl = 0;
    if (V_ > 1) {
        ovl = vl_arbitrate(vlarb_, arb_[o], mask, cfg_.packet_bytes);
        if (ovl == kNoVl) return;
    }
    const std::uint32_t ob = o * V_ + std::uint32_t(ovl);
    const std::uint32_t h = ohead_[ob];
    ++pops_[bufs_.size() + ob];
    ohead_[ob] = pkts_[h].next;
    if (ohead_[ob] == kNil) otail_[ob] = kNil;
    launch(o, h, std::uint8_t(ovl), kNil);
}

void Network::drop(std::uint32_t h, PortId at) {
    Packet& p = pkts_[h];
    if (at != kNoPort) {
        // Free the buffer space the packet held once its tail is in.
        q_.push(std::max(now_, p.tail) + credit_delay_, kCredit, sl_[at].peer, p.vl, p.credits);
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

void Network::on_ready(std::uint32_t h, PortId d, std::uint32_t cell) {
    Packet& p = pkts_[h];
    const Slot& in = sl_[d];
    const NodeId m = in.node;
    const PortNum inp = in.pnum;
    const PortId first = d - inp;
    if (p.hops > cfg_.max_hops) return drop(h, d);
    const PortNum outp = flat_.at(cell, p.dlid);
    if (outp == kNoPath || outp == 0 || outp > in.nports || sl_[first + outp].peer == kNoPort)
        return drop(h, d);
    const std::uint8_t ovl = sl_mod_vls_ ? sl_vl(p.sl) : vl_at(m, in.nports, inp, outp, p.sl);
    if (ovl >= V_) return drop(h, d);
    p.out = first + outp;
    p.out_vl = ovl;
    if (cc_) cc_bound(p);
    if (push_fifo(d * V_ + p.vl, h)) head_bound(p.out, inp, p.out_vl, p.credits);
}

void Network::on_ready_adaptive(std::uint32_t h, PortId d, std::uint32_t entry) {
    Packet& p = pkts_[h];
    const Slot& in = sl_[d];
    const NodeId m = in.node;
    const PortNum inp = in.pnum;
    const PortId first = d - inp;
    if (p.hops > cfg_.max_hops) return drop(h, d);
    const std::uint32_t set =
        entry != RoutingFunction::kNoEntry ? rf_->entry(entry) : rf_->lookup(m, p.vl, inp, p.dlid);
    if (set == RoutingFunction::kNoSet) return drop(h, d);
    const auto cands = candidates(set);
    // A candidate without a cable or on a VL the ports do not run is none; a set with none
    // drops the packet here, as an LFT entry to nowhere does.
    bool any = false;
    for (const Candidate& c : cands)
        if (c.port != 0 && c.port <= in.nports && cabled(m, first, c.port) &&
            candidate_vl(m, in.nports, inp, c.port, p) < V_) {
            any = true;
            break;
        }
    if (!any) return drop(h, d);
    const std::uint32_t b = d * V_ + p.vl;
    if (cands.size() == 1) {
        p.out = first + cands[0].port;
        p.out_vl = candidate_vl(m, in.nports, inp, cands[0].port, p);
        if (cc_) cc_bound(p);
        if (push_fifo(b, h)) head_bound(p.out, inp, p.out_vl, p.credits);
        return;
    }
    cset_[h] = set;
    p.out = kNoPort; // unbound
    if (cfg_.select_at == SimConfig::SelectAt::Entry) {
        // Chosen now, from what the packet sees entering the buffer; bound at the head.
        std::uint64_t ports = 0;
        early_pick_[h] =
            choose(p, d, cands, view_candidates(d, cands, vl_or_sl(p), p.credits, ports));
    }
    if (push_fifo(b, h)) bind_head(b);
}

bool Network::bind_head(std::uint32_t b) {
    Buf& q = bufs_[b];
    if (q.head == kNil || q.out != kNoPort) return false;
    Packet& p = pkts_[q.head];
    const PortId i = slot_of(b);
    const Slot& in = sl_[i];
    const NodeId m = in.node;
    const PortId first = i - in.pnum;
    const auto cands = candidates(cset_[q.head]);
    // A head refused again is judged from its buffer alone (its VL, its credits): the packet
    // is read once it is bound.
    const std::uint8_t vl_or_sl = vl_or_sl_at(p, b);
    std::uint64_t ports = 0;
    const int best = view_candidates(i, cands, vl_or_sl, q.need, ports);
    // unbound_vls_ says what unbound_ports_[b] != 0 says, from a line the switch's heads share.
    const std::uint16_t vl_bit = std::uint16_t(1u << vl_of(b));
    if (best == 256) {
        if (!(unbound_vls_[i] & vl_bit)) {
            // A VC router's VC also frees when its allocation gap ends, with no event of that
            // output in between: such heads are offered at every rebind, as are those on
            // switches of more than 64 ports.
            unbound_ports_[b] = vc_router_ || ports == 0 ? ~0ull : ports;
            unbound_vls_[i] |= vl_bit;
            ++unbound_[m];
            if (!want_.empty()) {
                const std::uint64_t all = in.nports == 64 ? ~0ull : (1ull << in.nports) - 1;
                const std::uint64_t in_bit = 1ull << (in.pnum - 1);
                for (std::uint64_t w = unbound_ports_[b] & all; w; w &= w - 1)
                    want_[first + 1 + unsigned(std::countr_zero(w))] |= in_bit;
            }
        }
        return false;
    }
    // Chosen earlier (oblivious selections only, so the choice is in the best class still).
    const std::uint32_t pick = early_ ? early_pick_[q.head] : choose(p, i, cands, best);
    ++routed_[m];
    if (unbound_vls_[i] & vl_bit) {
        unbound_ports_[b] = 0;
        unbound_vls_[i] &= std::uint16_t(~vl_bit);
        --unbound_[m];
    }
    const PortId o = first + cands[pick].port;
    p.out = o;
    p.out_vl = cand_vls_[pick];
    if (cc_) cc_bound(p);
    cache_head(q);
    head_bound(o, in.pnum, p.out_vl, p.credits);
    return true;
}

// SimConfig::SelectAt::Sent: the choice at the switch the packet is sent to, made now from its
// state, as BookSim's lookahead routing does (routing_delay = 0: the upstream router routes
// the flit for the next hop when it sends it). A set without a usable candidate is left to
// on_ready_adaptive, which drops the packet.
void Network::choose_when_sent(std::uint32_t h, PortId d, std::uint32_t entry) {
    const Packet& p = pkts_[h];
    early_pick_[h] = 0; // a set of one, or one left to on_ready_adaptive: never a stale pick
    const std::uint32_t set = entry != RoutingFunction::kNoEntry
                                  ? rf_->entry(entry)
                                  : rf_->lookup(sl_[d].node, p.vl, sl_[d].pnum, p.dlid);
    if (set == RoutingFunction::kNoSet) return;
    const auto cands = candidates(set);
    if (cands.size() < 2) return;
    std::uint64_t ports = 0;
    const int best = view_candidates(d, cands, vl_or_sl(p), p.credits, ports);
    if (best != 256) early_pick_[h] = choose(p, d, cands, best);
}

int Network::view_candidates(PortId in_slot, std::span<const Candidate> cands,
                             std::uint8_t vl_or_sl, std::int32_t need, std::uint64_t& ports) {
    const Slot& in = sl_[in_slot];
    const PortId first = in_slot - in.pnum;
    // Entries past the first worse class are left as they were: choose reads the best class
    // alone, which comes before it.
    if (views_.size() < cands.size()) {
        views_.resize(cands.size());
        cand_vls_.resize(cands.size());
    }
    // The best priority class with a candidate that can take the packet (nca, anca: with a
    // candidate: the packet waits for the one drawn).
    const bool oblivious = is_oblivious(cfg_.selection);
    int best = 256;
    for (std::size_t j = 0; j < cands.size(); ++j) {
        // A candidate of a worse class than one that can take the packet is never chosen
        // (choose reads the best class alone), and the candidates come by class
        // (candidates()): none after it can be. Its ports are read only when none fits.
        if (cands[j].priority > best) break;
        views_[j] = CandidateView{};
        cand_vls_[j] = 0;
        const PortNum outp = cands[j].port;
        if (outp == 0 || outp > in.nports || !cabled(in.node, first, outp)) continue;
        // VC-router mode: the class, any free VC of its range takes the packet.
        const std::uint8_t ovl = candidate_vl_by(in.node, in.nports, in.pnum, outp, vl_or_sl);
        cand_vls_[j] = ovl;
        if (ovl >= V_) continue;
        ports |= outp <= 64 ? 1ull << (outp - 1) : ~0ull;
        if (oblivious) { // blind to room: the output's line is not read
            best = std::min<int>(best, cands[j].priority);
            continue;
        }
        views_[j].fits = vc_router_ ? vc_free(first + outp, std::uint32_t(need), ovl)
                                    : room(first + outp, ovl) >= need;
        if (views_[j].fits) best = std::min<int>(best, cands[j].priority);
    }
    return best;
}

std::uint32_t Network::choose(const Packet& p, PortId in_slot, std::span<const Candidate> cands,
                              int best) {
    if (cfg_.selection == Selection::Oblivious) {
        // BookSim's nca: select_candidate's uniform draw over the best class, which reads no
        // view, so none is gathered. The candidates come by class: the class is one run.
        std::uint32_t j = 0, k = 0;
        while (cands[j].priority != best) ++j;
        while (j + k < cands.size() && cands[j + k].priority == best) ++k;
        return j + std::uint32_t(selection_rng_.below(k));
    }
    const Slot& in = sl_[in_slot];
    const NodeId m = in.node;
    const PortId first = in_slot - in.pnum;
    class_idx_.clear();
    class_views_.clear();
    // Only the load-based functions read credits and queues (two more cache lines per
    // candidate); the preferred-link ones need the room test alone.
    const bool load = uses_load(cfg_.selection);
    const bool anca = cfg_.selection == Selection::TwoRandomOblivious;
    for (std::size_t j = 0; j < cands.size(); ++j) {
        if (cands[j].priority != best) continue;
        CandidateView v = views_[j];
        const PortId o = first + cands[j].port;
        if (load && cands[j].port != 0 && cands[j].port <= in.nports) {
            // The link's credits not yet claimed: downstream credits, less what already
            // waits in the output buffer for them. BookSim's anca reads the downstream
            // buffer's occupancy alone (GetUsedCredit), blind to packets routed to the output
            // and still waiting for it.
            if (anca) {
                for (std::uint32_t x = 0; x < V_; ++x) v.room_all += credits_[o * V_ + x];
            } else {
                v.room_all = room_all_[o];
            }
            if (cfg_.selection == Selection::LeastLoaded) // another cache line per candidate
                v.queued = sl_[o].waiting + sl_[o].busy;
        }
        class_idx_.push_back(std::uint32_t(j));
        class_views_.push_back(v);
    }
    SelectionKey key;
    key.counter = routed_[m];
    // Only the preferred-link functions read the coordinates (three more tables to read).
    if (const TreeCoords& t = rf_->tree; !t.empty() && needs_tree_coords(cfg_.selection)) {
        key.switch_digit = t.switch_digit[m];
        key.source_digit0 = t.ca_digit(p.src, 1);
        key.dest_digit0 = t.ca_digit(p.dst, 1);
        const unsigned level = t.level[m];
        key.dest_stage_digit = level >= 1 && level <= t.height ? t.ca_digit(p.dst, level) : 0;
    }
    return class_idx_[select_candidate(cfg_.selection, class_views_, key, selection_rng_)];
}

void Network::vl2vl_setup() {
    vl2vl_by_vl_ = !rf_->vl2vl.empty() && rf_->vl_by_in_vl;
    vlx_begin_.assign(f_.num_nodes(), 0);
    vlx_row_.clear();
    vlx_pool_.clear();
    vlx_width_ = 1;
    for (NodeId n = 0; n < f_.num_nodes(); ++n)
        vlx_width_ = std::max<std::uint32_t>(vlx_width_, f_.node(n).num_ports + 1u);
    vlx_rows_.clear();
    const auto give_up = [&] { // too many to name: read the tables
        vlx_begin_.clear();
        vlx_row_.clear();
        vlx_rows_.clear();
        vlx_pool_.clear();
    };
    std::map<Sl2VlTable, std::uint8_t> pool;
    std::map<std::vector<std::uint8_t>, std::uint16_t> rows;
    std::vector<std::uint8_t> row(vlx_width_);
    Sl2VlTable t{};
    std::uint8_t last = 0;
    for (NodeId n = 0; n < f_.num_nodes(); ++n) {
        const PortNum np = f_.node(n).num_ports;
        vlx_begin_[n] = std::uint32_t(vlx_row_.size());
        for (std::uint32_t in = 0; in <= np; ++in) {
            std::fill(row.begin(), row.end(), std::uint8_t(0));
            for (std::uint32_t out = 0; out <= np; ++out) {
                // What the tables say, key by key (the reading of candidate_vl without these).
                for (std::uint8_t k = 0; k < 16; ++k)
                    t[k] =
                        rf_->vl2vl.empty()
                            ? (sl_mod_vls_ ? sl_vl(k) : vl_at(n, np, PortNum(in), PortNum(out), k))
                            : rf_->vl2vl.vl(n, np, PortNum(in), PortNum(out), k, V_);
                if (vlx_pool_.empty() || vlx_pool_[last] != t) {
                    const auto [it, added] = pool.try_emplace(t, std::uint8_t(vlx_pool_.size()));
                    if (added) {
                        if (vlx_pool_.size() == 256) return give_up();
                        vlx_pool_.push_back(t);
                    }
                    last = it->second;
                }
                row[out] = last;
            }
            const auto [it, added] = rows.try_emplace(row, std::uint16_t(rows.size()));
            if (added) {
                if (rows.size() > 0x10000) return give_up();
                vlx_rows_.insert(vlx_rows_.end(), row.begin(), row.end());
            }
            vlx_row_.push_back(it->second);
        }
    }
}

void Network::by_class_setup() {
    set_lines_.clear();
    by_class_begin_.clear();
    by_class_.clear();
    const auto by_priority = [](const Candidate& a, const Candidate& b) {
        return a.priority < b.priority;
    };
    const bool one_class = cfg_.one_priority_class;
    const auto copy_classed = [one_class](std::span<const Candidate> set, Candidate* out) {
        std::copy(set.begin(), set.end(), out);
        if (one_class)
            for (std::size_t k = 0; k < set.size(); ++k) out[k].priority = 0;
    };
    std::size_t largest = 0;
    bool sorted = true;
    for (std::uint32_t id = 0; id < rf_->num_sets(); ++id) {
        const auto set = rf_->set(id);
        largest = std::max(largest, set.size());
        sorted = sorted && std::is_sorted(set.begin(), set.end(), by_priority);
    }
    if (largest <= std::size(SetLine{}.c)) {
        set_lines_.resize(rf_->num_sets());
        for (std::uint32_t id = 0; id < rf_->num_sets(); ++id) {
            const auto set = rf_->set(id);
            SetLine& line = set_lines_[id];
            line.n = std::uint8_t(set.size());
            copy_classed(set, line.c);
            std::stable_sort(line.c, line.c + line.n, by_priority);
        }
        return;
    }
    if (sorted && !one_class) return;
    by_class_begin_.reserve(rf_->num_sets() + 1);
    for (std::uint32_t id = 0; id < rf_->num_sets(); ++id) {
        by_class_begin_.push_back(std::uint32_t(by_class_.size()));
        const auto set = rf_->set(id);
        by_class_.resize(by_class_.size() + set.size());
        copy_classed(set, by_class_.data() + by_class_begin_.back());
        std::stable_sort(by_class_.end() - std::ptrdiff_t(set.size()), by_class_.end(),
                         by_priority);
    }
    by_class_begin_.push_back(std::uint32_t(by_class_.size()));
}

void Network::source_tables_setup() {
    if (const PathSlTable& t = rf_->source_sls; !t.empty()) {
        // The table answers SL 0 from its row's end on: so does generate.
        src_sl_width_ = std::uint32_t(r_.lids.max_lid()) + 1;
        src_sl_row_.resize(N_);
        std::map<std::uint32_t, std::uint32_t> copied; // the table's row -> ours
        for (std::uint32_t ca = 0; ca < N_; ++ca) {
            const auto [it, added] =
                copied.try_emplace(t.row_of(ca_out_[ca]), std::uint32_t(copied.size()));
            if (added)
                for (std::uint32_t dlid = 0; dlid < src_sl_width_; ++dlid)
                    src_sl_rows_.push_back(t.sl(ca_out_[ca], Lid(dlid)));
            src_sl_row_[ca] = it->second;
        }
    }
    std::map<Sl2VlTable, std::uint8_t> pool;
    src_vlt_.resize(N_);
    for (std::uint32_t ca = 0; ca < N_; ++ca) {
        Sl2VlTable t{};
        for (std::uint8_t k = 0; k < 16; ++k) t[k] = source_vl(ca, k);
        const auto [it, added] = pool.try_emplace(t, std::uint8_t(src_vl_pool_.size()));
        if (added) {
            if (src_vl_pool_.size() == 256) { // too many to name in a byte: read the tables
                src_vlt_.clear();
                src_vl_pool_.clear();
                return;
            }
            src_vl_pool_.push_back(t);
        }
        src_vlt_[ca] = it->second;
    }
}

// An output of this switch gained room: offer it to the heads nothing could take that have it
// among their candidates, input ports in turn from a rotating start so that no input is always
// first. The others would be refused (unbound_ports_), so the bindings are those of offering
// every unbound head.
void Network::rebind(PortId output) {
    const NodeId m = sl_[output].node;
    const PortNum op = sl_[output].pnum;
    const std::uint32_t np = sl_[output].nports;
    const std::uint64_t bit = op <= 64 ? 1ull << (op - 1) : ~0ull;
    const std::uint32_t start = rebind_rr_[m];
    rebind_rr_[m] = start + 1 == np ? 0 : start + 1;
    const PortId first = output - op;
    if (want_.empty()) {
        for (std::uint32_t k = 0; k < np && unbound_[m]; ++k)
            rebind_input(output, first + 1 + (start + k) % np, bit);
        return;
    }
    // The same visits in the same order (ports start + 1 .. np, then 1 .. start), skipping the
    // inputs want_ rules out; read afresh after each visit, since binding a head may bind or
    // refuse others. An input found without such a head leaves want_ (nothing changed there).
    std::uint32_t j = start, end = np;
    for (bool wrapped = false; unbound_[m];) {
        const std::uint64_t w = j < end ? want_[output] >> j : 0;
        if (w != 0 && (j += std::uint32_t(std::countr_zero(w))) < end) {
            if (!rebind_input(output, first + 1 + j, bit)) want_[output] &= ~(1ull << j);
            ++j;
            continue;
        }
        if (wrapped) break;
        wrapped = true;
        j = 0;
        end = start;
    }
}

bool Network::rebind_input(PortId output, PortId i, std::uint64_t bit) {
    const NodeId m = sl_[output].node;
    const PortNum op = sl_[output].pnum;
    const std::uint32_t np = sl_[output].nports;
    bool found = false;
    for (std::uint32_t v = 0; v < V_; ++v) {
        // The next VL with such a head, read afresh: binding one may bind or refuse others.
        const std::uint32_t left = std::uint32_t(unbound_vls_[i]) >> v;
        if (!left) break;
        v += std::uint32_t(std::countr_zero(left));
        const std::uint32_t b = i * V_ + v;
        if (!(unbound_ports_[b] & bit)) continue;
        found = true;
        // Its other candidates had no room when it was last refused and have gained none
        // since: without room for it here either, it would be refused again. (A VC
        // router's heads take any free VC, its own test.)
        // With VL2VL by input VL the VL it would take here is known from the buffer: only
        // room on that one can change the verdict.
        if (vl2vl_by_vl_ && !vc_router_) {
            const std::uint8_t ovl =
                candidate_vl_by(m, PortNum(np), sl_[i].pnum, op, std::uint8_t(v));
            if (ovl >= V_ || room(output, ovl) < std::int32_t(bufs_[b].need)) continue;
        } else if (!vc_router_) {
            bool fits = false;
            for (std::uint32_t x = 0; x < V_ && !fits; ++x)
                fits = room(output, x) >= std::int32_t(bufs_[b].need);
            if (!fits) continue;
        }
        bind_head(b);
    }
    return found;
}

// ---- Congestion control (IBA vol. 1 annex A10; paper 002 §3-4; docs/sim-model.md) ----

void Network::cc_setup() {
    const CcConfig& c = cfg_.cc.settings;
    const std::size_t P = sl_.size();
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

std::uint8_t Network::source_vl(std::uint32_t ca, std::uint8_t sl) const {
    const NodeId n = ca_node_[ca];
    const PortNum port = sl_[ca_out_[ca]].pnum;
    const PortNum np = sl_[ca_out_[ca]].nports;
    const Sl2VlTable* own = rf_ ? rf_->vl2vl.find(n, np, 0, port) : nullptr;
    return own ? (*own)[sl & 15] : sl_mod_vls_ ? sl_vl(sl) : vl_at(n, np, 0, port, sl);
}

// A10.2.1: a switch port VL in the congested state marks the FECN of the packets it sends
// that are eligible: not smaller than Packet_Size, one in every Marking_Rate + 1 (the mean
// number of packets between marks, here exactly that: a counter, not a random draw), and, when
// the port is a victim rather than the root of the congestion, only if the Victim_Mask has
// the port.
void Network::cc_switch_out(PortId o, std::uint32_t ovl, Packet& p) {
    const std::uint32_t ob = o * V_ + ovl;
    cc_queued_[ob] -= p.size;
    if (p.cc & kCcBecn) ++ccs_.becn_hops;
    // What still waits for this port VL behind the packet leaving.
    if (cc_queued_[ob] <= cc_threshold_bytes_ || (p.cc & kCcBecn) || p.size < cc_min_bytes_) return;
    if (credits_[ob] < cc_root_room_ && !CcConfig::mask_bit(cc_victim_mask_, sl_[o].pnum)) return;
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
void Network::cc_notify(const Packet& p, std::uint32_t at) {
    ++ccs_.becn_sent;
    ++becn_live_;
    const std::uint32_t rank = std::uint32_t(p.cc) >> kDrbRankShift;
    if (cfg_.cc.becn_delay_ps) {
        q_.push(now_ + cfg_.cc.becn_delay_ps, kCcBecnArrives, p.src, at, p.sl | rank << 8);
        return;
    }
    const std::uint32_t h = alloc();
    Packet& b = pkts_[h];
    gen_[h] = now_;
    b.src = std::uint16_t(at);
    b.dst = p.src;
    b.size = std::uint16_t(cfg_.cc.becn_bytes);
    b.credits = std::uint16_t(need(b.size));
    b.sl = p.sl;
    b.cc = std::uint8_t(kCcBecn | rank << kDrbRankShift);
    // The source's base LID, or the path selection's LID for it: a notification draws no
    // random number, so data traffic sees the same streams with or without it.
    b.dlid = dlid_ == DlidPolicy::Table && !r_.dlid_choice.empty()
                 ? r_.dlid_choice[std::size_t(at) * N_ + p.src]
                 : ca_base_[p.src];
    if (b.dlid == 0) b.dlid = ca_base_[p.src];
    // With DRB the marked packet's SL may be that of an alternative path's layer
    // (engines/multipath/dfs_paths.hpp); the notification takes its own path's SL.
    if (drb_) b.sl = r_.path_sl(ca_out_[at], b.dlid);
    const std::uint8_t vl = source_vl(at, b.sl);
    if (vl >= V_) return drop(h, kNoPort);
    b.out_vl = vl;
    b.out = ca_out_[at];
    const PortId s0 = ca_out_[at] - sl_[ca_out_[at]].pnum;
    push_fifo(s0 * V_ + vl, h);
    ++becn_queued_[at];
    peak_live_ = std::max(peak_live_, live_);
    arbitrate(ca_out_[at]);
}

// DRB hears of congestion on the flow's path `rank` (paper 002 §4.1); its timer check, when
// one is due, is an event.
void Network::drb_notify(std::uint32_t ca, std::uint32_t dst, std::uint8_t rank) {
    std::uint32_t flow, gen;
    if (const Time t = drb_->notify(ca, dst, policy_dlid(ca, dst), rank, now_, flow, gen))
        q_.push(t, kDrbCheck, flow, gen);
}

// A10.2.3: a BECN at its source raises the CCTI of the flow (QP control) or of the SL (port
// control) by CCTI_Increase, up to CCTI_Limit.
void Network::cc_becn(std::uint32_t ca, std::uint32_t dst, std::uint8_t sl, std::uint8_t rank) {
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

std::uint32_t Network::cc_flow(std::uint32_t src, std::uint32_t dst, std::uint8_t sl,
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

void Network::cc_ring_insert(std::uint32_t f) {
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

void Network::cc_ring_remove(std::uint32_t f) {
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

void Network::cc_release_flow(std::uint32_t f) {
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
void Network::cc_flow_idle(std::uint32_t f, Time slack) {
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

void Network::cc_free_check(std::uint32_t f, std::uint32_t gen) {
    Flow& fl = flows_[f];
    if (!fl.live || fl.gen != gen || fl.free_at != now_) return;
    fl.free_at = 0;
    if (fl.head == kNil) cc_flow_idle(f);
}

void Network::cc_enqueue(std::uint32_t h, std::uint32_t& last) {
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

std::uint32_t Network::cc_dst_queued(std::uint32_t ca, std::uint32_t dst,
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
void Network::cc_park(std::uint32_t f, Time until) {
    Flow& fl = flows_[f];
    cc_ring_remove(f);
    fl.parked = true;
    q_.push(until, kCcReady, f, fl.gen);
}

void Network::cc_ready(std::uint32_t f, std::uint32_t gen) {
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
void Network::cc_ca_arbitrate(PortId o, std::uint32_t ca) {
    const PortId s0 = o - sl_[o].pnum;
    for (std::uint32_t v = 0; becn_queued_[ca] != 0 && v < V_; ++v) {
        const Buf& q = bufs_[s0 * V_ + v];
        if (q.head != kNil && credits_[o * V_ + v] >= std::int32_t(q.need)) {
            const std::uint32_t h = pop_fifo(s0 * V_ + v);
            --becn_queued_[ca];
            ++ccs_.becn_hops;
            ++src_queued_[ca]; // launch takes a data packet off the source queue: not this one
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
        const std::int32_t room = credits_[o * V_ + v];
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
    const Time ser = Time(pkts_[h].size) * sl_[o].ppb;
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

void Network::on_deliver(std::uint32_t h, PortId d) {
    if (cc_or_flows_) return on_deliver_cc(h, d);
    Packet& p = pkts_[h];
    ++delivered_;
    --in_network_;
    if (ca_of_node_[sl_[d].node] != p.dst) ++misdelivered_;
    if (in_window(now_)) bytes_accepted_ += p.size;
    if (p.measured) {
        --measured_open_;
        sample_latency(now_ - gen_[h]);
    }
    return_credits(sl_[d].peer, p.vl, p.credits);
    release(h);
}

// Delivery with congestion control or per-flow statistics: notifications to their source,
// a BECN for each FECN-marked packet, the pair's accepted bytes.
void Network::on_deliver_cc(std::uint32_t h, PortId d) {
    Packet& p = pkts_[h];
    if (p.cc & kCcBecn) { // a notification reached its source
        --in_network_;
        --becn_live_;
        if (in_window(now_)) becn_in_window_bytes_ += p.size;
        return_credits(sl_[d].peer, p.vl, p.credits);
        const std::uint32_t ca = p.dst, dst = p.src;
        const std::uint8_t sl = p.sl;
        const auto rank = std::uint8_t(p.cc >> kDrbRankShift);
        release(h);
        cc_becn(ca, dst, sl, rank);
        return;
    }
    ++delivered_;
    --in_network_;
    const std::uint32_t at = ca_of_node_[sl_[d].node];
    if (at != p.dst) ++misdelivered_;
    if (in_window(now_)) {
        bytes_accepted_ += p.size;
        if (flow_stats_) flow_acc(std::uint32_t(p.src) << 16 | p.dst).accepted += p.size;
    }
    if (p.measured) {
        --measured_open_;
        sample_latency(now_ - gen_[h]);
    }
    return_credits(sl_[d].peer, p.vl, p.credits);
    if (p.cc & kCcFecn) {
        const Packet marked = p; // cc_notify may grow the pool
        release(h);
        cc_notify(marked, at);
        return;
    }
    release(h);
}

// Buffers occupied now and at the previous tick with no packet leaving in between: the same
// head packet has waited a whole watchdog period. Takes the snapshot for the next tick.
std::vector<std::uint8_t> Network::stalled_buffers() {
    const std::size_t IB = bufs_.size();
    std::vector<std::uint8_t> stalled(pops_.size(), 0);
    for (std::size_t b = 0; b < pops_.size(); ++b) {
        const bool occupied = (b < IB ? bufs_[b].head : ohead_[b - IB]) != kNil;
        stalled[b] = occupied && busy_seen_[b] && pops_[b] == pops_seen_[b];
        busy_seen_[b] = occupied;
        pops_seen_[b] = pops_[b];
    }
    return stalled;
}

std::string Network::buffer_name(std::uint32_t b) const {
    const std::size_t IB = bufs_.size(); // ids past the input buffers name output buffers
    const bool out = b >= IB;
    if (out) b -= std::uint32_t(IB);
    const PortId s = b / V_;
    const NodeId n = f_.port_node(s);
    return display_port(f_, n, f_.port_num(s)) + " VL " + std::to_string(b % V_) +
           (out ? " out" : "");
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
std::vector<std::uint32_t> Network::blocked_cycle(const std::vector<std::uint8_t>* only) const {
    const std::size_t IB = bufs_.size();
    const std::size_t B = obuf_ ? 2 * IB : IB;
    constexpr std::uint32_t kMoves = kNil;    // has room: not blocked
    constexpr std::uint32_t kSink = kNil - 1; // waits on a CA, which always drains
    // What a head bound for (out, VL) waits on from the buffer it is in; kMoves when it does
    // not wait. In VC-router mode any VC of `out` would do: it waits on them all.
    std::vector<std::uint32_t> to;
    const auto wait_for = [&](PortId out, std::uint32_t ovl, std::int32_t need) {
        const std::uint32_t ob = out * V_ + ovl;
        if (obuf_) return ocredits_[ob] >= need ? kMoves : std::uint32_t(IB + ob);
        const PortId d = sl_[out].peer;
        const bool sw = is_switch_[f_.port_node(d)];
        if (vc_router_) {
            if (vc_free(out, std::uint32_t(need), ovl, false)) return kMoves;
            const std::uint32_t lo = vc_lo_[ovl], hi = vc_lo_[ovl + 1];
            for (std::uint32_t v = lo; v + 1 < hi; ++v) to.push_back(sw ? d * V_ + v : kSink);
            ovl = hi - 1; // the last one is returned
        } else if (credits_[ob] >= need) {
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
            if (h == kNil || credits_[ob] >= std::int32_t(pkts_[h].credits)) continue;
            const PortId d = sl_[ob / V_].peer;
            to.push_back(d != kNoPort && is_switch_[f_.port_node(d)] ? d * V_ + ob % V_ : kSink);
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
        const Slot& in = sl_[i];
        const PortId first = i - in.pnum;
        bool moves = false;
        const std::size_t mark = to.size();
        for (const Candidate& c : rf_->set(cset_[h])) {
            if (c.port == 0 || c.port > in.nports || sl_[first + c.port].peer == kNoPort) continue;
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

void Network::handle(const Event& e) {
    switch (e.type) {
    case kGen: {
        const std::uint32_t ca = e.a, dst = e.b;
        ++msg_count_[ca];
        if (dst != ca) generate(ca, dst);
        schedule_next_gen(ca);
        break;
    }
    case kTrace:
        generate(cfg_.trace[e.a].src, cfg_.trace[e.a].dst);
        break;
    case kReady:
        if (rf_)
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
        sl_[o].busy = 0;
        if (e.b != kNil) {
            const PortId in = slot_of(e.b);
            --sl_[in].reads;
            return_credits(sl_[in].peer, vl_of(e.b), e.c);
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
        if (vc_router_) vc_held_[e.a * V_ + e.b] = 0; // the holder's tail left downstream
        if (obuf_ && sl_[e.a].sw) {
            link_arbitrate(e.a);
        } else {
            arbitrate(e.a);
            if (rf_ && sl_[e.a].sw && unbound_[sl_[e.a].node]) rebind(e.a);
        }
        break;
    case kXbarFree: {
        const PortId o = e.a, in = slot_of(e.b);
        sl_[o].xbar_busy = 0;
        --sl_[in].reads;
        return_credits(sl_[in].peer, vl_of(e.b), e.c);
        arbitrate(o);
        for (std::uint32_t v = 0; v < V_; ++v)
            if (bufs_[in * V_ + v].out != kNoPort) arbitrate(bufs_[in * V_ + v].out);
        break;
    }
    case kLinkFree:
        sl_[e.a].busy = 0;
        add_ocredits(e.a, e.b, std::int32_t(e.c));
        arbitrate(e.a); // room in the output buffer for the crossbar
        link_arbitrate(e.a);
        if (rf_ && unbound_[sl_[e.a].node]) rebind(e.a);
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
        if (unbound_[sl_[e.a].node]) rebind(e.a);
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
void Network::watchdog() {
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

SimResult Network::run(const ProgressFn& progress) {
    SimResult res;
    if (cfg_.trace.empty()) {
        for (std::uint32_t i = 0; i < N_; ++i) {
            const std::uint32_t msg = cfg_.message_bytes ? cfg_.message_bytes : cfg_.packet_bytes;
            const Time msg_time = Time(msg) * sl_[ca_out_[i]].ppb;
            slot_ps_[i] = msg_time;
            if (cfg_.traffic.load > 0) interval_[i] = double(msg_time) / cfg_.traffic.load;
            if (cfg_.traffic.load <= 0) continue;
            if (cfg_.traffic.injection == Injection::Constant) {
                // A random phase within one interval, so sources do not fire in lock step.
                phase_[i] = interval_[i] >= 1 ? rng_[i].below(Time(interval_[i])) : 0;
                if (phase_[i] < end_) push_gen(phase_[i], i);
            } else {
                // A random offset, then a geometric number of message slots.
                phase_[i] = rng_[i].below(std::max<Time>(msg_time, 1));
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
        if (const Event* x = q_.ahead(kPrefetchAhead)) prefetch_for(*x);
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
    for (std::uint32_t i = 0; i < N_; ++i) cap += double(kPsPerNs) / double(sl_[ca_out_[i]].ppb);
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
        const std::size_t P = sl_.size();
        const std::size_t K = (std::max<Time>(now_, 1) + series_step_ - 1) / series_step_;
        series_.resize(K * P, 0);
        for (PortId s = 0; s < P; ++s)
            if (sl_[s].peer != kNoPort) {
                ls.ports.push_back(s);
                ls.ps_per_byte.push_back(std::uint32_t(sl_[s].ppb));
            }
        ls.busy_ps.reserve(K * ls.ports.size());
        for (std::size_t k = 0; k < K; ++k)
            for (PortId s : ls.ports) ls.busy_ps.push_back(series_[k * P + s]);
    }
    if (flow_stats_) {
        res.flows.reserve(flow_acc_.size());
        for (const FlowAcc& acc : flow_acc_) {
            FlowStat x;
            x.src = acc.key >> 16;
            x.dst = acc.key & 0xffffu;
            const double bw = double(kPsPerNs) / double(sl_[ca_out_[x.src]].ppb); // bytes/ns
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

    res.vl_util_mean.assign(V_, 0);
    std::size_t nlinks = 0;
    if (V_ > 1)
        for (PortId s = 0; s < sl_.size(); ++s)
            for (std::uint32_t v = 0; v < V_; ++v) busy_ps_[s] += vl_busy_ps_[s * V_ + v];
    for (PortId s = 0; s < sl_.size(); ++s) {
        if (sl_[s].peer == kNoPort) continue;
        LinkUse u;
        u.port = s;
        u.utilization = double(busy_ps_[s]) / double(cfg_.measure_ps);
        for (std::uint32_t v = 0; v < V_; ++v) {
            const Time b = V_ > 1 ? vl_busy_ps_[s * V_ + v] : busy_ps_[s];
            const double x = double(b) / double(cfg_.measure_ps);
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
void Network::settle_verdict() {
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

void Network::extend_for(const std::vector<std::uint32_t>& cyc) {
    std::vector<std::uint32_t> pops;
    for (std::uint32_t b : cyc) pops.push_back(pops_[b]);
    const auto moved = [&] {
        for (std::size_t i = 0; i < cyc.size(); ++i)
            if (pops_[cyc[i]] != pops[i]) return true;
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

} // namespace

std::string_view to_string(Verdict v) {
    switch (v) {
    case Verdict::Ok:
        return "ok";
    case Verdict::Deadlock:
        return "deadlock";
    case Verdict::DeliveredNothing:
        return "delivered-nothing";
    case Verdict::Stuck:
        return "stuck";
    case Verdict::NothingOffered:
        return "nothing-offered";
    }
    return "?";
}

std::string_view to_string(DlidPolicy p) {
    switch (p) {
    case DlidPolicy::Auto:
        return "auto";
    case DlidPolicy::Table:
        return "table";
    case DlidPolicy::Base:
        return "base";
    case DlidPolicy::Random:
        return "random";
    }
    return "?";
}

std::uint8_t max_ca_lmc(const Fabric& f, const Routing& r) {
    std::uint8_t lmc = 0;
    for (NodeId n : f.cas())
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p)
            if (const PortId id = f.port_id(n, p); r.lids.has_lid(id))
                lmc = std::max(lmc, r.lids.lmc(id));
    return lmc;
}

DlidPolicy resolve_dlid_policy(DlidPolicy p, const Fabric& f, const Routing& r) {
    if (p != DlidPolicy::Auto) return p;
    if (!r.dlid_choice.empty()) return DlidPolicy::Table;
    return max_ca_lmc(f, r) > 0 ? DlidPolicy::Random : DlidPolicy::Base;
}

VlArbConfig effective_vlarb(const SimConfig& cfg) {
    VlArbConfig a = cfg.vlarb;
    if (a.high.empty() && a.low.empty())
        for (std::uint32_t v = 0; v < cfg.num_vls; ++v) a.low.push_back({std::uint8_t(v), 1});
    return a;
}

bool failed(const SimResult& r) {
    return (r.verdict != Verdict::Ok && r.verdict != Verdict::NothingOffered) || r.dropped > 0 ||
           r.misdelivered > 0;
}

Time min_deadlock_period_ps(const Fabric& f, const SimConfig& cfg) {
    Time slow = 1;
    for (NodeId n = 0; n < f.num_nodes(); ++n)
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p)
            if (const Port& port = f.port(n, p); port.connected())
                slow = std::max<Time>(slow, link_ps_per_byte(port, cfg));
    const Time ser = Time(cfg.packet_bytes) * slow * (cfg.output_buffer_bytes > 0 ? 2 : 1);
    return 2 * (ser + cfg.fly_ps + cfg.routing_ps + credit_delay_of(cfg));
}

SimResult simulate(const Fabric& f, const Routing& r, const SimConfig& cfg,
                   const ProgressFn& progress) {
    const FlatLft flat(f, r);
    Network net(f, r, cfg, flat);
    return net.run(progress);
}

} // namespace ibrt::sim
