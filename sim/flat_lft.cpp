// See flat_lft.hpp: the simulator's two-level LFT (one entry per switch and LMC block, with
// shared patterns), on transparent huge pages where available.
#include "sim/flat_lft.hpp"

#include "fabric/huge_pages.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <vector>

namespace ibrt::sim {

void FlatLft::Free::operator()(std::uint16_t* p) const {
    huge_free(p);
}

FlatLft::FlatLft(const Fabric& f, const Routing& r) {
    row_.assign(f.num_nodes(), kNoRow);
    std::uint32_t rows = 0;
    std::size_t lids = 0;
    for (NodeId n = 0; n < f.num_nodes() && n < r.lft.size(); ++n) {
        if (r.lft[n].empty()) continue;
        row_[n] = rows++;
        lids = std::max(lids, r.lft[n].size());
    }
    lids_ = std::uint32_t(lids);
    if (!build(r, r.lmc) && !build(r, 0))
        throw std::length_error("LFTs too large for the simulator");
}

// False when the blocks of 2^shift LIDs do not share enough to pay (or the cells overflow).
bool FlatLft::build(const Routing& r, unsigned shift) {
    shift_ = shift;
    const std::uint32_t width = 1u << shift;
    blocks_ = std::uint32_t((std::size_t(lids_) + width - 1) >> shift);
    std::uint32_t rows = 0;
    for (std::uint32_t x : row_) rows += x != kNoRow;
    const std::size_t cells = std::size_t(rows) * blocks_;
    if (cells >= 0xffffffffu) return false; // cells are 32-bit (an event field)
    no_path_ = std::uint32_t(cells);
    // On huge pages (fabric/huge_pages.hpp): every hop reads a random cell of it.
    auto* t = static_cast<std::uint16_t*>(huge_alloc((std::size_t(cells) + 1) * 2));
    table_.reset(t);
    t[no_path_] = kNoPath;
    patterns_.clear();
    // Open addressing on a hash of the block, the bytes compared against the stored pattern:
    // FT(36,3) has 19 million blocks, too many for a map of strings. A block of up to 8 LIDs
    // (LMC <= 3) is one machine word, tested, hashed and compared whole.
    constexpr std::uint32_t kSlots = 1u << 17;  // > 2 x the most patterns an entry can name
    std::vector<std::uint16_t> slot(kSlots, 0); // pattern index + 1, 0 = empty
    std::vector<std::uint64_t> slot_word(width <= 8 ? kSlots : 0); // its block, as a word
    std::uint32_t npat = 0;
    std::vector<PortNum> pad(width, kNoPath); // a block past the end of a shorter table
    // Sharing must pay: patterns beyond the entry range or beyond a quarter of the flat table
    // mean the blocks have no common structure.
    const auto room_for_pattern = [&] {
        return npat < 0xffffu - kPattern && 4 * (patterns_.size() + width) <= cells * width;
    };
    const auto same = [width](const PortNum* x, const PortNum* y) { // inline, unlike memcmp
        for (std::uint32_t j = 0; j < width; ++j)
            if (x[j] != y[j]) return false;
        return true;
    };
    const std::uint64_t ones =
        0x0101010101010101ull & (width >= 8 ? ~0ull : (1ull << (8 * width)) - 1);
    for (NodeId n = 0; n < row_.size(); ++n) {
        if (row_[n] == kNoRow) continue;
        const auto& lft = r.lft[n];
        std::uint16_t* row = t + std::size_t(row_[n]) * blocks_;
        for (std::uint32_t k = 0; k < blocks_; ++k) {
            const std::size_t lo = std::size_t(k) << shift;
            const PortNum* block = lft.data() + lo;
            if (lo + width > lft.size()) { // the table's last, partial block
                std::fill(pad.begin(), pad.end(), kNoPath);
                for (std::size_t j = lo; j < lft.size(); ++j) pad[j - lo] = lft[j];
                block = pad.data();
            }
            std::uint16_t e = block[0];
            if (width <= 8) {
                std::uint64_t word = 0;
                switch (width) { // fixed sizes: a memcpy of a run-time size is a call
                case 1:
                    word = block[0];
                    break;
                case 2:
                    std::memcpy(&word, block, 2);
                    break;
                case 4:
                    std::memcpy(&word, block, 4);
                    break;
                default:
                    std::memcpy(&word, block, 8);
                    break;
                }
                if (word != (word & 0xff) * ones) {
                    std::uint32_t i =
                        std::uint32_t((word * 0x9e3779b97f4a7c15ull) >> 40) & (kSlots - 1);
                    while (slot[i] && slot_word[i] != word) i = (i + 1) & (kSlots - 1);
                    if (!slot[i]) {
                        if (!room_for_pattern()) return false;
                        slot[i] = std::uint16_t(++npat);
                        slot_word[i] = word;
                        patterns_.insert(patterns_.end(), block, block + width);
                    }
                    e = std::uint16_t(kPattern + slot[i] - 1);
                }
            } else {
                bool uniform = true;
                for (std::uint32_t j = 1; j < width; ++j) uniform &= block[j] == block[0];
                if (!uniform) {
                    std::uint64_t h = 0;
                    for (std::uint32_t j = 0; j < width; j += 8) {
                        std::uint64_t w;
                        std::memcpy(&w, block + j, 8);
                        h = (h ^ w) * 0x9e3779b97f4a7c15ull;
                    }
                    std::uint32_t i = std::uint32_t(h >> 40) & (kSlots - 1);
                    while (slot[i] && !same(&patterns_[std::size_t(slot[i] - 1) << shift], block))
                        i = (i + 1) & (kSlots - 1);
                    if (!slot[i]) {
                        if (!room_for_pattern()) return false;
                        slot[i] = std::uint16_t(++npat);
                        patterns_.insert(patterns_.end(), block, block + width);
                    }
                    e = std::uint16_t(kPattern + slot[i] - 1);
                }
            }
            row[k] = e;
        }
    }
    return true;
}

} // namespace ibrt::sim
