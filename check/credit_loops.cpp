// Channel dependency graph and cycle search; see credit_loops.hpp.
#include "check/credit_loops.hpp"

#include "check/endpoints.hpp"
#include "check/forwarding.hpp"

#include <algorithm>
#include <array>

namespace ibrt::check {

namespace {

constexpr std::uint8_t kDropVl = 15;
constexpr std::uint64_t kMaxBitsetBits = std::uint64_t(1) << 31; // 256 MiB

// Distinct dependencies (in channel, out channel). A bitset per switch over its local
// (in port, in VL, out port, out VL) space while that fits, else a vector that is sorted and
// deduplicated whenever it has doubled.
class DependencySet {
  public:
    DependencySet(const Fabric& f, unsigned nv) : f_(f), nv_(nv) {
        offset_.assign(f.num_nodes() + 1, 0);
        std::uint64_t total = 0;
        for (NodeId n = 0; n < f.num_nodes(); ++n) {
            offset_[n] = total;
            if (!f.node(n).is_switch()) continue;
            const std::uint64_t side = std::uint64_t(f.node(n).num_ports + 1) * nv;
            total += side * side;
        }
        offset_[f.num_nodes()] = total;
        if (total <= kMaxBitsetBits)
            bits_.assign((total + 63) / 64, 0);
        else
            use_bits_ = false;
    }

    void add(NodeId sw, PortNum in, unsigned vin, PortNum out, unsigned vout) {
        if (use_bits_) {
            const std::uint64_t side = std::uint64_t(f_.node(sw).num_ports + 1) * nv_;
            const std::uint64_t b = offset_[sw] + (std::uint64_t(in) * nv_ + vin) * side +
                                    std::uint64_t(out) * nv_ + vout;
            bits_[b >> 6] |= std::uint64_t(1) << (b & 63);
            return;
        }
        pairs_.push_back(pack(in_channel(sw, in, vin), f_.port_id(sw, out) * nv_ + vout));
        if (pairs_.size() >= 2 * compacted_ + (1u << 20)) compact();
    }

    // Sorted, distinct (in channel << 32 | out channel).
    std::vector<std::uint64_t> take() {
        if (use_bits_) {
            for (NodeId sw = 0; sw < f_.num_nodes(); ++sw) {
                if (!f_.node(sw).is_switch()) continue;
                const std::uint64_t side = std::uint64_t(f_.node(sw).num_ports + 1) * nv_;
                for (std::uint64_t b = offset_[sw]; b < offset_[sw + 1];) {
                    const std::uint64_t word = bits_[b >> 6] >> (b & 63);
                    if (word == 0) {
                        b = (b | 63) + 1;
                        continue;
                    }
                    b += static_cast<std::uint64_t>(__builtin_ctzll(word));
                    if (b >= offset_[sw + 1]) break;
                    const std::uint64_t local = b - offset_[sw];
                    const auto in = static_cast<PortNum>(local / side / nv_);
                    const auto vin = static_cast<unsigned>(local / side % nv_);
                    const auto out = static_cast<PortNum>(local % side / nv_);
                    const auto vout = static_cast<unsigned>(local % side % nv_);
                    pairs_.push_back(
                        pack(in_channel(sw, in, vin), f_.port_id(sw, out) * nv_ + vout));
                    ++b;
                }
            }
        }
        compact();
        return std::move(pairs_);
    }

  private:
    static std::uint64_t pack(std::uint64_t a, std::uint64_t b) { return a << 32 | b; }
    // The link into `sw` on port `in` is identified by its sending port on the peer.
    std::uint64_t in_channel(NodeId sw, PortNum in, unsigned vin) const {
        const Port& p = f_.port(sw, in);
        return std::uint64_t(f_.port_id(p.peer_node, p.peer_port)) * nv_ + vin;
    }
    void compact() {
        std::sort(pairs_.begin(), pairs_.end());
        pairs_.erase(std::unique(pairs_.begin(), pairs_.end()), pairs_.end());
        compacted_ = pairs_.size();
    }

