// DRB's alternative paths by DFS (paper 002 §4.1); the construction and why it has no LFT
// loops and no credit loops are in dfs_paths.hpp.
#include "engines/multipath/dfs_paths.hpp"

#include "engines/direct/dependency_layer.hpp"

#include "fabric/display_name.hpp"
#include "graph/switch_distance.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace ibrt {
namespace {

constexpr std::uint32_t kVlSlots = 16; // channel id = sending port * 16 + VL

struct Layer {
    std::uint8_t sl = 0, vl = 0;
};

class Builder {
  public:
    Builder(const Fabric& f, const Routing& r, const DfsPathsOptions& opt)
        : f_(f), r_(r), opt_(opt), cdg_(f.num_port_slots() * kVlSlots) {}

    Routing build();

  private:
    void renumber();
    std::uint8_t vl_at(NodeId n, PortNum in, PortNum out, std::uint8_t sl) const {
        return r_.sl2vl.vl(n, f_.node(n).num_ports, in, out, sl, kVlSlots);
    }
    // The switch ports a packet from switch `s` (entered on `in`) to `lid` leaves by, in the
    // new tables; empty if the walk does not end at the LID's owner.
    std::vector<PortId> walk(NodeId s, Lid lid) const;
    // The last link of every path, into the CA, is shared by all of them: disjointness is
    // about the cables between switches.
    bool between_switches(PortId p) const { return f_.node(f_.port(p).peer_node).is_switch(); }
    // Channel dependencies of a path (switch ports from the source switch on) taken from the
    // CA port `src` on SL `sl` (layer 0) or on one VL at every hop (other layers).
    std::vector<std::pair<std::uint32_t, std::uint32_t>>
    deps_of(PortId src, const std::vector<PortId>& path, int layer, std::uint8_t sl) const;
    void engine_dependencies();
    void build_lid(PortId dst_port, Lid lid, Lid orig_base, std::uint32_t offset);
    bool dfs(NodeId u, std::uint32_t h);
    bool accept(const std::vector<PortId>& full, bool forced);

    const Fabric& f_;
    const Routing& r_;
    const DfsPathsOptions& opt_;
    Routing out_;
    // The channel dependency graph grown path by path, kept acyclic, over every layer at once
    // (a channel is a sending port and its VL).
    direct::DependencyLayer cdg_;
    std::vector<Lid> new_of_old_;
    std::uint8_t new_lmc_ = 0;
    std::vector<PortId> src_port_; // per switch: a CA port cabled to it (the SL row), or kNoPort
    std::vector<Layer> layers_;    // layers 1.. (layer 0 is the engine's SL)
    std::uint8_t sl_base_ = 0, vl_base_ = 0;
    // (switch, LID) -> layer of the path from that switch's CAs.
    std::unordered_map<std::uint64_t, std::uint8_t> layer_of_;

    // The LID being built.
    Lid lid_ = 0;
    NodeId dst_sw_ = kNoNode;
    std::vector<std::uint32_t> dist_;
    std::vector<NodeId> bfs_queue_;
    std::vector<std::uint32_t> len_; // per switch: hops to the destination along this LID
    std::vector<std::uint8_t> on_path_;

    std::vector<std::uint32_t> used_; // per port: stamp of the pair's earlier paths
    std::uint32_t used_stamp_ = 0;
    std::vector<PortId> path_;
    NodeId source_ = kNoNode;
    std::uint32_t bound_ = 0;
    bool strict_ = true;
    std::uint64_t expanded_ = 0;

