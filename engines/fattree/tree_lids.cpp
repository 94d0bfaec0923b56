// LID assignment of the fat-tree engines (paper 000 §4.1); see the header.
#include "engines/fattree/tree_lids.hpp"

#include "fabric/display_name.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ibrt::fattree {

bool lids_fit(std::size_t end_ports, std::size_t switches, int lmc) {
    // The aligned layout needs the whole block below the first CA even with fewer switches.
    const std::uint64_t below = std::max<std::uint64_t>(switches, (1u << lmc) - 1);
    return (std::uint64_t(end_ports) << lmc) + below <= kMaxUnicastLid;
}

int choose_lmc(std::size_t end_ports, std::size_t switches, std::uint64_t paths,
               std::optional<int> requested) {
    if (requested) {
        if (*requested < 0 || *requested > kMaxLmc)
            throw RoutingError(fmt::format("LMC {} is outside 0..7", *requested));
        if (!lids_fit(end_ports, switches, *requested))
            throw RoutingError(fmt::format(
                "LMC {} needs {} LIDs for {} end ports and {} switches, more than the {} "
                "unicast LIDs",
                *requested, (std::uint64_t(end_ports) << *requested) + switches, end_ports,
                switches, kMaxUnicastLid));
        return *requested;
    }
    int lmc = 0;
    while (lmc < kMaxLmc && (std::uint64_t(1) << lmc) < paths) ++lmc;
    while (lmc > 0 && !lids_fit(end_ports, switches, lmc)) --lmc;
    if (!lids_fit(end_ports, switches, lmc))
        throw RoutingError(fmt::format("{} end ports and {} switches need more than the {} "
                                       "unicast LIDs",
                                       end_ports, switches, kMaxUnicastLid));
    return lmc;
}

Lids assign_tree_lids(const Fabric& f, const FatTreeShape& t, int lmc, bool paper) {
    Lids lids(f);
    const std::uint32_t K = 1u << lmc;
    const auto m = static_cast<std::uint8_t>(lmc);
    const std::size_t ne = t.num_end_ports();
    std::size_t next_switch = 0;
    const auto sw = f.switches();
    if (paper) {
        for (std::size_t i = 0; i < ne; ++i)
            lids.assign(t.end_ports[i], static_cast<Lid>(K * i + 1), m);
        Lid next = static_cast<Lid>(K * ne + 1);
        for (; next_switch < sw.size(); ++next_switch)
            lids.assign(f.port_id(sw[next_switch], 0), next++, 0);
        return lids;
    }
    for (Lid l = 1; l < K && next_switch < sw.size(); ++l, ++next_switch)
        lids.assign(f.port_id(sw[next_switch], 0), l, 0);
    for (std::size_t i = 0; i < ne; ++i)
        lids.assign(t.end_ports[i], static_cast<Lid>(K * (i + 1)), m);
    Lid next = static_cast<Lid>(K * (ne + 1));
    for (; next_switch < sw.size(); ++next_switch)
        lids.assign(f.port_id(sw[next_switch], 0), next++, 0);
    return lids;
}

int check_preassigned(const Fabric& f, const FatTreeShape& t, const Lids& pre) {
    int lmc = 0;
    for (PortId p : t.end_ports) {
        if (!pre.has_lid(p))
            throw RoutingError(fmt::format("{} port {} has no LID among the preassigned LIDs",
                                           display_name(f, f.port_node(p)), f.port_num(p)));
        lmc = std::max(lmc, int(pre.lmc(p)));
    }
    return lmc;
}

} // namespace ibrt::fattree
