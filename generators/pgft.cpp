// PGFT / XGFT construction and deployed Clos shapes; see pgft.hpp.
#include "generators/pgft.hpp"

#include "generators/gen_builder.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>

namespace ibrt::gen {
namespace {

constexpr std::uint64_t kMaxGeneratedNodes = 1u << 22;

using Label = std::function<std::string(int level, std::uint64_t index)>;

std::string digits_of(std::uint64_t v,
                      const std::vector<int>& radices /* most significant first */) {
    std::vector<int> d(radices.size());
    for (std::size_t i = radices.size(); i-- > 0;) {
        d[i] = static_cast<int>(v % radices[i]);
        v /= radices[i];
    }
    bool small = std::all_of(radices.begin(), radices.end(), [](int r) { return r <= 10; });
    return join_digits(d, small);
}

Fabric build_pgft(const PgftParams& P, const Label& label) {
    const int h = static_cast<int>(P.m.size());
    require(h >= 1, "pgft: at least one level is needed");
    require(P.w.size() == P.m.size() && P.p.size() == P.m.size(),
            "pgft: m, w and p need one value per level (" + std::to_string(h) + ")");
    for (int l = 0; l < h; ++l)
        require(P.m[l] >= 1 && P.w[l] >= 1 && P.p[l] >= 1,
                "pgft: m, w and p must be positive (level " + std::to_string(l + 1) + ")");
    // count[l]: nodes on level l; W[l] = prod_{i<=l} w_i; M[l] = prod_{i>l} m_i.
    std::vector<std::uint64_t> W(h + 1, 1), M(h + 1, 1), count(h + 1);
    for (int l = 1; l <= h; ++l) W[l] = std::min(W[l - 1] * P.w[l - 1], kMaxGeneratedNodes + 1);
    for (int l = h - 1; l >= 0; --l) M[l] = std::min(M[l + 1] * P.m[l], kMaxGeneratedNodes + 1);
    std::uint64_t total = 0;
    for (int l = 0; l <= h; ++l) {
        count[l] = std::min(M[l] * W[l], kMaxGeneratedNodes + 1);
        total += count[l];
    }
    require(total <= kMaxGeneratedNodes, "pgft: the tree is too large to generate");
    // Ports per level: down m_l p_l, up w_{l+1} p_{l+1}.
    auto down = [&](int l) { return l == 0 ? 0 : P.m[l - 1] * P.p[l - 1]; };
    auto up = [&](int l) { return l == h ? 0 : P.w[l] * P.p[l]; };
    int need = 0;
    for (int l = 1; l <= h; ++l) need = std::max(need, down(l) + up(l));
    const int radix = P.radix ? P.radix : need;
    require(radix >= need, "pgft: the switches need " + std::to_string(need) +
                               " ports, but the radix is " + std::to_string(radix));
    require(radix <= kMaxPorts && up(0) <= kMaxPorts,
            "pgft: more than " + std::to_string(kMaxPorts) + " ports per node");

    GenBuilder b;
    std::vector<NodeId> first(h + 1);
    for (int l = 0; l <= h; ++l)
        for (std::uint64_t i = 0; i < count[l]; ++i) {
            const NodeId id =
                l == 0 ? b.add_ca(label(0, i), up(0)) : b.add_switch(label(l, i), radix);
            if (i == 0) first[l] = id;
        }
    for (int l = 1; l <= h; ++l) {
        const int ml = P.m[l - 1], wl = P.w[l - 1], pl = P.p[l - 1];
        for (std::uint64_t lo = 0; lo < count[l - 1]; ++lo) {
            const std::uint64_t B = lo % W[l - 1];
            const std::uint64_t rest = lo / W[l - 1];
            const int al = static_cast<int>(rest % ml);
            const std::uint64_t A = rest / ml;
            for (int bl = 0; bl < wl; ++bl) {
                const std::uint64_t hi = A * W[l] + std::uint64_t(bl) * W[l - 1] + B;
                for (int j = 0; j < pl; ++j)
                    b.link(first[l - 1] + static_cast<NodeId>(lo), down(l - 1) + bl * pl + j + 1,
                           first[l] + static_cast<NodeId>(hi), al * pl + j + 1);
            }
        }
    }
    return std::move(b).build();
}

} // namespace

Fabric pgft(const PgftParams& P) {
    const int h = static_cast<int>(P.m.size());
    auto label = [&P, h](int l, std::uint64_t i) {
        // (a_h..a_{l+1}) then (b_l..b_1).
        std::vector<int> a, w;
        for (int k = h; k > l; --k) a.push_back(P.m[k - 1]);
        for (int k = l; k >= 1; --k) w.push_back(P.w[k - 1]);
        std::uint64_t Wl = 1;
        for (int r : w) Wl *= r;
        if (l == 0) return "H(" + digits_of(i, a) + ")";
        return "L" + std::to_string(l) + "(" + digits_of(i / Wl, a) + "|" + digits_of(i % Wl, w) +
               ")";
    };
    return build_pgft(P, label);
}

PgftParams clos_as_pgft(const ClosParams& c) {
    const int r = c.radix, P = c.parallel;
    require(c.levels == 2 || c.levels == 3,
            "clos: --levels must be 2 or 3, got " + std::to_string(c.levels));
    require(r >= 2 && r <= kMaxPorts,
            "clos: the radix must be in 2..254, got " + std::to_string(r));
    require(c.blocking_down >= 1 && c.blocking_up >= 1,
            "clos: the blocking ratio must be positive");
    require(P >= 1, "clos: --parallel must be at least 1");
    const int parts = c.blocking_down + c.blocking_up;
    require(r % parts == 0, "clos: a radix-" + std::to_string(r) + " leaf cannot split its ports " +
                                std::to_string(c.blocking_down) + ":" +
                                std::to_string(c.blocking_up));
    const int d = r / parts * c.blocking_down, u = r / parts * c.blocking_up;
    PgftParams p;
    p.radix = r;
    if (c.levels == 2) {
        require(r % P == 0 && u % P == 0, "clos: --parallel " + std::to_string(P) +
                                              " must divide the radix and the leaf up ports (" +
                                              std::to_string(u) + ")");
        p.m = {d, r / P};
        p.w = {1, u / P};
        p.p = {1, P};
    } else {
        require(r % (2 * P) == 0 && u % P == 0,
                "clos: --parallel " + std::to_string(P) +
                    " must divide half the radix and the leaf up ports (" + std::to_string(u) +
                    ")");
        p.m = {d, r / (2 * P), r / P};
        p.w = {1, u / P, r / (2 * P)};
        p.p = {1, P, P};
    }
    return p;
}

Fabric clos(const ClosParams& c) {
    const PgftParams p = clos_as_pgft(c);
    const std::uint64_t d = p.m[0];
    if (c.levels == 2) {
        return build_pgft(p, [d](int l, std::uint64_t i) {
            if (l == 0) return "host-l" + std::to_string(i / d) + "-" + std::to_string(i % d);
            return (l == 1 ? "leaf-" : "spine-") + std::to_string(i);
        });
    }
    const std::uint64_t edges = p.m[1], aggs = p.w[1];
    return build_pgft(p, [d, edges, aggs](int l, std::uint64_t i) {
        switch (l) {
        case 0:
            return "host-p" + std::to_string(i / d / edges) + "-e" + std::to_string(i / d % edges) +
                   "-" + std::to_string(i % d);
        case 1:
            return "edge-p" + std::to_string(i / edges) + "-" + std::to_string(i % edges);
        case 2:
            return "agg-p" + std::to_string(i / aggs) + "-" + std::to_string(i % aggs);
        default:
            return "core-" + std::to_string(i);
        }
    });
}

} // namespace ibrt::gen
