// The torus grid from the mapping; see torus_grid.hpp.
#include "engines/torus/torus_grid.hpp"

#include "engines/engine.hpp"
#include "fabric/display_name.hpp"

#include <fmt/format.h>

namespace ibrt::torus {

std::uint32_t TorusGrid::at_offset(std::uint32_t s, int d, int delta) const {
    const int k = k_[d];
    const int x = coord(s, d);
    const int y = ((x + delta) % k + k) % k;
    const std::uint64_t i = index_[s] + (std::int64_t(y) - x) * std::int64_t(stride_[d]);
    return at_[i];
}

TorusGrid TorusGrid::build(const Fabric& f, const mapping::SwitchLinks& g,
                           const mapping::Shape& shape) {
    using mapping::Family;
    if (shape.family == Family::Unknown)
        throw RoutingError(
            fmt::format("torus: the cabling does not map as a torus: {}", shape.why_not));
    if (shape.family == Family::Dragonfly)
        throw RoutingError("torus: the cabling maps as a Dragonfly, not a torus (route it with "
                           "the dragonfly engine)");
    TorusGrid t;
    t.n_dims_ = static_cast<int>(shape.dims.size());
    int dateline_dims = 0;
    for (int d = 0; d < t.n_dims_; ++d) {
        const mapping::Dimension& dim = shape.dims[d];
        if (!dim.ring && dim.k > 3)
            throw RoutingError(fmt::format(
                "torus: the cabling maps as a {} whose dimension {} joins all {} switches of a "
                "row (K{} with {} cable(s) per link), not a ring: not a torus (route it with "
                "the flatfly engine)",
                mapping::family_name(shape.family), d + 1, dim.k, dim.k, dim.width));
        dateline_dims += dim.k > 3;
        t.k_.push_back(dim.k);
    }
    if (dateline_dims > 4)
        throw RoutingError(fmt::format(
            "torus: {} rings of 4 or more switches need {} dateline bits, and an SL has 4 (paper "
            "003 §3.2: at most 4D)",
            dateline_dims, dateline_dims));
    std::uint64_t points = 1;
    for (int d = 0; d < t.n_dims_; ++d) {
        t.stride_.push_back(points);
        points *= std::uint64_t(t.k_[d]);
    }
    const std::size_t n = g.num_switches();
    t.node_ = g.node;
    t.dense_ = g.dense;
    t.at_.assign(points, kNone);
    t.index_.resize(n);
    t.coord_.resize(n * t.n_dims_);
    for (std::uint32_t s = 0; s < n; ++s) {
        std::uint64_t i = 0;
        for (int d = 0; d < t.n_dims_; ++d) {
            t.coord_[std::size_t(s) * t.n_dims_ + d] = shape.coord[s][d];
            i += std::uint64_t(shape.coord[s][d]) * t.stride_[d];
        }
        t.index_[s] = i;
        t.at_[i] = s;
        int sum = 0;
        for (int d = 0; d < t.n_dims_; ++d) sum += shape.coord[s][d];
        t.parity_.push_back(static_cast<std::uint8_t>(sum & 1));
    }
    t.missing_switches_ = points - n;

    // Cables by (switch, dimension, direction), and the dimension of every switch port.
    t.first_port_.resize(f.num_nodes());
    for (NodeId v = 0; v < f.num_nodes(); ++v) t.first_port_[v] = f.node(v).first_port;
    t.port_dim_.assign(f.num_port_slots(), kPortNotSwitch);
    const std::size_t slots = n * t.n_dims_ * 2;
    std::vector<std::vector<PortNum>> by_slot(slots);
    for (std::uint32_t s = 0; s < n; ++s) {
        const NodeId v = g.node[s];
        for (PortNum p = 1; p <= f.node(v).num_ports; ++p) {
            const Port& port = f.port(v, p);
            if (!port.connected() || !f.node(port.peer_node).is_switch()) continue;
            const std::uint32_t u = g.dense[port.peer_node];
            int dim = -1, delta = 0, differ = 0;
            for (int d = 0; d < t.n_dims_; ++d) {
                const int diff = t.coord(u, d) - t.coord(s, d);
                if (diff == 0) continue;
                ++differ;
                dim = d;
                delta = (diff + t.k_[d]) % t.k_[d];
            }
            if (differ != 1 || (delta != 1 && delta != t.k_[dim] - 1))
                throw RoutingError(fmt::format(
                    "torus: the cable on {} does not join ring neighbours of the mapped torus",
                    display_port(f, v, p)));
            t.port_dim_[f.port_id(v, p)] = static_cast<std::int8_t>(dim);
            if (delta == 1) by_slot[t.slot(s, dim, kPlus)].push_back(p);
            if (delta == t.k_[dim] - 1) by_slot[t.slot(s, dim, kMinus)].push_back(p);
        }
    }
    t.port_start_.reserve(slots + 1);
    t.port_start_.push_back(0);
    for (const auto& ps : by_slot) {
        t.ports_.insert(t.ports_.end(), ps.begin(), ps.end());
        t.port_start_.push_back(static_cast<std::uint32_t>(t.ports_.size()));
    }

    t.neighbour_.resize(slots);
    t.entry_port_.assign(slots, 0);
    for (std::uint32_t s = 0; s < n; ++s)
        for (int d = 0; d < t.n_dims_; ++d)
            for (int dir : {kPlus, kMinus}) {
                t.neighbour_[t.slot(s, d, dir)] = t.at_offset(s, d, dir == kPlus ? 1 : -1);
                if (!t.ports(s, d, dir).empty())
                    t.entry_port_[t.slot(s, d, dir)] =
                        f.port(g.node[s], t.ports(s, d, dir)[0]).peer_port;
            }

    // How far each switch sees along its lines, and which lines are whole rings.
    t.reach_.assign(slots, 0);
    t.intact_.assign(n * t.n_dims_, 0);
    for (std::uint32_t s = 0; s < n; ++s)
        for (int d = 0; d < t.n_dims_; ++d)
            for (int dir : {kPlus, kMinus}) {
                std::uint32_t cur = s;
                int steps = 0;
                while (steps < t.k_[d] - 1 && !t.ports(cur, d, dir).empty()) {
                    cur = t.neighbour(cur, d, dir);
                    ++steps;
                }
                t.reach_[t.slot(s, d, dir)] = static_cast<std::uint8_t>(steps);
                if (dir == kPlus)
                    t.intact_[std::size_t(s) * t.n_dims_ + d] =
                        steps == t.k_[d] - 1 && !t.ports(cur, d, kPlus).empty();
            }
    for (int d = 0; d < t.n_dims_; ++d) {
        std::vector<bool> seen(points, false);
        for (std::uint32_t s = 0; s < n; ++s) {
            if (t.intact(s, d)) continue;
            const std::uint64_t line = t.index_[s] - std::uint64_t(t.coord(s, d)) * t.stride_[d];
            if (!seen[line]) ++t.broken_lines_;
            seen[line] = true;
        }
    }
    return t;
}

} // namespace ibrt::torus
