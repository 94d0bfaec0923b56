// The packet-level simulator: replays a Routing (LFTs, SL2VL, path SL, path selection) on a
// Fabric with virtual cut-through switching and IBA credit-based link-level flow control per
// VL. The model and every assumption are in docs/sim-model.md; the parameters below carry
// their units in their names (ps = picoseconds, the simulator's integer time unit).
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/routing.hpp"
#include "sim/cc_config.hpp"
#include "sim/drb.hpp"
#include "sim/event_queue.hpp"
#include "sim/selection.hpp"
#include "sim/traffic.hpp"
#include "sim/via_routing.hpp"
#include "sim/vl_arbiter.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ibrt::sim {

inline constexpr Time kPsPerNs = 1000;

// How a source picks the DLID of a destination.
enum class DlidPolicy {
    Auto,   // Table when the routing has a path selection, else Random when a destination has
            // LMC > 0, else Base (resolve_dlid_policy)
    Table,  // Routing::dlid_choice (path selection); the base LID where it is empty
    Base,   // the destination's base LID
    Random, // uniformly among the destination's 2^LMC LIDs, per packet
};
std::string_view to_string(DlidPolicy p);
// The policy `p` stands for on this routing: Auto resolved, the others as they are.
DlidPolicy resolve_dlid_policy(DlidPolicy p, const Fabric& f, const Routing& r);
// The largest LMC of an end node's port (0 when no CA has more than one LID).
std::uint8_t max_ca_lmc(const Fabric& f, const Routing& r);
// How a source picks the SL of a packet.
enum class SlPolicy {
    Path,   // Routing::path_sl(source port, dlid)
    Spread, // uniformly among 0..num_vls-1 per message (paper 000 §5 uses its VLs this way)
};

// One explicitly timed message (tests, trace replay); replaces generated traffic when given.
struct TraceMessage {
    Time time = 0;
    std::uint32_t src = 0, dst = 0; // CA indices
};

// IBA congestion control (annex A10; paper 002 §3-4; docs/sim-model.md "Congestion control"),
// configured as opensm configures the switches and CAs (sim/cc_config.hpp).
struct CcModel {
    bool on = false; // simulate it (opensm: congestion_control TRUE)
    CcConfig settings;
    // 0: a destination returns each BECN as a packet of becn_bytes on the reverse path, taking
    // bandwidth and buffers like any packet; > 0: idealised, the BECN reaches the source this
    // long after the FECN-marked packet arrived, without a packet.
    Time becn_delay_ps = 0;
    // A congestion notification packet carries headers only: LRH 8 + BTH 12 + DETH 8 + ICRC 4
    // + VCRC 2 = 34 bytes (IBA vol. 1 §9.2, annex A10).
    std::uint32_t becn_bytes = 34;
    // Apply the CCT's injection rate delay at the source (A10.2.3). Off: switches still mark
    // and destinations still return BECNs, but sources do not throttle — paper 002's "DRB
    // alone", where the notifications only drive DRB (SimConfig::drb).
    bool throttle = true;
};

