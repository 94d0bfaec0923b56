// A small open-addressing hash map from 64-bit keys to 32-bit values, for the simulator's
// per-flow state (congestion control keeps one entry per active (source, destination, SL)).
// std::unordered_map allocated a node per insert and freed it per erase — once per message
// under uniform traffic, where every message opens and closes a flow. Linear probing in one
// array, deletion by backward shift (no tombstones), capacity a power of two kept at most half
// full. Iteration order is never used, so results cannot depend on it.
// A key and its value share one 16-byte cell: with ~20,000 live flows the table (1 MB) does not
// stay in the cache, and separate key and value arrays missed twice per hit or erase. The
// simulator prefetches a key's cell when it knows the key an event ahead (`prefetch`).
#pragma once

#include "sim/prefetch.hpp"

#include <cstdint>
#include <vector>

namespace ibrt::sim {

// Keys 0 .. 2^64 - 2 (a key is stored plus one, 0 marking an empty slot).
class FlatMap64 {
  public:
    static constexpr std::uint32_t kAbsent = 0xffffffffu;

    FlatMap64() { rehash(16); }

    std::size_t size() const { return size_; }

    // The value of `key`, or kAbsent.
    std::uint32_t find(std::uint64_t key) const {
        const std::uint64_t k = key + 1;
        for (std::size_t i = slot(k);; i = (i + 1) & mask_) {
            if (cells_[i].key == k) return cells_[i].val;
            if (cells_[i].key == 0) return kAbsent;
        }
    }
    // Fetches the cell where a lookup of `key` starts (no effect on the contents).
    void prefetch(std::uint64_t key) const { sim::prefetch(&cells_[slot(key + 1)]); }
    // The same from a 32-bit hint of the key (`hint`), for a caller that can carry 32 bits but
    // not the key; a hint taken before the table grew still names a valid cell.
    static std::uint32_t hint(std::uint64_t key) { return std::uint32_t(hash(key + 1) >> 32); }
    void prefetch_hint(std::uint32_t h) const {
        sim::prefetch(&cells_[std::size_t(h >> (shift_ - 32)) & mask_]);
    }
    // The value of `key`, inserted as `value` when absent; `inserted` says which.
    std::uint32_t& get_or_insert(std::uint64_t key, std::uint32_t value, bool& inserted) {
        if (2 * (size_ + 1) > cells_.size()) rehash(2 * cells_.size());
        const std::uint64_t k = key + 1;
        std::size_t i = slot(k);
        for (; cells_[i].key != 0; i = (i + 1) & mask_)
            if (cells_[i].key == k) {
                inserted = false;
                return cells_[i].val;
            }
        cells_[i] = Cell{k, value};
        ++size_;
        inserted = true;
        return cells_[i].val;
    }
    void erase(std::uint64_t key) {
        const std::uint64_t k = key + 1;
        std::size_t i = slot(k);
        while (cells_[i].key != k) {
            if (cells_[i].key == 0) return;
            i = (i + 1) & mask_;
        }
        // Backward shift: move up every later entry of the run that may sit at i.
        for (std::size_t j = (i + 1) & mask_; cells_[j].key != 0; j = (j + 1) & mask_) {
            const std::size_t home = slot(cells_[j].key);
            // j's entry may move to i if its home is not in the cyclic range (i, j].
            if (((j - home) & mask_) >= ((j - i) & mask_)) {
                cells_[i] = cells_[j];
                i = j;
            }
        }
        cells_[i].key = 0;
        --size_;
    }

  private:
    static std::uint64_t hash(std::uint64_t k) { return k * 0x9e3779b97f4a7c15ull; }
    std::size_t slot(std::uint64_t k) const { return std::size_t(hash(k) >> shift_); }
    void rehash(std::size_t cap) {
        std::vector<Cell> cells(cap);
        cells.swap(cells_);
        mask_ = cap - 1;
        shift_ = 64;
        for (std::size_t c = cap; c > 1; c >>= 1) --shift_;
        for (const Cell& c : cells) {
            if (c.key == 0) continue;
            std::size_t j = slot(c.key);
            while (cells_[j].key != 0) j = (j + 1) & mask_;
            cells_[j] = c;
        }
    }

    struct Cell {
        std::uint64_t key = 0; // key + 1; 0 = empty
        std::uint32_t val = 0;
    };
    std::vector<Cell> cells_;
    std::size_t mask_ = 0, size_ = 0;
    unsigned shift_ = 64;
};

} // namespace ibrt::sim
