// Test helper: follows LFTs hop by hop, independently of the engines, so that tests check
// routes by walking them (the way a packet would) rather than by re-deriving the algorithm.
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/routing.hpp"

#include <string>
#include <vector>

namespace ibrt::test {

struct Hop {
    NodeId node;
    PortNum in, out;
};

struct Walk {
    std::vector<Hop> hops;
    bool reached = false; // arrived at the end port that owns the DLID
};

// From the switch at `start` (entered on port `in`) toward `dlid`.
inline Walk walk_from(const Fabric& f, const Routing& r, NodeId start, PortNum in, Lid dlid) {
    Walk w;
    const PortId owner = r.lids.owner(dlid);
    NodeId n = start;
    for (int guard = 0; guard < 64; ++guard) {
        if (!f.node(n).is_switch()) {
            w.reached = owner != kNoPort && f.port_id(n, in) == owner;
            return w;
        }
        const PortNum out = r.out_port(n, dlid);
        w.hops.push_back({n, in, out});
        if (out == 0) {
            w.reached = f.port_id(n, 0) == owner;
            return w;
        }
        if (out == kNoPath || out > f.node(n).num_ports || !f.port(n, out).connected()) return w;
        const Port& p = f.port(n, out);
        in = p.peer_port;
        n = p.peer_node;
    }
    return w;
}

// From end port `src` (a CA port) toward `dlid`.
inline Walk walk(const Fabric& f, const Routing& r, PortId src, Lid dlid) {
    const Port& p = f.port(src);
    return walk_from(f, r, p.peer_node, p.peer_port, dlid);
}

// Every LID that has an owner, from every switch that holds CAs (sources on one leaf share
// their routes). Returns the number of failed walks; `first_failure` describes one.
inline std::size_t unreachable_from_leaves(const Fabric& f, const Routing& r,
                                           std::string* first_failure = nullptr,
                                           std::size_t* walks = nullptr) {
    std::size_t bad = 0, count = 0;
    for (NodeId s : f.switches()) {
        PortNum ca_port = 0;
        for (PortNum p = 1; p <= f.node(s).num_ports && ca_port == 0; ++p)
            if (f.port(s, p).connected() && !f.node(f.port(s, p).peer_node).is_switch())
                ca_port = p;
        if (ca_port == 0) continue;
        for (Lid l = 1; l <= r.lids.max_lid(); ++l) {
            if (r.lids.owner(l) == kNoPort) continue;
            ++count;
            if (!walk_from(f, r, s, ca_port, l).reached) {
                if (bad++ == 0 && first_failure)
                    *first_failure = f.node(s).desc + " -> LID " + std::to_string(l);
            }
        }
    }
    if (walks) *walks = count;
    return bad;
}

inline NodeId node_by_desc(const Fabric& f, const std::string& desc) {
    for (NodeId n = 0; n < f.num_nodes(); ++n)
        if (f.node(n).desc == desc) return n;
    return kNoNode;
}

} // namespace ibrt::test
