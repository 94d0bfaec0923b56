// The LFT walk that fills the channel dependency graph; see credit_loops.hpp.
#include "check/credit_loops.hpp"

#include "check/endpoints.hpp"
#include "check/forwarding.hpp"
#include "fabric/display_name.hpp"

#include <algorithm>

namespace ibrt::check {

namespace {

constexpr std::uint8_t kDropVl = 15;

unsigned vls_in_use(const Fabric& f, const Routing& r) {
    unsigned max_vl = 0;
    for (NodeId n = 0; n < r.sl2vl.tables.size() && n < f.num_nodes(); ++n)
        for (const Sl2VlTable& t : r.sl2vl.tables[n])
            for (std::uint8_t vl : t)
                if (vl != kDropVl) max_vl = std::max<unsigned>(max_vl, vl);
    return max_vl + 1;
}

} // namespace

std::uint8_t sl2vl_at(const Fabric& f, const Routing& r, NodeId node, PortNum in, PortNum out,
                      std::uint8_t sl) {
    // A node without tables forwards on VL0, as a fabric without QoS does.
    const Sl2VlTable* t = r.sl2vl.find(node, f.node(node).num_ports, in, out);
    return t ? (*t)[sl & 15] : 0;
}

DeadlockReport check_credit_loops(const Fabric& f, const Routing& r,
                                  const std::function<void(double)>& progress) {
    DeadlockReport rep;
    const unsigned nv = vls_in_use(f, r);
    rep.vls = nv;
    const Endpoints ep = collect_endpoints(f, r.lids);
    const bool have_sl2vl = !r.sl2vl.empty();

    // VLs a packet can take out of each source switch, over its CA in-ports: mask by
    // (out port, SL). Without SL2VL it is VL0 and no table is needed.
    std::vector<std::size_t> mask_at(f.num_nodes(), 0);
    std::vector<std::uint16_t> masks;
    if (have_sl2vl) {
        for (NodeId s : ep.source_switches) {
            mask_at[s] = masks.size();
            masks.resize(masks.size() + std::size_t(f.node(s).num_ports + 1) * 16, 0);
        }
        for (std::uint32_t e = 0; e < ep.ports.size(); ++e) {
            const NodeId s = ep.switch_of[e];
            if (s == kNoNode) continue;
            const PortNum in = f.port(ep.ports[e]).peer_port;
            for (PortNum o = 0; o <= f.node(s).num_ports; ++o)
                for (std::uint8_t sl = 0; sl < 16; ++sl)
                    masks[mask_at[s] + o * 16u + sl] |=
                        static_cast<std::uint16_t>(1u << sl2vl_at(f, r, s, in, o, sl));
        }
    }

    graph::ChannelDependencies deps(f, nv);
    const ForwardingView view(f, r);
    std::vector<std::uint32_t> stamp(f.num_port_slots() * nv, 0);
    std::uint32_t epoch = 0;
    const Lid max_lid = r.lids.max_lid();
    for (std::uint32_t dl = 1; dl <= max_lid; ++dl) {
        const Lid d = static_cast<Lid>(dl);
        const PortId owner = r.lids.owner(d);
        if (owner == kNoPort) continue;
        if (progress && (dl & 1023) == 0) progress(double(dl) / max_lid);
        ++epoch;
        const std::uint32_t owner_ep = ep.index_of_port[owner];
        const NodeId owner_sw = owner_ep == Endpoints::kNone ? kNoNode : ep.switch_of[owner_ep];
        for (NodeId s : ep.source_switches) {
            if (ep.count_at[s] - (owner_sw == s ? 1u : 0u) == 0) continue;
            const std::uint8_t sl = r.path_sl(s, d) & 15;
            const Step first = view.step(s, d, owner);
            if (first.ends) continue; // delivered or dead at the first switch: no dependency
            const std::uint16_t mask =
                have_sl2vl ? masks[mask_at[s] + first.out_port * 16u + sl] : 1;
            for (unsigned v0 = 0; v0 < 16; ++v0) {
                if (!(mask >> v0 & 1)) continue;
                if (v0 == kDropVl) {
                    ++rep.vl15_drops;
                    continue;
                }
                NodeId y = first.next;
                PortNum in = first.next_in;
                unsigned v = v0;
                for (;;) {
                    const std::size_t key = std::size_t(view.port_id(y, in)) * nv + v;
                    if (stamp[key] == epoch) break;
                    stamp[key] = epoch;
                    const Step st = view.step(y, d, owner);
                    if (st.ends) break;
                    const unsigned vout = sl2vl_at(f, r, y, in, st.out_port, sl);
                    if (vout == kDropVl) {
                        ++rep.vl15_drops;
                        break;
                    }
                    deps.add(y, in, v, st.out_port, vout);
                    y = st.next;
                    in = st.next_in;
                    v = vout;
                }
            }
        }
    }

    graph::CreditLoops found = std::move(deps).find_loops();
    rep.channels = found.channels;
    rep.dependencies = found.dependencies;
    rep.loops = std::move(found.loops);
    if (progress) progress(1.0);
    return rep;
}

std::string format_link(const Fabric& f, PortId port) {
    const Port& p = f.port(port);
    std::string s = display_port(f, f.port_node(port), f.port_num(port));
    if (p.connected()) s += " -> " + display_port(f, p.peer_node, p.peer_port);
    return s;
}

std::string format_channel(const Fabric& f, const graph::Channel& c) {
    return format_link(f, c.port) + " VL" + std::to_string(c.vl);
}

} // namespace ibrt::check
