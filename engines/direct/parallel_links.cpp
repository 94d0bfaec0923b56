// Adaptive choice among parallel cables (engines/direct/parallel_links.hpp; paper 003 §3.2).
#include "engines/direct/parallel_links.hpp"

#include <vector>

namespace ibrt::direct {

std::shared_ptr<const RoutingFunction> parallel_link_sets(const Fabric& f, const Routing& r) {
    auto rf = std::make_shared<RoutingFunction>(f, r.lids.max_lid(), 1, false);
    std::vector<Candidate> cands;
    for (NodeId sw : f.switches()) {
        const PortNum np = f.node(sw).num_ports;
        // Per output port: the set of it and its parallel cables, made once.
        std::vector<std::uint32_t> set_of(std::size_t(np) + 1, RoutingFunction::kNoSet);
        for (Lid d = 1; d <= r.lids.max_lid(); ++d) {
            const PortNum p = r.out_port(sw, d);
            if (p == kNoPath || p > np) continue;
            std::uint32_t& id = set_of[p];
            if (id == RoutingFunction::kNoSet) {
                cands.assign(1, Candidate{p, 0});
                const Port& out = f.port(sw, p);
                if (p != 0 && out.connected() && f.node(out.peer_node).is_switch())
                    for (PortNum q = 1; q <= np; ++q)
                        if (q != p && f.port(sw, q).connected() &&
                            f.port(sw, q).peer_node == out.peer_node)
                            cands.push_back({q, 0});
                id = rf->intern(cands);
            }
            rf->set_entry(sw, 0, 0, d, id);
        }
    }
    rf->compact();
    return rf;
}

} // namespace ibrt::direct
