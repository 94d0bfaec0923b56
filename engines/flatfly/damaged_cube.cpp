// Paper 003 §3.4's hypercube routings on damaged hypercubes (engines/flatfly/damaged_cube.hpp).
#include "engines/flatfly/damaged_cube.hpp"

#include "engines/direct/neighbor_ports.hpp"
#include "fabric/display_name.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>

namespace ibrt::flatfly {
namespace {

constexpr unsigned kMaxVls = 8;
constexpr std::uint16_t kFar = std::numeric_limits<std::uint16_t>::max();

// Shortest (hops, then VL turns) paths to one destination switch over the states (switch, VL,
// phase) of damaged_cube.hpp: hops[s] and turns[s] per state s = (x * vls + v) * 2 + phase.
class CubePaths {
  public:
    CubePaths(const mapping::Shape& shape, const std::vector<std::vector<std::uint32_t>>& nbr,
              AdaptiveRouting kind, unsigned vls)
        : shape_(shape), nbr_(nbr), kind_(kind), vls_(vls) {}

    std::size_t state(std::uint32_t x, unsigned v, int phase) const {
        return (std::size_t(x) * vls_ + v) * 2 + std::size_t(phase);
    }
    // The class (phase) of the hop x -> x's neighbour across dimension d.
    int hop_phase(std::uint32_t x, int d) const {
        return second_phase(kind_, d, shape_.coord[x][std::size_t(d)] == 1) ? 1 : 0;
    }
    // The state after the hop across d from state (x, v, phase), or kFarState if the hop is
    // not allowed there (a turn back to the first phase on the last VL).
    static constexpr std::size_t kFarState = ~std::size_t(0);
    std::size_t after(std::uint32_t x, unsigned v, int phase, int d, std::uint32_t w) const {
        const int cls = hop_phase(x, d);
        const unsigned to = v + (phase == 1 && cls == 0 ? 1 : 0);
        return to < vls_ ? state(w, to, cls) : kFarState;
    }

    void solve(std::uint32_t y) {
        const std::size_t n = nbr_.size(), states = n * vls_ * 2;
        hops.assign(states, kFar);
        turns.assign(states, 0);
        std::vector<std::size_t> frontier, next;
        for (unsigned v = 0; v < vls_; ++v)
            for (int ph = 0; ph < 2; ++ph) {
                hops[state(y, v, ph)] = 0;
                frontier.push_back(state(y, v, ph));
            }
        for (std::uint16_t h = 0; !frontier.empty(); ++h) {
            next.clear();
            // Every state with a hop into the frontier is one hop further; its turns are the
            // fewest over its hops into the frontier.
            for (std::size_t s : frontier) {
                const std::uint32_t w = std::uint32_t(s / 2 / vls_);
                for (std::uint32_t x : nbr_[w])
                    for (unsigned v = 0; v < vls_; ++v)
                        for (int ph = 0; ph < 2; ++ph) {
                            const std::size_t p = state(x, v, ph);
                            if (hops[p] != kFar) continue;
                            const int d = dim(x, w);
                            if (after(x, v, ph, d, w) != s) continue;
                            hops[p] = std::uint16_t(h + 1);
                            next.push_back(p);
                        }
            }
            for (std::size_t p : next) {
                const std::uint32_t x = std::uint32_t(p / 2 / vls_);
                const unsigned v = unsigned(p / 2 % vls_);
                const int ph = int(p % 2);
                std::uint16_t best = kFar;
                for (std::uint32_t w : nbr_[x]) {
                    const std::size_t s = after(x, v, ph, dim(x, w), w);
                    if (s != kFarState && hops[s] == h)
                        best = std::min<std::uint16_t>(best, std::uint16_t(turns[s] + turn(s, v)));
                }
                turns[p] = best;
            }
            frontier.swap(next);
        }
    }
    // Whether the hop x -> w from state (x, v, phase) starts a shortest path (after solve).
    bool on_shortest(std::uint32_t x, unsigned v, int phase, std::uint32_t w) const {
        const std::size_t p = state(x, v, phase), s = after(x, v, phase, dim(x, w), w);
        return s != kFarState && hops[p] != kFar && hops[s] + 1 == hops[p] &&
               turns[s] + turn(s, v) == turns[p];
    }
    int dim(std::uint32_t x, std::uint32_t w) const {
        int d = 0;
        while (shape_.coord[x][std::size_t(d)] == shape_.coord[w][std::size_t(d)]) ++d;
        return d;
    }