    std::uint64_t trees_ = 0, pair_paths_ = 0, disjoint_ = 0, longer_ = 0;
};

void Builder::renumber() {
    const std::uint32_t want = std::max<std::uint32_t>(opt_.paths, 2);
    while ((1u << new_lmc_) < want) ++new_lmc_;
    if (new_lmc_ > 7)
        throw std::invalid_argument(std::to_string(opt_.paths) +
                                    " paths per CA need an LMC above 7 (at most 128 LIDs)");
    out_.lids = Lids(f_);
    new_of_old_.assign(std::size_t(r_.lids.max_lid()) + 1, 0);
    std::uint64_t next = 1;
    for (PortId p = 0; p < f_.num_port_slots(); ++p) {
        if (!r_.lids.has_lid(p)) continue;
        const bool ca = !f_.node(f_.port_node(p)).is_switch();
        const std::uint8_t old = r_.lids.lmc(p);
        const std::uint8_t lmc = ca ? std::max(old, new_lmc_) : old;
        const std::uint64_t block = std::uint64_t(1) << lmc;
        next = (next + block - 1) / block * block;
        if (next + block - 1 > 0xbfff) {
            std::uint64_t need = 0;
            for (PortId q = 0; q < f_.num_port_slots(); ++q)
                if (r_.lids.has_lid(q))
                    need += std::uint64_t(1) << (f_.node(f_.port_node(q)).is_switch()
                                                     ? r_.lids.lmc(q)
                                                     : std::max(r_.lids.lmc(q), new_lmc_));
            throw std::invalid_argument(
                "DFS paths: LMC " + std::to_string(new_lmc_) + " on every CA needs at least " +
                std::to_string(need) +
                " LIDs, a subnet has 49,151 unicast LIDs; ask for fewer paths per CA");
        }
        out_.lids.assign(p, Lid(next), lmc);
        const Lid ob = r_.lids.base(p);
        for (std::uint32_t k = 0; k < (1u << old); ++k) new_of_old_[ob + k] = Lid(next + k);
        next += block;
    }
    const Lid max_lid = out_.lids.max_lid();
    out_.lft.assign(f_.num_nodes(), Lft{});
    for (NodeId n = 0; n < f_.num_nodes(); ++n) {
        if (n >= r_.lft.size() || r_.lft[n].empty()) continue;
        Lft& t = out_.lft[n];
        t.assign(std::size_t(max_lid) + 1, kNoPath);
        const Lft& o = r_.lft[n];
        for (std::size_t l = 1; l < o.size() && l < new_of_old_.size(); ++l)
            if (new_of_old_[l]) t[new_of_old_[l]] = o[l];
    }
    if (!r_.dlid_choice.empty()) {
        out_.dlid_choice = r_.dlid_choice;
        for (Lid& l : out_.dlid_choice)
            if (l != 0 && l < new_of_old_.size()) l = new_of_old_[l];
    }
}

std::vector<PortId> Builder::walk(NodeId s, Lid lid) const {
    std::vector<PortId> ports;
    NodeId n = s;
    for (std::size_t guard = 0; guard <= f_.num_nodes(); ++guard) {
        const PortNum o = out_.out_port(n, lid);
        if (o == kNoPath || o == 0 || o > f_.node(n).num_ports) return {};
        const Port& p = f_.port(n, o);
        if (!p.connected()) return {};
        ports.push_back(f_.port_id(n, o));
        if (!f_.node(p.peer_node).is_switch())
            return out_.lids.owner(lid) == f_.port_id(p.peer_node, p.peer_port)
                       ? ports
                       : std::vector<PortId>{};
        n = p.peer_node;
    }
    return {};
}

std::vector<std::pair<std::uint32_t, std::uint32_t>>
Builder::deps_of(PortId src, const std::vector<PortId>& path, int layer, std::uint8_t sl) const {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> deps;
    // The first hop leaves the CA: a channel nothing depends on before it, never on a cycle.
    PortNum in = f_.port(src).peer_port;
    std::uint32_t prev = ~0u;
    for (std::size_t i = 0; i < path.size(); ++i) {
        const NodeId n = f_.port_node(path[i]);
        const PortNum o = f_.port_num(path[i]);
        const std::uint8_t vl = layer == 0 ? vl_at(n, in, o, sl) : layers_[layer - 1].vl;
        const std::uint32_t c = path[i] * kVlSlots + (vl & 15);
        if (prev != ~0u) deps.push_back({prev, c});
        prev = c;
        in = f_.port(path[i]).peer_port;
    }
    return deps;
}

// The engine's own routes, every CA pair on every original LID with its path SL: the
// dependencies layer 0 must stay acyclic with.
void Builder::engine_dependencies() {
    std::vector<PortId> cas;
    for (NodeId n : f_.cas())
        for (PortNum p = 1; p <= f_.node(n).num_ports; ++p) {
            const PortId id = f_.port_id(n, p);
            if (r_.lids.has_lid(id) && f_.port(id).connected() &&
                f_.node(f_.port(id).peer_node).is_switch())
                cas.push_back(id);
        }
    // Sources on one switch, entering it by the same port with the same SL row, share their
    // routes and VLs: one walk per such representative and LID.
    std::vector<PortId> reps;
    std::unordered_set<std::uint64_t> seen;
    for (PortId s : cas) {
        const std::uint64_t key = (std::uint64_t(f_.port(s).peer_node) << 40) ^
                                  (std::uint64_t(f_.port(s).peer_port) << 32) ^
                                  r_.path_sls.row_of(s);
        if (seen.insert(key).second) reps.push_back(s);
    }
    for (PortId s : reps) {
        const NodeId sw = f_.port(s).peer_node;
        for (PortId d : cas) {
            if (d == s) continue;
            const Lid ob = r_.lids.base(d);
            for (std::uint32_t k = 0; k < (1u << r_.lids.lmc(d)); ++k) {
                const std::uint8_t sl = r_.path_sl(s, Lid(ob + k));
                const auto path = walk(sw, new_of_old_[ob + k]);
                for (const auto& [a, b] : deps_of(s, path, 0, sl)) cdg_.add_unchecked(a, b);
            }
        }
    }
}

bool Builder::accept(const std::vector<PortId>& full, bool forced) {
    const PortId sp = src_port_[source_];
    int layer = 0;
    if (sp != kNoPort) {
        // Layer 0 uses the engine's SL of the pair (its original base LID, old numbering).
        const Lid old_base = r_.lids.base(out_.lids.owner(lid_));
        const std::uint8_t sl = r_.path_sl(sp, old_base);
        layer = -1;
        for (int l = 0; l <= int(layers_.size()) && layer < 0; ++l)
            if (cdg_.add(deps_of(sp, full, l, sl))) layer = l;
        if (layer < 0) {
            const unsigned j = unsigned(layers_.size()) + 1;
            const unsigned sl_j = sl_base_ + j - 1, vl_j = vl_base_ + j - 1;
            if (sl_j > 15 || vl_j + 1 > opt_.max_vls) {
                if (!forced) return false;
                throw std::invalid_argument(
                    "DFS paths: keeping the alternative paths free of credit loops needs more "
                    "than " +
                    std::to_string(opt_.max_vls) +
                    " data VLs (or SLs beyond 15); ask for fewer "
                    "paths per CA");
            }
            layers_.push_back({std::uint8_t(sl_j), std::uint8_t(vl_j)});
            layer = int(layers_.size());
            const bool ok = cdg_.add(deps_of(sp, full, layer, sl));
            if (!ok) throw std::logic_error("a loop-free path closed a credit loop alone");
        }
        layer_of_[std::uint64_t(source_) << 32 | lid_] = std::uint8_t(layer);
    }
    // The DFS part of the path: its switches now forward this LID.
    for (std::size_t i = 0; i < path_.size(); ++i) {
        const NodeId n = f_.port_node(path_[i]);
        out_.lft[n][lid_] = f_.port_num(path_[i]);
        len_[n] = std::uint32_t(full.size() - 1 - i);
    }
    if (sp != kNoPort) {
        ++pair_paths_;
        bool disjoint = true;
        for (PortId p : full) disjoint &= !between_switches(p) || used_[p] != used_stamp_;
        disjoint_ += disjoint;
        longer_ += full.size() - 1 > dist_[source_];
    }
    return true;
}

bool Builder::dfs(NodeId u, std::uint32_t h) {
    if (++expanded_ > opt_.budget) return false;
    if (out_.lft[u][lid_] != kNoPath) { // joins the tree
        if (h + len_[u] > bound_) return false;
        std::vector<PortId> full = path_;
        const auto rest = walk(u, lid_);
        if (rest.empty()) return false;
        if (strict_)
            for (PortId p : rest)
                if (between_switches(p) && used_[p] == used_stamp_) return false;
        full.insert(full.end(), rest.begin(), rest.end());
        return accept(full, false);
    }
    on_path_[u] = 1;
    struct Cand {
        std::uint8_t shared;
        std::uint32_t dist;
        PortNum port;
    };
    std::array<Cand, 256> cand;
    std::size_t nc = 0;
    const Node& node = f_.node(u);
    for (PortNum o = 1; o <= node.num_ports; ++o) {
        const Port& p = f_.port(u, o);
        if (!p.connected() || !f_.node(p.peer_node).is_switch()) continue;
        const NodeId v = p.peer_node;
        if (on_path_[v] || dist_[v] == graph::kFar || h + 1 + dist_[v] > bound_) continue;
        const bool shared = used_[f_.port_id(u, o)] == used_stamp_;
        if (shared && strict_) continue;
        cand[nc++] = {std::uint8_t(shared), dist_[v], o};
    }
    std::sort(cand.begin(), cand.begin() + std::ptrdiff_t(nc), [](const Cand& a, const Cand& b) {
        if (a.shared != b.shared) return a.shared < b.shared;
        if (a.dist != b.dist) return a.dist < b.dist;
        return a.port < b.port;
    });
    for (std::size_t i = 0; i < nc; ++i) {
        const Port& p = f_.port(u, cand[i].port);
        path_.push_back(f_.port_id(u, cand[i].port));
        if (dfs(p.peer_node, h + 1)) {
            on_path_[u] = 0;
            return true;
        }
        path_.pop_back();
    }
    on_path_[u] = 0;
    return false;
}

void Builder::build_lid(PortId dst_port, Lid lid, Lid orig_base, std::uint32_t offset) {
    lid_ = lid;
    const Port& dp = f_.port(dst_port);
    dst_sw_ = dp.peer_node;
    out_.lft[dst_sw_][lid] = dp.peer_port;
    len_[dst_sw_] = 0;
    ++trees_;
    // Source switches with CAs first (their paths are the ones DRB uses), nearest to the
    // destination first, then the others, which only need an entry that joins the tree. Nearest
    // first: a switch chooses its own path before a DFS from farther away can pass through it
    // and fix its path for it (then often the original one again). Among switches at one
    // distance the order rotates with the LID's offset: two neighbours of the destination that
    // can only detour through each other (a 4-cycle) cannot both do so in one tree, so each gets
    // its detour in another LID's tree.
    std::vector<NodeId> order;
    for (NodeId s : f_.switches())
        if (src_port_[s] != kNoPort) order.push_back(s);
    if (!order.empty()) {
        const std::size_t turn = offset * order.size() / (1u << out_.lids.lmc(dst_port));
        std::rotate(order.begin(), order.begin() + std::ptrdiff_t(turn % order.size()),
                    order.end());
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](NodeId a, NodeId b) { return dist_[a] < dist_[b]; });
    for (NodeId s : f_.switches())
        if (src_port_[s] == kNoPort) order.push_back(s);
    for (NodeId s : order) {
        if (dist_[s] == graph::kFar) continue;
        source_ = s;
        // The links of this pair's earlier paths (offsets below this one).
        ++used_stamp_;
        for (std::uint32_t k = 0; k < offset; ++k)
            for (PortId p : walk(s, Lid(orig_base + k)))
                if (between_switches(p)) used_[p] = used_stamp_;
        path_.clear();
        if (out_.lft[s][lid] != kNoPath) { // already on the tree: the path is fixed
            if (s == dst_sw_ && src_port_[s] == kNoPort) continue;
            const auto full = walk(s, lid);
            if (!full.empty()) accept(full, true);
            continue;
        }
        bool found = false;
        for (int pass = 0; pass < 2 && !found; ++pass) {
            strict_ = pass == 0;
            for (std::uint32_t b = dist_[s]; b <= dist_[s] + opt_.slack && !found; ++b) {
                bound_ = b;
                expanded_ = 0;
                found = dfs(s, 0);
            }
        }
        if (!found) {
            // Beyond the slack or the budget: the shortest way onto the tree, whatever it shares.
            strict_ = false;
            bound_ = std::uint32_t(f_.num_nodes());
            expanded_ = 0;
            found = dfs(s, 0);
        }
        if (!found)
            throw std::invalid_argument("DFS paths: no path from " + display_name(f_, s) +
                                        " to LID " + std::to_string(lid));
    }
}