    const Fabric& f_;
    unsigned nv_;
    bool use_bits_ = true;
    std::vector<std::uint64_t> offset_;
    std::vector<std::uint64_t> bits_;
    std::vector<std::uint64_t> pairs_;
    std::size_t compacted_ = 0;
};

unsigned vls_in_use(const Fabric& f, const Routing& r) {
    unsigned max_vl = 0;
    for (NodeId n = 0; n < r.sl2vl.tables.size() && n < f.num_nodes(); ++n)
        for (const Sl2VlTable& t : r.sl2vl.tables[n])
            for (std::uint8_t vl : t)
                if (vl != kDropVl) max_vl = std::max<unsigned>(max_vl, vl);
    return max_vl + 1;
}

struct Graph {
    std::vector<std::uint32_t> start; // CSR offsets by channel id
    std::vector<std::uint32_t> to;
};

Graph to_csr(const std::vector<std::uint64_t>& pairs, std::size_t num_channels) {
    Graph g;
    g.start.assign(num_channels + 1, 0);
    g.to.resize(pairs.size());
    for (std::uint64_t p : pairs) ++g.start[(p >> 32) + 1];
    for (std::size_t i = 0; i < num_channels; ++i) g.start[i + 1] += g.start[i];
    for (std::size_t i = 0; i < pairs.size(); ++i) g.to[i] = static_cast<std::uint32_t>(pairs[i]);
    return g; // pairs are sorted, so each channel's targets are already in place
}

constexpr std::uint32_t kUnset = 0xffffffffu;

// Iterative Tarjan: component id of every channel (kUnset for channels without edges).
std::vector<std::uint32_t> tarjan(const Graph& g, std::uint32_t& num_components) {
    const std::size_t n = g.start.size() - 1;
    std::vector<std::uint32_t> index(n, kUnset), low(n, 0), comp(n, kUnset);
    std::vector<std::uint32_t> stack;
    std::vector<char> on_stack(n, 0);
    struct Frame {
        std::uint32_t v;
        std::uint32_t edge;
    };
    std::vector<Frame> calls;
    std::uint32_t next_index = 0;
    num_components = 0;
    for (std::uint32_t root = 0; root < n; ++root) {
        if (index[root] != kUnset || g.start[root] == g.start[root + 1]) continue;
        calls.push_back({root, g.start[root]});
        index[root] = low[root] = next_index++;
        stack.push_back(root);
        on_stack[root] = 1;
        while (!calls.empty()) {
            Frame& fr = calls.back();
            const std::uint32_t v = fr.v;
            if (fr.edge < g.start[v + 1]) {
                const std::uint32_t w = g.to[fr.edge++];
                if (index[w] == kUnset) {
                    index[w] = low[w] = next_index++;
                    stack.push_back(w);
                    on_stack[w] = 1;
                    calls.push_back({w, g.start[w]});
                } else if (on_stack[w]) {
                    low[v] = std::min(low[v], index[w]);
                }
                continue;
            }
            if (low[v] == index[v]) {
                std::uint32_t w;
                do {
                    w = stack.back();
                    stack.pop_back();
                    on_stack[w] = 0;
                    comp[w] = num_components;
                } while (w != v);
                ++num_components;
            }
            calls.pop_back();
            if (!calls.empty()) {
                const std::uint32_t u = calls.back().v;
                low[u] = std::min(low[u], low[v]);
            }
        }
    }
    return comp;
}

} // namespace

std::uint8_t sl2vl_at(const Fabric& f, const Routing& r, NodeId node, PortNum in, PortNum out,
                      std::uint8_t sl, unsigned num_vls) {
    return r.sl2vl.vl(node, f.node(node).num_ports, in, out, sl, num_vls);
}

DeadlockReport check_credit_loops(const Fabric& f, const Routing& r,
                                  const std::function<void(double)>& progress) {
    DeadlockReport rep;
    const unsigned nv = vls_in_use(f, r);
    rep.vls = nv;
    const Endpoints ep = collect_endpoints(f, r.lids);
    const bool have_sl2vl = !r.sl2vl.empty();

    // VLs a packet can take out of each source switch, over its CA in-ports: mask by
    // (out port, SL). Without SL2VL it is VL0 and no table is needed.
    std::vector<std::size_t> mask_at(f.num_nodes(), 0);
    std::vector<std::uint16_t> masks;
    if (have_sl2vl) {
        for (NodeId s : ep.source_switches) {
            mask_at[s] = masks.size();
            masks.resize(masks.size() + std::size_t(f.node(s).num_ports + 1) * 16, 0);
        }
        for (std::uint32_t e = 0; e < ep.ports.size(); ++e) {
            const NodeId s = ep.switch_of[e];
            if (s == kNoNode) continue;
            const PortNum in = f.port(ep.ports[e]).peer_port;
            for (PortNum o = 0; o <= f.node(s).num_ports; ++o)
                for (std::uint8_t sl = 0; sl < 16; ++sl)
                    masks[mask_at[s] + o * 16u + sl] |=
                        static_cast<std::uint16_t>(1u << sl2vl_at(f, r, s, in, o, sl, nv));
        }
    }

    // Path SLs are per source port (Routing::path_sl); the end ports behind one switch usually
    // share a row. Per source switch: its endpoints' distinct rows, each with a port to read
    // SLs from and how many endpoints use it (a destination's own port is not its source).
    struct SourceRow {
        PortId port;
        std::uint32_t row, count;
    };
    std::vector<std::vector<SourceRow>> rows_at(f.num_nodes());
    for (std::uint32_t e = 0; e < ep.ports.size(); ++e) {
        const NodeId s = ep.switch_of[e];
        if (s == kNoNode) continue;
        const std::uint32_t row = r.path_sls.row_of(ep.ports[e]);
        auto& rows = rows_at[s];
        auto it = std::find_if(rows.begin(), rows.end(),
                               [&](const SourceRow& x) { return x.row == row; });
        if (it == rows.end())
            rows.push_back({ep.ports[e], row, 1});
        else
            ++it->count;
    }

    DependencySet deps(f, nv);
    const ForwardingView view(f, r);
    std::vector<std::uint32_t> stamp(f.num_port_slots() * nv, 0);
    std::uint32_t epoch = 0;
    // The walks of one destination share the stamps only within one SL: SL2VL depends on it.
    std::array<std::vector<NodeId>, 16> by_sl;
    const Lid max_lid = r.lids.max_lid();
    for (std::uint32_t dl = 1; dl <= max_lid; ++dl) {
        const Lid d = static_cast<Lid>(dl);
        const PortId owner = r.lids.owner(d);
        if (owner == kNoPort) continue;
        if (progress && (dl & 1023) == 0) progress(double(dl) / max_lid);
        const std::uint32_t owner_ep = ep.index_of_port[owner];
        const NodeId owner_sw = owner_ep == Endpoints::kNone ? kNoNode : ep.switch_of[owner_ep];
        const std::uint32_t owner_row = r.path_sls.row_of(owner);
        for (auto& v : by_sl) v.clear();
        for (NodeId s : ep.source_switches)
            for (const SourceRow& sr : rows_at[s])
                if (sr.count - (owner_sw == s && owner_row == sr.row ? 1u : 0u) > 0)
                    by_sl[r.path_sls.sl(sr.port, d) & 15].push_back(s);
        for (std::uint8_t sl = 0; sl < 16; ++sl) {
            if (by_sl[sl].empty()) continue;
            ++epoch;
            for (std::size_t i = 0; i < by_sl[sl].size(); ++i) {
                const NodeId s = by_sl[sl][i];
                if (i > 0 && by_sl[sl][i - 1] == s) continue; // two rows, one SL
                const Step first = view.step(s, d, owner);
                if (first.ends) continue; // delivered or dead at the first switch
                const std::uint16_t mask =
                    have_sl2vl ? masks[mask_at[s] + first.out_port * 16u + sl] : 1;
                for (unsigned v0 = 0; v0 < 16; ++v0) {
                    if (!(mask >> v0 & 1)) continue;
                    if (v0 == kDropVl) {
                        ++rep.vl15_drops;
                        continue;
                    }
                    NodeId y = first.next;
                    PortNum in = first.next_in;
                    unsigned v = v0;
                    for (;;) {
                        const std::size_t key = std::size_t(view.port_id(y, in)) * nv + v;
                        if (stamp[key] == epoch) break;
                        stamp[key] = epoch;
                        const Step st = view.step(y, d, owner);
                        if (st.ends) break;
                        const unsigned vout = sl2vl_at(f, r, y, in, st.out_port, sl, nv);
                        if (vout == kDropVl) {
                            ++rep.vl15_drops;
                            break;
                        }
                        deps.add(y, in, v, st.out_port, vout);
                        y = st.next;
                        in = st.next_in;
                        v = vout;
                    }
                }
            }
        }
    }

    const std::vector<std::uint64_t> pairs = deps.take();
    rep.dependencies = pairs.size();
    const std::size_t num_channels = f.num_port_slots() * nv;
    const Graph g = to_csr(pairs, num_channels);
    {
        std::vector<char> used(num_channels, 0);
        for (std::uint64_t p : pairs) used[p >> 32] = used[p & 0xffffffffu] = 1;
        rep.channels = static_cast<std::uint64_t>(std::count(used.begin(), used.end(), 1));
    }

    std::uint32_t ncomp = 0;
    const std::vector<std::uint32_t> comp = tarjan(g, ncomp);
    std::vector<std::uint32_t> size(ncomp, 0), lowest(ncomp, kUnset);
    std::vector<char> cyclic(ncomp, 0);
    for (std::uint32_t c = 0; c < num_channels; ++c) {
        if (comp[c] == kUnset) continue;
        ++size[comp[c]];
        if (lowest[comp[c]] == kUnset) lowest[comp[c]] = c; // ascending scan: the lowest id
        for (std::uint32_t e = g.start[c]; e < g.start[c + 1]; ++e)
            if (g.to[e] == c) cyclic[comp[c]] = 1; // self-dependency
    }
    std::vector<std::uint32_t> starts;
    for (std::uint32_t k = 0; k < ncomp; ++k)
        if (size[k] > 1 || cyclic[k]) starts.push_back(lowest[k]);
    std::sort(starts.begin(), starts.end());

    // Shortest cycle through the component's lowest channel: BFS inside the component.
    std::vector<std::uint32_t> parent(num_channels, kUnset), seen(num_channels, 0);
    std::vector<std::uint32_t> queue;
    std::uint32_t round = 0;
    for (std::uint32_t s : starts) {
        ++round;
        const std::uint32_t k = comp[s];
        queue.assign(1, s);
        seen[s] = round;
        std::uint32_t last = kUnset; // the channel whose edge closes the cycle back to s
        for (std::size_t h = 0; h < queue.size() && last == kUnset; ++h) {
            const std::uint32_t v = queue[h];
            for (std::uint32_t e = g.start[v]; e < g.start[v + 1]; ++e) {
                const std::uint32_t w = g.to[e];
                if (w == s) {
                    last = v;
                    break;
                }
                if (comp[w] != k || seen[w] == round) continue;
                seen[w] = round;
                parent[w] = v;
                queue.push_back(w);
            }
        }
        if (last == kUnset) continue; // cannot happen in a strongly connected component
        CreditLoop loop;
        loop.component_channels = size[k];
        for (std::uint32_t v = last; v != s; v = parent[v])
            loop.cycle.push_back({static_cast<PortId>(v / nv), static_cast<std::uint8_t>(v % nv)});
        loop.cycle.push_back({static_cast<PortId>(s / nv), static_cast<std::uint8_t>(s % nv)});
        std::reverse(loop.cycle.begin(), loop.cycle.end());
        rep.loops.push_back(std::move(loop));
    }
    if (progress) progress(1.0);
    return rep;
}

std::string format_link(const Fabric& f, PortId port) {
    const Port& p = f.port(port);
    std::string s =
        '"' + node_name(f, f.port_node(port)) + "\":" + std::to_string(f.port_num(port));
    if (p.connected())
        s += " -> \"" + node_name(f, p.peer_node) + "\":" + std::to_string(p.peer_port);
    return s;
}

std::string format_channel(const Fabric& f, const Channel& c) {
    return format_link(f, c.port) + " VL" + std::to_string(c.vl);
}

} // namespace ibrt::check
