// Adaptive up phase for fat trees (engines/fattree/adaptive_up.hpp; paper 004 §2).
#include "engines/fattree/adaptive_up.hpp"

#include <cstdint>
#include <vector>

namespace ibrt::fattree {
namespace {

// Per switch, the leaves it reaches going only down, then going up and down: bitsets over
// leaf indices.
struct LeafReach {
    std::size_t words = 0;
    std::vector<std::uint64_t> down, any;
    bool reaches(NodeId n, std::uint32_t leaf) const {
        return any[n * words + leaf / 64] >> (leaf % 64) & 1;
    }
};

LeafReach leaf_reach(const Fabric& f, const FatTreeShape& t) {
    LeafReach r;
    r.words = (t.leaves.size() + 63) / 64;
    r.down.assign(f.num_nodes() * r.words, 0);
    for (std::size_t i = 0; i < t.leaves.size(); ++i)
        r.down[t.leaves[i] * r.words + i / 64] |= 1ull << (i % 64);
    for (NodeId x : t.by_level) { // levels ascending: children first
        if (t.level[x] <= 1) continue;
        for (std::uint32_t k = t.down_begin[x]; k < t.down_begin[x + 1]; ++k) {
            const NodeId c = f.port(x, t.down_ports[k]).peer_node;
            for (std::size_t w = 0; w < r.words; ++w)
                r.down[x * r.words + w] |= r.down[c * r.words + w];
        }
    }
    r.any = r.down;
    for (auto it = t.by_level.rbegin(); it != t.by_level.rend(); ++it) { // parents first
        const NodeId x = *it;
        for (std::uint32_t k = t.up_begin[x]; k < t.up_begin[x + 1]; ++k) {
            const NodeId p = f.port(x, t.up_ports[k]).peer_node;
            for (std::size_t w = 0; w < r.words; ++w)
                r.any[x * r.words + w] |= r.any[p * r.words + w];
        }
    }
    return r;
}

TreeCoords tree_coords(const Fabric& f, const FatTreeShape& t) {
    TreeCoords c;
    c.height = std::uint8_t(t.height);
    c.level = t.level;
    c.switch_digit.assign(f.num_nodes(), 0);
    for (NodeId x : t.by_level) {
        if (t.up_begin[x] == t.up_begin[x + 1]) continue; // a top switch
        // o_s: this switch's down-port group at its first parent (groups by neighbour, in the
        // order of their lowest port, as the recogniser lists them).
        const NodeId p = f.port(x, t.up_ports[t.up_begin[x]]).peer_node;
        std::uint16_t group = 0;
        NodeId prev = kNoNode;
        for (std::uint32_t k = t.down_begin[p]; k < t.down_begin[p + 1]; ++k) {
            const NodeId child = f.port(p, t.down_ports[k]).peer_node;
            if (child != prev && prev != kNoNode) ++group;
            prev = child;
            if (child == x) break;
        }
        c.switch_digit[x] = group;
    }
    c.ca_digits.assign(f.cas().size() * t.height, 0);
    for (std::size_t i = 0; i < f.cas().size(); ++i) {
        const std::uint32_t e = t.end_of_ca[i];
        if (e == FatTreeShape::kNoEnd) continue;
        for (int L = 1; L <= t.height; ++L)
            c.ca_digits[i * t.height + L - 1] = std::uint16_t(t.digits[e * t.height + L - 1]);
    }
    return c;
}

} // namespace

std::shared_ptr<const RoutingFunction> adaptive_up_sets(const Fabric& f, const FatTreeShape& t,
                                                        const Routing& r) {
    // Its candidates are the tree's up*/down* ones, all on VL 0: a degraded tree whose
    // stranded destinations are on the escape VL (path SLs set) is beyond it.
    if (!r.path_sls.empty())
        throw RoutingError("adaptive_up: some LIDs of this degraded tree are routed on the "
                           "escape VL, which the adaptive up phase does not model");
    auto rf = std::make_shared<RoutingFunction>(f, r.lids.max_lid(), 1, false);
    const LeafReach reach = leaf_reach(f, t);
    std::vector<Candidate> cands;
    std::vector<std::uint32_t> up_set(t.leaves.size());
    for (NodeId x : t.by_level) {
        std::fill(up_set.begin(), up_set.end(), RoutingFunction::kNoSet);
        const auto is_up = [&](PortNum p) {
            for (std::uint32_t k = t.up_begin[x]; k < t.up_begin[x + 1]; ++k)
                if (t.up_ports[k] == p) return true;
            return false;
        };
        for (std::size_t e = 0; e < t.num_end_ports(); ++e) {
            const PortId port = t.end_ports[e];
            if (!r.lids.has_lid(port)) continue;
            const std::uint32_t leaf = t.end_leaf[e];
            const Lid base = r.lids.base(port);
            for (Lid d = base; d < base + (Lid(1) << r.lids.lmc(port)); ++d) {
                const PortNum p = r.out_port(x, d);
                if (p == kNoPath) continue;
                std::uint32_t set;
                if (is_up(p)) {
                    if (up_set[leaf] == RoutingFunction::kNoSet) {
                        cands.clear();
                        for (std::uint32_t k = t.up_begin[x]; k < t.up_begin[x + 1]; ++k) {
                            const PortNum u = t.up_ports[k];
                            if (reach.reaches(f.port(x, u).peer_node, leaf))
                                cands.push_back({u, 0});
                        }
                        up_set[leaf] = rf->intern(cands);
                    }
                    set = up_set[leaf];
                } else {
                    const Candidate c{p, 0};
                    set = rf->intern({&c, 1});
                }
                rf->set_entry(x, 0, 0, d, set);
            }
        }
    }
    rf->compact();
    rf->tree = tree_coords(f, t);
    return rf;
}

} // namespace ibrt::fattree
