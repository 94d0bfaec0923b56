// HyperX / FlatFly and hypercubes (paper 003 §1.2, §1.3); see hyperx.hpp.
#include "generators/hyperx.hpp"

#include "generators/direct_common.hpp"
#include "generators/gen_builder.hpp"

namespace ibrt::gen {

Fabric hyperx(const HyperXParams& P) {
    const std::size_t n = P.k.size();
    require(n >= 1, "hyperx: at least one dimension is needed");
    std::vector<int> L = P.width.empty() ? std::vector<int>(n, 1) : P.width;
    require(L.size() == n, "hyperx: give one link width per dimension (" + std::to_string(n) + ")");
    int degree = P.cas_per_switch;
    std::vector<int> offset(n);
    for (std::size_t d = 0; d < n; ++d) {
        require(P.k[d] >= 2, "hyperx: every dimension needs at least 2 switches");
        require(L[d] >= 1, "hyperx: link widths must be at least 1");
        offset[d] = degree;
        degree += L[d] * (P.k[d] - 1);
    }
    require(P.cas_per_switch >= 0, "hyperx: the CA count per switch must not be negative");
    const int radix = P.radix ? P.radix : degree;
    require(radix >= degree, "hyperx: the switches need " + std::to_string(degree) +
                                 " ports, but the radix is " + std::to_string(radix));
    require(radix <= kMaxPorts,
            "hyperx: the switches need " + std::to_string(radix) + " ports, more than 254");
    const Grid g(P.k);

    GenBuilder b;
    const std::vector<NodeId> sw = grid_switches_with_cas(b, g, radix, P.cas_per_switch);
    for (std::uint64_t s = 0; s < g.size; ++s)
        for (std::size_t d = 0; d < n; ++d) {
            const int x = g.coord(s, d);
            for (int v = x + 1; v < P.k[d]; ++v) {
                const std::uint64_t t = s + (v - x) * g.weight[d];
                for (int j = 0; j < L[d]; ++j)
                    b.link(sw[s], offset[d] + (v - 1) * L[d] + j + 1, sw[t],
                           offset[d] + x * L[d] + j + 1);
            }
        }
    return std::move(b).build();
}

Fabric hypercube(int dimensions, int width, int cas_per_switch) {
    require(dimensions >= 1 && dimensions <= 20,
            "hypercube: the dimension must be in 1..20, got " + std::to_string(dimensions));
    HyperXParams p;
    p.k.assign(dimensions, 2);
    p.width.assign(dimensions, width);
    p.cas_per_switch = cas_per_switch;
    return hyperx(p);
}

} // namespace ibrt::gen
