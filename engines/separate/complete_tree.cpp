// Up*/Down*-legal completion of a configuration's forwarding (see complete_tree.hpp).
#include "engines/separate/complete_tree.hpp"

#include <algorithm>

namespace ibrt::separate {

std::vector<PortId> fixed_entries(const Fabric& f, const lidassign::DestPaths& d,
                                  const std::vector<std::uint32_t>& config, std::uint32_t j) {
    std::vector<PortId> fixed(f.num_nodes(), kNoPort);
    for (std::size_t i = 0; i < d.size(); ++i)
        if (config[i] == j)
            for (PortId e : d.path(i))
                if (f.node(f.port_node(e)).is_switch()) fixed[f.port_node(e)] = e;
    return fixed;
}

InEdges::InEdges(const Fabric& f, const graph::UpDown& ud) {
    off.assign(f.num_nodes() + 1, 0);
    for (NodeId v = 0; v < f.num_nodes(); ++v) {
        off[v] = static_cast<std::uint32_t>(edges.size());
        if (!f.node(v).is_switch()) continue;
        for (PortNum p = 1; p <= f.node(v).num_ports; ++p) {
            const Port& port = f.port(v, p);
            if (!port.connected()) continue;
            const NodeId u = port.peer_node;
            if (!f.node(u).is_switch()) continue;
            const PortId e = f.port_id(u, port.peer_port);
            edges.push_back({u, e, ud.up(f, e)});
        }
    }
    off[f.num_nodes()] = static_cast<std::uint32_t>(edges.size());
}

CompletedTree complete_tree(const Fabric& f, const graph::UpDown& ud, PortId target,
                            const std::vector<PortId>& fixed) {
    return complete_tree(f, ud, InEdges(f, ud), target, fixed);
}

// The searches below are Dijkstra's with unit edges from sources at any distance, so a queue of
// buckets by hops replaces the heap: a switch's result is the least (hops, edge) over the
// switches settled before it, whatever the order within a bucket (a relaxation from the same
// bucket never improves it), hence the same trees as a heap.
CompletedTree complete_tree(const Fabric& f, const graph::UpDown& ud, const InEdges& in,
                            PortId target, const std::vector<PortId>& fixed) {
    const std::size_t n = f.num_nodes();
    CompletedTree t;
    t.out.assign(n, kNoPort);
    t.hops.assign(n, graph::kFar);
    enum : std::uint8_t { kNone, kD, kU };
    std::vector<std::uint8_t> cls(n, kNone);
    const NodeId tnode = f.port_node(target);
    NodeId entry = kNoNode; // the switch next to the target
    PortId entry_out = kNoPort;
    if (f.node(tnode).is_switch()) {
        entry = tnode;
        entry_out = target; // port 0
    } else {
        const Port& p = f.port(target);
        if (!p.connected() || !f.node(p.peer_node).is_switch()) return t;
        entry = p.peer_node;
        entry_out = f.port_id(entry, p.peer_port);
    }
    t.out[entry] = entry_out;
    t.hops[entry] = 0;
    cls[entry] = kD;
    // Fixed switches: hops and class by following their walk (memoised).
    std::vector<NodeId> stack;
    for (NodeId s : f.switches()) {
        if (fixed[s] == kNoPort || cls[s] != kNone) continue;
        NodeId x = s;
        stack.clear();
        while (x != kNoNode && cls[x] == kNone && fixed[x] != kNoPort) {
            stack.push_back(x);
            cls[x] = 0xff; // on stack
            const NodeId nx = f.port(fixed[x]).peer_node;
            x = f.node(nx).is_switch() ? nx : kNoNode;
        }
        const bool ok = x != kNoNode && cls[x] != kNone && cls[x] != 0xff;
        for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
            const NodeId y = *it;
            const NodeId nx = f.port(fixed[y]).peer_node;
            t.out[y] = fixed[y];
            if (!ok) { // a fixed walk that does not reach the target: leave it to the fill
                cls[y] = kNone;
                t.out[y] = kNoPort;
                continue;
            }
            t.hops[y] = t.hops[nx] + 1;
            cls[y] = ud.up(f, fixed[y]) ? kU : kD;
        }
    }
    // Buckets by hops: bucket[h] holds the switches queued at h (duplicates allowed, stale
    // ones skipped as a heap would skip them).
    std::vector<std::vector<NodeId>> bucket;
    std::size_t queued = 0;
    auto push = [&](std::uint32_t h, NodeId v) {
        if (bucket.size() <= h) bucket.resize(h + 1);
        bucket[h].push_back(v);
        ++queued;
    };
    std::vector<std::uint8_t> done(n, 0);
    // Pops every queued switch in order of hops; settle(h, v) for each first, current one.
    auto drain = [&](auto&& settle) {
        std::fill(done.begin(), done.end(), 0);
        for (std::uint32_t h = 0; queued > 0; ++h) {
            if (h >= bucket.size()) break;
            // settle() only appends to later buckets (unit edges), so bucket h is fixed here.
            for (std::size_t i = 0; i < bucket[h].size(); ++i) {
                const NodeId v = bucket[h][i];
                --queued;
                if (done[v] || h != t.hops[v]) continue;
                done[v] = 1;
                settle(h, v);
            }
            bucket[h].clear();
        }
    };
    // Relax free predecessors u of v over edges u -> v that satisfy `want_up`.
    auto relax_into = [&](NodeId v, bool want_up) {
        const std::uint32_t h = t.hops[v] + 1;
        for (std::uint32_t k = in.off[v]; k < in.off[v + 1]; ++k) {
            const InEdges::Edge& x = in.edges[k];
            if (x.up != want_up || cls[x.from] != kNone) continue;
            const NodeId u = x.from;
            if (h < t.hops[u] || (h == t.hops[u] && x.out < t.out[u])) {
                t.hops[u] = h;
                t.out[u] = x.out;
                push(h, u);
            }
        }
    };
    auto run = [&](bool want_up, std::uint8_t label, auto&& admissible) {
        for (NodeId s : f.switches())
            if (admissible(s)) push(t.hops[s], s);
        drain([&](std::uint32_t, NodeId v) {
            if (cls[v] == kNone) cls[v] = label;
            if (admissible(v)) relax_into(v, want_up);
        });
    };
    // Tentative hops of free switches must not leak between phases.
    auto reset_free = [&] {
        for (NodeId s : f.switches())
            if (cls[s] == kNone) {
                t.hops[s] = graph::kFar;
                t.out[s] = kNoPort;
            }
    };
    run(false, kD, [&](NodeId s) { return cls[s] == kD; });
    reset_free();
    run(true, kU, [&](NodeId s) { return cls[s] == kD || cls[s] == kU; });
    reset_free();
    // Forced: any edge into a labelled switch.
    bool any = false;
    for (NodeId s : f.switches()) any |= cls[s] == kNone && ud.level[s] >= 0;
    if (any) {
        for (NodeId s : f.switches())
            if (cls[s] != kNone) push(t.hops[s], s);
        drain([&](std::uint32_t h, NodeId v) {
            if (cls[v] == kNone) {
                cls[v] = kU;
                ++t.forced;
            }
            for (std::uint32_t k = in.off[v]; k < in.off[v + 1]; ++k) {
                const InEdges::Edge& x = in.edges[k];
                const NodeId u = x.from;
                if (cls[u] != kNone) continue;
                if (h + 1 < t.hops[u] || (h + 1 == t.hops[u] && x.out < t.out[u])) {
                    t.hops[u] = h + 1;
                    t.out[u] = x.out;
                    push(h + 1, u);
                }
            }
        });
    }
    return t;
}

void TreeCache::new_destination() {
    if (entries_.size() > 256) {
        entries_.clear();
        entry_ = kNoNode;
    }
}

const CompletedTree* TreeCache::get(PortId target, std::vector<PortId>& fixed) {
    const Port& p = f_.port(target);
    const NodeId tnode = f_.port_node(target);
    if (f_.node(tnode).is_switch() || !p.connected() || !f_.node(p.peer_node).is_switch()) {
        entries_.push_back({{}, complete_tree(f_, ud_, in_, target, fixed)});
        ++misses;
        return &entries_.back().tree;
    }
    const NodeId entry = p.peer_node;
    const PortId entry_out = f_.port_id(entry, p.peer_port);
    fixed[entry] = kNoPort;
    if (entry != entry_) {
        entries_.clear();
        entry_ = entry;
    }
    for (Entry& x : entries_)
        if (x.fixed == fixed) {
            ++hits;
            x.tree.out[entry] = entry_out;
            return &x.tree;
        }
    ++misses;
    entries_.push_back({fixed, complete_tree(f_, ud_, in_, target, fixed)});
    return &entries_.back().tree;
}

} // namespace ibrt::separate
