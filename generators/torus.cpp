// Tori and meshes (paper 003 §1.1); see torus.hpp.
#include "generators/torus.hpp"

#include "generators/direct_common.hpp"
#include "generators/gen_builder.hpp"

namespace ibrt::gen {

Fabric torus(const TorusParams& P) {
    const std::size_t n = P.k.size();
    const char* what = P.wrap ? "torus" : "mesh";
    require(n >= 1, std::string(what) + ": at least one dimension is needed");
    std::vector<int> L = P.width.empty() ? std::vector<int>(n, 1) : P.width;
    require(L.size() == n,
            std::string(what) + ": give one link width per dimension (" + std::to_string(n) + ")");
    require(P.cas_per_switch >= 0, std::string(what) + ": the CA count must not be negative");
    int degree = P.cas_per_switch;
    std::vector<int> offset(n);
    for (std::size_t d = 0; d < n; ++d) {
        require(P.k[d] >= 1, std::string(what) + ": dimension sizes must be at least 1");
        require(L[d] >= 1, std::string(what) + ": link widths must be at least 1");
        offset[d] = degree;
        degree += 2 * L[d];
    }
    const int radix = P.radix ? P.radix : degree;
    require(radix >= degree, std::string(what) + ": the switches need " + std::to_string(degree) +
                                 " ports, but the radix is " + std::to_string(radix));
    require(radix <= kMaxPorts, std::string(what) + ": more than 254 ports per switch");
    const Grid g(P.k);

    GenBuilder b;
    const std::vector<NodeId> sw = grid_switches_with_cas(b, g, radix, P.cas_per_switch);
    for (std::uint64_t s = 0; s < g.size; ++s)
        for (std::size_t d = 0; d < n; ++d) {
            const int x = g.coord(s, d), k = P.k[d];
            std::uint64_t t;
            if (x + 1 < k)
                t = s + g.weight[d];
            else if (P.wrap && k > 2)
                t = s - std::uint64_t(k - 1) * g.weight[d];
            else
                continue;
            for (int j = 0; j < L[d]; ++j)
                b.link(sw[s], offset[d] + j + 1, sw[t], offset[d] + L[d] + j + 1);
        }
    return std::move(b).build();
}

} // namespace ibrt::gen
