// The escape layer of a degraded fat tree or torus; see escape_layer.hpp.
#include "engines/common/escape_layer.hpp"

#include "engines/engine.hpp"
#include "graph/updown.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace ibrt::escape {
namespace {

using graph::kFar;

// The next-hop candidates of every switch toward one destination switch x: Up*/Down* routes of
// the fewest hops (see the header).
class EscapeRoutes {
  public:
    EscapeRoutes(const Fabric& f, const graph::UpDown& ud) : f_(f), ud_(ud) {
        // Switches in up-order, root first: an up edge leads to one earlier in it.
        for (NodeId s : f.switches()) order_.push_back(s);
        std::sort(order_.begin(), order_.end(), [&](NodeId a, NodeId b) {
            return ud.level[a] != ud.level[b] ? ud.level[a] < ud.level[b] : a < b;
        });
        down_.assign(f.num_nodes(), kFar);
        dist_.assign(f.num_nodes(), kFar);
        first_.assign(f.num_nodes() + 1, 0);
    }

    // Computes the candidates toward x; then candidates(s) holds them.
    void toward(NodeId x) {
        std::fill(down_.begin(), down_.end(), kFar);
        // Down set: the switches that reach x by down edges only, with their distance.
        queue_.assign(1, x);
        down_[x] = 0;
        for (std::size_t h = 0; h < queue_.size(); ++h) {
            const NodeId v = queue_[h];
            for_each_switch_link(v, [&](PortId e, NodeId s) {
                // s -> v is down exactly when v -> s is up.
                if (ud_.up(f_, e) && down_[s] == kFar) {
                    down_[s] = down_[v] + 1;
                    queue_.push_back(s);
                }
            });
        }
        // Every other switch goes up: in up-order, its up neighbours are final already.
        for (NodeId s : order_) {
            if (down_[s] != kFar) {
                dist_[s] = down_[s];
                continue;
            }
            std::uint32_t best = kFar;
            for_each_switch_link(s, [&](PortId e, NodeId u) {
                if (ud_.up(f_, e)) best = std::min(best, dist_[u]);
            });
            dist_[s] = best == kFar ? kFar : best + 1;
        }
        // Candidates: down to a down-set switch one hop nearer, or (outside the down set) up
        // to a switch one hop nearer.
        ports_.clear();
        for (NodeId s = 0; s < f_.num_nodes(); ++s) {
            first_[s] = static_cast<std::uint32_t>(ports_.size());
            if (!f_.node(s).is_switch() || s == x || dist_[s] == kFar) continue;
            const bool in_down = down_[s] != kFar;
            for_each_switch_link(s, [&](PortId e, NodeId v) {
                const bool up = ud_.up(f_, e);
                const std::uint32_t dv = in_down ? down_[v] : dist_[v];
                if (up != in_down && dv != kFar && dv + 1 == dist_[s])
                    ports_.push_back(f_.port_num(e));
            });
        }
        first_[f_.num_nodes()] = static_cast<std::uint32_t>(ports_.size());
    }

    std::span<const PortNum> candidates(NodeId s) const {
        return {ports_.data() + first_[s], ports_.data() + first_[s + 1]};
    }
    bool reaches(NodeId s) const { return dist_[s] != kFar; }

  private:
    template <class Fn> void for_each_switch_link(NodeId s, Fn&& fn) const {
        for (PortNum p = 1; p <= f_.node(s).num_ports; ++p) {
            const Port& port = f_.port(s, p);
            if (port.connected() && f_.node(port.peer_node).is_switch())
                fn(f_.port_id(s, p), port.peer_node);
        }
    }

    const Fabric& f_;
    const graph::UpDown& ud_;
    std::vector<NodeId> order_, queue_;
    std::vector<std::uint32_t> down_, dist_, first_;
    std::vector<PortNum> ports_;
};

// For a node without tables: SL e.sl on VL e.vl, every other data SL on VL 0, SL 15 dropped
// (VL 15 is management only).
Sl2VlTable escape_sl2vl(const EscapeVl& e) {
    Sl2VlTable t{};
    t[e.sl] = e.vl;
    t[15] = 15;
    return t;
}

} // namespace

