// Distance Based routing as forwarding sets (engines/direct/distance_based.hpp; paper 003
// §3.7).
#include "engines/direct/distance_based.hpp"

#include "engines/direct/neighbor_ports.hpp"
#include "fabric/display_name.hpp"
#include "mapping/switch_links.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace ibrt::direct {
namespace {

constexpr std::uint8_t kFar = mapping::kFarHops;

// Switch-to-switch hop counts (mapping::member_hops over every switch; symmetric).
std::vector<std::uint8_t> distances(const mapping::SwitchLinks& g) {
    std::vector<std::uint32_t> all(g.num_switches());
    std::iota(all.begin(), all.end(), 0u);
    try {
        return mapping::member_hops(g, all);
    } catch (const std::length_error& e) {
        throw RoutingError(e.what());
    }
}

} // namespace

std::shared_ptr<const RoutingFunction> distance_based_sets(const Fabric& f, const Lids& lids,
                                                           int extra_hops, bool deflection) {
    const mapping::SwitchLinks g = mapping::switch_links(f);
    const std::size_t n = g.num_switches();
    const std::vector<std::uint8_t> dist = distances(g);
    unsigned diameter = 0;
    for (std::uint32_t s = 0; s < n; ++s)
        for (std::uint32_t t = 0; t < n; ++t) {
            if (dist[s * n + t] == kFar)
                throw RoutingError(display_name(f, g.node[s]) + " cannot reach " +
                                   display_name(f, g.node[t]) +
                                   ": distance-based routing needs connected switches");
            diameter = std::max<unsigned>(diameter, dist[s * n + t]);
        }
    const unsigned top = diameter + unsigned(extra_hops); // the highest VL a packet starts on
    if (top + 1 > 15)
        throw RoutingError(fmt::format("Distance Based +{} on a fabric of diameter {} needs {} "
                                       "VLs; IBA has at most 15",
                                       extra_hops, diameter, top + 1));
    const NeighborPorts ports(f, g);
    const std::vector<LidTarget> target = lid_targets(f, g, lids);
    const Lid max_lid = lids.max_lid();
    auto rf = std::make_shared<RoutingFunction>(f, max_lid, top + 1, false);
    rf->vl_by_in_vl = true;
    // A switch's tables are built whole and stored once each (at most one per switch and VL).
    const std::size_t w = std::size_t(max_lid) + 1;
    rf->reserve_tables(n * (top + 1));
    std::vector<std::uint32_t> tables((top + 1) * w); // per VL: the switch's DLID table

    std::vector<Candidate> cands;
    std::vector<std::uint32_t> set_of((top + 1) * n); // per (VL, destination switch)
    std::vector<std::uint8_t> source_row(std::size_t(max_lid) + 1);
    rf->source_sls = PathSlTable(f.num_port_slots(), max_lid);
    for (std::uint32_t s = 0; s < n; ++s) {
        std::fill(set_of.begin(), set_of.end(), RoutingFunction::kNoSet);
        std::fill(source_row.begin(), source_row.end(), 0);
        std::fill(tables.begin(), tables.end(), RoutingFunction::kNoSet);
        const auto around = g.around(s);
        for (Lid l = 1; l <= max_lid; ++l) {
            const LidTarget& to = target[l];
            if (to.sw == mapping::kNone || to.port == 0) continue; // switches receive no traffic
            const unsigned d = dist[s * n + to.sw];
            source_row[l] = std::uint8_t(d + unsigned(extra_hops));
            for (unsigned v = 0; v <= top; ++v) {
                std::uint32_t& id = set_of[v * n + to.sw];
                if (d == 0) {
                    const Candidate c{to.port, 0};
                    tables[v * w + l] = rf->intern({&c, 1});
                    continue;
                }
                if (id == RoutingFunction::kNoSet) {
                    cands.clear();
                    for (const auto& in : around) {
                        const unsigned dp = dist[in.peer * n + to.sw];
                        std::uint8_t prio;
                        if (dp < d)
                            prio = 0;
                        else if (dp == d && d + 1 <= v)
                            prio = 1;
                        else if (deflection && dp == d + 1 && dp + 1 <= v)
                            prio = 2;
                        else
                            continue;
                        for (PortNum p : ports.to(s, in.peer)) cands.push_back({p, prio});
                    }
                    id = rf->intern(cands);
                }
                tables[v * w + l] = id;
            }
        }
        for (unsigned v = 0; v <= top; ++v)
            rf->set_table(g.node[s], v, 0,
                          rf->intern_table({tables.data() + std::size_t(v) * w, w}));
        rf->source_sls.set_switch_row(f, g.node[s], source_row);
    }
    rf->compact();

    // VL2VL: every switch-to-switch hop one VL down, the hop to a CA on the VL it came in on;
    // a CA starts a packet on the VL of its SL, the hop budget (whatever the engine's own
    // SL2VL tables say for its LFT routing).
    rf->vl2vl.tables.assign(f.num_nodes(), {});
    Sl2VlTable identity;
    for (unsigned v = 0; v < 16; ++v) identity[v] = std::uint8_t(v);
    for (NodeId ca : f.cas()) {
        const PortNum np = f.node(ca).num_ports;
        auto& t = rf->vl2vl.tables[ca];
        t.assign(Sl2Vl::size(np), kSl2VlDropAll);
        for (PortNum p = 1; p <= np; ++p) t[Sl2Vl::index(np, 0, p)] = identity;
    }
    for (std::uint32_t s = 0; s < n; ++s) {
        const NodeId sw = g.node[s];
        const PortNum np = f.node(sw).num_ports;
        auto& t = rf->vl2vl.tables[sw];
        t.assign(Sl2Vl::size(np), kSl2VlDropAll);
        Sl2VlTable down = kSl2VlDropAll, same = kSl2VlDropAll;
        for (unsigned v = 0; v <= top; ++v) {
            same[v] = std::uint8_t(v);
            if (v > 0) down[v] = std::uint8_t(v - 1);
        }
        for (PortNum in = 1; in <= np; ++in) {
            if (!f.port(sw, in).connected()) continue;
            for (PortNum out = 1; out <= np; ++out) {
                const Port& o = f.port(sw, out);
                if (!o.connected()) continue;
                t[Sl2Vl::index(np, in, out)] = f.node(o.peer_node).is_switch() ? down : same;
            }
        }
    }
    return rf;
}

void add_adaptive_sets(const Engine& engine, const EngineOptions& opt, const Fabric& f,
                       Routing& r) {
    const std::int64_t e = engine.param_int(opt, "distance_based");
    if (engine.param_flag(opt, "adaptive_links")) {
        if (e >= 0)
            throw std::invalid_argument(std::string(engine.name()) +
                                        ": distance_based and adaptive_links are two routings; "
                                        "give one");
        r.forwarding_sets = parallel_link_sets(f, r);
        return;
    }
    if (e < 0) return;
    r.forwarding_sets =
        distance_based_sets(f, r.lids, int(e), engine.param_flag(opt, "deflection"));
    r.stats.emplace_back("distance_based_vls", double(r.forwarding_sets->vl_keys()));
}

} // namespace ibrt::direct
