// Dragonfly+ groups (leaf/spine, complete bipartite) and global cabling between spines;
// see dragonfly_plus.hpp.
#include "generators/dragonfly_plus.hpp"

#include "generators/gen_builder.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace ibrt::gen {

Fabric dragonfly_plus(const DragonflyPlusParams& P) {
    require(P.leaves >= 1 && P.spines >= 1 && P.h >= 1 && P.p >= 0 && P.links_per_pair >= 1,
            "dragonfly-plus: leaves, spines, h and links per pair must be at least 1 and p "
            "not negative");
    const int m = P.links_per_pair;
    // Ports first, in 64 bits: they bound every product below.
    const std::int64_t degree =
        std::max(std::int64_t(P.p) + P.spines, std::int64_t(P.leaves) + P.h);
    const std::int64_t radix = P.radix ? P.radix : degree;
    require(radix >= degree, "dragonfly-plus: the switches need " + std::to_string(degree) +
                                 " ports, but the radix is " + std::to_string(radix));
    require(radix <= kMaxPorts, "dragonfly-plus: more than 254 ports per switch");
    const int max_groups = P.spines * P.h / m + 1;
    const int g = P.groups ? P.groups : max_groups;
    require(g >= 2 && g <= max_groups,
            "dragonfly-plus: the group count must be in 2.." + std::to_string(max_groups) +
                " (spines*h/links_per_pair + 1), got " + std::to_string(g));
    require(std::uint64_t(g) * (P.leaves * (1 + P.p) + P.spines) <= (1u << 22),
            "dragonfly-plus: too large to generate");

    GenBuilder b;
    const std::size_t L = std::size_t(P.leaves), S = std::size_t(P.spines);
    std::vector<NodeId> leaf(std::size_t(g) * L), spine(std::size_t(g) * S);
    for (int grp = 0; grp < g; ++grp) {
        const std::string tag = "-g" + std::to_string(grp) + "-";
        for (std::size_t l = 0; l < L; ++l)
            leaf[grp * L + l] = b.add_switch("leaf" + tag + std::to_string(l), int(radix));
        for (std::size_t s = 0; s < S; ++s)
            spine[grp * S + s] = b.add_switch("spine" + tag + std::to_string(s), int(radix));
    }
    for (int grp = 0; grp < g; ++grp)
        for (std::size_t l = 0; l < L; ++l)
            for (int c = 0; c < P.p; ++c) {
                const NodeId ca = b.add_ca("host-g" + std::to_string(grp) + "-" +
                                           std::to_string(l) + "-" + std::to_string(c));
                b.link(leaf[grp * L + l], c + 1, ca, 1);
            }
    for (int grp = 0; grp < g; ++grp)
        for (std::size_t l = 0; l < L; ++l)
            for (std::size_t s = 0; s < S; ++s)
                b.link(leaf[grp * L + l], P.p + 1 + int(s), spine[grp * S + s], 1 + int(l));
    const std::vector<int> port = global_ports(g, P.arrangement, P.seed);
    const auto at = [&](int x, int y) { return port[std::size_t(x) * g + y]; };
    const int first_global = P.leaves + 1;
    for (int x = 0; x < g; ++x)
        for (int y = x + 1; y < g; ++y)
            for (int j = 0; j < m; ++j) {
                const int t = at(x, y) + j * (g - 1), u = at(y, x) + j * (g - 1);
                b.link(spine[std::size_t(x) * S + std::size_t(t / P.h)], first_global + t % P.h,
                       spine[std::size_t(y) * S + std::size_t(u / P.h)], first_global + u % P.h);
            }
    return std::move(b).build();
}

} // namespace ibrt::gen
