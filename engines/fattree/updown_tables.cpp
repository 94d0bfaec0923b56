// Fat-tree forwarding tables (paper 000 §4.3, equations (1) and (2)); see the header.
#include "engines/fattree/updown_tables.hpp"

#include "engines/common/escape_layer.hpp"
#include "engines/fattree/switch_lid_routes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ibrt::fattree {

std::uint64_t path_space(const FatTreeShape& t) {
    constexpr std::uint64_t kCap = std::uint64_t(1) << 40;
    std::uint64_t p = 1;
    for (int L = 1; L < t.height; ++L)
        p = std::min(kCap, p * std::max<std::uint64_t>(1, t.up_radix[L]));
    return p;
}

namespace {

enum class Kind : std::uint8_t { None, ToEnd, Down, Up };

struct Choice {
    std::uint32_t off = 0;   // into the candidate pool
    std::uint16_t count = 0; // candidate ports
    Kind kind = Kind::None;
    // Up with unequal candidates: choice v goes to candidate seq[seq_off + v mod period].
    std::uint16_t period = 0; // 0: the candidates are equal
    std::uint32_t seq_off = 0;
};

// Per (switch, destination leaf): how the switch forwards toward the end ports of that leaf.
struct LeafRoutes {
    std::vector<Choice> choice; // [switch index * num_leaves + leaf]
    std::vector<PortNum> pool;
    std::vector<std::uint16_t> seq; // weighted round-robin orders of unequal up candidates
    std::vector<char> stranded;     // per leaf: some leaf has no up*/down* path to it
};

// Up candidates weighted by the up*/down* paths beyond them: on a degraded tree a parent whose
// subtree lost most of its ways down toward the destination gets a share of the LIDs to match,
// instead of an equal one that piles onto its few remaining cables. Equal weights keep the
// plain digit (the paper's choice). Unequal ones become a smooth weighted round-robin order
// (each step takes the candidate furthest behind its share), weights scaled to at most
// kResolution per candidate: consecutive choices still spread over different parents.
void weigh_up_choice(Choice& ch, const std::vector<double>& w, std::vector<std::uint16_t>& seq) {
    constexpr double kResolution = 16;
    const double wmax = *std::max_element(w.begin(), w.end());
    const double wmin = *std::min_element(w.begin(), w.end());
    if (wmax - wmin <= 1e-9 * wmax) return;
    std::vector<std::int64_t> iw(w.size()), cur(w.size(), 0);
    std::int64_t g = 0, total = 0;
    for (std::size_t j = 0; j < w.size(); ++j) {
        iw[j] = std::max<std::int64_t>(1, std::llround(kResolution * w[j] / wmax));
        g = std::gcd(g, iw[j]);
    }
    for (auto& x : iw) total += (x /= g);
    ch.period = static_cast<std::uint16_t>(total);
    ch.seq_off = static_cast<std::uint32_t>(seq.size());
    for (std::int64_t step = 0; step < total; ++step) {
        std::size_t best = 0;
        for (std::size_t j = 0; j < iw.size(); ++j) {
            cur[j] += iw[j];
            if (cur[j] > cur[best]) best = j;
        }
        cur[best] -= total;
        seq.push_back(static_cast<std::uint16_t>(best));
    }
}

LeafRoutes leaf_routes(const Fabric& f, const FatTreeShape& t,
                       const std::vector<std::uint32_t>& sw_index) {
    const std::size_t nl = t.leaves.size();
    const std::size_t ns = t.by_level.size();
    const std::uint32_t down_off = static_cast<std::uint32_t>(t.up_ports.size());
    LeafRoutes lr;
    lr.choice.resize(ns * nl);
    lr.stranded.assign(nl, 0);
    lr.pool = t.up_ports;
    lr.pool.insert(lr.pool.end(), t.down_ports.begin(), t.down_ports.end());

    std::vector<std::uint32_t> in_d(f.num_nodes(), 0), reach(f.num_nodes(), 0);
    std::vector<double> paths(f.num_nodes(), 0); // up*/down* paths to the leaf, per switch
    std::vector<NodeId> queue;
    std::vector<PortNum> cand;
    std::vector<double> weight;
    for (std::uint32_t c = 0; c < nl; ++c) {
        const std::uint32_t stamp = c + 1;
        const NodeId leaf = t.leaves[c];
        // D: the leaf and its ancestors, i.e. the switches that reach it going down.
        queue.assign(1, leaf);
        in_d[leaf] = stamp;
        for (std::size_t h = 0; h < queue.size(); ++h) {
            const NodeId s = queue[h];
            for (std::uint32_t j = t.up_begin[s]; j < t.up_begin[s + 1]; ++j) {
                const NodeId p = f.port(s, t.up_ports[j]).peer_node;
                if (in_d[p] != stamp) {
                    in_d[p] = stamp;
                    queue.push_back(p);
                }
            }
        }
        // Paths down from D (lowest level first), then Reach: D plus the switches with a
        // parent in Reach, with the paths through those parents (top level first).
        for (std::size_t k = 0; k < ns; ++k) {
            const NodeId s = t.by_level[k];
            if (in_d[s] != stamp) continue;
            double p = s == leaf ? 1 : 0;
            for (std::uint32_t j = t.down_begin[s]; j < t.down_begin[s + 1]; ++j) {
                const NodeId child = f.port(s, t.down_ports[j]).peer_node;
                if (in_d[child] == stamp) p += paths[child];
            }
            paths[s] = p;
        }
        for (std::size_t k = ns; k-- > 0;) {
            const NodeId s = t.by_level[k];
            if (in_d[s] == stamp) {
                reach[s] = stamp;
                continue;
            }
            double p = 0;
            for (std::uint32_t j = t.up_begin[s]; j < t.up_begin[s + 1]; ++j) {
                const NodeId q = f.port(s, t.up_ports[j]).peer_node;
                if (reach[q] == stamp) p += paths[q];
            }
            if (p > 0) {
                reach[s] = stamp;
                paths[s] = p;
            }
        }
        for (std::size_t k = 0; k < ns; ++k) {
            const NodeId s = t.by_level[k];
            Choice& ch = lr.choice[std::size_t(sw_index[s]) * nl + c];
            if (s == leaf) {
                ch.kind = Kind::ToEnd;
            } else if (in_d[s] == stamp) {
                std::uint32_t first = 0, last = 0, count = 0;
                for (std::uint32_t j = t.down_begin[s]; j < t.down_begin[s + 1]; ++j)
                    if (in_d[f.port(s, t.down_ports[j]).peer_node] == stamp) {
                        if (count++ == 0) first = j;
                        last = j;
                    }
                ch.kind = Kind::Down;
                ch.count = static_cast<std::uint16_t>(count);
                if (last - first + 1 == count) {
                    ch.off = down_off + first;
                } else {
                    ch.off = static_cast<std::uint32_t>(lr.pool.size());
                    for (std::uint32_t j = first; j <= last; ++j)
                        if (in_d[f.port(s, t.down_ports[j]).peer_node] == stamp)
                            lr.pool.push_back(t.down_ports[j]);
                }
            } else if (reach[s] == stamp) {
                cand.clear();
                weight.clear();
                for (std::uint32_t j = t.up_begin[s]; j < t.up_begin[s + 1]; ++j) {
                    const NodeId q = f.port(s, t.up_ports[j]).peer_node;
                    if (reach[q] != stamp) continue;
                    cand.push_back(t.up_ports[j]);
                    weight.push_back(paths[q]);
                }
                weigh_up_choice(ch, weight, lr.seq);
                ch.kind = Kind::Up;
                ch.count = static_cast<std::uint16_t>(cand.size());
                if (cand.size() == t.up_begin[s + 1] - t.up_begin[s]) {
                    ch.off = t.up_begin[s];
                } else {
                    ch.off = static_cast<std::uint32_t>(lr.pool.size());
                    lr.pool.insert(lr.pool.end(), cand.begin(), cand.end());
                }
            } else if (t.level[s] == 1) {
                lr.stranded[c] = 1; // leaf s cannot reach it up then down: the escape layer
            }
        }
    }
    return lr;
}

} // namespace

