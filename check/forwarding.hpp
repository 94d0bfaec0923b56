// Following linear forwarding tables hop by hop (IBA vol. 1, 18.2.4.3.1 "Linear forwarding
// table": a switch looks the DLID up and sends the packet out of that port; port 0 is the
// switch's own management port; OSM_NO_PATH 0xff drops). Two forms share one set of rules:
//   - trace_walk(): the explicit path from one source, used to report a failure readably;
//   - DlidForest: the outcome from every switch towards one DLID, memoized, so that a sweep
//     over all DLIDs costs O(#switches) per DLID instead of O(#sources x path length). The walk
//     from a switch does not depend on which CA injected the packet.
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/routing.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ibrt::check {

enum class WalkOutcome : std::uint8_t {
    Reached,        // arrived at the end port that owns the DLID
    NoEntry,        // LFT entry is 0xff (or the LFT is shorter than the DLID)
    PortOutOfRange, // LFT names a port beyond the switch's port count
    Unconnected,    // LFT names a port with no cable
    WrongEndPort,   // delivered to a CA/router port that does not own the DLID
    Port0NotOwner,  // LFT says port 0 at a switch that does not own the DLID
    Loop,           // the walk visits a switch twice
};
inline constexpr int kNumWalkOutcomes = 7;

// Stable identifiers (JSON keys) and human descriptions.
std::string_view outcome_key(WalkOutcome o);
std::string_view outcome_text(WalkOutcome o);

// One node of a walked path: the packet entered `node` on `in_port` (0 at the source) and left
// on `out_port` (0 when the walk ended at this node).
struct Hop {
    NodeId node = kNoNode;
    PortNum in_port = 0;
    PortNum out_port = 0;
};

struct Trace {
    WalkOutcome outcome = WalkOutcome::Reached;
    std::vector<Hop> hops;
};

// Walks from end port `src` (a CA/router port, or a switch's port 0) to `dlid`.
Trace trace_walk(const Fabric& f, const Routing& r, PortId src, Lid dlid);

// "CA 'h1' (GUID …):1 -> switch 'sw1' (GUID …):3>2 -> …": display names (fabric/
// display_name.hpp) with the in/out port numbers.
std::string format_trace(const Fabric& f, const Trace& t);

// Where a switch sends `dlid`, judged without walking further: the next node/port, or the
// outcome that ends the walk here. Shared by every walker so the rules live in one place.
struct Step {
    bool ends = false;
    WalkOutcome outcome = WalkOutcome::Reached; // when ends
    PortNum out_port = 0;
    NodeId next = kNoNode; // when !ends: the switch the packet enters next
    PortNum next_in = 0;
};

// The fabric and LFTs reduced to what a forwarding step reads, in flat arrays: the hot loops
// of every check take one step per (switch, DLID), so the step must not chase the Fabric's
// node records (strings and all) or the vector-of-vectors of the LFTs.
class ForwardingView {
  public:
    ForwardingView(const Fabric& f, const Routing& r);
    Step step(NodeId sw, Lid dlid, PortId owner) const {
        Step s;
        const PortNum port = dlid < lft_size_[sw] ? lft_[sw][dlid] : kNoPath;
        s.out_port = port;
        s.ends = true;
        if (port == kNoPath) {
            s.outcome = WalkOutcome::NoEntry;
        } else if (port == 0) {
            s.outcome =
                owner == first_port_[sw] ? WalkOutcome::Reached : WalkOutcome::Port0NotOwner;
        } else if (port > num_ports_[sw]) {
            s.outcome = WalkOutcome::PortOutOfRange;
        } else {
            const Peer& p = peer_[first_port_[sw] + port];
            if (p.kind == kUnconnected) {
                s.outcome = WalkOutcome::Unconnected;
            } else if (p.kind == kSwitch) {
                s.ends = false;
                s.next = p.node;
                s.next_in = p.port;
            } else {
                s.outcome = first_port_[p.node] + p.port == owner ? WalkOutcome::Reached
                                                                  : WalkOutcome::WrongEndPort;
            }
        }
        return s;
    }
    PortId port_id(NodeId n, PortNum p) const { return first_port_[n] + p; }

  private:
    enum : std::uint8_t { kUnconnected, kSwitch, kEnd };
    struct Peer {
        NodeId node = kNoNode;
        PortNum port = 0;
        std::uint8_t kind = kUnconnected;
    };
    std::vector<const PortNum*> lft_;
    std::vector<std::uint32_t> lft_size_;
    std::vector<PortId> first_port_;
    std::vector<PortNum> num_ports_;
    std::vector<Peer> peer_; // per port slot
};

// Memoized per-DLID outcome of every switch. Reuse one object across DLIDs: the marks are
// epoch-stamped, so starting a new DLID costs nothing.
class DlidForest {
  public:
    DlidForest(const Fabric& f, const Routing& r);
    void reset(Lid dlid);
    Lid dlid() const { return dlid_; }
    PortId owner() const { return owner_; }
    // Outcome of the walk that starts at switch `sw`; for Reached, `hops(sw)` is the number of
    // switch-to-switch links to the switch the destination hangs off (or is).
    WalkOutcome outcome(NodeId sw);
    std::uint16_t hops(NodeId sw) const { return hops_[sw]; }

  private:
    const Routing& r_;
    ForwardingView view_;
    Lid dlid_ = 0;
    PortId owner_ = kNoPort;
    std::uint32_t epoch_ = 0;
    std::vector<std::uint32_t> stamp_;
    std::vector<std::uint8_t> state_; // WalkOutcome, or kInProgress while on the stack
    std::vector<std::uint16_t> hops_;
    std::vector<NodeId> stack_;
};

} // namespace ibrt::check