    std::vector<std::uint16_t> hops, turns;

  private:
    unsigned turn(std::size_t s, unsigned v) const { return unsigned(s / 2 % vls_) - v; }
    const mapping::Shape& shape_;
    const std::vector<std::vector<std::uint32_t>>& nbr_;
    AdaptiveRouting kind_;
    unsigned vls_;
};

} // namespace

bool second_phase(AdaptiveRouting kind, int d, bool negative) {
    switch (kind) {
    case AdaptiveRouting::AboNegativeFirst:
        return d == 0 || !negative;
    case AdaptiveRouting::AboPositiveLast:
        return d != 0 && !negative;
    default: // Negative First
        return !negative;
    }
}

std::shared_ptr<const RoutingFunction> damaged_cube_sets(const Fabric& f,
                                                         const mapping::SwitchLinks& g,
                                                         const mapping::Shape& shape,
                                                         const Lids& lids, AdaptiveRouting kind) {
    const std::size_t n = g.num_switches();
    const direct::NeighborPorts ports(f, g);
    std::vector<std::vector<std::uint32_t>> nbr(n);
    for (std::uint32_t x = 0; x < n; ++x) {
        for (const auto& in : g.around(x)) nbr[x].push_back(in.peer);
        std::sort(nbr[x].begin(), nbr[x].end());
        nbr[x].erase(std::unique(nbr[x].begin(), nbr[x].end()), nbr[x].end());
        if (nbr[x].size() > 32) // one neighbour per dimension: candidate masks are 32 bits
            throw RoutingError("adaptive hypercube routing: more than 32 dimensions");
    }
    // The VLs: 1 + the most turns a packet from a host (state (x, 0, first phase)) needs.
    unsigned vls = 1;
    {
        CubePaths paths(shape, nbr, kind, kMaxVls);
        for (std::uint32_t y = 0; y < n; ++y) {
            paths.solve(y);
            for (std::uint32_t x = 0; x < n; ++x) {
                const std::size_t s = paths.state(x, 0, 0);
                if (paths.hops[s] == kFar)
                    throw RoutingError(fmt::format(
                        "adaptive hypercube routing: no path from {} to {} that "
                        "takes its phases in order with at most {} VL turns: too many cables "
                        "are missing; use distance_based for damaged fabrics",
                        display_name(f, g.node[x]), display_name(f, g.node[y]), kMaxVls - 1));
                vls = std::max(vls, 1u + paths.turns[s]);
            }
        }
    }

    const std::vector<direct::LidTarget> target = direct::lid_targets(f, g, lids);
    const Lid max_lid = lids.max_lid();
    auto rf = std::make_shared<RoutingFunction>(f, max_lid, vls, true);
    rf->vl_by_in_vl = true;
    // Per destination switch, per state, its candidate neighbours as a mask over nbr[x].
    CubePaths paths(shape, nbr, kind, vls);
    std::vector<std::vector<std::uint32_t>> next_mask(n);
    for (std::uint32_t y = 0; y < n; ++y) {
        paths.solve(y);
        next_mask[y].assign(n * vls * 2, 0);
        for (std::uint32_t x = 0; x < n; ++x)
            for (unsigned v = 0; v < vls; ++v)
                for (int ph = 0; ph < 2; ++ph)
                    for (std::size_t i = 0; i < nbr[x].size(); ++i)
                        if (paths.on_shortest(x, v, ph, nbr[x][i]))
                            next_mask[y][paths.state(x, v, ph)] |= 1u << i;
    }
    // The phase of a packet entering x by each port: a host's (or port 0) is the first.
    std::vector<Candidate> cands;
    std::vector<std::uint32_t> table;
    rf->reserve_tables(n * vls * 2);
    for (std::uint32_t x = 0; x < n; ++x) {
        const NodeId sw = g.node[x];
        const PortNum np = f.node(sw).num_ports;
        std::vector<int> in_phase(std::size_t(np) + 1, 0);
        for (PortNum in = 1; in <= np; ++in) {
            const Port& q = f.port(sw, in);
            if (!q.connected() || g.dense[q.peer_node] == mapping::kNone) continue;
            const std::uint32_t w = g.dense[q.peer_node];
            in_phase[in] = paths.hop_phase(w, paths.dim(w, x));
        }
        for (unsigned v = 0; v < vls; ++v)
            for (int ph = 0; ph < 2; ++ph) {
                table.assign(std::size_t(max_lid) + 1, RoutingFunction::kNoSet);
                for (Lid l = 1; l <= max_lid; ++l) {
                    const auto& t = target[l];
                    if (t.sw == mapping::kNone || t.port == 0) continue;
                    cands.clear();
                    if (t.sw == x) {
                        cands.push_back({t.port, 0});
                    } else {
                        const std::uint32_t mask = next_mask[t.sw][paths.state(x, v, ph)];
                        for (std::size_t i = 0; i < nbr[x].size(); ++i)
                            if (mask >> i & 1u)
                                for (PortNum p : ports.to(x, nbr[x][i])) cands.push_back({p, 0});
                    }
                    table[l] = cands.empty() ? RoutingFunction::kNoSet : rf->intern(cands);
                }
                const std::uint32_t id = rf->intern_table(table);
                for (PortNum in = 0; in <= np; ++in)
                    if (in_phase[in] == ph) rf->set_table(sw, v, in, id);
            }
    }
    rf->compact();

    // VL2VL: up one VL on a turn from the second phase back to the first; a CA starts on VL 0
    // whatever its SL (the static engine's path SLs, e.g. its detour layers', mean nothing here).
    rf->vl2vl.tables.assign(f.num_nodes(), {});
    for (std::uint32_t x = 0; x < n; ++x) {
        const NodeId sw = g.node[x];
        const PortNum np = f.node(sw).num_ports;
        auto& tab = rf->vl2vl.tables[sw];
        tab.assign(Sl2Vl::size(np), kSl2VlDropAll);
        const auto phase_of = [&](PortNum p, bool in) {
            const Port& q = f.port(sw, p);
            if (g.dense[q.peer_node] == mapping::kNone) return -1; // a host
            const std::uint32_t w = g.dense[q.peer_node];
            return in ? paths.hop_phase(w, paths.dim(w, x)) : paths.hop_phase(x, paths.dim(x, w));
        };
        for (PortNum in = 1; in <= np; ++in)
            for (PortNum out = 1; out <= np; ++out) {
                if (!f.port(sw, in).connected() || !f.port(sw, out).connected()) continue;
                const int pin = phase_of(in, true), pout = phase_of(out, false);
                const unsigned up = pin == 1 && pout == 0 ? 1 : 0;
                Sl2VlTable t = kSl2VlDropAll;
                for (unsigned v = 0; v + up < vls; ++v) t[v] = std::uint8_t(v + up);
                tab[Sl2Vl::index(np, in, out)] = t;
            }
    }
    for (NodeId ca : f.cas()) {
        const PortNum np = f.node(ca).num_ports;
        auto& tab = rf->vl2vl.tables[ca];
        tab.assign(Sl2Vl::size(np), kSl2VlDropAll);
        Sl2VlTable t;
        t.fill(0);
        for (PortNum p = 1; p <= np; ++p) tab[Sl2Vl::index(np, 0, p)] = t;
    }
    return rf;
}

} // namespace ibrt::flatfly