Routing Builder::build() {
    renumber();
    src_port_.assign(f_.num_nodes(), kNoPort);
    for (NodeId n : f_.cas())
        for (PortNum p = 1; p <= f_.node(n).num_ports; ++p) {
            const PortId id = f_.port_id(n, p);
            const Port& port = f_.port(id);
            if (!r_.lids.has_lid(id) || !port.connected() || !f_.node(port.peer_node).is_switch())
                continue;
            if (src_port_[port.peer_node] == kNoPort) src_port_[port.peer_node] = id;
        }
    const bool tables = !r_.sl2vl.empty();
    const std::uint8_t max_sl = r_.path_sls.max_sl();
    if (tables) {
        sl_base_ = std::uint8_t(max_sl + 1);
        vl_base_ = r_.data_vls;
    } else { // no tables: VL = SL mod VLs, so a layer's SL is its VL
        sl_base_ = vl_base_ = std::uint8_t(std::max<unsigned>(max_sl + 1u, r_.data_vls));
    }
    engine_dependencies();

    len_.assign(f_.num_nodes(), 0);
    on_path_.assign(f_.num_nodes(), 0);
    used_.assign(f_.num_port_slots(), 0);
    NodeId cached = kNoNode;
    for (PortId d = 0; d < f_.num_port_slots(); ++d) {
        if (!out_.lids.has_lid(d) || f_.node(f_.port_node(d)).is_switch()) continue;
        const Port& dp = f_.port(d);
        if (!dp.connected() || !f_.node(dp.peer_node).is_switch()) continue;
        if (dp.peer_node != cached) {
            graph::switch_distances(f_, dp.peer_node, dist_, bfs_queue_);
            cached = dp.peer_node;
        }
        const Lid base = out_.lids.base(d);
        const std::uint32_t first = 1u << r_.lids.lmc(d);
        for (std::uint32_t k = first; k < (1u << out_.lids.lmc(d)); ++k)
            build_lid(d, Lid(base + k), base, k);
    }

    // SL2VL: each layer's SL to its VL on every hop of every node that has tables.
    out_.sl2vl = r_.sl2vl;
    if (tables)
        for (auto& node : out_.sl2vl.tables)
            for (Sl2VlTable& t : node) {
                if (t == kSl2VlDropAll) continue;
                for (const Layer& l : layers_) t[l.sl] = l.vl;
            }
    out_.data_vls = r_.data_vls;
    if (!layers_.empty())
        out_.data_vls = std::max<std::uint8_t>(out_.data_vls, std::uint8_t(layers_.back().vl + 1));

    // Path SLs: the engine's on the original LIDs; on an extra LID, the layer's SL for sources
    // whose switch built a path, else the engine's SL of the pair.
    if (!r_.path_sls.empty() || !layers_.empty()) {
        const Lid max_lid = out_.lids.max_lid();
        out_.path_sls = PathSlTable(f_.num_port_slots(), max_lid);
        std::vector<std::uint8_t> row(std::size_t(max_lid) + 1, 0);
        for (PortId s = 0; s < f_.num_port_slots(); ++s) {
            if (!r_.lids.has_lid(s)) continue;
            const NodeId sn = f_.port_node(s);
            const NodeId sw = f_.node(sn).is_switch()
                                  ? sn
                                  : (f_.port(s).connected() ? f_.port(s).peer_node : kNoNode);
            std::fill(row.begin(), row.end(), 0);
            for (PortId d = 0; d < f_.num_port_slots(); ++d) {
                if (!r_.lids.has_lid(d)) continue;
                const Lid ob = r_.lids.base(d), nb = out_.lids.base(d);
                const std::uint32_t old_n = 1u << r_.lids.lmc(d);
                for (std::uint32_t k = 0; k < old_n; ++k) row[nb + k] = r_.path_sl(s, Lid(ob + k));
                for (std::uint32_t k = old_n; k < (1u << out_.lids.lmc(d)); ++k) {
                    std::uint8_t sl = r_.path_sl(s, ob);
                    const auto it = layer_of_.find(std::uint64_t(sw) << 32 | Lid(nb + k));
                    if (it != layer_of_.end() && it->second > 0) sl = layers_[it->second - 1].sl;
                    row[nb + k] = sl;
                }
            }
            out_.path_sls.set_row(s, row);
        }
    }
    out_.lmc = std::max(r_.lmc, new_lmc_);
    out_.stats = r_.stats;
    out_.stats.push_back({"dfs_extra_lid_trees", double(trees_)});
    out_.stats.push_back({"dfs_pair_paths", double(pair_paths_)});
    out_.stats.push_back({"dfs_pair_paths_disjoint", double(disjoint_)});
    out_.stats.push_back({"dfs_pair_paths_longer", double(longer_)});
    out_.stats.push_back({"dfs_layers", double(layers_.size())});
    return std::move(out_);
}

} // namespace

Routing add_dfs_paths(const Fabric& f, const Routing& r, const DfsPathsOptions& opt) {
    if (r.forwarding_sets)
        throw std::invalid_argument("DFS paths: the routing has forwarding sets; alternative "
                                    "paths are added to plain LFTs only");
    if (opt.paths < 2 || opt.paths > 128)
        throw std::invalid_argument("DFS paths: paths per CA must be 2..128");
    bool enough = true;
    for (NodeId n : f.cas())
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
            const PortId id = f.port_id(n, p);
            if (r.lids.has_lid(id) && (1u << r.lids.lmc(id)) < opt.paths) enough = false;
        }
    if (enough) return r;
    return Builder(f, r, opt).build();
}

} // namespace ibrt
