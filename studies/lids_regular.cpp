// Paper 001 §VI.C: dimension-order base routing on tori and shortest-widest repair of the
// paths broken by failed links.
#include "studies/lids_regular.hpp"

#include "fabric/rng.hpp"
#include "graph/switch_distance.hpp"
#include "graph/updown.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <stdexcept>
#include <string_view>

namespace ibrt::lidassign {

namespace {

std::vector<int> coords_of(std::string_view desc) {
    if (desc.substr(0, 3) != "sw-") throw std::invalid_argument("not a torus switch label");
    desc.remove_prefix(3);
    std::vector<int> c;
    while (!desc.empty()) {
        int v = 0;
        auto [p, ec] = std::from_chars(desc.data(), desc.data() + desc.size(), v);
        if (ec != std::errc()) throw std::invalid_argument("bad torus switch label");
        c.push_back(v);
        desc.remove_prefix(std::size_t(p - desc.data()));
        if (!desc.empty() && desc[0] == '.') desc.remove_prefix(1);
    }
    return c;
}

} // namespace

PathSet dor_paths(const Fabric& f) {
    std::vector<std::vector<int>> coord(f.num_nodes());
    std::vector<int> k;
    for (NodeId s : f.switches()) {
        coord[s] = coords_of(f.node(s).desc);
        if (k.size() < coord[s].size()) k.resize(coord[s].size(), 0);
        for (std::size_t n = 0; n < coord[s].size(); ++n) k[n] = std::max(k[n], coord[s][n] + 1);
    }
    auto neighbour = [&](NodeId x, std::size_t dim, int to) -> PortId {
        for (PortNum p = 1; p <= f.node(x).num_ports; ++p) {
            const Port& port = f.port(x, p);
            if (!port.connected() || !f.node(port.peer_node).is_switch()) continue;
            const auto& c = coord[port.peer_node];
            bool ok = true;
            for (std::size_t n = 0; n < c.size() && ok; ++n)
                ok = c[n] == (n == dim ? to : coord[x][n]);
            if (ok) return f.port_id(x, p);
        }
        return kNoPort;
    };
    PathSet out;
    std::vector<PortId> path;
    for (NodeId d : f.cas()) {
        DestPaths dp;
        dp.dst = d;
        const PortId dport = first_end_port(f, d);
        const NodeId dsw = f.port(dport).peer_node;
        for (NodeId s : f.cas()) {
            if (s == d) continue;
            path.assign(1, first_end_port(f, s));
            NodeId x = f.port(path[0]).peer_node;
            for (std::size_t n = 0; n < k.size(); ++n)
                while (coord[x][n] != coord[dsw][n]) {
                    const int fwd = ((coord[dsw][n] - coord[x][n]) % k[n] + k[n]) % k[n];
                    const int step = fwd <= k[n] - fwd ? 1 : -1;
                    const PortId e = neighbour(x, n, ((coord[x][n] + step) % k[n] + k[n]) % k[n]);
                    if (e == kNoPort) throw std::invalid_argument("torus is missing a link");
                    path.push_back(e);
                    x = f.port(e).peer_node;
                }
            path.push_back(f.port_id(dsw, f.port(dport).peer_port));
            dp.add(path);
        }
        out.push_back(std::move(dp));
    }
    return out;
}

PathSet shuffle_paths(const PathSet& paths, std::uint64_t seed) {
    gen::Rng rng(seed);
    PathSet out;
    out.reserve(paths.size());
    for (const DestPaths& d : paths) {
        std::vector<std::size_t> order(d.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        rng.shuffle(order);
        DestPaths nd;
        nd.dst = d.dst;
        for (std::size_t i : order) nd.add(d.path(i));
        out.push_back(std::move(nd));
    }
    return out;
}

PathSet repair_paths(const Fabric& f, const PathSet& base, std::size_t* repaired,
                     const RepairOptions& opt) {
    auto intact = [&](std::span<const PortId> p) {
        for (PortId e : p)
            if (e >= f.num_port_slots() || !f.port(e).connected()) return false;
        return true;
    };
    std::vector<std::uint64_t> weight(f.num_port_slots(), 1);
    if (opt.weights == RepairOptions::Weights::Loaded)
        for (const DestPaths& d : base)
            for (std::size_t i = 0; i < d.size(); ++i)
                if (intact(d.path(i)))
                    for (PortId e : d.path(i)) ++weight[e];
    // The broken paths (destination index, path index), in the order they are re-routed.
    std::vector<std::pair<std::size_t, std::size_t>> broken;
    for (std::size_t di = 0; di < base.size(); ++di)
        for (std::size_t i = 0; i < base[di].size(); ++i)
            if (!intact(base[di].path(i))) broken.emplace_back(di, i);
    if (opt.order == RepairOptions::Order::Source)
        std::stable_sort(broken.begin(), broken.end(), [&](const auto& a, const auto& b) {
            return first_end_port(f, f.port_node(base[a.first].path(a.second)[0])) <
                   first_end_port(f, f.port_node(base[b.first].path(b.second)[0]));
        });
    else if (opt.order == RepairOptions::Order::Random)
        gen::Rng(opt.order_seed).shuffle(broken);
    std::vector<std::vector<std::vector<PortId>>> fixed(base.size());
    for (std::size_t di = 0; di < base.size(); ++di) fixed[di].resize(base[di].size());
    std::vector<std::vector<std::uint32_t>> dist(base.size());
    std::vector<NodeId> queue;
    std::vector<std::uint64_t> best(f.num_nodes());
    std::vector<PortId> via(f.num_nodes());
    std::vector<PortId> path;
    for (const auto& [di, i] : broken) {
        const auto p = base[di].path(i);
        const PortId dport = first_end_port(f, base[di].dst);
        if (dist[di].empty()) // hop distance of every switch to the destination's switch
            graph::switch_distances(f, f.port(dport).peer_node, dist[di], queue);
        const std::vector<std::uint32_t>& dd = dist[di];
        const PortId sport = first_end_port(f, f.port_node(p[0]));
        const NodeId ssw = f.port(sport).peer_node;
        if (dd[ssw] == graph::kFar) continue; // disconnected: the pair has no path
        // Layered min-weight DP along strictly decreasing distance.
        std::vector<NodeId> layer{ssw}, next;
        best[ssw] = weight[sport];
        via[ssw] = kNoPort;
        while (dd[layer[0]] > 0) {
            next.clear();
            for (NodeId x : layer)
                for (PortNum pn = 1; pn <= f.node(x).num_ports; ++pn) {
                    const Port& port = f.port(x, pn);
                    if (!port.connected() || !f.node(port.peer_node).is_switch()) continue;
                    const NodeId y = port.peer_node;
                    if (dd[y] + 1 != dd[x]) continue;
                    const PortId e = f.port_id(x, pn);
                    const std::uint64_t w = best[x] + weight[e];
                    if (std::find(next.begin(), next.end(), y) == next.end()) {
                        next.push_back(y);
                        best[y] = w;
                        via[y] = e;
                    } else if (w < best[y]) {
                        best[y] = w;
                        via[y] = e;
                    }
                }
            layer.swap(next);
        }
        path.clear();
        const NodeId dsw = layer[0];
        path.push_back(f.port_id(dsw, f.port(dport).peer_port));
        for (NodeId x = dsw; via[x] != kNoPort; x = f.port_node(via[x])) path.push_back(via[x]);
        path.push_back(sport);
        std::reverse(path.begin(), path.end());
        for (PortId e : path) ++weight[e];
        fixed[di][i] = path;
    }
    PathSet out;
    for (std::size_t di = 0; di < base.size(); ++di) {
        DestPaths nd;
        nd.dst = base[di].dst;
        for (std::size_t i = 0; i < base[di].size(); ++i) {
            if (intact(base[di].path(i)))
                nd.add(base[di].path(i));
            else if (!fixed[di][i].empty())
                nd.add(fixed[di][i]);
        }
        out.push_back(std::move(nd));
    }
    if (repaired) *repaired = broken.size();
    return out;
}

} // namespace ibrt::lidassign

namespace ibrt::lidassign {

namespace {

// A whole number in [lo, hi], or nothing.
std::optional<int> number_in(std::string_view s, int lo, int hi) {
    int v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || p != s.data() + s.size() || v < lo || v > hi)
        return std::nullopt;
    return v;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> out;
    for (std::size_t i = 0;;) {
        const std::size_t j = s.find(sep, i);
        out.push_back(s.substr(i, j == std::string_view::npos ? s.npos : j - i));
        if (j == std::string_view::npos) return out;
        i = j + 1;
    }
}

constexpr int kMaxMachines = 4096;

RegularTopology parse_one(std::string_view item) {
    const std::string quoted = "'" + std::string(item) + "'";
    RegularTopology t;
    std::string dims;
    if (item.starts_with("torus:")) {
        for (std::string_view d : split(item.substr(6), 'x')) {
            const auto v = number_in(d, 2, 64);
            if (!v)
                throw std::invalid_argument(quoted + ": a torus dimension is a whole number of "
                                                     "2-64 switches (torus:AxB[xC...])");
            t.dims.push_back(*v);
        }
        if (t.dims.size() > 4) throw std::invalid_argument(quoted + ": a torus has 1-4 dimensions");
        long machines = 1;
        for (int d : t.dims) machines *= d;
        if (machines > kMaxMachines)
            throw std::invalid_argument(quoted + ": more than 4096 switches");
        for (int d : t.dims) dims += (dims.empty() ? "" : "x") + std::to_string(d);
        t.kind = RegularTopology::Kind::Torus;
        t.name = dims + " torus";
        t.file = "lids-regular-torus-" + dims + ".csv";
        if (dims == "16x8") t.file = "lids-fig10a.csv";
        if (dims == "8x4x4") t.file = "lids-fig10b.csv";
    } else if (item.starts_with("fat-tree:")) {
        const auto mn = split(item.substr(9), ',');
        const auto m = mn.size() == 2 ? number_in(mn[0], 4, 64) : std::nullopt;
        const auto n = mn.size() == 2 ? number_in(mn[1], 2, 4) : std::nullopt;
        if (!m || !n || *m % 2 != 0)
            throw std::invalid_argument(quoted + ": a fat tree is fat-tree:M,N, FT(M,N) with M "
                                                 "even in 4-64 ports and N in 2-4 levels");
        long machines = 2;
        for (int l = 0; l < *n; ++l) machines *= *m / 2;
        if (machines > kMaxMachines)
            throw std::invalid_argument(quoted + ": more than 4096 machines");
        t.kind = RegularTopology::Kind::FatTree;
        t.dims = {*m, *n};
        t.name = "FT(" + std::to_string(*m) + "," + std::to_string(*n) + ")";
        t.file = "lids-regular-ft-" + std::to_string(*m) + "-" + std::to_string(*n) + ".csv";
        if (*m == 8 && *n == 3) t.file = "lids-fig11.csv";
    } else {
        throw std::invalid_argument(quoted + ": unknown topology (torus:AxB[xC...] or "
                                             "fat-tree:M,N)");
    }
    t.figure = t.file.substr(5, t.file.size() - 9);
    return t;
}

} // namespace

std::vector<RegularTopology> parse_regular_topologies(std::string_view list) {
    // The items: a fat tree's "M,N" holds the list's separator, so a bare number joins the
    // fat tree before it.
    std::vector<std::string> items;
    for (std::string_view tok : split(list, ',')) {
        const bool number = !tok.empty() && tok.find_first_not_of("0123456789") == tok.npos;
        if (number && !items.empty() && items.back().starts_with("fat-tree:") &&
            items.back().find(',') == std::string::npos)
            items.back() += "," + std::string(tok);
        else
            items.emplace_back(tok);
    }
    std::vector<RegularTopology> out;
    for (const std::string& item : items) {
        if (item.empty())
            throw std::invalid_argument("an empty topology in '" + std::string(list) +
                                        "' (torus:AxB[xC...] or fat-tree:M,N, comma-separated)");
        RegularTopology t = parse_one(item);
        for (const RegularTopology& u : out)
            if (u.file == t.file) throw std::invalid_argument("'" + item + "': listed twice");
        out.push_back(std::move(t));
    }
    return out;
}

} // namespace ibrt::lidassign
