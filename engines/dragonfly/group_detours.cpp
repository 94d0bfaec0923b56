// See group_detours.hpp.
#include "engines/dragonfly/group_detours.hpp"

#include "engines/engine.hpp"
#include "mapping/switch_links.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

namespace ibrt::dragonfly {

GroupDetours plan_group_detours(std::size_t groups, const std::vector<std::uint32_t>& gate,
                                const std::vector<std::uint32_t>& peer,
                                const std::function<bool(std::uint32_t, std::uint32_t)>& linked,
                                bool hop_on_layers) {
    using mapping::kNone;
    GroupDetours d;
    d.groups = groups;
    d.via.assign(groups * groups, groups);
    d.sl.assign(groups * groups, 0);
    const auto joined = [&](std::size_t a, std::size_t b) { return gate[a * groups + b] != kNone; };
    struct Detour {
        std::size_t g, h, i;
    };
    std::vector<Detour> detours;  // through one intermediate, on the SLs below
    std::vector<std::size_t> far; // pairs h * groups + a with no common neighbour
    for (std::size_t a = 0; a < groups; ++a)
        for (std::size_t h = 0; h < groups; ++h) {
            if (a == h) continue;
            if (joined(a, h)) {
                d.via[a * groups + h] = a;
                continue;
            }
            // Prefer intermediates that need no local hop, then one, then a local detour;
            // spread the choice over h.
            std::vector<std::size_t> direct, hop, detour;
            for (std::size_t i = 0; i < groups; ++i)
                if (i != a && i != h && joined(a, i) && joined(i, h)) {
                    const std::uint32_t arriving = peer[a * groups + i], w = gate[i * groups + h];
                    (arriving == w ? direct : linked(arriving, w) ? hop : detour).push_back(i);
                }
            if (hop_on_layers) { // a single local hop goes on the layers too
                detour.insert(detour.begin(), hop.begin(), hop.end());
                hop.clear();
            }
            const std::vector<std::size_t>& cand = !direct.empty() ? direct
                                                   : !hop.empty()  ? hop
                                                                   : detour;
            if (cand.empty()) {
                far.push_back(h * groups + a);
                continue;
            }
            const std::size_t i = cand[(a + h) % cand.size()];
            d.via[a * groups + h] = i;
            ++d.indirect;
            if (&cand == &detour) {
                ++d.local_detour; // its paths go on layers: no SL here
                continue;
            }
            detours.push_back({a, h, i});
            d.local_hop += &cand == &hop;
        }
    // Far pairs: a neighbour one step closer to h, by breadth-first search over the groups
    // from each h that has them.
    d.far = far.size();
    std::sort(far.begin(), far.end());
    std::vector<std::size_t> dist(groups), queue(groups), cand;
    for (std::size_t k = 0; k < far.size();) {
        const std::size_t h = far[k] / groups;
        dist.assign(groups, SIZE_MAX);
        std::size_t head = 0, tail = 0;
        dist[h] = 0;
        queue[tail++] = h;
        while (head < tail) {
            const std::size_t v = queue[head++];
            for (std::size_t u = 0; u < groups; ++u)
                if (dist[u] == SIZE_MAX && joined(v, u)) {
                    dist[u] = dist[v] + 1;
                    queue[tail++] = u;
                }
        }
        for (; k < far.size() && far[k] / groups == h; ++k) {
            const std::size_t a = far[k] % groups;
            if (dist[a] == SIZE_MAX)
                throw RoutingError(fmt::format("dragonfly: group {} cannot reach group {}: the "
                                               "fabric is in separate parts",
                                               a, h));
            cand.clear();
            for (std::size_t i = 0; i < groups; ++i)
                if (joined(a, i) && dist[i] + 1 == dist[a]) cand.push_back(i);
            d.via[a * groups + h] = cand[(a + h) % cand.size()];
        }
    }
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