struct SimConfig {
    // Links and switches.
    Time fly_ps = 20 * kPsPerNs;       // propagation time of every link
    Time routing_ps = 100 * kPsPerNs;  // head arrival to eligible for the crossbar
    Time ps_per_byte = 0;              // 0 = from each link's width x speed
    Time credit_delay_ps = ~Time(0);   // credit return time; ~0 = fly_ps
    std::uint32_t buffer_bytes = 1024; // input buffer per VL per port (switches and CAs)
    std::uint32_t credit_unit = 64;    // bytes per credit (IBA: 64)
    std::uint8_t num_vls = 1;          // data VLs 0..num_vls-1
    std::uint8_t speedup = 1; // packets one input port may feed through the crossbar at once
    // Output buffer per VL per switch port; 0 = none (the crossbar feeds the link directly).
    std::uint32_t output_buffer_bytes = 0;
    VlArbConfig vlarb;
    // The selection function of the extended switch (sim/selection.hpp), used when the routing
    // has forwarding sets (Routing::forwarding_sets; otherwise the LFT is the only candidate).
    Selection selection = Selection::MoreCredits;
    // Selection treats every candidate of a set as one priority class, so that a non-minimal
    // route is taken as readily as a minimal one. Paper 003 §3.1 gives minimal routes the higher
    // priority (the default: the best class with room first); its Dragonfly G routings behave as
    // if its simulator did not (docs/results/direct-topologies.md), which this measures.
    bool one_priority_class = false;
    // Selection's room test reads the downstream credits alone (or the output buffer's space),
    // blind to the heads already bound to that output and not yet sent: a busy link with room
    // downstream looks able to take the packet, so a minimal candidate is left only when the
    // buffer beyond it fills. The default counts those heads (docs/sim-model.md); paper 003
    // does not say which its simulator does, and this measures the difference on its table
    // (docs/results/direct-topologies.md: it fits some bit-pattern cells and not others).
    bool room_ignores_bound = false;
    // A VC router as BookSim models one, for like-for-like comparisons (docs/sim-model.md "VC-
    // router mode"): an output VC is held by one packet from the start of its transmission
    // until its tail has left the downstream buffer, and each hop's VC is any free one (round
    // robin), not SL2VL's. Off: the IB switch (IBA §7.9: credits per VL, shared by every packet).
    bool vc_router = false;
    // When a VC-router output VC is free again: Drained, when its holder's tail has left the
    // downstream buffer (one packet per VC buffer; BookSim's wait_for_tail_credit = 1); Sent,
    // when the tail has been sent and the VC has credits for the next packet (several packets
    // may share a VC buffer; BookSim's default, wait_for_tail_credit = 0).
    enum class VcRelease : std::uint8_t { Drained, Sent };
    VcRelease vc_release = VcRelease::Drained;
    // VC-router mode: BookSim's allocation turnaround. Without speculation its router allocates
    // a VC, then the switch, at the head of an input VC, one cycle each; an input VC's next head
    // and an output VC's next packet start allocating only after the last packet's tail has
    // gone, so one cycle (vc_alloc_delay + sw_alloc_delay - 1) passes between the end of a
    // packet's transmission and the start of the next on the same input VC and the same
    // output VC. 0: none (the IB switch's lookup is pipelined per packet).
    Time vc_alloc_gap_ps = 0;
    // VC-router mode: BookSim's separable input-first switch allocator (one iteration): each
    // input port requests one output at a time, in round robin over the outputs its heads
    // want, and moves on only when granted; an output takes only inputs requesting it. Off:
    // each free output takes the next input with a head for it (a greedy maximal match).
    bool vc_input_first = false;
    // When the oblivious selections (oblivious, anca, ugal) choose, for measuring what stale
    // state costs a choice by load (docs/results/booksim-agreement.md): Head, when the packet
    // reaches the head of its input buffer (the default: the state current when it can leave);
    // Entry, when it enters the buffer after its routing delay; Sent, when the upstream port starts
    // sending it, from the state of the switch it goes to (BookSim's lookahead routing,
    // routing_delay = 0). Entry and Sent keep the choice while the packet queues.
    enum class SelectAt : std::uint8_t { Head, Entry, Sent };
    SelectAt select_at = SelectAt::Head;

    // Traffic.
    TrafficSpec traffic;
    std::uint32_t packet_bytes = 256;
    std::uint32_t message_bytes = 0; // 0 = one packet
    DlidPolicy dlid = DlidPolicy::Auto;
    SlPolicy sl = SlPolicy::Path;
    std::vector<TraceMessage> trace;
    // Packets a CA's source queue holds (all VLs together); a message that does not fit is
    // counted as throttled instead of generated. 0 = unbounded (memory then grows with the run
    // above saturation).
    std::uint32_t source_queue_packets = 256;

    // Measurement.
    Time warmup_ps = 10 * 1000 * kPsPerNs;
    Time measure_ps = 50 * 1000 * kPsPerNs;
    Time drain_ps = 50 * 1000 * kPsPerNs; // at most this long after the window
    // A stop rule on the confidence intervals (docs/sim-model.md "Confidence intervals"): when
    // > 0, a run whose 95 % intervals of the accepted fraction or of the mean latency are wider
    // than this fraction of their means is run again with the window doubled, until they are
    // within it or the window would pass max_measure_ps (SimResult::converged says which).
    // Each attempt is a whole run from the same seed, so a result is the same whatever the
    // attempts before it, and the attempts together cost less than twice the last.
    double ci_target = 0;
    Time max_measure_ps = 0; // 0: 32 x measure_ps
    // The watchdog period: 0 = 100 packet times on the slowest link, at least 10 x (routing +
    // fly + credit delay). A period below min_deadlock_period_ps is refused.
    Time deadlock_ps = 0;
    std::uint64_t seed = 1;
    // Latency samples kept for the percentiles; past it, a uniform random sample of this many
    // (the mean and the maximum stay exact), so memory does not grow with the run.
    std::uint32_t latency_samples = 1u << 20;
    std::uint32_t max_hops = 64; // a packet forwarded more often is dropped as looping

