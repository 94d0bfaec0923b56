// Reachability and minimality sweep; see reachability.hpp.
#include "check/reachability.hpp"

#include "check/endpoints.hpp"
#include "graph/switch_distance.hpp"

#include <algorithm>

namespace ibrt::check {

namespace {

// An endpoint behind switch `s` other than `owner`, to trace an example from.
PortId example_source(const Endpoints& ep, NodeId s, PortId owner) {
    for (std::uint32_t i = ep.first_at[s]; i < ep.ports.size(); ++i)
        if (ep.switch_of[i] == s && ep.ports[i] != owner) return ep.ports[i];
    return kNoPort;
}

NodeId destination_switch(const Fabric& f, PortId owner) {
    const NodeId n = f.port_node(owner);
    if (f.node(n).is_switch()) return n;
    const Port& p = f.port(owner);
    if (p.connected() && f.node(p.peer_node).is_switch()) return p.peer_node;
    return kNoNode;
}

} // namespace

ForwardingReport check_forwarding(const Fabric& f, const Routing& r, const ForwardingOptions& opt) {
    ForwardingReport rep;
    const Endpoints ep = collect_endpoints(f, r.lids);

    struct Dst {
        NodeId dsw;
        Lid lid;
    };
    std::vector<Dst> dsts;
    for (std::uint32_t lid = 1; lid <= r.lids.max_lid(); ++lid) {
        const PortId owner = r.lids.owner(static_cast<Lid>(lid));
        if (owner != kNoPort) dsts.push_back({destination_switch(f, owner), static_cast<Lid>(lid)});
    }
    // Grouped by destination switch so that each BFS runs once.
    std::stable_sort(dsts.begin(), dsts.end(),
                     [](const Dst& a, const Dst& b) { return a.dsw < b.dsw; });

    DlidForest forest(f, r);
    std::vector<std::uint32_t> dist;
    std::vector<NodeId> queue;
    NodeId dist_of = kNoNode;
    auto& reach = rep.reach;
    auto& minimal = rep.minimal;

    for (std::size_t i = 0; i < dsts.size(); ++i) {
        if (opt.progress && (i & 1023) == 0) opt.progress(double(i) / double(dsts.size()));
        const Dst& d = dsts[i];
        ++reach.dlids;
        if (d.dsw != kNoNode && d.dsw != dist_of) {
            graph::switch_distances(f, d.dsw, dist, queue);
            dist_of = d.dsw;
        }
        forest.reset(d.lid);
        const PortId owner = forest.owner();
        const std::uint32_t owner_ep = ep.index_of_port[owner];
        const NodeId owner_sw = owner_ep == Endpoints::kNone ? kNoNode : ep.switch_of[owner_ep];
        bool failed = false;

        for (NodeId s : ep.source_switches) {
            const std::uint64_t n = ep.count_at[s] - (owner_sw == s ? 1u : 0u);
            if (n == 0) continue;
            const WalkOutcome o = forest.outcome(s);
            reach.pairs += n;
            reach.by_outcome[static_cast<int>(o)] += n;
            if (o != WalkOutcome::Reached) {
                failed = true;
                if (reach.examples.size() < opt.max_examples) {
                    const PortId src = example_source(ep, s, owner);
                    reach.examples.push_back({src, d.lid, trace_walk(f, r, src, d.lid), 0, 0});
                }
                continue;
            }
            if (d.dsw == kNoNode || dist[s] == graph::kFar) continue;
            minimal.pairs += n;
            const std::uint16_t h = forest.hops(s);
            if (h <= dist[s]) continue;
            minimal.non_minimal += n;
            minimal.max_extra_hops = std::max<std::uint64_t>(minimal.max_extra_hops, h - dist[s]);
            if (minimal.examples.size() < opt.max_examples) {
                const PortId src = example_source(ep, s, owner);
                minimal.examples.push_back({src, d.lid, trace_walk(f, r, src, d.lid), h,
                                            static_cast<std::uint16_t>(dist[s])});
            }
        }
        // CAs cabled straight to another CA: no switch to share a walk with.
        if (ep.has_direct_ca_links) {
            for (std::uint32_t e = 0; e < ep.ports.size(); ++e) {
                if (ep.switch_of[e] != kNoNode || ep.ports[e] == owner) continue;
                Trace t = trace_walk(f, r, ep.ports[e], d.lid);
                ++reach.pairs;
                ++reach.by_outcome[static_cast<int>(t.outcome)];
                if (t.outcome != WalkOutcome::Reached) {
                    failed = true;
                    if (reach.examples.size() < opt.max_examples)
                        reach.examples.push_back({ep.ports[e], d.lid, std::move(t), 0, 0});
                }
            }
        }
        if (failed) ++reach.dlids_with_failures;
    }
    auto by_lid = [](const PathExample& a, const PathExample& b) {
        return a.dlid != b.dlid ? a.dlid < b.dlid : a.src < b.src;
    };
    std::sort(reach.examples.begin(), reach.examples.end(), by_lid);
    std::sort(minimal.examples.begin(), minimal.examples.end(), by_lid);
    if (opt.progress) opt.progress(1.0);
    return rep;
}

} // namespace ibrt::check
