// Valiant and UGAL-L on a Dragonfly (sim/via_routing.hpp): the groups from the mapping of the
// cabling (paper 003 §2.2, mapping/map_fabric.hpp).
#include "sim/via_routing.hpp"

#include "mapping/map_fabric.hpp"

#include <array>
#include <stdexcept>
#include <string>

namespace ibrt::sim {

namespace {
constexpr std::array<std::pair<Via, std::string_view>, 3> kNames{{
    {Via::None, "none"},
    {Via::Valiant, "valiant"},
    {Via::Ugal, "ugal"},
}};
} // namespace

std::string_view to_string(Via v) {
    for (const auto& [via, name] : kNames)
        if (via == v) return name;
    return "?";
}

std::optional<Via> parse_via(std::string_view name) {
    for (const auto& [via, n] : kNames)
        if (n == name) return via;
    return std::nullopt;
}

ViaRouting::ViaRouting(const Fabric& f, const Routing& r, Via mode, std::uint8_t num_vls,
                       std::uint64_t seed, std::vector<NodeId> ca_switch, std::vector<Lid> ca_lid)
    : f_(f), r_(r), mode_(mode), vls_(num_vls > kViaVls ? kViaVls + 1 : kViaVls),
      ca_switch_(std::move(ca_switch)), ca_lid_(std::move(ca_lid)),
      rng_(seed ^ 0x7669612076696121ull) { // "via via!"
    const mapping::Shape s = mapping::map_fabric(f);
    if (s.family != mapping::Family::Dragonfly && s.family != mapping::Family::DragonflyPlus)
        throw std::invalid_argument(
            "--via " + std::string(to_string(mode)) +
            " routes through Dragonfly groups, and this fabric does not map as a Dragonfly (" +
            mapping::why_not_wanted(s) + ")");
    group_.assign(f.num_nodes(), 0);
    const auto sw = f.switches();
    for (std::size_t i = 0; i < sw.size(); ++i) group_[sw[i]] = std::uint32_t(s.group[i]);
}

bool ViaRouting::leaves_group(NodeId sw, PortNum port) const {
    const NodeId n = f_.port(sw, port).peer_node;
    return n != kNoNode && f_.node(n).is_switch() && group_[n] != group_[sw];
}

} // namespace ibrt::sim
