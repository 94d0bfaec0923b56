// FT(m,n) (paper 000 §3) and k-ary n-trees (paper 004 §2); see fat_tree.hpp for the rules.
#include "generators/fat_tree.hpp"

#include "generators/gen_builder.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ibrt::gen {
namespace {

constexpr std::uint64_t kMaxGeneratedNodes = 1u << 22; // guards against typos like --levels 9

std::uint64_t ipow(std::uint64_t b, int e) {
    std::uint64_t r = 1;
    for (int i = 0; i < e; ++i) {
        r *= b;
        if (r > kMaxGeneratedNodes) return kMaxGeneratedNodes + 1;
    }
    return r;
}

// Switch addresses of FT(m,n) as mixed-radix numbers: digit 0 of w ranges over m values on
// levels >= 1 and over m/2 on level 0; all other digits over m/2.
struct FtAddressing {
    int m, n, h;
    int radix(int level, int digit) const { return (digit == 0 && level > 0) ? m : h; }
    std::uint64_t encode(const std::vector<int>& w, int level) const {
        std::uint64_t v = 0;
        for (int i = 0; i < n - 1; ++i) v = v * radix(level, i) + w[i];
        return v;
    }
    std::vector<int> decode(std::uint64_t v, int level) const {
        std::vector<int> w(n - 1);
        for (int i = n - 2; i >= 0; --i) {
            w[i] = static_cast<int>(v % radix(level, i));
            v /= radix(level, i);
        }
        return w;
    }
};

} // namespace

Fabric fat_tree(int m, int n) {
    require(m >= 2 && m % 2 == 0 && m <= kMaxPorts,
            "fat-tree: the port count m must be even and in 2..254, got " + std::to_string(m));
    require(n >= 1 && n <= 16,
            "fat-tree: the level count n must be in 1..16, got " + std::to_string(n));
    const int h = m / 2;
    const std::uint64_t hp = ipow(h, n - 1); // (m/2)^(n-1)
    const std::uint64_t cas = 2 * ipow(h, n);
    const std::uint64_t switches = (2 * std::uint64_t(n) - 1) * hp;
    require(hp <= kMaxGeneratedNodes && cas + switches <= kMaxGeneratedNodes,
            "fat-tree: FT(" + std::to_string(m) + "," + std::to_string(n) +
                ") is too large to generate");
    const FtAddressing addr{m, n, h};
    // Digit 0 of P(p) and of SW<w,l> (l >= 1) ranges over 0..m-1, the others over 0..m/2-1:
    // digits concatenate only while m-1 is a single digit, or FT(16,3) would print P(1500) for
    // p = (15,0,0) next to P(150) for p = (1,5,0), and a label no longer splits into digits
    // by position.
    const bool concat = m <= 10;

    GenBuilder b;
    std::vector<NodeId> ca(cas);
    std::vector<int> p(n);
    for (std::uint64_t i = 0; i < cas; ++i) {
        std::uint64_t v = i;
        for (int d = n - 1; d >= 0; --d) {
            const int r = d == 0 ? m : h;
            p[d] = static_cast<int>(v % r);
            v /= r;
        }
        ca[i] = b.add_ca("P(" + join_digits(p, concat) + ")");
    }
    // level_first[l]: NodeId of the first switch of level l.
    std::vector<NodeId> level_first(n);
    for (int l = 0; l < n; ++l) {
        const std::uint64_t count = l == 0 ? hp : 2 * hp;
        for (std::uint64_t i = 0; i < count; ++i) {
            NodeId id = b.add_switch(
                "SW<" + join_digits(addr.decode(i, l), concat) + "," + std::to_string(l) + ">", m);
            if (i == 0) level_first[l] = id;
        }
    }
    // Switch-to-switch cables: from each upper switch SW<w,l> down to SW<w',l+1>.
    std::vector<int> lower(n - 1);
    for (int l = 0; l + 1 < n; ++l) {
        const std::uint64_t count = l == 0 ? hp : 2 * hp;
        const int down = l == 0 ? m : h;
        for (std::uint64_t i = 0; i < count; ++i) {
            const std::vector<int> w = addr.decode(i, l);
            for (int x = 0; x < down; ++x) {
                // w' = w0..w_{n-3} with x inserted at position l.
                for (int d = 0, s = 0; d < n - 1; ++d) lower[d] = d == l ? x : w[s++];
                const NodeId up = level_first[l] + static_cast<NodeId>(i);
                const NodeId lo =
                    level_first[l + 1] + static_cast<NodeId>(addr.encode(lower, l + 1));
                b.link(up, x + 1, lo, w[n - 2] + h + 1);
            }
        }
    }
    // Leaves: SW<p0..p_{n-2}, n-1> port p_{n-1} holds P(p).
    // With n = 1 the single switch holds all m CAs on ports 1..m.
    const std::uint64_t per_leaf = n == 1 ? cas : h;
    for (std::uint64_t i = 0; i < cas; ++i)
        b.link(level_first[n - 1] + static_cast<NodeId>(i / per_leaf),
               static_cast<int>(i % per_leaf) + 1, ca[i], 1);
    return std::move(b).build();
}

Fabric kary_ntree(int k, int n) {
    require(k >= 1 && 2 * k <= kMaxPorts,
            "kary-ntree: k must be in 1..127 (switches have 2k ports), got " + std::to_string(k));
    require(n >= 1 && n <= 24, "kary-ntree: n must be in 1..24, got " + std::to_string(n));
    const std::uint64_t nodes = ipow(k, n);
    const std::uint64_t per_stage = ipow(k, n - 1);
    require(nodes + n * per_stage <= kMaxGeneratedNodes, "kary-ntree: " + std::to_string(k) +
                                                             "-ary " + std::to_string(n) +
                                                             "-tree is too large to generate");
    const bool concat = k <= 10;

    GenBuilder b;
    // Digits most significant first, as the paper writes them (p_{n-1} .. p_0).
    auto digits = [k](std::uint64_t v, int count) {
        std::vector<int> d(count);
        for (int i = count - 1; i >= 0; --i) {
            d[i] = static_cast<int>(v % k);
            v /= k;
        }
        return d;
    };
    std::vector<NodeId> ca(nodes);
    for (std::uint64_t i = 0; i < nodes; ++i)
        ca[i] = b.add_ca("P(" + join_digits(digits(i, n), concat) + ")");
    std::vector<NodeId> stage_first(n);
    for (int s = 0; s < n; ++s)
        for (std::uint64_t o = 0; o < per_stage; ++o) {
            NodeId id = b.add_switch("SW<" + std::to_string(s) + "," +
                                         join_digits(digits(o, n - 1), concat) + ">",
                                     2 * k);
            if (o == 0) stage_first[s] = id;
        }
    for (std::uint64_t i = 0; i < nodes; ++i)
        b.link(stage_first[0] + static_cast<NodeId>(i / k), static_cast<int>(i % k) + 1, ca[i], 1);
    // <s,o> -- <s+1,o'> where o' differs from o at most in digit s (weight k^s).
    std::uint64_t weight = 1;
    for (int s = 0; s + 1 < n; ++s, weight *= k) {
        for (std::uint64_t o = 0; o < per_stage; ++o) {
            const int os = static_cast<int>((o / weight) % k);
            const std::uint64_t base = o - os * weight;
            for (int j = 0; j < k; ++j) {
                const std::uint64_t o2 = base + j * weight;
                b.link(stage_first[s] + static_cast<NodeId>(o), k + j + 1,
                       stage_first[s + 1] + static_cast<NodeId>(o2), os + 1);
            }
        }
    }
    return std::move(b).build();
}

} // namespace ibrt::gen
