// Dragonfly groups and global cabling (paper 003 §1.4); see dragonfly.hpp.
#include "generators/dragonfly.hpp"

#include "generators/gen_builder.hpp"

#include <cstdint>
#include <random>
#include <vector>

namespace ibrt::gen {

std::vector<int> global_ports(int g, GlobalArrangement arrangement, std::uint64_t seed) {
    std::vector<int> port(std::size_t(g) * g, -1);
    const auto at = [&](int x, int y) -> int& { return port[std::size_t(x) * g + y]; };
    switch (arrangement) {
    case GlobalArrangement::Absolute:
        for (int x = 0; x < g; ++x)
            for (int y = 0; y < g; ++y)
                if (x != y) at(x, y) = y < x ? y : y - 1;
        break;
    case GlobalArrangement::Relative:
        for (int x = 0; x < g; ++x)
            for (int t = 0; t < g - 1; ++t) at(x, (x + t + 1) % g) = t;
        break;
    case GlobalArrangement::Circulant:
        for (int x = 0; x < g; ++x)
            for (int k = 1; 2 * k <= g - 1; ++k) {
                at(x, (x + k) % g) = 2 * k - 2;
                at(x, (x - k + g) % g) = 2 * k - 1;
            }
        if (g % 2 == 0)
            for (int x = 0; x < g; ++x) at(x, (x + g / 2) % g) = g - 2;
        break;
    case GlobalArrangement::Random: {
        std::mt19937_64 rng(seed);
        std::vector<std::vector<int>> spare(static_cast<std::size_t>(g));
        for (auto& f : spare) {
            for (int t = 0; t < g - 1; ++t) f.push_back(t);
            for (std::size_t i = f.size(); i > 1; --i) // Fisher-Yates, portable across libraries
                std::swap(f[i - 1], f[std::size_t(rng() % i)]);
        }
        for (int x = 0; x < g; ++x)
            for (int y = x + 1; y < g; ++y) {
                at(x, y) = spare[std::size_t(x)].back();
                spare[std::size_t(x)].pop_back();
                at(y, x) = spare[std::size_t(y)].back();
                spare[std::size_t(y)].pop_back();
            }
        break;
    }
    }
    return port;
}

Fabric dragonfly(const DragonflyParams& P) {
    require(P.a >= 1 && P.h >= 1 && P.p >= 0,
            "dragonfly: a and h must be at least 1 and p not negative");
    require(P.links_per_pair >= 1, "dragonfly: links per pair must be at least 1");
    const int m = P.links_per_pair;
    // Ports first, in 64 bits: they bound every product below.
    const std::int64_t degree = std::int64_t(P.p) + P.a - 1 + P.h;
    require(degree <= kMaxPorts, "dragonfly: more than 254 ports per switch");
    const int max_groups = P.a * P.h / m + 1;
    const int g = P.groups ? P.groups : max_groups;
    require(g >= 1 && g <= max_groups,
            "dragonfly: the group count must be in 1.." + std::to_string(max_groups) +
                (m == 1 ? std::string(" (a*h+1)") : std::string(" (a*h/links_per_pair+1)")) +
                ", got " + std::to_string(g));
    const int radix = P.radix ? P.radix : int(degree);
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
    const std::vector<int> port = global_ports(g, P.arrangement, P.seed);
    const auto at = [&](int x, int y) { return port[std::size_t(x) * g + y]; };
    for (int x = 0; x < g; ++x) {
        for (int r = 0; r < P.a; ++r)
            for (int r2 = r + 1; r2 < P.a; ++r2)
                b.link(sw[std::size_t(x) * P.a + r], local + r2 - 1, sw[std::size_t(x) * P.a + r2],
                       local + r);
        // Global ports to the groups above this one; the lower groups cabled theirs already.
        for (int y = x + 1; y < g; ++y)
            for (int j = 0; j < m; ++j) {
                const int t = at(x, y) + j * (g - 1), u = at(y, x) + j * (g - 1);
                b.link(sw[std::size_t(x) * P.a + t / P.h], global + t % P.h,
                       sw[std::size_t(y) * P.a + u / P.h], global + u % P.h);
            }
    }
    return std::move(b).build();
}

} // namespace ibrt::gen
