// Deadlock freedom by layers of VLs (as DFSSSP assigns SLs), shared by the engines whose paths
// leave the order that makes their plain routes acyclic: the slimfly engine's long paths on a
// degraded Slim Fly and its detours on a degraded Slim Fly x FlatFly, the flatfly engine's
// detours around a missing hypercube link, the dragonfly engine's paths around missing local
// links, and the DFS alternative paths of engines/multipath. A path joins the first layer
// whose graph of dependencies between channels stays acyclic with it; each layer is a VL of
// its own.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

namespace ibrt::direct {

// One layer's dependencies between channels (a directed switch link, the incidence index of
// SwitchLinks, or whatever dense channel ids the caller uses), kept acyclic: dependencies
// join only if they close no cycle.
class DependencyLayer {
  public:
    explicit DependencyLayer(std::size_t channels) : out_(channels), seen_(channels, 0) {}
    // Adds the dependencies c[0] -> c[1] -> ...; false (and nothing added) on a cycle.
    bool add_chain(const std::vector<std::uint32_t>& c) {
        added_.clear();
        for (std::size_t i = 0; i + 1 < c.size(); ++i)
            if (!add_edge(c[i], c[i + 1])) return rollback();
        return true;
    }
    // Adds every dependency a -> b of `deps`; false (and nothing added) on a cycle.
    bool add(std::span<const std::pair<std::uint32_t, std::uint32_t>> deps) {
        added_.clear();
        for (const auto& [a, b] : deps)
            if (!add_edge(a, b)) return rollback();
        return true;
    }
    // Adds a -> b unchecked: dependencies of routes that are what they are (an engine's own).
    void add_unchecked(std::uint32_t a, std::uint32_t b) {
        auto& o = out_[a];
        if (std::find(o.begin(), o.end(), b) == o.end()) o.push_back(b);
    }

  private:
    // Checked: an edge already there is fine; a new one must not close a cycle. An edge is
    // only ever appended, so a rollback pops in reverse order.
    bool add_edge(std::uint32_t a, std::uint32_t b) {
        auto& o = out_[a];
        if (std::find(o.begin(), o.end(), b) != o.end()) return true;
        if (reaches(b, a)) return false;
        o.push_back(b);
        added_.push_back(a);
        return true;
    }
    bool rollback() {
        for (auto it = added_.rbegin(); it != added_.rend(); ++it) out_[*it].pop_back();
        return false;
    }
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

// Puts `chain` on the first of `layers` that stays acyclic with it, opening a new layer of
// `channels` channels when none does; returns its index, or layers.size() (nothing added) when
// none does and `max_layers` are open already.
inline std::size_t
place_on_layer(std::vector<DependencyLayer>& layers, const std::vector<std::uint32_t>& chain,
               std::size_t channels,
               std::size_t max_layers = std::numeric_limits<std::size_t>::max()) {
    std::size_t layer = 0;
    while (layer < layers.size() && !layers[layer].add_chain(chain)) ++layer;
    if (layer == layers.size() && layer < max_layers) {
        layers.emplace_back(channels);
        layers.back().add_chain(chain);
    }
    return layer;
}

} // namespace ibrt::direct
