// LIDs for the direct-topology engines; see direct_lids.hpp.
#include "engines/direct/direct_lids.hpp"

#include "fabric/display_name.hpp"
#include "fabric/end_ports.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ibrt::direct {

Lids direct_lids(const Fabric& f, const Lids* preassigned, const EngineOptions& opt,
                 std::string_view engine, std::uint8_t& lmc) {
    if (preassigned) {
        int most = 0;
        for (PortId p : all_end_ports(f)) {
            if (!preassigned->has_lid(p))
                throw RoutingError(fmt::format("{}: {} has no preassigned LID", engine,
                                               display_port(f, f.port_node(p), f.port_num(p))));
            most = std::max<int>(most, preassigned->lmc(p));
        }
        for (NodeId s : f.switches())
            if (!preassigned->has_lid(f.port_id(s, 0)))
                throw RoutingError(
                    fmt::format("{}: {} has no preassigned LID", engine, display_name(f, s)));
        lmc = static_cast<std::uint8_t>(most);
        return *preassigned;
    }
    const int want = opt.lmc ? *opt.lmc : 0;
    if (want < 0 || want > kMaxLmc)
        throw RoutingError(fmt::format("{}: LMC {} is outside 0..{}", engine, want, kMaxLmc));
    const std::vector<PortId> ends = all_end_ports(f);
    const std::uint32_t block = 1u << want;
    // Switches take 1..S; end-port blocks start at the next multiple of the block (aligned).
    const std::uint64_t first = (f.switches().size() + block) / block * block;
    if (first + std::uint64_t(ends.size()) * block - 1 > kMaxUnicastLid)
        throw RoutingError(fmt::format("{}: {} end ports at LMC {} and {} switches need more "
                                       "than the {} unicast LIDs",
                                       engine, ends.size(), want, f.switches().size(),
                                       kMaxUnicastLid));
    Lids lids(f);
    Lid next = 1;
    for (NodeId s : f.switches()) lids.assign(f.port_id(s, 0), next++, 0);
    std::uint64_t base = first;
    for (PortId p : ends) {
        lids.assign(p, static_cast<Lid>(base), static_cast<std::uint8_t>(want));
        base += block;
    }
    lmc = static_cast<std::uint8_t>(want);
    return lids;
}

} // namespace ibrt::direct
