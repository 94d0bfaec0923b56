// The `dragonfly-plus` engine (issue 37): Dragonfly+ (Shpiner, Haramaty, Eliad, Zdornov,
// Gafni, Zahavi, HiPINEB 2017), the form InfiniBand deployments call a Dragonfly, mapped from
// the cabling alone (mapping/dragonfly_plus_map.hpp): groups that are two-level fat trees,
// leaves with the hosts, spines joined across groups by global links.
//
// Minimal routing (the paper's): a leaf sends up to a spine of its group that holds a global
// link to the destination's group (a gateway), the gateway crosses, and the spine reached goes
// down to the destination leaf; within a group, up to a spine cabled to both leaves and down.
// Choices among gateways, their global links and common spines are made per destination LID
// (d-mod-k, as a fat tree spreads), so the LFTs stay per destination.
//
// A non-minimal alternative (the paper's Valiant-like path through an intermediate group) for
// opensm's SA to hand out: with LMC >= 1 every end port has 2^LMC LIDs; the base LID is routed
// minimally and each further LID k routes a part of the groups through an intermediate group
// i whose spine reached from the source group is itself a gateway to the destination group,
// so the path is up, global, global, down. A destination-based table forces the intermediate
// group to route that LID directly, so per (destination group, k) the groups are split into
// those that go through an intermediate and those that serve as one (greedy, rotated by k so
// that another LID covers the groups one leaves direct, and toward intermediates a group has
// not taken for another LID); the stat `group_pairs_with_alternative` says how many (source
// group, destination group) pairs got one, of `group_pairs_with_an_intermediate` that could.
// Which groups can be intermediates depends on the arrangement of the global links (few in
// the absolute one). With `intermediates=any`, every group joined to both can: the paths
// through one whose spine reached is no gateway go down and up again there (the paper's
// non-minimal path), on the layers below.
//
// Deadlock freedom from the ports a switch sees (SL2VL: (in port, out port, SL) -> VL), with
// paths from end ports (the CAs on leaves) to every LID:
//  - SL 0, the minimal paths: up, global, down hops all on VL 0. Along every path the hop
//    kinds climb up < global < down, so VL 0's dependencies are acyclic. A path to a spine's
//    own LID may end with a down hop and an up hop (a leaf turning a packet from a spine to
//    another spine): that up hop, seen at the leaf as spine-port in and spine-port out, goes
//    on VL 1 and leads nowhere.
//  - SL 1, up, global, global, down (the alternatives, and the minimal paths between two
//    groups not joined that cross a third group's gateway): a spine that takes a packet in
//    from a global port puts it on VL 1, as does a leaf that takes it from a spine. VL 0 then
//    holds up -> global, and VL 1 global -> down (-> up at the end toward a spine's LID).
//  - Everything else (a damaged group where a leaf reaches a spine or a leaf only down and up
//    again, groups joined only through a turn in a third group, ...) is put on layers as the
//    dragonfly and slimfly engines do (engines/direct/dependency_layer.hpp, DFSSSP's way): by
//    source switch and LID, the first layer whose dependencies between switch links stay
//    acyclic with the path. Layer j is path SL 2 + j, with every hop but the first (from a
//    host, on VL 0) on VL 1 + j; layer 0 shares VL 1 and is seeded with VL 1's dependencies
//    from the SL 1 paths. No dependency leads to a lower VL.
// So an intact Dragonfly+ needs 2 VLs (1 with no alternative and no spine LID behind a turn).
// Switches' own packets (port 0) follow the same tables; like the checker (check/
// credit_loops.hpp) and ibdmchk, the proof is about the paths from end ports.
//
// Not routed (the engine declines, naming what is missing): a fabric that does not map as a
// Dragonfly+, and layers beyond the ports' data VLs or the 16 SLs.
#include "engines/direct/dependency_layer.hpp"
#include "engines/direct/direct_lids.hpp"
#include "engines/direct/neighbor_ports.hpp"
#include "engines/engine.hpp"
#include "fabric/display_name.hpp"
#include "mapping/map_fabric.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace ibrt {
namespace {

using mapping::kNone;

enum PortClass { kHost = 0, kUp = 1, kDown = 2, kGlobal = 3 }; // as the sending switch sees it
enum Hop : char { kHopUp = 'U', kHopDown = 'D', kHopGlobal = 'G' };

constexpr std::uint8_t kFar = mapping::kFarHops;

constexpr std::string_view kIntermediateChoices[] = {"landing", "any"};
constexpr EngineParam kParams[] = {
    {"intermediates",
     EngineParam::Kind::Choice,
     "landing",
     "intermediate groups of the alternative LIDs: landing (only those whose spine reached is "
     "a gateway to the destination group: up, global, global, down on SL 1, 2 VLs) or any "
     "(every group joined to both, the others down and up again in the intermediate group, on "
     "VL layers: more pairs and more intermediates per pair, more VLs)",
     0,
     0,
     kIntermediateChoices,
     {}}};

// The SL class of a path by its hops: 0 for U, UD, UG, UGD (each optionally ending with a U
// to a spine's LID), 1 for UGG with the same endings, -1 for anything else (layers).
int path_class(std::string_view hops) {
    if (hops.empty()) return 0;
    if (hops[0] != kHopUp) return -1;
    std::string_view r = hops.substr(1);
    int sl = 0;
    if (!r.empty() && r[0] == kHopGlobal) {
        r.remove_prefix(1);
        if (!r.empty() && r[0] == kHopGlobal) {
            r.remove_prefix(1);
            sl = 1;
        }
    }
    return r.empty() || r == "D" || r == "DU" ? sl : -1;
}

class DragonflyPlusEngine final : public Engine {
  public:
    std::string_view name() const override { return "dragonfly-plus"; }
    std::span<const EngineParam> params() const override { return kParams; }