void build_updown_lfts(const Fabric& f, const FatTreeShape& t, Routing& r, bool single_path) {
    const std::size_t nl = t.leaves.size();
    std::vector<std::uint32_t> sw_index(f.num_nodes(), 0);
    for (std::size_t k = 0; k < t.by_level.size(); ++k)
        sw_index[t.by_level[k]] = static_cast<std::uint32_t>(k);
    const LeafRoutes lr = leaf_routes(f, t, sw_index);

    const std::uint64_t P = path_space(t);
    // weight[L] = U_1 ... U_{L-1}; the up choice at level L is digit L of e.
    std::vector<std::uint64_t> weight(t.height + 1, 1);
    for (int L = 2; L <= t.height; ++L)
        weight[L] = std::min<std::uint64_t>(P, weight[L - 1] *
                                                   std::max<std::uint64_t>(1, t.up_radix[L - 1]));
    // Digits by table when the path space is small (it is: (m/2)^(n-1) for FT(m,n)).
    constexpr std::uint64_t kTableMax = std::uint64_t(1) << 20;
    const bool tabled = P <= kTableMax;
    std::vector<std::vector<std::uint32_t>> digit_table(t.height + 1);
    if (tabled)
        for (int L = 1; L <= t.height; ++L) {
            const std::uint64_t U = std::max<std::uint64_t>(1, t.up_radix[L]);
            digit_table[L].resize(P);
            for (std::uint64_t e = 0; e < P; ++e)
                digit_table[L][e] = static_cast<std::uint32_t>((e / weight[L]) % U);
        }

    const std::size_t ne = t.num_end_ports();
    std::vector<Lid> base(ne);
    std::vector<std::uint32_t> lids_of(ne);
    std::vector<std::uint64_t> e_base(ne);
    for (std::size_t i = 0; i < ne; ++i) {
        base[i] = r.lids.base(t.end_ports[i]);
        lids_of[i] = 1u << r.lids.lmc(t.end_ports[i]);
        // Offset o of a port with a LID per up path takes path o, as the paper's equations do
        // when 2^LMC = P; with fewer LIDs than paths (LMC capped) the ports' windows rotate.
        e_base[i] = single_path ? i % P : lids_of[i] >= P ? 0 : (std::uint64_t(i) * lids_of[i]) % P;
    }

    const std::size_t size = std::size_t(r.lids.max_lid()) + 1;
    r.lft.assign(f.num_nodes(), {});
    for (NodeId s : f.switches()) r.lft[s].assign(size, kNoPath);

    for (NodeId s : t.by_level) {
        Lft& lft = r.lft[s];
        const Choice* row = lr.choice.data() + std::size_t(sw_index[s]) * nl;
        const int L = t.level[s];
        const std::uint64_t U = std::max<std::uint64_t>(1, t.up_radix[L]);
        const std::uint32_t* dt = tabled ? digit_table[L].data() : nullptr;
        for (std::size_t i = 0; i < ne; ++i) {
            const Choice ch = row[t.end_leaf[i]];
            const Lid b = base[i];
            const std::uint32_t K = lids_of[i];
            switch (ch.kind) {
            case Kind::None:
                break;
            case Kind::ToEnd:
                std::fill_n(lft.begin() + b, K, t.end_leaf_port[i]);
                break;
            case Kind::Down:
                if (ch.count == 1) {
                    std::fill_n(lft.begin() + b, K, lr.pool[ch.off]);
                } else {
                    for (std::uint32_t o = 0; o < K; ++o)
                        lft[b + o] =
                            lr.pool[ch.off +
                                    (std::uint64_t(i) * K + (single_path ? 0 : o)) % ch.count];
                }
                break;
            case Kind::Up:
                for (std::uint32_t o = 0; o < K; ++o) {
                    std::uint64_t e = e_base[i] + (single_path ? 0 : o);
                    if (e >= P) e %= P;
                    std::uint32_t d;
                    if (ch.period != 0)
                        d = lr.seq[ch.seq_off + (e / weight[L]) % ch.period];
                    else if (ch.count == U)
                        d = dt ? dt[e] : static_cast<std::uint32_t>((e / weight[L]) % U);
                    else
                        d = static_cast<std::uint32_t>((e / weight[L]) % ch.count);
                    lft[b + o] = lr.pool[ch.off + d];
                }
                break;
            }
        }
    }
    // Destinations some leaf cannot reach up*/down*: every LID of their end ports, and the
    // switch LIDs no admissible turn reaches, go on the escape layer.
    std::vector<Lid> escape = route_switch_lids(f, t, r);
    for (std::size_t i = 0; i < ne; ++i)
        if (lr.stranded[t.end_leaf[i]])
            for (std::uint32_t o = 0; o < lids_of[i]; ++o) escape.push_back(Lid(base[i] + o));
    // The tree's routes are all on SL 0 and VL 0: SL 1 on VL 1 is free (escape_layer.hpp).
    escape::route_on_escape_layer(f, t.by_level, escape,
                                  {.sl = 1, .vl = 1, .what = "degraded tree"}, r);
}

} // namespace ibrt::fattree
