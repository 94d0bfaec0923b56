// MLID path selection by rank (paper 000 §4.2); see the header.
#include "engines/mlid/path_selection_by_rank.hpp"

#include <algorithm>

namespace ibrt::mlid {

std::vector<Lid> select_paths_by_rank(const Fabric& f, const fattree::FatTreeShape& t,
                                      const Lids& lids) {
    const int H = t.height;
    const std::size_t ne = t.num_end_ports();
    // rank[i * (H + 1) + L] = R(i, L); arithmetic wraps mod 2^64, which keeps R mod 2^LMC.
    std::vector<std::uint64_t> rank(ne * (H + 1), 0);
    for (std::size_t i = 0; i < ne; ++i) {
        std::uint64_t r = 0, w = 1;
        for (int L = 1; L <= H; ++L) {
            rank[i * (H + 1) + L] = r;
            const std::uint64_t U = std::max<std::uint32_t>(1, t.up_radix[L]);
            r += (t.digits[i * H + L - 1] % U) * w;
            w *= U;
        }
    }
    const std::size_t n = f.cas().size();
    std::vector<Lid> base(n), mask(n);
    std::vector<std::uint32_t> leaf(n);
    for (std::size_t b = 0; b < n; ++b) {
        const std::uint32_t e = t.end_of_ca[b];
        base[b] = lids.base(t.end_ports[e]);
        mask[b] = static_cast<Lid>((1u << lids.lmc(t.end_ports[e])) - 1);
        leaf[b] = t.end_leaf[e];
    }
    std::vector<Lid> choice(n * n);
    std::vector<std::uint8_t> lca(t.leaves.size());
    std::uint32_t row_leaf = fattree::FatTreeShape::kNotLeaf;
    std::vector<Lid> off_at(H + 1);
    for (std::size_t a = 0; a < n; ++a) {
        const std::uint32_t s = t.end_of_ca[a];
        if (leaf[a] != row_leaf) {
            row_leaf = leaf[a];
            for (std::uint32_t l = 0; l < t.leaves.size(); ++l)
                lca[l] = static_cast<std::uint8_t>(t.lca_level(row_leaf, l));
        }
        // Only the low 7 bits of the rank matter (LMC <= 7).
        for (int L = 1; L <= H; ++L) off_at[L] = static_cast<Lid>(rank[s * (H + 1) + L] & 0x7f);
        Lid* row = choice.data() + a * n;
        for (std::size_t b = 0; b < n; ++b) row[b] = base[b] + (off_at[lca[leaf[b]]] & mask[b]);
        row[a] = base[a];
    }
    return choice;
}

} // namespace ibrt::mlid