  protected:
    Routing compute(const Fabric& f, const Lids* preassigned,
                    const EngineOptions& opt) const override {
        const mapping::SwitchLinks g = mapping::switch_links(f);
        const mapping::Shape s = mapping::map_fabric(f, g, mapping::link_classes(g));
        if (s.family != mapping::Family::DragonflyPlus)
            throw RoutingError("dragonfly-plus: the fabric is not a Dragonfly+ (" +
                               mapping::why_not_wanted(s) + ")");
        const std::size_t n = g.num_switches(), groups = std::size_t(s.groups);
        const direct::NeighborPorts ports(f, g);
        const auto grp = [&](std::uint32_t v) { return std::size_t(s.group[v]); };
        std::vector<std::vector<std::uint32_t>> members(groups);
        std::vector<std::uint32_t> pos(n); // index among the group's members
        for (std::uint32_t v = 0; v < n; ++v) {
            pos[v] = std::uint32_t(members[grp(v)].size());
            members[grp(v)].push_back(v);
        }

        // Local hop counts within each group, from every member: dist[g][t * k + x].
        std::vector<std::vector<std::uint8_t>> dist(groups);
        for (std::size_t gi = 0; gi < groups; ++gi) dist[gi] = mapping::member_hops(g, members[gi]);
        const auto local_dist = [&](std::uint32_t x, std::uint32_t t) {
            return dist[grp(x)][pos[t] * members[grp(x)].size() + pos[x]];
        };
        // The next switch from x toward t in x's group: a neighbour one hop nearer, by lid.
        std::vector<std::uint32_t> cand;
        const auto local_next = [&](std::uint32_t x, std::uint32_t t, Lid lid) {
            cand.clear();
            const std::uint8_t d = local_dist(x, t);
            for (const auto& i : g.around(x))
                if (grp(i.peer) == grp(x) && local_dist(i.peer, t) + 1 == d) cand.push_back(i.peer);
            return cand.empty() ? kNone : cand[lid % cand.size()];
        };

        // Global links by ordered pair of groups: (switch in a, switch in b).
        std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> gates(groups * groups);
        std::vector<std::uint8_t> reaches(n * groups, 0); // [w * groups + h]: w cabled to h
        for (const auto& l : g.links) {
            const std::size_t a = grp(l.a), b = grp(l.b);
            if (a == b) continue;
            gates[a * groups + b].emplace_back(l.a, l.b);
            gates[b * groups + a].emplace_back(l.b, l.a);
            reaches[l.a * groups + b] = reaches[l.b * groups + a] = 1;
        }
        // Between groups not joined, the next group on a shortest path of groups.
        std::vector<std::uint32_t> next_group(groups * groups, kNone);
        {
            std::vector<std::uint32_t> gd(groups), queue;
            for (std::size_t b = 0; b < groups; ++b) {
                std::fill(gd.begin(), gd.end(), kNone);
                gd[b] = 0;
                queue.assign(1, std::uint32_t(b));
                for (std::size_t head = 0; head < queue.size(); ++head)
                    for (std::size_t a = 0; a < groups; ++a)
                        if (gd[a] == kNone && !gates[a * groups + queue[head]].empty()) {
                            gd[a] = gd[queue[head]] + 1;
                            queue.push_back(std::uint32_t(a));
                        }
                for (std::size_t a = 0; a < groups; ++a) {
                    if (a == b || gd[a] == kNone) continue;
                    std::vector<std::uint32_t> nearer;
                    for (std::size_t i = 0; i < groups; ++i)
                        if (gd[i] + 1 == gd[a] && !gates[a * groups + i].empty())
                            nearer.push_back(std::uint32_t(i));
                    next_group[a * groups + b] = nearer[(a + b) % nearer.size()];
                }
            }
        }

        // Groups not joined: through a group joined to both whose spine reached is a gateway
        // to the destination (up, global, global, down: SL 1), if one is; else (kNone) the next
        // group on a shortest path, over any of its links.
        std::vector<std::uint32_t> land(groups * groups, kNone);
        for (std::size_t a = 0; a < groups; ++a)
            for (std::size_t d = 0; d < groups; ++d) {
                if (a == d || !gates[a * groups + d].empty()) {
                    land[a * groups + d] = std::uint32_t(d);
                    continue;
                }
                for (std::size_t j = 0; j < groups && land[a * groups + d] == kNone; ++j) {
                    const std::size_t i = (a + d + j) % groups;
                    for (const auto& [u, w] : gates[a * groups + i])
                        if (reaches[w * groups + d]) land[a * groups + d] = std::uint32_t(i);
                }
            }

        Routing r;
        EngineOptions o = opt;
        if (!o.lmc) o.lmc = 1; // one alternative LID per end port unless told otherwise
        r.lids = direct::direct_lids(f, preassigned, o, "dragonfly-plus", r.lmc);
        const std::size_t lids = std::size_t(r.lids.max_lid()) + 1;
        const std::vector<direct::LidTarget> target = direct::lid_targets(f, g, r.lids);
        const unsigned alts = (1u << r.lmc) - 1;

        // via[(k - 1) * groups * groups + a * groups + d]: the intermediate group of LID offset
        // k >= 1 from group a to group d, or d (direct). A group that serves as an intermediate
        // routes that offset directly.
        std::vector<std::uint32_t> via(std::size_t(alts) * groups * groups);
        std::size_t with_alternative = 0, with_intermediate = 0;
        // Whether a global link from group a to group i lands on a gateway to group d.
        const auto lands = [&](std::size_t a, std::size_t i, std::size_t d) {
            return std::any_of(gates[a * groups + i].begin(), gates[a * groups + i].end(),
                               [&](const auto& l) { return reaches[l.second * groups + d] != 0; });
        };
        {
            const bool any_intermediate = param_choice(opt, "intermediates") == "any";
            std::vector<std::uint8_t> serves(groups), covered(groups);
            std::vector<std::vector<std::uint32_t>> taken(groups); // by a, over the LIDs
            std::vector<std::vector<std::uint32_t>> choices(groups);
            std::vector<std::uint32_t> order;
            for (std::size_t d = 0; d < groups; ++d) {
                // The intermediate groups each group could take toward d.
                for (std::size_t a = 0; a < groups; ++a) {
                    choices[a].clear();
                    for (std::size_t i = 0; i < groups && a != d; ++i) {
                        if (i == a || i == d) continue;
                        for (const auto& [u, w] : gates[a * groups + i])
                            if (reaches[w * groups + d] ||
                                (any_intermediate && !gates[i * groups + d].empty())) {
                                choices[a].push_back(std::uint32_t(i));
                                break;
                            }
                    }
                    with_intermediate += !choices[a].empty();
                }
                std::fill(covered.begin(), covered.end(), 0);
                for (auto& t : taken) t.clear();
                for (unsigned k = 1; k <= alts; ++k) {
                    const auto at = [&](std::size_t a) -> std::uint32_t& {
                        return via[((k - 1) * groups + a) * groups + d];
                    };
                    for (std::size_t a = 0; a < groups; ++a) at(a) = std::uint32_t(d);
                    std::fill(serves.begin(), serves.end(), 0);
                    // Groups still without an alternative first, the fewest choices first.
                    order.resize(groups);
                    std::iota(order.begin(), order.end(), 0u);
                    std::stable_sort(order.begin(), order.end(),
                                     [&](std::uint32_t x, std::uint32_t y) {
                                         return std::pair(covered[x], choices[x].size()) <
                                                std::pair(covered[y], choices[y].size());
                                     });
                    for (std::uint32_t a : order) {
                        if (serves[a]) continue;
                        std::uint32_t best = kNone;
                        int best_rank = -1;
                        for (std::uint32_t i : choices[a]) {
                            if (at(i) != d) continue; // goes through another group itself
                            // One a has not taken for another LID (more paths), landing on a
                            // gateway (SL 1 rather than a layer), then serving already, else
                            // covered by an earlier LID: fewer groups held to direct routes
                            // that still lack an alternative.
                            const bool fresh =
                                std::find(taken[a].begin(), taken[a].end(), i) == taken[a].end();
                            const int rank =
                                8 * fresh + 4 * lands(a, i, d) + 2 * serves[i] + covered[i];
                            if (rank > best_rank) {
                                best_rank = rank;
                                best = i;
                            }
                        }
                        if (best == kNone) continue;
                        at(a) = best;
                        taken[a].push_back(best);
                        serves[best] = 1;
                        covered[a] = 1;
                    }
                }
                for (std::size_t a = 0; a < groups; ++a) with_alternative += covered[a];
            }
        }

        // The next switch from x toward destination switch y for `lid` (offset k).
        std::vector<std::uint32_t> pick;
        const auto next = [&](std::uint32_t x, std::uint32_t y, Lid lid, unsigned k) {
            const std::size_t a = grp(x), d = grp(y);
            if (a == d) return local_next(x, y, lid);
            std::uint32_t mid =
                k == 0 ? std::uint32_t(d) : via[((k - 1) * groups + a) * groups + d];
            if (mid == d) mid = land[a * groups + d];
            // The global links to use: toward an intermediate group, landing on a gateway to d;
            // else toward d, or the next group on the way to it.
            const bool landing = mid != d && mid != kNone && lands(a, mid, d);
            const std::size_t to = mid != d && mid != kNone ? mid : next_group[a * groups + d];
            const auto& links = gates[a * groups + to];
            // Where some links land on a spine cabled to y (or on y), only those.
            const auto lands_by_y = [&](std::uint32_t w) { return w == y || ports.linked(w, y); };
            const bool near_y =
                to == d && std::any_of(links.begin(), links.end(),
                                       [&](const auto& l) { return lands_by_y(l.second); });
            const auto usable = [&](std::uint32_t w) {
                return landing ? reaches[w * groups + d] != 0 : !near_y || lands_by_y(w);
            };
            pick.clear();
            for (const auto& [u, w] : links)
                if (u == x && usable(w)) pick.push_back(w);
            if (!pick.empty()) return pick[lid % pick.size()];
            // A spine with no such link: over a global link of its own to a group that routes
            // this LID straight to d and lands on one of d's gateways (up, global, global,
            // down: SL 1) rather than down and up again to a gateway.
            if (s.spine[x]) {
                for (const auto& i : g.around(x)) {
                    const std::size_t gi = grp(i.peer);
                    if (gi != a && reaches[i.peer * groups + d] &&
                        (k == 0 || via[((k - 1) * groups + gi) * groups + d] == d))
                        pick.push_back(i.peer);
                }
                if (!pick.empty()) return pick[lid % pick.size()];
            }
            // A leaf: up to a gateway cabled to it; otherwise toward the nearest gateway.
            std::uint8_t best = kFar;
            for (const auto& [u, w] : links) {
                if (!usable(w)) continue;
                const std::uint8_t du = local_dist(x, u);
                if (du < best) {
                    best = du;
                    pick.clear();
                }
                if (du == best && std::find(pick.begin(), pick.end(), u) == pick.end())
                    pick.push_back(u);
            }
            if (pick.empty()) return kNone;
            std::sort(pick.begin(), pick.end());
            const std::uint32_t u = pick[lid % pick.size()];
            return best == 1 ? u : local_next(x, u, lid);
        };

        r.lft.assign(f.num_nodes(), {});
        for (NodeId sw : f.switches()) r.lft[sw].assign(lids, kNoPath);
        const auto offset = [&](Lid lid) {
            const PortId owner = r.lids.owner(lid);
            return f.node(f.port_node(owner)).is_switch() ? 0u : unsigned(lid - r.lids.base(owner));
        };
        for (std::uint32_t x = 0; x < n; ++x) {
            Lft& lft = r.lft[g.node[x]];
            for (Lid lid = 1; lid < lids; ++lid) {
                const std::uint32_t y = target[lid].sw;
                if (y == kNone) continue;
                if (y == x) {
                    lft[lid] = target[lid].port;
                    continue;
                }
                const std::uint32_t w = next(x, y, lid, offset(lid));
                if (w == kNone)
                    throw std::logic_error("dragonfly-plus: no next switch from " +
                                           display_name(f, g.node[x]));
                lft[lid] = ports.spread(x, w, lid);
            }
        }

        // Every path from a switch with end ports, walked on the tables, by its hops' kinds.
        const unsigned max_vls = fewest_port_data_vls(f, opt.default_data_vls);
        const std::size_t max_layers = std::min<std::size_t>(max_vls > 1 ? max_vls - 1 : 0, 14);
        std::vector<direct::DependencyLayer> layers;
        layers.emplace_back(g.incidences.size()); // layer 0, on VL 1 with the SL 1 paths
        std::vector<std::vector<std::uint8_t>> sl_row(n);
        std::string hops;
        std::vector<std::uint32_t> chain;
        std::vector<std::pair<std::uint32_t, Lid>> off; // (source, lid) for the layers
        std::size_t on_sl1 = 0, turned = 0;
        const auto walk = [&](std::uint32_t x, Lid lid) {
            hops.clear();
            chain.clear();
            for (std::uint32_t v = x; v != target[lid].sw;) {
                if (hops.size() > n) throw std::logic_error("dragonfly-plus: a path loops");
                const Port& port = f.port(g.node[v], r.lft[g.node[v]][lid]);
                const std::uint32_t w = g.dense[port.peer_node];
                hops.push_back(grp(v) != grp(w) ? kHopGlobal : s.spine[v] ? kHopDown : kHopUp);
                chain.push_back(g.channel(v, w));
                v = w;
            }
        };
        for (std::uint32_t x = 0; x < n; ++x) {
            if (g.cas[x] == 0) continue;
            sl_row[x].assign(lids, 0);
            for (Lid lid = 1; lid < lids; ++lid) {
                if (target[lid].sw == kNone || target[lid].sw == x) continue;
                walk(x, lid);
                const int c = path_class(hops);
                if (c == 1) {
                    sl_row[x][lid] = 1;
                    ++on_sl1;
                    // From the second global hop on, VL 1: layer 0's seed.
                    const std::size_t second = hops.find("GG") + 1;
                    if (!layers[0].add_chain({chain.begin() + std::ptrdiff_t(second), chain.end()}))
                        throw std::logic_error("dragonfly-plus: VL 1 of the SL 1 paths cycles");
                } else if (c < 0) {
                    off.emplace_back(x, lid);
                }
                turned += c == 0 && !hops.empty() && hops.back() == kHopUp && hops.size() > 1;
            }
        }
        for (const auto& [x, lid] : off) {
            walk(x, lid);
            chain.erase(chain.begin()); // the first hop is on VL 0 (from a host)
            const std::size_t layer =
                direct::place_on_layer(layers, chain, g.incidences.size(), max_layers);
            if (layer == layers.size())
                throw RoutingError(fmt::format(
                    "dragonfly-plus: the paths around {} missing leaf-spine links and {} pairs "
                    "of groups not joined need more than {}: VL 0 for the minimal paths and {} "
                    "layers for the paths that leave their order (from {} to LID {}); too much "
                    "of the Dragonfly+ is missing",
                    s.missing_links.size(), s.missing_global_links,
                    2 + max_layers == 16 ? std::string("16 SLs")
                                         : fmt::format("the ports' {} data VLs", max_vls),
                    max_layers + 1, display_name(f, g.node[x]), lid));
            sl_row[x][lid] = std::uint8_t(2 + layer);
        }
        const bool any_sl = on_sl1 > 0 || !off.empty();
        const std::size_t used_layers = off.empty() ? 0 : layers.size();

        const auto port_class = [&](PortId p) {
            const Port& port = f.port(p);
            if (f.port_num(p) == 0 || !port.connected() || g.dense[port.peer_node] == kNone)
                return int(kHost);
            const std::uint32_t v = g.dense[f.port_node(p)], w = g.dense[port.peer_node];
            return grp(v) != grp(w) ? int(kGlobal) : s.spine[v] ? int(kDown) : int(kUp);
        };
        r.sl2vl = direct::sl2vl_by_port(
            f, g, port_class,
            [&](int in, int out, unsigned sl) -> std::uint8_t {
                if (sl == 0 || !any_sl) return in == kUp && out == kUp ? 1 : 0; // a turn: VL 1
                if (sl == 1) return in == kGlobal || in == kUp ? 1 : 0;
                return std::uint8_t(in == kHost ? 0 : sl - 1); // layer sl - 2 on VL sl - 1
            },
            any_sl ? unsigned(2 + used_layers) : 16u);
        const bool vl1 = turned > 0 || on_sl1 > 0 || used_layers > 0;
        r.data_vls = std::uint8_t(1 + (vl1 ? std::max<std::size_t>(1, used_layers) : 0));
        if (any_sl) {
            r.path_sls = PathSlTable(f.num_port_slots(), r.lids.max_lid());
            for (std::uint32_t x = 0; x < n; ++x)
                if (!sl_row[x].empty()) r.path_sls.set_switch_row(f, g.node[x], sl_row[x]);
        }
        r.stats.emplace_back("groups", double(groups - s.unplaced.size()));
        r.stats.emplace_back("missing_leaf_spine_links", double(s.missing_links.size()));
        r.stats.emplace_back("group_pairs_not_joined", double(s.missing_global_links));
        // Of the ordered pairs of groups with some intermediate group for an alternative
        // (the arrangement decides: few in the absolute one), those one of the LIDs takes.
        r.stats.emplace_back("group_pairs_with_an_intermediate", double(with_intermediate));
        r.stats.emplace_back("group_pairs_with_alternative", double(with_alternative));
        r.stats.emplace_back("paths_on_sl1", double(on_sl1));
        r.stats.emplace_back("paths_turning_to_a_spine", double(turned));
        r.stats.emplace_back("paths_on_layers", double(off.size()));
        r.stats.emplace_back("vl_layers", double(used_layers));
        return r;
    }
};

} // namespace

std::unique_ptr<Engine> make_dragonfly_plus_engine() {
    return std::make_unique<DragonflyPlusEngine>();
}

} // namespace ibrt
