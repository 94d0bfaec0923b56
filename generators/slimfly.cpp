// McKay-Miller-Siran graphs over F_q for Slim Fly (paper 003 §1.5); see slimfly.hpp.
#include "generators/slimfly.hpp"

#include "generators/gen_builder.hpp"

#include <algorithm>

namespace ibrt::gen {
namespace {

// F_q as addition and multiplication tables over 0..q-1: Z_q for a prime q; for q = 2^p,
// polynomials over GF(2) modulo an irreducible polynomial, element i = bit vector of i.
struct Field {
    int q = 0;
    std::vector<int> add_, mul_, neg_;
    int add(int a, int b) const { return add_[a * q + b]; }
    int mul(int a, int b) const { return mul_[a * q + b]; }
    int sub(int a, int b) const { return add_[a * q + neg_[b]]; }
};

bool is_prime(int q) {
    if (q < 2) return false;
    for (int d = 2; d * d <= q; ++d)
        if (q % d == 0) return false;
    return true;
}

Field make_field(int q) {
    Field f;
    f.q = q;
    f.add_.resize(std::size_t(q) * q);
    f.mul_.resize(std::size_t(q) * q);
    f.neg_.resize(q);
    if (is_prime(q)) {
        for (int a = 0; a < q; ++a) {
            f.neg_[a] = (q - a) % q;
            for (int b = 0; b < q; ++b) {
                f.add_[a * q + b] = (a + b) % q;
                f.mul_[a * q + b] = (a * b) % q;
            }
        }
        return f;
    }
    // Irreducible polynomials x^p + ... for p = 2..7 (bit i = coefficient of x^i).
    static const int kPoly[] = {0, 0, 0x7, 0xb, 0x13, 0x25, 0x43, 0x83};
    int p = 0;
    while ((1 << p) < q) ++p;
    require((1 << p) == q && p >= 2 && p <= 7,
            "slimfly: q must be a prime >= 3 or a power of two in 4..128, got " +
                std::to_string(q));
    for (int a = 0; a < q; ++a) {
        f.neg_[a] = a;
        for (int b = 0; b < q; ++b) {
            f.add_[a * q + b] = a ^ b;
            int r = 0, x = a;
            for (int bit = 0; bit < p; ++bit) {
                if (b >> bit & 1) r ^= x;
                x <<= 1;
                if (x & q) x ^= kPoly[p];
            }
            f.mul_[a * q + b] = r;
        }
    }
    return f;
}

int primitive_element(const Field& f) {
    for (int xi = 2 % f.q; xi < f.q; ++xi) {
        if (xi == 0) continue;
        int order = 1;
        for (int v = xi; v != 1; v = f.mul(v, xi)) ++order;
        if (order == f.q - 1) return xi;
    }
    return 1; // q = 2 only, rejected before
}

} // namespace

Adjacency mms_graph(int q) {
    require(q >= 3 && q <= 169, "slimfly: q must be in 3..169, got " + std::to_string(q));
    require(q % 4 != 2,
            "slimfly: q = 4w + delta needs delta in {-1, 0, 1}, got q = " + std::to_string(q));
    const Field f = make_field(q);
    const int delta = q % 4 == 1 ? 1 : q % 4 == 3 ? -1 : 0;
    const int w = (q - delta) / 4;
    const int xi = primitive_element(f);
    std::vector<int> pw(2 * q);
    pw[0] = 1;
    for (int i = 1; i < 2 * q; ++i) pw[i] = f.mul(pw[i - 1], xi);
    std::vector<int> X, Xp;
    if (delta == 1) {
        for (int e = 0; e <= q - 3; e += 2) X.push_back(pw[e]);
        for (int e = 1; e <= q - 2; e += 2) Xp.push_back(pw[e]);
    } else if (delta == 0) {
        for (int e = 0; e <= q - 2; e += 2) X.push_back(pw[e]);
        for (int e = 1; e <= q - 1; e += 2) Xp.push_back(pw[e]);
    } else {
        for (int e = 0; e <= 2 * w - 2; e += 2) X.push_back(pw[e]);
        for (int e = 2 * w - 1; e <= 4 * w - 3; e += 2) X.push_back(pw[e]);
        for (int e = 1; e <= 2 * w - 1; e += 2) Xp.push_back(pw[e]);
        for (int e = 2 * w; e <= 4 * w - 2; e += 2) Xp.push_back(pw[e]);
    }
    std::vector<char> inX(q, 0), inXp(q, 0);
    for (int v : X) inX[v] = 1;
    for (int v : Xp) inXp[v] = 1;

    const std::uint32_t qq = std::uint32_t(q) * q;
    auto id = [q, qq](int t, int x, int y) { return t * qq + std::uint32_t(x) * q + y; };
    Adjacency adj(2 * qq);
    for (int x = 0; x < q; ++x)
        for (int y = 0; y < q; ++y)
            for (int y2 = 0; y2 < q; ++y2) {
                if (y2 == y) continue;
                if (inX[f.sub(y, y2)]) adj[id(0, x, y)].push_back(id(0, x, y2));
                if (inXp[f.sub(y, y2)]) adj[id(1, x, y)].push_back(id(1, x, y2));
            }
    for (int x = 0; x < q; ++x)
        for (int m = 0; m < q; ++m)
            for (int c = 0; c < q; ++c) {
                const int y = f.add(f.mul(m, x), c);
                adj[id(0, x, y)].push_back(id(1, m, c));
                adj[id(1, m, c)].push_back(id(0, x, y));
            }
    for (auto& l : adj) {
        std::sort(l.begin(), l.end());
        l.erase(std::unique(l.begin(), l.end()), l.end());
    }
    return adj;
}

Fabric slimfly(const SlimFlyParams& P) {
    const Adjacency adj = mms_graph(P.q);
    const int q = P.q;
    const int degree = static_cast<int>(adj[0].size());
    require(P.parallel >= 1, "slimfly: --parallel must be at least 1");
    // The FlatFly factor: K_n and L_n per dimension, and its switches (1 without one).
    const std::vector<int>& K = P.ff_k;
    std::vector<int> L = P.ff_width.empty() ? std::vector<int>(K.size(), 1) : P.ff_width;
    require(L.size() == K.size(), "slimfly: --ff-width needs one width per --ff dimension");
    int ff_degree = 0;
    std::uint32_t copies = 1;
    for (std::size_t n = 0; n < K.size(); ++n) {
        require(K[n] >= 2, "slimfly: every --ff dimension needs at least 2 switches");
        require(L[n] >= 1, "slimfly: every --ff-width must be at least 1");
        ff_degree += L[n] * (K[n] - 1);
        copies *= static_cast<std::uint32_t>(K[n]);
        require(copies * adj.size() <= 1u << 16, "slimfly: more than 65,536 switches");
    }
    const int C = P.cas_per_switch >= 0 ? P.cas_per_switch : (degree + 1) / 2;
    const int need = C + P.parallel * degree + ff_degree;
    const int radix = P.radix ? P.radix : need;
    require(radix >= need, "slimfly: the switches need " + std::to_string(need) +
                               " ports, but the radix is " + std::to_string(radix));
    require(radix <= kMaxPorts,
            "slimfly: the switches need " + std::to_string(radix) + " ports, more than 254");
    // FlatFly coordinates of copy h (c_1 most significant), and h of coordinates.
    auto ff_coords = [&](std::uint32_t h) {
        std::vector<int> c(K.size());
        for (std::size_t n = K.size(); n-- > 0;) {
            c[n] = static_cast<int>(h % K[n]);
            h /= K[n];
        }
        return c;
    };
    auto ff_index = [&](const std::vector<int>& c) {
        std::uint32_t h = 0;
        for (std::size_t n = 0; n < K.size(); ++n) h = h * K[n] + c[n];
        return h;
    };
    auto label = [&](std::uint32_t v, std::uint32_t h) {
        const std::uint32_t qq = std::uint32_t(q) * q;
        std::string s =
            std::to_string(v / qq) + "." + std::to_string(v % qq / q) + "." + std::to_string(v % q);
        if (!K.empty()) s += "-" + join_digits(ff_coords(h), false);
        return s;
    };
    GenBuilder b;
    std::vector<NodeId> sw(adj.size() * copies);
    for (std::uint32_t v = 0; v < adj.size(); ++v)
        for (std::uint32_t h = 0; h < copies; ++h)
            sw[v * copies + h] = b.add_switch("sw-" + label(v, h), radix);
    for (std::uint32_t x = 0; x < sw.size(); ++x)
        for (int c = 0; c < C; ++c)
            b.link(sw[x], c + 1,
                   b.add_ca("host-" + label(x / copies, x % copies) + "-" + std::to_string(c)), 1);
    if (K.empty()) {
        cable_switch_graph(b, sw, adj, C + 1, P.parallel);
        return std::move(b).build();
    }
    // Slim Fly links within each copy, then FlatFly links within each Slim Fly vertex's copy of
    // the FlatFly; each pair cabled once, from its lower switch.
    for (std::uint32_t v = 0; v < adj.size(); ++v)
        for (std::size_t i = 0; i < adj[v].size(); ++i) {
            const std::uint32_t u = adj[v][i];
            if (u < v) continue;
            const auto j =
                static_cast<int>(std::find(adj[u].begin(), adj[u].end(), v) - adj[u].begin());
            for (std::uint32_t h = 0; h < copies; ++h)
                for (int l = 0; l < P.parallel; ++l)
                    b.link(sw[v * copies + h], C + 1 + int(i) * P.parallel + l, sw[u * copies + h],
                           C + 1 + j * P.parallel + l);
        }
    const int ff_first = C + 1 + P.parallel * degree;
    for (std::uint32_t v = 0; v < adj.size(); ++v)
        for (std::uint32_t h = 0; h < copies; ++h) {
            const std::vector<int> c = ff_coords(h);
            int block = ff_first;
            for (std::size_t n = 0; n < K.size(); ++n) {
                for (int w = c[n] + 1; w < K[n]; ++w) {
                    std::vector<int> d = c;
                    d[n] = w;
                    // Neighbour w of c uses slot (w - 1) (w > c); c is slot c of w (c < w).
                    for (int l = 0; l < L[n]; ++l)
                        b.link(sw[v * copies + h], block + (w - 1) * L[n] + l,
                               sw[v * copies + ff_index(d)], block + c[n] * L[n] + l);
                }
                block += L[n] * (K[n] - 1);
            }
        }
    return std::move(b).build();
}

} // namespace ibrt::gen
