// The records the simulator's event loop moves (sim/network.hpp): its event types, the packet,
// the buffer FIFO, a port's slot and a link's credits per VL, laid out for the cache (a packet
// is half a line, a buffer a quarter).
// IBA vol. 1 §7.9 (credits per VL) and annex A10 (FECN/BECN bits) name what they carry.
// Internal to sim/.
#pragma once

#include "fabric/fabric.hpp"
#include "sim/event_queue.hpp"
#include "sim/flat_lft.hpp"

#include <cstdint>

namespace ibrt::sim::detail {

constexpr std::uint32_t kNil = 0xffffffffu;

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
// pool (Network::times_). Sizes and credits fit 16 bits (setup checks), CA indices too (a CA
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
    std::uint8_t measured = 0; // generated in the window: 1 + its batch (batch means), else 0
    std::uint8_t cc = 0;       // kCcFecn, kCcBecn
};
static_assert(sizeof(Packet) == 32);

// A FIFO of packets (pool indices) and its head's routing decision.
struct Buf {
    std::uint32_t head = kNil, tail = kNil;
    PortId out = kNoPort;   // out slot of the head packet, kNoPort when empty
    std::uint16_t need = 0; // the head's credits
    std::uint8_t ovl = 0;   // the head's VL on the way out
    // A packet left since the watchdog's last tick (stalled_buffers): in the record a pop
    // writes anyway, where a counter per buffer in an array of its own missed the cache on
    // most hops at 16,384 hosts.
    std::uint8_t popped = 0;
};
static_assert(sizeof(Buf) == 16);

// Per port slot, the state one event touches, in one struct: arbitration reads most of it at
// once, and one cache line beats a dozen arrays. The node's own facts are copied in too (node,
// port number, port count), so that the event loop never reads the Fabric's Node records (100
// bytes each, with strings).
struct Slot {
    std::uint64_t req = 0; // see Network::use_req_
    std::uint32_t ppb = 0; // ps per byte of the link this slot transmits on
    PortId peer = kNoPort; // slot at the other end of the cable, kNoPort if none
    NodeId node = 0;       // the node the port belongs to
    // The peer's LFT row (FlatLft::row, kNoRow: a CA or no table) and below whether the
    // peer is a switch's port: a launch reads them here, not from the peer's slot (a
    // cache miss on most hops at 16,384 hosts, where the peer is any switch's port).
    std::uint32_t peer_row = FlatLft::kNoRow;
    std::uint16_t waiting = 0;      // FIFO heads routed to this output
    std::uint8_t rr = 0;            // next input to consider (0-based port index)
    std::uint8_t pnum = 0;          // port number at its node (0 = the CA's source queue)
    std::uint8_t nports = 0;        // ports of its node
    std::uint8_t reads = 0;         // crossbar reads in progress from this input
    std::uint8_t busy : 1 = 0;      // output transmitting
    std::uint8_t sw : 1 = 0;        // the port is a switch's
    std::uint8_t peer_sw : 1 = 0;   // the peer is a switch's port
    std::uint8_t xbar_busy : 1 = 0; // output buffers: a crossbar move into this output
    // Output buffers: next VL the crossbar serves; VC router with output buffers: next
    // class the link serves (VLs and classes: at most 16).
    std::uint8_t xvl_rr : 4 = 0, xvl_link_rr : 4 = 0;
};
static_assert(sizeof(Slot) == 32);

// Per slot x VL: the credits the link has downstream, and the time it spent sending on the
// VL in the window (utilization), side by side: the hop that takes the credits adds the
// time (in an array of its own it was a cache miss per hop at 16,384 hosts).
struct LinkVl {
    std::int32_t credits = 0;
    Time busy_ps = 0;
};
static_assert(sizeof(LinkVl) == 16);

} // namespace ibrt::sim::detail
