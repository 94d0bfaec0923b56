// All-to-all static link load; see the header.
#include "engines/fattree/link_load.hpp"

#include <algorithm>
#include <limits>

namespace ibrt::fattree {

LinkLoad all_to_all_load(const Fabric& f, const Routing& r) {
    LinkLoad ld;
    ld.flows.assign(f.num_port_slots(), 0);
    const std::size_t n = f.cas().size();
    std::vector<PortId> port(n);
    for (std::size_t i = 0; i < n; ++i) {
        const NodeId c = f.cas()[i];
        port[i] = f.port_id(c, 1);
        for (PortNum p = 1; p <= f.node(c).num_ports; ++p)
            if (f.port(c, p).connected()) {
                port[i] = f.port_id(c, p);
                break;
            }
    }
    // Bundles of flows per (entry switch, DLID offset) for one destination: LFTs ignore the
    // in port, so the sources behind one switch share their route.
    std::vector<std::uint64_t> bundle;
    std::vector<NodeId> entry_switches;
    std::vector<std::uint32_t> entry_index(f.num_nodes(), 0xffffffffu);
    std::vector<std::uint32_t> entry_of(n, 0xffffffffu);
    for (std::size_t i = 0; i < n; ++i) {
        const Port& p = f.port(port[i]);
        if (!p.connected()) continue;
        if (entry_index[p.peer_node] == 0xffffffffu) {
            entry_index[p.peer_node] = static_cast<std::uint32_t>(entry_switches.size());
            entry_switches.push_back(p.peer_node);
        }
        entry_of[i] = entry_index[p.peer_node];
    }
    for (std::size_t b = 0; b < n; ++b) {
        const Lid base = r.lids.base(port[b]);
        const std::uint32_t K = 1u << r.lids.lmc(port[b]);
        bundle.assign(entry_switches.size() * K, 0);
        for (std::size_t a = 0; a < n; ++a) {
            if (a == b || entry_of[a] == 0xffffffffu) continue;
            const Lid dlid = r.dlid_choice.empty() ? base : r.dlid_choice[a * n + b];
            const std::uint32_t off = std::uint32_t(dlid) - base;
            const std::uint32_t o = dlid >= base && off < K ? off : 0;
            ++bundle[std::size_t(entry_of[a]) * K + o];
        }
        for (std::size_t e = 0; e < entry_switches.size(); ++e)
            for (std::uint32_t o = 0; o < K; ++o) {
                const std::uint64_t count = bundle[e * K + o];
                if (count == 0) continue;
                const Lid dlid = static_cast<Lid>(base + o);
                NodeId s = entry_switches[e];
                bool arrived = false;
                for (int guard = 0; guard < 64 && f.node(s).is_switch(); ++guard) {
                    const PortNum out = r.out_port(s, dlid);
                    if (out == kNoPath || out == 0 || out > f.node(s).num_ports) break;
                    const Port& link = f.port(s, out);
                    if (!link.connected()) break;
                    ld.flows[f.port_id(s, out)] += count;
                    if (!f.node(link.peer_node).is_switch()) {
                        arrived = f.port_id(link.peer_node, link.peer_port) == port[b];
                        break;
                    }
                    s = link.peer_node;
                }
                if (!arrived) ld.unrouted += count;
            }
    }
    ld.min = std::numeric_limits<std::uint64_t>::max();
    double sum = 0;
    for (NodeId s : f.switches())
        for (PortNum p = 1; p <= f.node(s).num_ports; ++p) {
            const Port& link = f.port(s, p);
            if (!link.connected() || !f.node(link.peer_node).is_switch()) continue;
            const std::uint64_t v = ld.flows[f.port_id(s, p)];
            ld.max = std::max(ld.max, v);
            ld.min = std::min(ld.min, v);
            sum += double(v);
            ++ld.links;
        }
    if (ld.links == 0) ld.min = 0;
    ld.mean = ld.links ? sum / double(ld.links) : 0;
    return ld;
}

} // namespace ibrt::fattree
