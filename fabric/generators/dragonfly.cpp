// Dragonfly groups and global cabling (paper 003 §1.4); see dragonfly.hpp.
#include "fabric/generators/dragonfly.hpp"

#include "fabric/generators/gen_builder.hpp"

#include <vector>

namespace ibrt::gen {

Fabric dragonfly(const DragonflyParams& P) {
    require(P.a >= 1 && P.h >= 1 && P.p >= 0,
            "dragonfly: a and h must be at least 1 and p not negative");
    const int max_groups = P.a * P.h + 1;
    const int g = P.groups ? P.groups : max_groups;
    require(g >= 1 && g <= max_groups, "dragonfly: the group count must be in 1.." +
                                           std::to_string(max_groups) + " (a*h+1), got " +
                                           std::to_string(g));
    const int degree = P.p + P.a - 1 + P.h;
    const int radix = P.radix ? P.radix : degree;
    require(radix >= degree, "dragonfly: the switches need " + std::to_string(degree) +
                                 " ports, but the radix is " + std::to_string(radix));
    require(radix <= kMaxPorts, "dragonfly: more than 254 ports per switch");
    require(std::uint64_t(g) * P.a * (1 + P.p) <= (1u << 22), "dragonfly: too large to generate");

    GenBuilder b;
    std::vector<NodeId> sw(std::size_t(g) * P.a);
    for (int grp = 0; grp < g; ++grp)
        for (int r = 0; r < P.a; ++r)
            sw[std::size_t(grp) * P.a + r] =
                b.add_switch("sw-g" + std::to_string(grp) + "-" + std::to_string(r), radix);
    for (int grp = 0; grp < g; ++grp)
        for (int r = 0; r < P.a; ++r)
            for (int c = 0; c < P.p; ++c) {
                const NodeId ca = b.add_ca("host-g" + std::to_string(grp) + "-" +
                                           std::to_string(r) + "-" + std::to_string(c));
                b.link(sw[std::size_t(grp) * P.a + r], c + 1, ca, 1);
            }
    const int local = P.p + 1, global = P.p + P.a;
    for (int grp = 0; grp < g; ++grp) {
        for (int r = 0; r < P.a; ++r)
            for (int r2 = r + 1; r2 < P.a; ++r2)
                b.link(sw[std::size_t(grp) * P.a + r], local + r2 - 1,
                       sw[std::size_t(grp) * P.a + r2], local + r);
        // Global ports to the groups above this one; the lower groups cabled theirs already.
        for (int t = grp; t < g - 1; ++t) {
            const int target = t + 1;
            const int back = grp; // grp < target
            b.link(sw[std::size_t(grp) * P.a + t / P.h], global + t % P.h,
                   sw[std::size_t(target) * P.a + back / P.h], global + back % P.h);
        }
    }
    return std::move(b).build();
}

} // namespace ibrt::gen
