// The forwarding-sets check (check/forwarding_sets.hpp).
#include "check/forwarding_sets.hpp"

#include "check/endpoints.hpp"
#include "fabric/display_name.hpp"
#include "fabric/routing_function.hpp"
#include "graph/channel_dependency.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ibrt::check {
namespace {

constexpr unsigned kDropVl = 15;

// The VLs (1 + highest) any table can give: VL2VL entries and the CAs' first VLs, else SL2VL.
unsigned vls_of(const Routing& r, const RoutingFunction& rf) {
    unsigned top = 0;
    const auto scan = [&](const Sl2Vl& t) {
        for (const auto& node : t.tables)
            for (const Sl2VlTable& x : node)
                for (std::uint8_t v : x)
                    if (v != kDropVl) top = std::max<unsigned>(top, v);
    };
    scan(rf.vl2vl);
    scan(r.sl2vl);
    if (rf.vl2vl.empty() && r.sl2vl.empty()) top = std::max<unsigned>(top, r.path_sls.max_sl());
    return top + 1;
}

} // namespace

ForwardingSetsReport check_forwarding_sets(const Fabric& f, const Routing& r,
                                           std::size_t max_examples,
                                           const std::function<void(double)>& progress) {
    ForwardingSetsReport rep;
    if (!r.forwarding_sets) return rep;
    const RoutingFunction& rf = *r.forwarding_sets;
    const unsigned nv = vls_of(r, rf);
    rep.vls = nv;
    const Endpoints ep = collect_endpoints(f, r.lids);
    graph::ChannelDependencies deps(f, nv);
    const auto example = [&](std::string s) {
        if (rep.examples.size() < max_examples) rep.examples.push_back(std::move(s));
    };
    // The VL out of `node` from `in` to `out` for a packet on VL `v` with SL `sl`.
    const auto vl_out = [&](NodeId node, PortNum in, PortNum out, unsigned v, unsigned sl) {
        const PortNum np = f.node(node).num_ports;
        if (!rf.vl2vl.empty() && rf.vl2vl.find(node, np, in, out))
            return unsigned(
                rf.vl2vl.vl(node, np, in, out, std::uint8_t(rf.vl_by_in_vl ? v : sl), nv));
        return unsigned(r.sl2vl.vl(node, np, in, out, std::uint8_t(sl), nv));
    };
    // State key: (port slot of the input port, VL); per state the DLID epoch it was seen in,
    // its DFS colour (1 on the stack, 2 done) and its depth (switch hops to the destination).
    const std::size_t S = f.num_port_slots() * nv;
    std::vector<std::uint32_t> seen(S, 0);
    std::vector<std::uint8_t> colour(S, 0);
    std::vector<std::uint16_t> depth(S, 0);
    std::uint32_t epoch = 0;
    struct Frame {
        NodeId sw;
        PortNum in;
        unsigned v;
        std::uint32_t next; // next candidate to follow
    };
    std::vector<Frame> stack;
    unsigned top_used = 0; // the highest VL a reached state is on
    const Lid max_lid = r.lids.max_lid();
    for (std::uint32_t dl = 1; dl <= max_lid; ++dl) {
        const Lid d = Lid(dl);
        const PortId owner = r.lids.owner(d);
        if (owner == kNoPort || ep.index_of_port[owner] == Endpoints::kNone) continue;
        if (progress && (dl & 255) == 0) progress(double(dl) / max_lid);
        const NodeId dest_node = f.port_node(owner);
        ++rep.destinations;
        ++epoch;
        bool livelock = false;
        for (std::uint32_t e = 0; e < ep.ports.size(); ++e) {
            const PortId src = ep.ports[e];
            const NodeId s = ep.switch_of[e];
            if (s == kNoNode || f.port_node(src) == dest_node) continue;
            const unsigned sl =
                !rf.source_sls.empty() ? rf.source_sls.sl(src, d) : r.path_sl(src, d);
            const PortNum in = f.port(src).peer_port;
            const unsigned v0 = vl_out(f.port_node(src), 0, f.port_num(src), sl, sl);
            if (v0 >= nv) {
                ++rep.stuck;
                example(fmt::format("{} to DLID {}: SL {} maps to VL {} at the source",
                                    display_name(f, f.port_node(src)), d, sl, v0));
                continue;
            }
            const std::size_t k0 = std::size_t(f.port_id(s, in)) * nv + v0;
            if (seen[k0] == epoch) continue;
            // Iterative DFS over the states this destination's packets can reach.
            const auto enter = [&](NodeId sw, PortNum pin, unsigned v) {
                top_used = std::max(top_used, v);
                const std::size_t k = std::size_t(f.port_id(sw, pin)) * nv + v;
                seen[k] = epoch;
                colour[k] = 1;
                depth[k] = 0;
                ++rep.states;
                stack.push_back({sw, pin, v, 0});
            };
            enter(s, in, v0);
            while (!stack.empty()) {
                Frame& fr = stack.back();
                const std::size_t k = std::size_t(f.port_id(fr.sw, fr.in)) * nv + fr.v;
                const std::uint32_t set = rf.lookup(fr.sw, fr.v, fr.in, d);
                const auto cands =
                    set == RoutingFunction::kNoSet ? std::span<const Candidate>{} : rf.set(set);
                if (fr.next == 0) {
                    bool usable = false;
                    for (const Candidate& c : cands)
                        if (c.port >= 1 && c.port <= f.node(fr.sw).num_ports &&
                            f.port(fr.sw, c.port).connected() &&
                            vl_out(fr.sw, fr.in, c.port, fr.v, sl) < nv)
                            usable = true;
                    if (!usable) {
                        ++rep.stuck;
                        example(fmt::format("{} port {} VL {} to DLID {}: no usable candidate",
                                            display_name(f, fr.sw), fr.in, fr.v, d));
                    }
                }
                if (fr.next >= cands.size()) {
                    colour[k] = 2;
                    const unsigned dk = depth[k];
                    stack.pop_back();
                    if (!stack.empty()) {
                        const Frame& up = stack.back();
                        auto& du = depth[std::size_t(f.port_id(up.sw, up.in)) * nv + up.v];
                        du = std::uint16_t(std::max<unsigned>(du, dk + 1));
                    }
                    continue;
                }
                const Candidate c = cands[fr.next++];
                if (c.port < 1 || c.port > f.node(fr.sw).num_ports) continue;
                const Port& out = f.port(fr.sw, c.port);
                if (!out.connected()) continue;
                const unsigned vo = vl_out(fr.sw, fr.in, c.port, fr.v, sl);
                if (vo >= nv) continue;
                if (!f.node(out.peer_node).is_switch()) {
                    if (out.peer_node != dest_node) {
                        ++rep.misrouted;
                        example(fmt::format("{} port {} delivers DLID {} to {}",
                                            display_name(f, fr.sw), c.port, d,
                                            display_name(f, out.peer_node)));
                    }
                    continue;
                }
                deps.add(fr.sw, fr.in, fr.v, c.port, vo);
                const std::size_t kn =
                    std::size_t(f.port_id(out.peer_node, out.peer_port)) * nv + vo;
                if (seen[kn] == epoch) {
                    if (colour[kn] == 1) {
                        if (!livelock)
                            example(fmt::format("DLID {}: packets can circle through {} port {} VL "
                                                "{} (livelock)",
                                                d, display_name(f, out.peer_node), out.peer_port,
                                                vo));
                        livelock = true;
                    } else {
                        depth[k] = std::uint16_t(std::max<unsigned>(depth[k], depth[kn] + 1u));
                    }
                    continue;
                }
                enter(out.peer_node, out.peer_port, vo);
            }
            rep.max_hops = std::max<unsigned>(rep.max_hops, depth[k0]);
        }
        rep.livelocks += livelock;
    }
    graph::CreditLoops loops = std::move(deps).find_loops();
    rep.vls = rep.states ? top_used + 1 : 1;
    rep.deadlock.vls = rep.vls;
    rep.deadlock.channels = loops.channels;
    rep.deadlock.dependencies = loops.dependencies;
    rep.deadlock.loops = std::move(loops.loops);
    return rep;
}

} // namespace ibrt::check