void route_on_escape_layer(const Fabric& f, std::span<const NodeId> top, std::span<const Lid> dlids,
                           const EscapeVl& e, Routing& r) {
    if (dlids.empty()) return;
    if (e.sl >= 15 || e.vl >= 15)
        throw std::logic_error("escape layer: SL and VL 15 are for management only");
    if (!r.path_sls.empty() && (r.path_sls.sl_mask() >> e.sl & 1))
        throw std::logic_error(
            fmt::format("escape layer: the engine's routes already use SL {}", e.sl));
    graph::UpDown ud = graph::make_updown(f, graph::choose_root(f, 0));
    for (auto it = top.rbegin(); it != top.rend(); ++it)
        if (ud.level[*it] >= 0) {
            ud = graph::make_updown(f, *it);
            break;
        }
    for (NodeId s : f.switches())
        if (ud.level[s] < 0)
            throw RoutingError(fmt::format("{} not routable: the switches are not "
                                           "connected (switch '{}' is cut off)",
                                           e.what, f.node(s).desc));

    // The LIDs by destination switch and the port they leave it by (0: the switch's own).
    std::unordered_map<NodeId, std::vector<std::pair<Lid, PortNum>>> by_switch;
    for (Lid d : dlids) {
        const PortId owner = r.lids.owner(d);
        if (owner == kNoPort) continue;
        const NodeId n = f.port_node(owner);
        if (f.node(n).is_switch()) {
            by_switch[n].emplace_back(d, 0);
        } else if (const Port& p = f.port(owner);
                   p.connected() && f.node(p.peer_node).is_switch()) {
            by_switch[p.peer_node].emplace_back(d, p.peer_port);
        }
    }
    std::vector<NodeId> targets;
    for (const auto& [x, lids] : by_switch) targets.push_back(x);
    std::sort(targets.begin(), targets.end()); // deterministic order

    EscapeRoutes routes(f, ud);
    std::vector<std::uint8_t> sl(std::size_t(r.lids.max_lid()) + 1, 0);
    std::vector<Lid> routed_lids;
    for (NodeId x : targets) {
        routes.toward(x);
        for (const auto& [d, last] : by_switch[x]) {
            for (NodeId s : f.switches()) {
                if (s == x) {
                    r.lft[s][d] = last;
                    continue;
                }
                const auto c = routes.candidates(s);
                // Spread the LIDs of one destination over the equal-cost ports.
                r.lft[s][d] = c.empty() ? kNoPath : c[d % c.size()];
            }
            sl[d] = e.sl;
            routed_lids.push_back(d);
        }
    }
    // Path SLs: one row for everyone when the engine had none (SL 0 elsewhere), else the
    // escape DLIDs' column in every stored row.
    if (r.path_sls.empty())
        r.path_sls = PathSlTable::by_dlid(std::move(sl));
    else
        r.path_sls.set_dlids_sl(routed_lids, e.sl);
    if (r.sl2vl.tables.empty()) r.sl2vl.tables.assign(f.num_nodes(), {});
    const Sl2VlTable fresh = escape_sl2vl(e);
    for (NodeId n = 0; n < f.num_nodes(); ++n) {
        auto& tables = r.sl2vl.tables[n];
        if (tables.empty()) {
            tables.assign(Sl2Vl::size(f.node(n).num_ports), fresh);
            continue;
        }
        for (Sl2VlTable& t : tables) t[e.sl] = e.vl;
    }
    r.data_vls = std::max<std::uint8_t>(r.data_vls, static_cast<std::uint8_t>(e.vl + 1));
    r.stats.emplace_back("escape_dlids", double(routed_lids.size()));
}

} // namespace ibrt::escape
