// Host order of the traffic patterns; see host_order.hpp.
#include "sim/host_order.hpp"

#include "fabric/end_ports.hpp"
#include "fabric/permutations.hpp"

#include <algorithm>
#include <numeric>

namespace ibrt::sim {
namespace {

struct Named {
    HostOrder o;
    std::string_view name;
};
constexpr Named kOrders[] = {
    {HostOrder::Natural, "natural"},
    {HostOrder::PortMajor, "port-major"},
    {HostOrder::Random, "random"},
};

} // namespace

std::optional<HostOrder> parse_host_order(std::string_view s) {
    for (const auto& n : kOrders)
        if (n.name == s) return n.o;
    return std::nullopt;
}

std::string_view to_string(HostOrder o) {
    for (const auto& n : kOrders)
        if (n.o == o) return n.name;
    return "?";
}

std::string host_order_names() {
    std::string s;
    for (const auto& n : kOrders) {
        if (!s.empty()) s += ", ";
        s += n.name;
    }
    return s;
}

std::vector<std::uint32_t> host_order(const Fabric& f, const std::vector<PortId>& ends, HostOrder o,
                                      std::uint64_t seed) {
    const auto n = std::uint32_t(ends.size());
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    switch (o) {
    case HostOrder::Natural:
        break;
    case HostOrder::Random:
        // Its own stream of the seed, apart from the randperm pattern's (same function).
        order = random_permutation(n, seed ^ 0x686f73742d6f7264ull); // "host-ord"
        break;
    case HostOrder::PortMajor: {
        // Each end port's switch (its peer; one cabled to no switch counts as a switch of its
        // own, its node), ranked by first appearance in `ends`.
        std::vector<std::uint32_t> rank_of(f.num_nodes(), ~0u), slot(n);
        std::vector<std::uint32_t> fill; // end ports seen so far per switch rank
        std::vector<std::uint32_t> sw(n);
        for (std::uint32_t i = 0; i < n; ++i) {
            const PortId p = ends[i];
            NodeId s = f.port_node(p);
            if (f.port(p).connected() && f.node(f.port(p).peer_node).is_switch())
                s = f.port(p).peer_node;
            if (rank_of[s] == ~0u) {
                rank_of[s] = std::uint32_t(fill.size());
                fill.push_back(0);
            }
            sw[i] = rank_of[s];
            slot[i] = fill[sw[i]]++;
        }
        // Sorted by (slot, switch rank); each pair names one end port.
        std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
            return slot[a] != slot[b] ? slot[a] < slot[b] : sw[a] < sw[b];
        });
        break;
    }
    }
    return order;
}

} // namespace ibrt::sim
