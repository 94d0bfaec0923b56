// Channel dependency graph and cycle search; see channel_dependency.hpp.
#include "graph/channel_dependency.hpp"

#include <algorithm>

namespace ibrt::graph {

namespace {

constexpr std::uint64_t kMaxBitsetBits = std::uint64_t(1) << 31; // 256 MiB

std::uint64_t pack(std::uint64_t a, std::uint64_t b) {
    return a << 32 | b;
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

ChannelDependencies::ChannelDependencies(const Fabric& f, unsigned vls) : f_(f), nv_(vls) {
    offset_.assign(f.num_nodes() + 1, 0);
    std::uint64_t total = 0;
    for (NodeId n = 0; n < f.num_nodes(); ++n) {
        offset_[n] = total;
        if (!f.node(n).is_switch()) continue;
        const std::uint64_t side = std::uint64_t(f.node(n).num_ports + 1) * nv_;
        total += side * side;
    }
    offset_[f.num_nodes()] = total;
    if (total <= kMaxBitsetBits)
        bits_.assign((total + 63) / 64, 0);
    else
        use_bits_ = false;
}

void ChannelDependencies::add(NodeId sw, PortNum in, unsigned vin, PortNum out, unsigned vout) {
    if (use_bits_) {
        const std::uint64_t side = std::uint64_t(f_.node(sw).num_ports + 1) * nv_;
        const std::uint64_t b =
            offset_[sw] + (std::uint64_t(in) * nv_ + vin) * side + std::uint64_t(out) * nv_ + vout;
        bits_[b >> 6] |= std::uint64_t(1) << (b & 63);
        return;
    }
    pairs_.push_back(pack(in_channel(sw, in, vin), f_.port_id(sw, out) * nv_ + vout));
    if (pairs_.size() >= 2 * compacted_ + (1u << 20)) compact();
}

// The link into `sw` on port `in` is identified by its sending port on the peer.
std::uint64_t ChannelDependencies::in_channel(NodeId sw, PortNum in, unsigned vin) const {
    const Port& p = f_.port(sw, in);
    return std::uint64_t(f_.port_id(p.peer_node, p.peer_port)) * nv_ + vin;
}

void ChannelDependencies::compact() {
    std::sort(pairs_.begin(), pairs_.end());
    pairs_.erase(std::unique(pairs_.begin(), pairs_.end()), pairs_.end());
    compacted_ = pairs_.size();
}

// Sorted, distinct (in channel << 32 | out channel).
std::vector<std::uint64_t> ChannelDependencies::take() {
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
                pairs_.push_back(pack(in_channel(sw, in, vin), f_.port_id(sw, out) * nv_ + vout));
                ++b;
            }
        }
        bits_.clear();
        bits_.shrink_to_fit();
    }
    compact();
    return std::move(pairs_);
}

CreditLoops ChannelDependencies::find_loops() && {
    CreditLoops rep;
    const unsigned nv = nv_;
    const std::vector<std::uint64_t> pairs = take();
    rep.dependencies = pairs.size();
    const std::size_t num_channels = f_.num_port_slots() * nv;
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
    return rep;
}

} // namespace ibrt::graph
