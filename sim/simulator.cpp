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

#include "sim/event_queue.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace ibrt::sim {
namespace {

constexpr std::uint32_t kNil = 0xffffffffu;

enum EventType : std::uint8_t {
    kGen,      // a = CA: generate the next message
    kTrace,    // a = trace index
    kReady,    // a = packet, b = input slot: head arrived and routed
    kDeliver,  // a = packet, b = CA port slot: tail arrived at the destination
    kOutFree,  // a = output slot, b = input buffer (slot * V + vl), c = credits to return
    kCredit,   // a = output slot, b = VL, c = credits
    kRetry,    // a = output slot: injection control allows a start now
    kWatchdog, // deadlock detection
};

struct Packet {
    Time gen = 0;
    Time tail = 0; // tail arrival at the buffer the packet is in
    std::uint32_t next = kNil;
    std::uint32_t src = 0, dst = 0;
    PortId out = kNoPort; // output slot chosen at the current node
    std::uint32_t size = 0;
    Lid dlid = 0;
    std::uint8_t sl = 0, vl = 0, out_vl = 0, hops = 0;
    bool measured = false;
};

class Network {
  public:
    Network(const Fabric& f, const Routing& r, const SimConfig& cfg, RouteSelector& route,
            VlSelector& vls, InjectionControl& inj)
        : f_(f), r_(r), cfg_(cfg), route_(route), vls_(vls), inj_(inj), V_(cfg.num_vls),
          pattern_(cfg.traffic, std::uint32_t(f.cas().size()), cfg.seed) {
        setup();
    }

    SimResult run(const ProgressFn& progress);

  private:
    void setup();
    std::uint32_t need(std::uint32_t bytes) const {
        return (bytes + cfg_.credit_unit - 1) / cfg_.credit_unit;
    }
    PacketView view(const Packet& p) const { return {p.src, p.dst, p.dlid, p.sl, p.vl}; }

    std::uint32_t alloc() {
        ++live_;
        if (free_ != kNil) {
            const std::uint32_t h = free_;
            free_ = pkts_[h].next;
            pkts_[h] = Packet{};
            return h;
        }
        pkts_.emplace_back();
        return std::uint32_t(pkts_.size() - 1);
    }
    void release(std::uint32_t h) {
        --live_;
        pkts_[h].next = free_;
        free_ = h;
    }
    // The head's routing decision, mirrored out of the pool so that arbitration scans flat
    // arrays instead of chasing packets.
    void cache_head(std::uint32_t b) {
        const std::uint32_t h = head_[b];
        if (h == kNil) {
            head_out_[b] = kNoPort;
            return;
        }
        head_out_[b] = pkts_[h].out;
        head_ovl_[b] = pkts_[h].out_vl;
        head_need_[b] = need(pkts_[h].size);
    }
    // FIFO of buffer b; returns true when the packet became the head.
    bool push_fifo(std::uint32_t b, std::uint32_t h) {
        pkts_[h].next = kNil;
        if (tail_[b] == kNil) {
            head_[b] = tail_[b] = h;
            cache_head(b);
            return true;
        }
        pkts_[tail_[b]].next = h;
        tail_[b] = h;
        return false;
    }
    std::uint32_t pop_fifo(std::uint32_t b) {
        const std::uint32_t h = head_[b];
        head_[b] = pkts_[h].next;
        if (head_[b] == kNil) tail_[b] = kNil;
        cache_head(b);
        return h;
    }

    void generate(std::uint32_t ca, std::uint32_t dst);
    void schedule_next_gen(std::uint32_t ca);
    void try_arbitrate(PortId o);
    void transmit(PortId o, PortId in, std::uint32_t in_vl, std::uint8_t ovl);
    void on_ready(std::uint32_t h, PortId d);
    void on_deliver(std::uint32_t h, PortId d);
    void drop(std::uint32_t h, PortId at);
    std::vector<std::string> blocked_cycle() const;
    std::string buffer_name(std::uint32_t b) const;
    bool in_window(Time t) const { return t >= win_lo_ && t < win_hi_; }

