// Forwarding walks over the LFTs (IBA vol. 1, 18.2.4.3.1); see forwarding.hpp.
#include "check/forwarding.hpp"

#include "fabric/display_name.hpp"

#include <algorithm>

namespace ibrt::check {

namespace {
constexpr std::uint8_t kInProgress = 0xff;
} // namespace

std::string_view outcome_key(WalkOutcome o) {
    switch (o) {
    case WalkOutcome::Reached:
        return "reached";
    case WalkOutcome::NoEntry:
        return "no_entry";
    case WalkOutcome::PortOutOfRange:
        return "port_out_of_range";
    case WalkOutcome::Unconnected:
        return "unconnected_port";
    case WalkOutcome::WrongEndPort:
        return "wrong_end_port";
    case WalkOutcome::Port0NotOwner:
        return "port0_not_owner";
    case WalkOutcome::Loop:
        return "loop";
    }
    return "?";
}

std::string_view outcome_text(WalkOutcome o) {
    switch (o) {
    case WalkOutcome::Reached:
        return "reached";
    case WalkOutcome::NoEntry:
        return "dead end: no LFT entry";
    case WalkOutcome::PortOutOfRange:
        return "dead end: LFT port beyond the switch's port count";
    case WalkOutcome::Unconnected:
        return "dead end: LFT port has no cable";
    case WalkOutcome::WrongEndPort:
        return "dead end: delivered to an end port that does not own "
               "the LID";
    case WalkOutcome::Port0NotOwner:
        return "dead end: LFT port 0 at a switch that does not own the LID";
    case WalkOutcome::Loop:
        return "loop";
    }
    return "?";
}

ForwardingView::ForwardingView(const Fabric& f, const Routing& r)
    : lft_(f.num_nodes(), nullptr), lft_size_(f.num_nodes(), 0), first_port_(f.num_nodes()),
      num_ports_(f.num_nodes()), peer_(f.num_port_slots()) {
    for (NodeId n = 0; n < f.num_nodes(); ++n) {
        const Node& node = f.node(n);
        first_port_[n] = node.first_port;
        num_ports_[n] = node.num_ports;
        if (node.is_switch() && n < r.lft.size()) {
            lft_[n] = r.lft[n].data();
            lft_size_[n] = static_cast<std::uint32_t>(r.lft[n].size());
        }
        for (PortNum p = 0; p <= node.num_ports; ++p) {
            const Port& port = f.port(n, p);
            if (!port.connected()) continue;
            peer_[node.first_port + p] = {port.peer_node, port.peer_port,
                                          f.node(port.peer_node).is_switch() ? kSwitch : kEnd};
        }
    }
}

Trace trace_walk(const Fabric& f, const Routing& r, PortId src, Lid dlid) {
    Trace t;
    const PortId owner = r.lids.owner(dlid);
    NodeId n = f.port_node(src);
    PortNum in = 0;
    if (!f.node(n).is_switch()) {
        const PortNum pn = f.port_num(src);
        t.hops.push_back({n, 0, pn});
        const Port& p = f.port(src);
        if (!p.connected()) {
            t.outcome = WalkOutcome::Unconnected;
            return t;
        }
        if (!f.node(p.peer_node).is_switch()) { // CA cabled straight to a CA
            t.hops.push_back({p.peer_node, p.peer_port, 0});
            t.outcome = f.port_id(p.peer_node, p.peer_port) == owner ? WalkOutcome::Reached
                                                                     : WalkOutcome::WrongEndPort;
            return t;
        }
        n = p.peer_node;
        in = p.peer_port;
    }
    const ForwardingView view(f, r);
    std::vector<char> seen(f.num_nodes(), 0);
    for (;;) {
        if (seen[n]) {
            t.hops.push_back({n, in, 0});
            t.outcome = WalkOutcome::Loop;
            return t;
        }
        seen[n] = 1;
        const Step s = view.step(n, dlid, owner);
        t.hops.push_back({n, in, s.out_port});
        if (s.ends) {
            t.outcome = s.outcome;
            if (s.out_port != 0 && s.out_port <= f.node(n).num_ports &&
                f.port(n, s.out_port).connected()) {
                const Port& p = f.port(n, s.out_port);
                t.hops.push_back({p.peer_node, p.peer_port, 0});
            }
            return t;
        }
        n = s.next;
        in = s.next_in;
    }
}

std::string format_trace(const Fabric& f, const Trace& t) {
    std::string out;
    for (std::size_t i = 0; i < t.hops.size(); ++i) {
        const Hop& h = t.hops[i];
        if (i) out += " -> ";
        out += display_name(f, h.node);
        const bool first = i == 0, last = i + 1 == t.hops.size();
        if (first && !f.node(h.node).is_switch()) {
            out += ':' + std::to_string(h.out_port);
        } else if (last && (!f.node(h.node).is_switch() || t.outcome == WalkOutcome::Loop)) {
            out += ':' + std::to_string(h.in_port);
        } else {
            out += ':' + std::to_string(h.in_port) + '>' +
                   (h.out_port == kNoPath ? std::string("none") : std::to_string(h.out_port));
        }
    }
    return out;
}

DlidForest::DlidForest(const Fabric& f, const Routing& r)
    : r_(r), view_(f, r), stamp_(f.num_nodes(), 0), state_(f.num_nodes(), 0),
      hops_(f.num_nodes(), 0) {}

void DlidForest::reset(Lid dlid) {
    if (++epoch_ == 0) { // wrapped: old stamps could alias the new epoch
        std::fill(stamp_.begin(), stamp_.end(), 0);
        epoch_ = 1;
    }
    dlid_ = dlid;
    owner_ = r_.lids.owner(dlid);
}

WalkOutcome DlidForest::outcome(NodeId sw) {
    if (stamp_[sw] == epoch_ && state_[sw] != kInProgress)
        return static_cast<WalkOutcome>(state_[sw]);
    stack_.clear();
    NodeId n = sw;
    WalkOutcome result;
    std::uint16_t h = 0; // hops of the node on top of the stack
    for (;;) {
        if (stamp_[n] == epoch_) {
            if (state_[n] == kInProgress) {
                result = WalkOutcome::Loop;
            } else {
                result = static_cast<WalkOutcome>(state_[n]);
                h = static_cast<std::uint16_t>(hops_[n] + 1);
            }
            break;
        }
        stamp_[n] = epoch_;
        state_[n] = kInProgress;
        stack_.push_back(n);
        const Step s = view_.step(n, dlid_, owner_);
        if (s.ends) {
            result = s.outcome;
            break;
        }
        n = s.next;
    }
    for (std::size_t i = stack_.size(); i-- > 0;) {
        state_[stack_[i]] = static_cast<std::uint8_t>(result);
        hops_[stack_[i]] = h++;
    }
    return result;
}

} // namespace ibrt::check
