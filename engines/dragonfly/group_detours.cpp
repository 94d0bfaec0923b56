// See group_detours.hpp.
#include "engines/dragonfly/group_detours.hpp"

#include "engines/engine.hpp"
#include "mapping/switch_links.hpp"

#include <fmt/format.h>

namespace ibrt::dragonfly {

GroupDetours plan_group_detours(std::size_t groups, const std::vector<std::uint32_t>& gate,
                                const std::vector<std::uint32_t>& peer) {
    using mapping::kNone;
    GroupDetours d;
    d.groups = groups;
    d.via.assign(groups * groups, groups);
    d.sl.assign(groups * groups, 0);
    const auto joined = [&](std::size_t a, std::size_t b) { return gate[a * groups + b] != kNone; };
    struct Detour {
        std::size_t g, h, i;
    };
    std::vector<Detour> detours;
    for (std::size_t a = 0; a < groups; ++a)
        for (std::size_t h = 0; h < groups; ++h) {
            if (a == h) continue;
            if (joined(a, h)) {
                d.via[a * groups + h] = a;
                continue;
            }
            // Prefer intermediates that need no local hop; spread the choice over h.
            std::vector<std::size_t> direct, hop;
            for (std::size_t i = 0; i < groups; ++i)
                if (i != a && i != h && joined(a, i) && joined(i, h))
                    (peer[a * groups + i] == gate[i * groups + h] ? direct : hop).push_back(i);
            const std::vector<std::size_t>& cand = direct.empty() ? hop : direct;
            if (cand.empty())
                throw RoutingError(fmt::format("dragonfly: groups {} and {} are not joined, and "
                                               "no group is joined to both",
                                               a, h));
            const std::size_t i = cand[(a + h) % cand.size()];
            d.via[a * groups + h] = i;
            detours.push_back({a, h, i});
            d.local_hop += direct.empty();
        }
    d.indirect = detours.size();
    if (d.local_hop == 0) return d;
    d.vls = 3;
    // Greedy SLs: x's second global hop, i -> h, is the first global hop of a detour from i
    // through h; either of two detours can be the other's.
    for (std::size_t k = 0; k < detours.size(); ++k) {
        const Detour& x = detours[k];
        std::uint16_t used = 1; // SL 0 is the direct paths'
        for (std::size_t j = 0; j < k; ++j) {
            const Detour& y = detours[j];
            if ((y.g == x.i && y.i == x.h) || (x.g == y.i && x.i == y.h))
                used |= std::uint16_t(1u << d.sl[y.g * groups + y.h]);
        }
        std::uint8_t s = 1;
        while (s < 16 && (used >> s & 1u)) ++s;
        if (s == 16)
            throw RoutingError(fmt::format(
                "dragonfly: the detours around the missing global links need more than 15 SLs "
                "(groups {} to {} through {})",
                x.g, x.h, x.i));
        d.sl[x.g * groups + x.h] = s;
    }
    return d;
}

} // namespace ibrt::dragonfly