    const Fabric& f_;
    const Routing& r_;
    const SimConfig& cfg_;
    RouteSelector& route_;
    VlSelector& vls_;
    InjectionControl& inj_;
    const std::uint32_t V_;
    DestinationPattern pattern_;
    VlArbConfig vlarb_; // cfg_.vlarb, or every VL weight 1 in the low table when both are empty

    EventQueue q_;
    Time now_ = 0, win_lo_ = 0, win_hi_ = 0, end_ = 0, fly_ = 0, credit_delay_ = 0;
    Time deadlock_ps_ = 0;

    std::vector<Packet> pkts_;
    std::uint32_t free_ = kNil;
    std::uint64_t live_ = 0;

    // Per port slot.
    std::vector<PortId> peer_;           // slot at the other end of the cable, kNoPort if none
    std::vector<Time> ppb_;              // ps per byte of the link this slot transmits on
    std::vector<std::uint8_t> busy_;     // output transmitting
    std::vector<std::uint8_t> reads_;    // crossbar reads in progress from this input
    std::vector<std::uint32_t> waiting_; // FIFO heads routed to this output
    std::vector<std::uint16_t> rr_;      // next input to consider
    std::vector<std::uint8_t> retry_;    // a kRetry is pending
    std::vector<VlArbState> arb_;
    std::vector<std::uint8_t> is_switch_; // by node
    // Per slot x VL.
    std::vector<std::uint32_t> head_, tail_;
    std::vector<PortId> head_out_; // out slot of the head packet, kNoPort when empty
    std::vector<std::uint8_t> head_ovl_;
    std::vector<std::int32_t> head_need_;
    std::vector<std::int32_t> credits_;
    std::vector<Time> busy_ps_, vl_busy_ps_;

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
    std::vector<Time> latencies_;
};

void Network::setup() {
    if (V_ < 1 || V_ > 15) throw std::invalid_argument("number of VLs must be 1..15");
    if (cfg_.speedup < 1) throw std::invalid_argument("crossbar speedup must be at least 1");
    if (cfg_.credit_unit == 0) throw std::invalid_argument("credit unit must be positive");
    if (cfg_.packet_bytes == 0) throw std::invalid_argument("packet size must be positive");
    if (need(cfg_.packet_bytes) > cfg_.buffer_bytes / cfg_.credit_unit)
        throw std::invalid_argument(
            "a buffer of " + std::to_string(cfg_.buffer_bytes) + " bytes (" +
            std::to_string(cfg_.buffer_bytes / cfg_.credit_unit) + " credits of " +
            std::to_string(cfg_.credit_unit) + " bytes) cannot hold a packet of " +
            std::to_string(cfg_.packet_bytes) + " bytes");
    if (cfg_.measure_ps == 0) throw std::invalid_argument("measurement window must be positive");
    for (const auto& e : cfg_.vlarb.high)
        if (e.vl >= V_)
            throw std::invalid_argument("VL arbitration entry names VL " + std::to_string(e.vl) +
                                        " >= VL count");
    for (const auto& e : cfg_.vlarb.low)
        if (e.vl >= V_)
            throw std::invalid_argument("VL arbitration entry names VL " + std::to_string(e.vl) +
                                        " >= VL count");

    vlarb_ = cfg_.vlarb;
    if (vlarb_.high.empty() && vlarb_.low.empty())
        for (std::uint32_t v = 0; v < V_; ++v) vlarb_.low.push_back({std::uint8_t(v), 1});
    fly_ = cfg_.fly_ps;
    credit_delay_ = cfg_.credit_delay_ps == ~Time(0) ? cfg_.fly_ps : cfg_.credit_delay_ps;
    win_lo_ = cfg_.warmup_ps;
    win_hi_ = cfg_.warmup_ps + cfg_.measure_ps;
    end_ = win_hi_ + cfg_.drain_ps;

    const std::size_t P = f_.num_port_slots();
    peer_.assign(P, kNoPort);
    ppb_.assign(P, 0);
    busy_.assign(P, 0);
    reads_.assign(P, 0);
    waiting_.assign(P, 0);
    rr_.assign(P, 0);
    retry_.assign(P, 0);
    arb_.assign(P, VlArbState{});
    head_.assign(P * V_, kNil);
    tail_.assign(P * V_, kNil);
    head_out_.assign(P * V_, kNoPort);
    head_ovl_.assign(P * V_, 0);
    head_need_.assign(P * V_, 0);
    credits_.assign(P * V_, 0);
    busy_ps_.assign(P, 0);
    vl_busy_ps_.assign(P * V_, 0);
    is_switch_.assign(f_.num_nodes(), 0);
    const auto cap = std::int32_t(cfg_.buffer_bytes / cfg_.credit_unit);
    for (NodeId n = 0; n < f_.num_nodes(); ++n) {
        is_switch_[n] = f_.node(n).is_switch();
        for (PortNum p = 1; p <= f_.node(n).num_ports; ++p) {
            const Port& port = f_.port(n, p);
            if (!port.connected()) continue;
            const PortId s = f_.port_id(n, p);
            peer_[s] = f_.port_id(port.peer_node, port.peer_port);
            const double g = port.gbps();
            ppb_[s] = cfg_.ps_per_byte ? cfg_.ps_per_byte
                      : g > 0          ? Time(std::llround(8000.0 / g))
                                       : 4000; // unknown width/speed: 1x SDR
            for (std::uint32_t v = 0; v < V_; ++v) credits_[s * V_ + v] = cap;
        }
    }

    N_ = std::uint32_t(f_.cas().size());
    ca_of_node_.assign(f_.num_nodes(), kNil);
    for (std::uint32_t i = 0; i < N_; ++i) {
        const NodeId n = f_.cas()[i];
        PortId out = kNoPort;
        for (PortNum p = 1; p <= f_.node(n).num_ports && out == kNoPort; ++p)
            if (f_.port(n, p).connected()) out = f_.port_id(n, p);
        ca_node_.push_back(n);
        ca_out_.push_back(out);
        ca_of_node_[n] = i;
        const Lid base = out == kNoPort ? 0 : r_.lids.base(out);
        const std::string name = f_.node(n).desc.empty() ? f_.node(n).id : f_.node(n).desc;
        if (out == kNoPort) throw std::invalid_argument("end node '" + name + "' has no cable");
        if (base == 0)
            throw std::invalid_argument("end node '" + name + "' port " +
                                        std::to_string(f_.port_num(out)) + " has no LID");
        ca_base_.push_back(base);
        ca_lmc_.push_back(r_.lids.lmc(out));
        rng_.emplace_back(cfg_.seed * 0x9e3779b97f4a7c15ull + i);
    }
    if (!r_.dlid_choice.empty() && r_.dlid_choice.size() != std::size_t(N_) * N_)
        throw std::invalid_argument("path selection has " + std::to_string(r_.dlid_choice.size()) +
                                    " entries, expected " + std::to_string(N_) + "^2");
    if (cfg_.deadlock_ps == 0) {
        Time slow = 0;
        for (Time t : ppb_) slow = std::max(slow, t);
        // No hop anywhere for 100 packet times (and 10 routing + credit round trips) while
        // packets are inside cannot be congestion: some buffer would have drained.
        deadlock_ps_ = std::max(100 * Time(cfg_.packet_bytes) * std::max<Time>(slow, 1),
                                10 * (cfg_.routing_ps + fly_ + credit_delay_));
    } else {
        deadlock_ps_ = cfg_.deadlock_ps;
    }

    msg_count_.assign(N_, 0);
    phase_.assign(N_, 0);
    interval_.assign(N_, 0);
    slot_ps_.assign(N_, 0);
    for (const auto& t : cfg_.trace)
        if (t.src >= N_ || t.dst >= N_)
            throw std::invalid_argument("trace message names an end node out of range");
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
            gap = 1 + std::uint64_t(std::floor(std::log(u) / std::log1p(-load)));
        }
        phase_[ca] += gap * slot_ps_[ca];
        t = phase_[ca];
    }
    if (t < end_) q_.push(t, kGen, ca);
}

