// Deadlock freedom by layers of VLs (as DFSSSP assigns SLs), shared by the direct engines
// whose detours leave the dimension or hop order that makes their plain routes acyclic: the
// slimfly engine's long paths on a degraded Slim Fly, the flatfly engine's detours around a
// hypercube link that is missing. A path joins the first layer whose graph of dependencies
// between directed switch links stays acyclic with it; each layer is a VL of its own.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ibrt::direct {

// One layer's dependencies between directed switch links (channel = incidence index of
// SwitchLinks), kept acyclic: a chain of channels joins only if it closes no cycle.
class DependencyLayer {
  public:
    explicit DependencyLayer(std::size_t channels) : out_(channels), seen_(channels, 0) {}
    // Adds the dependencies c[0] -> c[1] -> ...; false (and nothing added) on a cycle.
    bool add_chain(const std::vector<std::uint32_t>& c) {
        added_.clear();
        for (std::size_t i = 0; i + 1 < c.size(); ++i) {
            auto& o = out_[c[i]];
            if (std::find(o.begin(), o.end(), c[i + 1]) != o.end()) continue;
            if (reaches(c[i + 1], c[i])) {
                for (auto it = added_.rbegin(); it != added_.rend(); ++it) out_[*it].pop_back();
                return false;
            }
            o.push_back(c[i + 1]);
            added_.push_back(c[i]);
        }
        return true;
    }

  private:
    bool reaches(std::uint32_t from, std::uint32_t to) {
        ++stamp_;
        stack_.assign(1, from);
        seen_[from] = stamp_;
        while (!stack_.empty()) {
            const std::uint32_t v = stack_.back();
            stack_.pop_back();
            if (v == to) return true;
            for (std::uint32_t w : out_[v])
                if (seen_[w] != stamp_) {
                    seen_[w] = stamp_;
                    stack_.push_back(w);
                }
        }
        return false;
    }
    std::vector<std::vector<std::uint32_t>> out_;
    std::vector<std::uint32_t> seen_, stack_, added_;
    std::uint32_t stamp_ = 0;
};

} // namespace ibrt::direct
