// Grid coordinates for HyperX and tori; see direct_common.hpp.
#include "generators/direct_common.hpp"

#include "generators/gen_builder.hpp"

namespace ibrt::gen {

Grid::Grid(std::vector<int> sizes) : k(std::move(sizes)), weight(k.size()) {
    for (std::size_t d = k.size(); d-- > 0;) {
        weight[d] = size;
        size *= static_cast<std::uint64_t>(k[d]);
        require(size <= (1u << 22), "the grid is too large to generate");
    }
}

std::string Grid::coords(std::uint64_t index) const {
    std::vector<int> c(k.size());
    for (std::size_t d = 0; d < k.size(); ++d) c[d] = coord(index, d);
    // Always dotted: "sw-1.0.3" reads better than "sw-103" and never collides.
    return join_digits(c, false);
}

std::vector<NodeId> grid_switches_with_cas(GenBuilder& b, const Grid& g, int radix,
                                           int cas_per_switch) {
    std::vector<NodeId> sw(g.size);
    for (std::uint64_t s = 0; s < g.size; ++s) sw[s] = b.add_switch("sw-" + g.coords(s), radix);
    for (std::uint64_t s = 0; s < g.size; ++s)
        for (int c = 0; c < cas_per_switch; ++c)
            b.link(sw[s], c + 1, b.add_ca("host-" + g.coords(s) + "-" + std::to_string(c)), 1);
    return sw;
}

} // namespace ibrt::gen