    CcModel cc;
    // Dynamic Routing Balancing (paper 002 §4; sim/drb.hpp). Needs cc.on: the BECNs drive it.
    DrbConfig drb;
    // Paths through an intermediate chosen at the source switch on a Dragonfly: Valiant, UGAL-L
    // (sim/via_routing.hpp; BookSim's ugal). Needs the LFTs alone (no forwarding sets, CC or
    // DRB) and 3 VLs, which it takes by phase instead of SL2VL.
    Via via = Via::None;
    // Per-link time series (SimResult::link_series): > 0 records every cabled port's busy time
    // per interval of this length, from time 0 to the end of the run; 0 = none.
    Time link_series_ps = 0;
    // Bytes offered and accepted per (source, destination) pair in the window
    // (SimResult::flows); memory grows with the pairs that send.
    bool flow_stats = false;
};

// Congestion control counters of a run (whole run, not only the window).
struct CcStats {
    std::uint64_t fecn_marked = 0;   // packets a switch marked
    std::uint64_t becn_sent = 0;     // notifications a destination returned
    std::uint64_t becn_received = 0; // notifications that reached their source
    std::uint64_t becn_dropped = 0;  // notification packets dropped on the way
    std::uint64_t becn_in_flight = 0;
    std::uint64_t becn_hops = 0;  // link traversals of notification packets
    std::uint64_t peak_flows = 0; // most source flows (queues or CCTI state) at once
    std::uint32_t peak_ccti = 0;  // highest CCTI any source reached
    double becn_bytes_per_ns = 0; // notification bytes delivered per node in the window
};

// One (source, destination) pair's traffic in the window (SimConfig::flow_stats).
struct FlowStat {
    std::uint32_t src = 0, dst = 0;                     // endpoint indices (SimResult::endpoints)
    double offered_fraction = 0, accepted_fraction = 0; // of the source's link bandwidth
    std::uint64_t becns = 0; // notifications the source received for it (whole run)
};

// Busy time of every cabled transmitting port per interval (SimConfig::link_series_ps).
struct LinkSeries {
    Time step_ps = 0;
    std::vector<PortId> ports;              // cabled transmitting ports, in PortId order
    std::vector<std::uint32_t> ps_per_byte; // of each port's link
    // busy_ps[k * ports.size() + i]: time port i spent sending in [k step, (k + 1) step)
    std::vector<Time> busy_ps;
    std::size_t intervals() const { return ports.empty() ? 0 : busy_ps.size() / ports.size(); }
};

struct LinkUse {
    PortId port = kNoPort;  // the transmitting port
    double utilization = 0; // busy fraction of the measurement window
    std::vector<double> vl_utilization;
};

// How a run ended, for its progress (docs/sim-model.md, "Verdict"). In order of precedence:
enum class Verdict : std::uint8_t {
    Ok,               // packets moved to the end
    Deadlock,         // a cycle of buffers whose head packets all wait on the next one
    DeliveredNothing, // traffic was offered but no byte was delivered in the window (or at all)
    Stuck,            // packets inside at the end, none moved for a whole watchdog period (no
                      // cycle) or during the whole drain
    NothingOffered,   // no packet was generated (load 0, no source with a destination): the
                      // run examined nothing, so it is no pass; `ibrt sim` says cannot judge
};
// "ok", "deadlock", "delivered-nothing", "stuck", "nothing-offered"
std::string_view to_string(Verdict v);

