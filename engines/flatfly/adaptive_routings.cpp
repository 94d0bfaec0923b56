// The adaptive FlatFly routings of paper 003 §3.3 (engines/flatfly/adaptive_routings.hpp).
#include "engines/flatfly/adaptive_routings.hpp"

#include "engines/direct/neighbor_ports.hpp"
#include "engines/flatfly/damaged_cube.hpp"
#include "engines/flatfly/row_detours.hpp"
#include "fabric/display_name.hpp"
#include "mapping/link_classes.hpp"
#include "mapping/map_fabric.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <numeric>
#include <stdexcept>
#include <string>

namespace ibrt::flatfly {
namespace {

// Paper 003 §3.3's four dimension orders for N = 4; otherwise identity, reverse and the two
// rotations by one (as the static engine's orders=mixed), without repeats.
std::vector<std::vector<int>> mixed_orders(int n) {
    if (n == 4) return {{0, 1, 2, 3}, {1, 3, 0, 2}, {2, 0, 3, 1}, {3, 2, 1, 0}};
    std::vector<int> id(std::size_t(n), 0);
    std::iota(id.begin(), id.end(), 0);
    std::vector<std::vector<int>> out{id};
    std::vector<int> rev(id.rbegin(), id.rend()), left = id, right = id;
    std::rotate(left.begin(), left.begin() + 1, left.end());
    std::rotate(right.rbegin(), right.rbegin() + 1, right.rend());
    for (const auto& o : {rev, left, right})
        if (std::find(out.begin(), out.end(), o) == out.end()) out.push_back(o);
    while (out.size() < 4) out.push_back(out[out.size() % out.size()]); // N = 1: one order
    return out;
}

// The routings that route round missing cables (see the header).
bool takes_missing_links(AdaptiveRouting kind) {
    using enum AdaptiveRouting;
    return kind == Ador || kind == MixedAdor || kind == MixedDor || kind == TwistedDor ||
           kind == TwistedAdor || kind == NegativeFirst || kind == AboNegativeFirst ||
           kind == AboPositiveLast;
}

} // namespace

AdaptiveRouting adaptive_routing(std::string_view name) {
    // kAdaptiveChoices after "none", in the enum's order.
    for (std::size_t i = 1; i < std::size(kAdaptiveChoices); ++i)
        if (kAdaptiveChoices[i] == name) return AdaptiveRouting(i - 1);
    throw std::invalid_argument("adaptive FlatFly routing: unknown name " + std::string(name));
}

std::shared_ptr<const RoutingFunction> adaptive_sets(const Fabric& f, const Lids& lids,
                                                     AdaptiveRouting kind, bool twist_in_n) {
    const mapping::SwitchLinks g = mapping::switch_links(f);
    const mapping::Shape shape = mapping::map_fabric(f, g, mapping::link_classes(g));
    if (shape.family != mapping::Family::FlatFly && shape.family != mapping::Family::Hypercube)
        throw RoutingError("adaptive FlatFly routing: the fabric is not a FlatFly, HyperX or "
                           "hypercube (" +
                           mapping::why_not_wanted(shape) + ")");
    // Missing cables (not switches) are routed round by the rules of row_detours.hpp and
    // damaged_cube.hpp for the routings that have one; the others decline.
    const bool damaged = !shape.missing_links.empty();
    if (!shape.missing_switches.empty() || (damaged && !takes_missing_links(kind)))
        throw RoutingError(fmt::format(
            "adaptive FlatFly routing needs a complete FlatFly ({} switches and {} links are "
            "missing); use distance_based for damaged fabrics",
            shape.missing_switches.size(), shape.missing_links.size()));
    const int nd = int(shape.dims.size());
    const std::size_t n = g.num_switches();
    const bool cube_routing = kind == AdaptiveRouting::NegativeFirst ||
                              kind == AdaptiveRouting::AboNegativeFirst ||
                              kind == AdaptiveRouting::AboPositiveLast;
    if (cube_routing)
        for (const auto& d : shape.dims)
            if (d.k != 2)
                throw RoutingError("negative-first routings are for hypercubes (every "
                                   "dimension of two switches)");
    if (cube_routing && damaged) return damaged_cube_sets(f, g, shape, lids, kind);
    using enum AdaptiveRouting;
    const bool ador =
        kind == Ador || kind == MixedAdor || kind == TwistedAdor || kind == TwistedMixedAdor;
    const bool twisted = kind == TwistedDor || kind == TwistedAdor || kind == TwistedMixedDor ||
                         kind == TwistedMixedAdor;
    const bool mixed = kind == MixedDor || kind == MixedAdor || kind == TwistedMixedDor ||
                       kind == TwistedMixedAdor;
    const std::vector<std::vector<int>> orders =
        mixed ? mixed_orders(nd) : std::vector<std::vector<int>>{mixed_orders(nd)[0]};
    // Detours within a row (damaged FlatFly): the second hop goes on ADOR's second VL, in the
    // twist's dimension on a third one (see the header).
    const bool detours = damaged && !cube_routing;
    const unsigned per_order = twisted && detours ? 3 : ador || twisted || detours ? 2 : 1;
    const unsigned vls = unsigned(orders.size()) * per_order;
    // The twist's dimension (kTwistParam): the one the order corrects last, or dimension n.
    const auto twist_dim_of = [&](const std::vector<int>& order) {
        return twist_in_n ? nd - 1 : order.back();
    };

    // The dimension each switch port runs in (-1: a host or nothing), and per switch and
    // dimension the ports to each coordinate.
    std::vector<std::vector<int>> port_dim(n);
    const direct::NeighborPorts ports(f, g);
    for (std::uint32_t s = 0; s < n; ++s) {
        const NodeId sw = g.node[s];
        port_dim[s].assign(std::size_t(f.node(sw).num_ports) + 1, -1);
        for (const auto& in : g.around(s)) {
            int dim = -1;
            for (int d = 0; d < nd; ++d)
                if (shape.coord[s][d] != shape.coord[in.peer][d]) dim = d;
            for (PortNum p : ports.to(s, in.peer)) port_dim[s][p] = dim;
        }
    }
    // Dense switch by coordinates.
    std::vector<std::size_t> stride(std::size_t(nd), 1);
    for (int d = 1; d < nd; ++d) stride[d] = stride[d - 1] * std::size_t(shape.dims[d - 1].k);
    std::vector<std::uint32_t> at(stride.back() * std::size_t(shape.dims.back().k), mapping::kNone);
    const auto index = [&](const std::vector<int>& c) {
        std::size_t i = 0;
        for (int d = 0; d < nd; ++d) i += std::size_t(c[d]) * stride[d];
        return i;
    };
    for (std::uint32_t s = 0; s < n; ++s) at[index(shape.coord[s])] = s;

    // Whether x's cable to its row's switch at coordinate `to` in dimension d is there (always
    // on a complete FlatFly); where the twist's is not, the packet goes on untwisted.
    const auto twist_cabled = [&](std::uint32_t x, int d, int to) {
        std::vector<int> w = shape.coord[x];
        w[std::size_t(d)] = to;
        return ports.linked(x, at[index(w)]);
    };
    const std::vector<direct::LidTarget> target = direct::lid_targets(f, g, lids);
    const Lid max_lid = lids.max_lid();
    // The destination host's index within its switch (its rank among the host ports).
    std::vector<std::uint8_t> host_rank(std::size_t(max_lid) + 1, 0);
    for (Lid l = 1; l <= max_lid; ++l) {
        const auto& t = target[l];
        if (t.sw == mapping::kNone || t.port == 0) continue;
        unsigned rank = 0;
        for (PortNum p = 1; p < t.port; ++p)
            rank += port_dim[t.sw][p] < 0 && f.port(g.node[t.sw], p).connected();
        host_rank[l] = std::uint8_t(rank);
    }

    auto rf = std::make_shared<RoutingFunction>(f, max_lid, vls, ador || twisted);
    rf->vl_by_in_vl = true;
    // At most one table per (switch, VL, input port kind): stored once each as computed.
    rf->reserve_tables(n * vls * (std::size_t(nd) + 2));
    std::vector<Candidate> cands;
    std::vector<int> c;
    std::vector<std::uint32_t> table, via;
    std::vector<std::uint32_t> by_kind(std::size_t(nd) + 2); // per input port kind: its table
    for (std::uint32_t x = 0; x < n; ++x) {
        const NodeId sw = g.node[x];
        const PortNum np = f.node(sw).num_ports;
        for (unsigned v = 0; v < vls; ++v) {
            const std::vector<int>& order = orders[v / per_order];
            const int twist_dim = twist_dim_of(order);
            // The table depends on the input port only through its kind (port 0, a host,
            // or the dimension), so each kind's is computed once: 36-port switches have 6.
            std::fill(by_kind.begin(), by_kind.end(), RoutingFunction::kNoTable);
            for (PortNum in = 0; in <= (ador || twisted ? np : 0); ++in) {
                const int in_dim = ador ? port_dim[x][in] : -1;
                const bool from_host = in > 0 && port_dim[x][in] < 0;
                std::uint32_t& kind_table = by_kind[in == 0 ? 0 : std::size_t(port_dim[x][in] + 2)];
                if (kind_table != RoutingFunction::kNoTable) {
                    rf->set_table(sw, v, in, kind_table);
                    continue;
                }
                table.assign(std::size_t(max_lid) + 1, RoutingFunction::kNoSet);
                for (Lid l = 1; l <= max_lid; ++l) {
                    const auto& t = target[l];
                    if (t.sw == mapping::kNone || t.port == 0) continue;
                    cands.clear();
                    if (t.sw == x) {
                        cands.push_back({t.port, 0});
                    } else if (cube_routing) {
                        // Phase 1: the negative dimensions (ABO: but dimension 1 / and
                        // dimension 1); phase 2, once none is left: every other one.
                        const auto phase1 = [&](int d) {
                            if (kind == AdaptiveRouting::AboNegativeFirst && d == 0) return false;
                            if (kind == AdaptiveRouting::AboPositiveLast && d == 0) return true;
                            return shape.coord[x][d] == 1 && shape.coord[t.sw][d] == 0;
                        };
                        for (int pass = 0; pass < 2 && cands.empty(); ++pass)
                            for (int d = 0; d < nd; ++d) {
                                if (shape.coord[x][d] == shape.coord[t.sw][d]) continue;
                                if (pass == 0 && !phase1(d)) continue;
                                c = shape.coord[x];
                                c[d] = shape.coord[t.sw][d];
                                for (PortNum p : ports.to(x, at[index(c)])) cands.push_back({p, 0});
                            }
                    } else if (const int twist_to =
                                   int(host_rank[l] % unsigned(shape.dims[twist_dim].k));
                               twisted && from_host && shape.coord[x][twist_dim] != twist_to &&
                               twist_cabled(x, twist_dim, twist_to)) {
                        c = shape.coord[x];
                        c[twist_dim] = twist_to;
                        for (PortNum p : ports.to(x, at[index(c)])) cands.push_back({p, 0});
                    } else {
                        int d = -1;
                        for (int o : order)
                            if (shape.coord[x][o] != shape.coord[t.sw][o]) {
                                d = o;
                                break;
                            }
                        c = shape.coord[x];
                        const auto in_row = [&](int coordinate) {
                            c[d] = coordinate;
                            return at[index(c)];
                        };
                        const auto add = [&](std::uint32_t to, std::uint8_t prio) {
                            for (PortNum p : ports.to(x, to)) cands.push_back({p, prio});
                        };
                        add(in_row(shape.coord[t.sw][d]), 0);
                        // Twisted ADOR: the twist was the extra hop of its dimension. On a
                        // damaged fabric the extra hop goes only where the straight hop after
                        // it is cabled, and DOR takes it only where the direct cable is
                        // missing (row_detours.hpp).
                        // A dimension's first hop; on a damaged fabric also the twist's
                        // correction, which may need a detour too (see the header).
                        const bool start = in_dim != d || (twisted && detours && d == twist_dim);
                        if ((ador && start && !(twisted && d == twist_dim)) ||
                            (detours && start && cands.empty())) {
                            row_detours(
                                shape.dims[d].k, shape.coord[x][d], shape.coord[t.sw][d], in_row,
                                [&](std::uint32_t a, std::uint32_t b) {
                                    return !damaged || ports.linked(a, b);
                                },
                                via);
                            for (std::uint32_t z : via) add(z, 1);
                        }
                        if (cands.empty() && start)
                            throw RoutingError(fmt::format(
                                "adaptive FlatFly routing: no route from {} toward "
                                "{} in dimension {}: its cable and every detour through its row "
                                "are missing; use distance_based for damaged fabrics",
                                display_name(f, sw), display_name(f, g.node[t.sw]), d + 1));
                    }
                    // Empty only on a damaged fabric, for a state no packet reaches.
                    table[l] = cands.empty() ? RoutingFunction::kNoSet : rf->intern(cands);
                }
                kind_table = rf->intern_table(table);
                rf->set_table(sw, v, in, kind_table);
            }
        }
    }
    rf->compact();

    // VL2VL: the order's VL block; +1 for a hop in the dimension the packet came in on (ADOR)
    // but the twist's, and for a hop from a host into the twist's dimension (Twisted). A CA
    // starts on its order's first VL; the source's SL names the order (Mixed).
    rf->vl2vl.tables.assign(f.num_nodes(), {});
    for (std::uint32_t x = 0; x < n; ++x) {
        const NodeId sw = g.node[x];
        const PortNum np = f.node(sw).num_ports;
        auto& tab = rf->vl2vl.tables[sw];
        tab.assign(Sl2Vl::size(np), kSl2VlDropAll);
        for (PortNum in = 1; in <= np; ++in)
            for (PortNum out = 1; out <= np; ++out) {
                if (!f.port(sw, in).connected() || !f.port(sw, out).connected()) continue;
                Sl2VlTable t = kSl2VlDropAll;
                for (unsigned v = 0; v < vls; ++v) {
                    const unsigned base = v / per_order * per_order;
                    const int twist_dim = twisted ? twist_dim_of(orders[v / per_order]) : -1;
                    const bool same = port_dim[x][in] >= 0 && port_dim[x][in] == port_dim[x][out] &&
                                      port_dim[x][out] != twist_dim;
                    const bool twist =
                        twisted && port_dim[x][in] < 0 && port_dim[x][out] == twist_dim;
                    // Damaged, in the twist's dimension from that dimension: the hop correcting
                    // the twist (in on base + 1) goes on base + 0 as before, a detour's second
                    // hop (in on base + 0) on base + 2.
                    if (twisted && detours && port_dim[x][in] >= 0 &&
                        port_dim[x][in] == twist_dim && port_dim[x][out] == twist_dim) {
                        t[v] = v == base + 2 ? kSl2VlDropAll[0]
                                             : std::uint8_t(v == base ? base + 2 : base);
                        continue;
                    }
                    t[v] =
                        std::uint8_t(port_dim[x][out] < 0
                                         ? v
                                         : base + (((ador || detours) && same) || twist ? 1 : 0));
                }
                tab[Sl2Vl::index(np, in, out)] = t;
            }
    }
    for (NodeId ca : f.cas()) {
        const PortNum np = f.node(ca).num_ports;
        auto& tab = rf->vl2vl.tables[ca];
        tab.assign(Sl2Vl::size(np), kSl2VlDropAll);
        Sl2VlTable t = kSl2VlDropAll;
        for (unsigned sl = 0; sl < orders.size(); ++sl) t[sl] = std::uint8_t(sl * per_order);
        // Damaged: the static engine's path SLs (other orders, detour layers) may be what the
        // source sets; one order then starts on its VL 0 whatever the SL.
        if (damaged && !mixed) t.fill(0);
        for (PortNum p = 1; p <= np; ++p) tab[Sl2Vl::index(np, 0, p)] = t;
    }
    if (mixed) {
        std::vector<std::uint8_t> row(std::size_t(max_lid) + 1, 0);
        for (Lid l = 1; l <= max_lid; ++l) row[l] = std::uint8_t(host_rank[l] % orders.size());
        rf->source_sls = PathSlTable(f.num_port_slots(), max_lid);
        for (std::uint32_t x = 0; x < n; ++x) rf->source_sls.set_switch_row(f, g.node[x], row);
    }
    return rf;
}

} // namespace ibrt::flatfly