void Network::generate(std::uint32_t ca, std::uint32_t dst) {
    const std::uint32_t msg = cfg_.message_bytes ? cfg_.message_bytes : cfg_.packet_bytes;
    const NodeId n = ca_node_[ca];
    const PortNum port = f_.port_num(ca_out_[ca]);
    const PortId src_buf = f_.node(n).first_port; // slot 0: the source queue
    gen::Rng& rng = rng_[ca];
    std::uint8_t sl = 0;
    if (cfg_.sl == SlPolicy::Spread) sl = std::uint8_t(rng.below(V_));
    bool head_changed = false;
    for (std::uint32_t off = 0; off < msg; off += cfg_.packet_bytes) {
        const std::uint32_t h = alloc();
        Packet& p = pkts_[h];
        p.gen = now_;
        p.src = ca;
        p.dst = dst;
        p.size = std::min(cfg_.packet_bytes, msg - off);
        switch (cfg_.dlid) {
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
        p.sl = cfg_.sl == SlPolicy::Path ? r_.path_sl(p.dlid) : sl;
        p.measured = in_window(now_);
        ++generated_;
        if (p.measured) {
            ++measured_open_;
            bytes_offered_ += p.size;
        }
        const std::uint8_t vl = vls_.select(n, 0, port, view(p));
        if (vl >= V_) {
            drop(h, kNoPort);
            continue;
        }
        p.out_vl = vl;
        p.out = ca_out_[ca];
        head_changed |= push_fifo(src_buf * V_ + vl, h);
    }
    if (head_changed) try_arbitrate(ca_out_[ca]);
}

void Network::try_arbitrate(PortId o) {
    if (busy_[o] || peer_[o] == kNoPort) return;
    const NodeId n = f_.port_node(o);
    const Node& node = f_.node(n);
    std::uint32_t mask = 0;
    PortId cand_in[16];
    std::uint32_t cand_vl[16];
    if (!is_switch_[n]) {
        const std::uint32_t ca = ca_of_node_[n];
        if (ca == kNil || ca_out_[ca] != o) return;
        const PortId s0 = node.first_port;
        for (std::uint32_t v = 0; v < V_; ++v) {
            const std::uint32_t h = head_[s0 * V_ + v];
            if (h != kNil && credits_[o * V_ + v] >= std::int32_t(need(pkts_[h].size))) {
                mask |= 1u << v;
                cand_in[v] = s0;
                cand_vl[v] = v;
            }
        }
        if (mask == 0) return;
        const Time at = inj_.earliest_start(ca, now_);
        if (at > now_) {
            if (!retry_[o]) {
                retry_[o] = 1;
                q_.push(at, kRetry, o);
            }
            return;
        }
    } else {
        if (waiting_[o] == 0) return;
        const std::uint32_t np = node.num_ports;
        const std::uint32_t start = rr_[o];
        const std::uint32_t all = (1u << V_) - 1;
        std::uint32_t matched = 0;
        for (std::uint32_t k = 0; k < np; ++k) {
            const PortNum inp = PortNum(1 + (start + k) % np);
            const PortId i = node.first_port + inp;
            const bool can_read = reads_[i] < cfg_.speedup;
            for (std::uint32_t v = 0; v < V_; ++v) {
                const std::uint32_t b = i * V_ + v;
                if (head_out_[b] != o) continue;
                ++matched;
                const std::uint32_t ovl = head_ovl_[b];
                if (!can_read || (mask >> ovl & 1u)) continue;
                if (credits_[o * V_ + ovl] < head_need_[b]) continue;
                mask |= 1u << ovl;
                cand_in[ovl] = i;
                cand_vl[ovl] = v;
            }
            // Every head routed here has been seen, or every VL has its candidate.
            if (matched == waiting_[o] || mask == all) break;
        }
        if (mask == 0) return;
    }
    int ovl = 0;
    if (V_ > 1) {
        ovl = vl_arbitrate(vlarb_, arb_[o], mask, cfg_.packet_bytes);
        if (ovl == kNoVl) return; // only VLs the tables never serve are ready
    }
    transmit(o, cand_in[ovl], cand_vl[ovl], std::uint8_t(ovl));
}

void Network::transmit(PortId o, PortId in, std::uint32_t in_vl, std::uint8_t ovl) {
    const NodeId n = f_.port_node(o);
    const bool sw = is_switch_[n];
    const std::uint32_t b = in * V_ + in_vl;
    const std::uint32_t h = pop_fifo(b);
    Packet& p = pkts_[h];
    if (sw) {
        --waiting_[o];
        if (head_out_[b] != kNoPort) ++waiting_[head_out_[b]];
        ++reads_[in];
        const std::uint32_t np = f_.node(n).num_ports;
        rr_[o] = std::uint16_t((in - f_.node(n).first_port) % np);
    }
    const std::uint32_t c = need(p.size);
    credits_[o * V_ + ovl] -= std::int32_t(c);
    busy_[o] = 1;
    const Time ser = Time(p.size) * ppb_[o];
    Time start = now_;
    if (sw && p.tail > now_ + ser) start = p.tail - ser; // the tail cannot leave before it came
    const Time lo = std::max(start, win_lo_), hi = std::min(start + ser, win_hi_);
    if (hi > lo) {
        busy_ps_[o] += hi - lo;
        vl_busy_ps_[o * V_ + ovl] += hi - lo;
    }
    p.vl = ovl;
    ++p.hops;
    ++hops_;
    if (!sw) {
        ++in_network_;
        inj_.sent(ca_of_node_[n], view(p), now_);
    }
    const PortId d = peer_[o];
    p.tail = start + fly_ + ser;
    if (const NodeId m = f_.port_node(d); is_switch_[m]) {
        // The LFT is far bigger than the caches (FT(16,3): 10 MB); start fetching the entry the
        // next switch will look up now, so the miss overlaps other work.
        if (m < r_.lft.size() && p.dlid < r_.lft[m].size())
            __builtin_prefetch(r_.lft[m].data() + p.dlid);
        q_.push(start + fly_ + cfg_.routing_ps, kReady, h, d);
    } else {
        q_.push(p.tail, kDeliver, h, d);
    }
    q_.push(start + ser, kOutFree, o, sw ? b : kNil, c);
}

void Network::drop(std::uint32_t h, PortId at) {
    Packet& p = pkts_[h];
    if (at != kNoPort) {
        // Free the buffer space the packet held once its tail is in.
        q_.push(std::max(now_, p.tail) + credit_delay_, kCredit, peer_[at], p.vl, need(p.size));
        --in_network_;
    }
    ++dropped_;
    if (p.measured) --measured_open_;
    release(h);
}

void Network::on_ready(std::uint32_t h, PortId d) {
    Packet& p = pkts_[h];
    const NodeId m = f_.port_node(d);
    const Node& node = f_.node(m);
    const PortNum inp = f_.port_num(d);
    if (p.hops > cfg_.max_hops) return drop(h, d);
    const PortNum outp = route_.select(m, inp, view(p), now_);
    if (outp == kNoPath || outp == 0 || outp > node.num_ports ||
        peer_[node.first_port + outp] == kNoPort)
        return drop(h, d);
    const std::uint8_t ovl = vls_.select(m, inp, outp, view(p));
    if (ovl >= V_) return drop(h, d);
    p.out = node.first_port + outp;
    p.out_vl = ovl;
    if (push_fifo(d * V_ + p.vl, h)) {
        ++waiting_[p.out];
        try_arbitrate(p.out);
    }
}

void Network::on_deliver(std::uint32_t h, PortId d) {
    Packet& p = pkts_[h];
    ++delivered_;
    --in_network_;
    if (ca_of_node_[f_.port_node(d)] != p.dst) ++misdelivered_;
    if (in_window(now_)) bytes_accepted_ += p.size;
    if (p.measured) {
        --measured_open_;
        latencies_.push_back(now_ - p.gen);
    }
    q_.push(now_ + credit_delay_, kCredit, peer_[d], p.vl, need(p.size));
    release(h);
}

std::string Network::buffer_name(std::uint32_t b) const {
    const PortId s = b / V_;
    const NodeId n = f_.port_node(s);
    const Node& node = f_.node(n);
    const std::string name = !node.desc.empty() ? node.desc
                             : !node.id.empty() ? node.id
                                                : "node " + std::to_string(n);
    return "'" + name + "' port " + std::to_string(f_.port_num(s)) + " VL " +
           std::to_string(b % V_);
}

// The wait-for graph of full buffers: a switch input buffer whose head packet lacks credits
// waits on the downstream buffer of its next VL. Each buffer waits on at most one other, so a
// walk with colours finds a cycle.
std::vector<std::string> Network::blocked_cycle() const {
    const std::size_t B = head_.size();
    std::vector<std::uint32_t> succ(B, kNil);
    for (std::uint32_t b = 0; b < B; ++b) {
        const std::uint32_t h = head_[b];
        if (h == kNil || !is_switch_[f_.port_node(b / V_)]) continue;
        const Packet& p = pkts_[h];
        if (credits_[p.out * V_ + p.out_vl] >= std::int32_t(need(p.size))) continue;
        const PortId d = peer_[p.out];
        if (is_switch_[f_.port_node(d)]) succ[b] = d * V_ + p.out_vl;
    }
    std::vector<std::uint8_t> colour(B, 0);
    for (std::uint32_t s = 0; s < B; ++s) {
        if (colour[s] || succ[s] == kNil) continue;
        std::uint32_t x = s;
        while (x != kNil && colour[x] == 0) {
            colour[x] = 1;
            x = succ[x];
        }
        if (x != kNil && colour[x] == 1) {
            std::vector<std::string> cyc;
            std::uint32_t y = x;
            do {
                cyc.push_back(buffer_name(y));
                y = succ[y];
            } while (y != x);
            return cyc;
        }
        for (x = s; x != kNil && colour[x] == 1; x = succ[x]) colour[x] = 2;
    }
    return {};
}

SimResult Network::run(const ProgressFn& progress) {
    SimResult res;
    if (cfg_.trace.empty()) {
        for (std::uint32_t i = 0; i < N_; ++i) {
            const std::uint32_t msg = cfg_.message_bytes ? cfg_.message_bytes : cfg_.packet_bytes;
            const Time msg_time = Time(msg) * ppb_[ca_out_[i]];
            slot_ps_[i] = msg_time;
            if (cfg_.traffic.load > 0) interval_[i] = double(msg_time) / cfg_.traffic.load;
            if (cfg_.traffic.load <= 0) continue;
            if (cfg_.traffic.injection == Injection::Constant) {
                // A random phase within one interval, so sources do not fire in lock step.
                phase_[i] = interval_[i] >= 1 ? rng_[i].below(Time(interval_[i])) : 0;
                if (phase_[i] < end_) q_.push(phase_[i], kGen, i);
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

    std::uint64_t last_hops = 0, events = 0;
    auto wall_last = std::chrono::steady_clock::now();
    while (!q_.empty()) {
        if (q_.top().time > end_) break;
        const Event e = q_.pop();
        now_ = e.time;
        ++events;
        switch (e.type) {
        case kGen: {
            const std::uint32_t ca = e.a;
            const std::uint32_t dst = pattern_.next(ca, rng_[ca], msg_count_[ca]);
            ++msg_count_[ca];
            if (dst != ca) generate(ca, dst);
            schedule_next_gen(ca);
            break;
        }
        case kTrace:
            generate(cfg_.trace[e.a].src, cfg_.trace[e.a].dst);
            break;
        case kReady:
            on_ready(e.a, e.b);
            break;
        case kDeliver:
            on_deliver(e.a, e.b);
            break;
        case kOutFree: {
            const PortId o = e.a;
            busy_[o] = 0;
            if (e.b != kNil) {
                const PortId in = e.b / V_;
                --reads_[in];
                q_.push(now_ + credit_delay_, kCredit, peer_[in], e.b % V_, e.c);
                try_arbitrate(o);
                // Outputs the freed input port may now feed.
                for (std::uint32_t v = 0; v < V_; ++v)
                    if (head_out_[in * V_ + v] != kNoPort) try_arbitrate(head_out_[in * V_ + v]);
            } else {
                try_arbitrate(o);
            }
            break;
        }
        case kCredit:
            credits_[e.a * V_ + e.b] += std::int32_t(e.c);
            try_arbitrate(e.a);
            break;
        case kRetry:
            retry_[e.a] = 0;
            try_arbitrate(e.a);
            break;
        case kWatchdog:
            if (in_network_ > 0 && hops_ == last_hops) {
                res.deadlock = true;
                res.deadlock_at_ps = now_;
                res.deadlock_cycle = blocked_cycle();
            } else {
                last_hops = hops_;
                if (!q_.empty() || live_ > 0) q_.push(now_ + deadlock_ps_, kWatchdog, 0);
            }
            break;
        }
        if (res.deadlock) break;
        if (now_ >= win_hi_ && measured_open_ == 0 && cfg_.trace.empty()) break;
        if (progress && (events & 0xffff) == 0) {
            const auto w = std::chrono::steady_clock::now();
            if (w - wall_last > std::chrono::seconds(1)) {
                wall_last = w;
                progress(now_, end_);
            }
        }
    }

    if (generated_ != delivered_ + dropped_ + live_)
        throw std::logic_error("conservation violated: generated " + std::to_string(generated_) +
                               " != delivered " + std::to_string(delivered_) + " + dropped " +
                               std::to_string(dropped_) + " + in flight " + std::to_string(live_));

    res.generated = generated_;
    res.delivered = delivered_;
    res.dropped = dropped_;
    res.misdelivered = misdelivered_;
    res.in_flight = live_;
    res.hops = hops_;
    res.events = events;
    res.end_ps = now_;
    res.measured_unfinished = measured_open_;

    const double window_ns = double(cfg_.measure_ps) / double(kPsPerNs);
    double cap = 0; // mean CA link bandwidth in bytes/ns
    for (std::uint32_t i = 0; i < N_; ++i) cap += double(kPsPerNs) / double(ppb_[ca_out_[i]]);
    cap /= N_;
    res.offered_bytes_per_ns = double(bytes_offered_) / window_ns / N_;
    res.accepted_bytes_per_ns = double(bytes_accepted_) / window_ns / N_;
    res.offered_fraction = res.offered_bytes_per_ns / cap;
    res.accepted_fraction = res.accepted_bytes_per_ns / cap;

    res.latency_samples = latencies_.size();
    if (!latencies_.empty()) {
        std::sort(latencies_.begin(), latencies_.end());
        double sum = 0;
        for (Time t : latencies_) sum += double(t);
        const auto rank = [&](double q) {
            std::size_t k = std::size_t(std::ceil(q * double(latencies_.size())));
            return double(latencies_[std::max<std::size_t>(k, 1) - 1]) / double(kPsPerNs);
        };
        res.latency_mean_ns = sum / double(latencies_.size()) / double(kPsPerNs);
        res.latency_p50_ns = rank(0.5);
        res.latency_p99_ns = rank(0.99);
        res.latency_max_ns = double(latencies_.back()) / double(kPsPerNs);
    }

    res.vl_util_mean.assign(V_, 0);
    std::size_t nlinks = 0;
    for (PortId s = 0; s < peer_.size(); ++s) {
        if (peer_[s] == kNoPort) continue;
        LinkUse u;
        u.port = s;
        u.utilization = double(busy_ps_[s]) / double(cfg_.measure_ps);
        for (std::uint32_t v = 0; v < V_; ++v) {
            const double x = double(vl_busy_ps_[s * V_ + v]) / double(cfg_.measure_ps);
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
    return res;
}

} // namespace

SimResult simulate(const Fabric& f, const Routing& r, const SimConfig& cfg, RouteSelector* route,
                   VlSelector* vls, InjectionControl* inj, const ProgressFn& progress) {
    LftRoute def_route(r);
    Sl2VlSelect def_vls(f, r, cfg.num_vls);
    NoInjectionControl def_inj;
    Network net(f, r, cfg, route ? *route : def_route, vls ? *vls : def_vls, inj ? *inj : def_inj);
    return net.run(progress);
}

} // namespace ibrt::sim
