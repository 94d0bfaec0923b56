// Disjoint sets over 0..n-1 with path compression (halving) and union by rank: the transitive
// closure of the mapping's equivalence relations (paper 003 §2.1, "Union-Find algorithm from
// [25]", Tarjan 1975), near-linear in the number of unions.
#pragma once

#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

namespace ibrt::mapping {

class UnionFind {
  public:
    explicit UnionFind(std::size_t n) : parent_(n), rank_(n, 0) {
        std::iota(parent_.begin(), parent_.end(), 0u);
    }
    std::uint32_t find(std::uint32_t x) {
        while (parent_[x] != x) {
            parent_[x] = parent_[parent_[x]];
            x = parent_[x];
        }
        return x;
    }
    // True when x and y were in different sets.
    bool unite(std::uint32_t x, std::uint32_t y) {
        x = find(x);
        y = find(y);
        if (x == y) return false;
        if (rank_[x] < rank_[y]) std::swap(x, y);
        parent_[y] = x;
        if (rank_[x] == rank_[y]) ++rank_[x];
        return true;
    }
    // Dense class numbers 0..count-1, in order of each class's smallest member; returns count.
    std::uint32_t classes(std::vector<std::uint32_t>& of) {
        of.assign(parent_.size(), 0);
        std::vector<std::uint32_t> id(parent_.size(), UINT32_MAX);
        std::uint32_t count = 0;
        for (std::uint32_t x = 0; x < parent_.size(); ++x) {
            const std::uint32_t r = find(x);
            if (id[r] == UINT32_MAX) id[r] = count++;
            of[x] = id[r];
        }
        return count;
    }

  private:
    std::vector<std::uint32_t> parent_;
    std::vector<std::uint8_t> rank_;
};

} // namespace ibrt::mapping
