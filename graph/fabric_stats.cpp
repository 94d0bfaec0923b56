// compute_fabric_stats: one pass over the flat port arrays plus the two graph walks of
// graph/fabric_walks.hpp. Histograms are small dense arrays (port counts < 256, LMC <= 7, widths <=
// 12, 10 speeds) so the pass allocates nothing per node.
#include "graph/fabric_stats.hpp"

#include "fabric/end_ports.hpp"
#include "graph/fabric_walks.hpp"

#include <algorithm>
#include <array>
#include <functional>

namespace ibrt {

std::string FabricStats::LinkKind::name() const {
    std::string s = width == 0 ? std::string("?") : std::to_string(width);
    s += 'x';
    s += to_string(speed);
    return s;
}

namespace {

std::vector<FabricStats::Count> nonzero(std::span<const std::size_t> histogram) {
    std::vector<FabricStats::Count> out;
    for (std::size_t v = 0; v < histogram.size(); ++v)
        if (histogram[v] != 0) out.push_back({static_cast<unsigned>(v), histogram[v]});
    return out;
}

} // namespace

FabricStats compute_fabric_stats(const Fabric& f) {
    FabricStats s;
    std::array<std::size_t, 256> radix{}, used{};
    std::array<std::size_t, kMaxLmc + 1> lmc{};
    constexpr std::size_t kSpeeds = static_cast<std::size_t>(LinkSpeed::XDR) + 1;
    std::array<std::array<std::size_t, kSpeeds>, 256> kinds{}; // [width][speed]

    auto count_end_port = [&](const Port& port) {
        ++s.end_ports;
        if (port.base_lid == 0) return;
        ++s.end_ports_with_lid;
        const unsigned m = std::min<unsigned>(port.lmc, kMaxLmc);
        ++lmc[m];
        const unsigned top = std::min(unsigned(port.base_lid) + (1u << m) - 1, 0xffffu);
        s.max_lid = static_cast<Lid>(std::max<unsigned>(s.max_lid, top));
    };

    for (NodeId n = 0; n < f.num_nodes(); ++n) {
        const Node& node = f.node(n);
        const bool sw = node.is_switch();
        if (sw)
            ++s.switches;
        else if (node.type == NodeType::Router)
            ++s.routers;
        else
            ++s.cas;

        unsigned cabled = 0;
        for (unsigned p = 1; p <= node.num_ports; ++p) {
            const Port& port = f.port(n, static_cast<PortNum>(p));
            if (!port.connected()) continue;
            ++cabled;
            // Count each cable once, from its lower (node, port) end.
            const bool first_end =
                n < port.peer_node || (n == port.peer_node && p < port.peer_port);
            if (!first_end) continue;
            const bool peer_sw = f.node(port.peer_node).is_switch();
            if (sw && peer_sw)
                ++s.switch_links;
            else if (sw || peer_sw)
                ++s.end_links;
            else
                ++s.end_to_end_links;
            ++kinds[port.width][static_cast<std::size_t>(port.speed)];
        }
        if (sw) {
            ++radix[node.num_ports];
            ++used[cabled];
        } else if (cabled == 0) {
            ++s.unconnected_end_nodes;
        }

        // End ports: port 0 of a switch, the end ports of a CA/router (fabric/end_ports.hpp).
        if (sw)
            count_end_port(f.port(n, 0));
        else
            for (const PortId e : end_ports(f, n)) count_end_port(f.port(e));
    }
    s.links = s.switch_links + s.end_links + s.end_to_end_links;
    s.radix = nonzero(radix);
    s.used_ports = nonzero(used);
    s.lmc = nonzero(lmc);
    for (std::size_t w = 0; w < kinds.size(); ++w)
        for (std::size_t sp = 0; sp < kSpeeds; ++sp)
            if (kinds[w][sp] != 0)
                s.link_kinds.push_back(
                    {static_cast<std::uint8_t>(w), static_cast<LinkSpeed>(sp), kinds[w][sp]});

    const Components comp = connected_components(f);
    s.component_sizes.assign(comp.count, 0);
    for (std::uint32_t c : comp.of_node) ++s.component_sizes[c];
    std::sort(s.component_sizes.begin(), s.component_sizes.end(), std::greater<>());

    const std::vector<std::uint32_t> level = levels_from_cas(f);
    for (NodeId n : f.switches()) {
        if (level[n] == graph::kFar) {
            ++s.unreached_switches;
            continue;
        }
        const auto l = static_cast<std::size_t>(level[n]);
        if (s.switches_by_level.size() <= l) s.switches_by_level.resize(l + 1, 0);
        ++s.switches_by_level[l];
    }
    return s;
}

} // namespace ibrt