struct SimResult {
    // Per node, over the measurement window.
    double offered_bytes_per_ns = 0, accepted_bytes_per_ns = 0;
    double offered_fraction = 0, accepted_fraction = 0; // of the mean CA link bandwidth
    double latency_mean_ns = 0, latency_p50_ns = 0, latency_p99_ns = 0, latency_max_ns = 0;
    std::uint64_t latency_samples = 0;
    // Half-widths of the 95 % confidence intervals of accepted_fraction and latency_mean_ns by
    // batch means: the window cut into 10 batches, Student's t over the batches that have data;
    // -1 when fewer than 2 have (docs/sim-model.md "Confidence intervals").
    double accepted_fraction_ci95 = -1, latency_mean_ci95_ns = -1;
    // Latency from the head's start onto the first link rather than from generation (BookSim's
    // network latency: the source queue left out), over the same packets, with its half-width.
    double network_latency_mean_ns = 0, network_latency_mean_ci95_ns = -1;
    std::uint64_t measured_unfinished = 0; // measured packets not delivered by the end
    Time measure_ps = 0; // the window the figures are from (SimConfig::ci_target doubles it)
    // With SimConfig::ci_target: whether both intervals came within it (false as well when
    // fewer than two batches had data, so that there was no interval); unset without.
    std::optional<bool> converged;
    // Offered but refused by a full source queue (included in offered, never generated).
    double throttled_fraction = 0;       // of the mean CA link bandwidth, in the window
    std::uint64_t throttled = 0;         // packets, over the whole run
    std::uint32_t peak_source_queue = 0; // most packets in one source queue at once
    std::uint64_t peak_packets = 0;      // most packets alive at once (queued or in the network)

    std::uint64_t generated = 0, delivered = 0, dropped = 0, misdelivered = 0, in_flight = 0;
    std::uint64_t hops = 0, events = 0;
    Time end_ps = 0;

    Verdict verdict = Verdict::Ok;
    bool deadlock = false; // verdict == Deadlock
    // When the watchdog saw the cycle; past end_ps for a loop that closed too late to be seen
    // within the run (the run is then continued without new traffic until it is; statistics
    // stay those of end_ps).
    Time deadlock_at_ps = 0;
    // The cycle's buffers, each waiting on the next, named by the channel that feeds each
    // (fabric/display_name.hpp display_channel: "A port 2 -> B port 3 VL 0", as ibrt check).
    std::vector<std::string> deadlock_cycle;
    Time last_hop_ps = 0; // when a packet last started onto a link (Stuck: long before the end)

    // What ran, where the configuration left it to the simulator.
    DlidPolicy dlid = DlidPolicy::Auto; // resolved
    bool forwarding_sets = false;       // the extended switch ran (selection applies)
    Time deadlock_period_ps = 0;        // the watchdog period
    Time credit_delay_ps = 0;

    bool cc = false; // congestion control ran
    CcStats cc_stats;
    std::vector<FlowStat> flows;   // SimConfig::flow_stats, by (src, dst)
    std::vector<PortId> endpoints; // the end port of each endpoint index (all_end_ports())

    bool drb = false; // DRB ran
    DrbStats drb_stats;
    LinkSeries link_series; // SimConfig::link_series_ps

    std::vector<LinkUse> links; // every cabled transmitting port, in PortId order
    double link_util_mean = 0, link_util_max = 0;
    std::vector<double> vl_util_mean; // per VL, over the cabled ports
};

// The VL arbitration tables a run uses: cfg.vlarb, or every VL weight 1 in the low table when
// both are empty.
VlArbConfig effective_vlarb(const SimConfig& cfg);

// A run that failed: a verdict other than Ok (and NothingOffered, which is no verdict either
// way), or packets dropped or misdelivered.
bool failed(const SimResult& r);

// The shortest watchdog period this configuration can tell from a packet in transit: twice
// (serialization of a packet on the slowest link, again through the crossbar with output
// buffers, + fly + routing + credit delay). No hop anywhere for that long while packets are
// inside is a stall, never a packet on its way.
Time min_deadlock_period_ps(const Fabric& f, const SimConfig& cfg);

// Both 95 % intervals of `r` (accepted fraction, mean latency) within `target` of their means.
bool within_ci_target(const SimResult& r, double target);

// Progress callback: simulated time now and the end time; called every few wall seconds.
using ProgressFn = std::function<void(Time now, Time end)>;

// Runs one simulation. Throws std::invalid_argument for a configuration that cannot run
// (a buffer smaller than a packet, a CA without a LID, a pattern that does not fit).
SimResult simulate(const Fabric& f, const Routing& r, const SimConfig& cfg,
                   const ProgressFn& progress = {});

} // namespace ibrt::sim
