// A small open-addressing hash map from 64-bit keys to 32-bit values, for the simulator's
// per-flow state (congestion control keeps one entry per active (source, destination, SL)).
// std::unordered_map allocated a node per insert and freed it per erase — once per message
// under uniform traffic, where every message opens and closes a flow. Linear probing in one
// array, deletion by backward shift (no tombstones), capacity a power of two kept at most half
// full. Iteration order is never used, so results cannot depend on it.
#pragma once

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
            if (keys_[i] == k) return vals_[i];
            if (keys_[i] == 0) return kAbsent;
        }
    }
    // The value of `key`, inserted as `value` when absent; `inserted` says which.
    std::uint32_t& get_or_insert(std::uint64_t key, std::uint32_t value, bool& inserted) {
        if (2 * (size_ + 1) > keys_.size()) rehash(2 * keys_.size());
        const std::uint64_t k = key + 1;
        std::size_t i = slot(k);
        for (; keys_[i] != 0; i = (i + 1) & mask_)
            if (keys_[i] == k) {
                inserted = false;
                return vals_[i];
            }
        keys_[i] = k;
        vals_[i] = value;
        ++size_;
        inserted = true;
        return vals_[i];
    }
    void erase(std::uint64_t key) {
        const std::uint64_t k = key + 1;
        std::size_t i = slot(k);
        while (keys_[i] != k) {
            if (keys_[i] == 0) return;
            i = (i + 1) & mask_;
        }
        // Backward shift: move up every later entry of the run that may sit at i.
        for (std::size_t j = (i + 1) & mask_; keys_[j] != 0; j = (j + 1) & mask_) {
            const std::size_t home = slot(keys_[j]);
            // j's entry may move to i if its home is not in the cyclic range (i, j].
            if (((j - home) & mask_) >= ((j - i) & mask_)) {
                keys_[i] = keys_[j];
                vals_[i] = vals_[j];
                i = j;
            }
        }
        keys_[i] = 0;
        --size_;
    }

  private:
    std::size_t slot(std::uint64_t k) const {
        return std::size_t((k * 0x9e3779b97f4a7c15ull) >> shift_);
    }
    void rehash(std::size_t cap) {
        std::vector<std::uint64_t> keys(cap, 0);
        std::vector<std::uint32_t> vals(cap, 0);
        keys.swap(keys_);
        vals.swap(vals_);
        mask_ = cap - 1;
        shift_ = 64;
        for (std::size_t c = cap; c > 1; c >>= 1) --shift_;
        for (std::size_t i = 0; i < keys.size(); ++i) {
            if (keys[i] == 0) continue;
            std::size_t j = slot(keys[i]);
            while (keys_[j] != 0) j = (j + 1) & mask_;
            keys_[j] = keys[i];
            vals_[j] = vals[i];
        }
    }

    std::vector<std::uint64_t> keys_; // key + 1; 0 = empty
    std::vector<std::uint32_t> vals_;
    std::size_t mask_ = 0, size_ = 0;
    unsigned shift_ = 64;
};

} // namespace ibrt::sim
