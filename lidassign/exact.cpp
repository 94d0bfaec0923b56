// Paper 001 §IV: the 0-1 ILP of SD(G, d, R_d, k), solved with GLPK (glp_intopt), and the
// k-1, k-2, ... search of §VI.B. Reductions (k-core, components, maximum clique, DSATUR,
// clique constraints) and symmetry breaking as documented in exact.hpp.
#include "lidassign/exact.hpp"

#include <glpk.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <functional>
#include <numeric>
#include <vector>

namespace ibrt::lidassign {

namespace {

constexpr std::uint32_t kNone = 0xffffffffu;

struct GlpProb {
    glp_prob* p = glp_create_prob();
    ~GlpProb() { glp_delete_prob(p); }
    GlpProb() = default;
    GlpProb(const GlpProb&) = delete;
    GlpProb& operator=(const GlpProb&) = delete;
};

using Clock = std::chrono::steady_clock;
double seconds_left(Clock::time_point deadline) {
    return std::chrono::duration<double>(deadline - Clock::now()).count();
}

// Cliques covering every edge of g among the vertices with use[v] (each at least 2 vertices).
// Grown from an uncovered edge by the common neighbour with the most uncovered edges into
// the clique (more covered per row), then the larger degree.
std::vector<std::vector<std::uint32_t>> clique_cover(const SplitGraph& g,
                                                     const std::vector<bool>& use) {
    const auto n = static_cast<std::uint32_t>(g.num_vertices());
    std::vector<std::vector<std::uint32_t>> out;
    std::vector<bool> covered(std::size_t(n) * n, false);
    for (std::uint32_t u = 0; u < n; ++u) {
        if (!use[u]) continue;
        for (std::uint32_t v : g.neighbours(u)) {
            if (v <= u || !use[v] || covered[std::size_t(u) * n + v]) continue;
            std::vector<std::uint32_t> c{u, v};
            std::vector<std::uint32_t> cand;
            const auto nu = g.neighbours(u), nv = g.neighbours(v);
            std::set_intersection(nu.begin(), nu.end(), nv.begin(), nv.end(),
                                  std::back_inserter(cand));
            std::erase_if(cand, [&](std::uint32_t w) { return !use[w]; });
            while (!cand.empty()) {
                std::uint32_t pick = cand[0];
                std::int64_t pick_new = -1;
                for (std::uint32_t w : cand) {
                    std::int64_t fresh = 0;
                    for (std::uint32_t x : c) fresh += !covered[std::size_t(w) * n + x];
                    if (fresh > pick_new || (fresh == pick_new && g.degree(w) > g.degree(pick))) {
                        pick = w;
                        pick_new = fresh;
                    }
                }
                c.push_back(pick);
                std::vector<std::uint32_t> next;
                const auto nw = g.neighbours(pick);
                std::set_intersection(cand.begin(), cand.end(), nw.begin(), nw.end(),
                                      std::back_inserter(next));
                cand.swap(next);
            }
            for (std::uint32_t a : c)
                for (std::uint32_t b : c) covered[std::size_t(a) * n + b] = true;
            out.push_back(std::move(c));
        }
    }
    return out;
}

// The ILP on one connected graph h, clique q fixed to configurations 0..|q|-1. Returns the
// configuration of every vertex, or empty (infeasible or timed out: see timed_out).
std::vector<std::uint32_t> solve_ilp(const SplitGraph& h, std::uint32_t k,
                                     const std::vector<std::uint32_t>& q, double time_limit_s,
                                     bool& timed_out) {
    timed_out = false;
    const auto n = static_cast<std::uint32_t>(h.num_vertices());
    std::vector<std::uint32_t> fixed(n, kNone);
    for (std::size_t j = 0; j < q.size(); ++j) fixed[q[j]] = std::uint32_t(j);
    // Allowed configurations of the free vertices: <= |q| + r for the r-th, and none that a
    // clique neighbour holds (the fixed paths have no columns at all).
    std::vector<std::vector<std::uint32_t>> dom(n);
    std::vector<std::vector<int>> col(n); // column of (v, i), 0 if none; i < k
    int ncols = 0;
    {
        std::uint32_t r = 0;
        std::vector<bool> banned(k);
        for (std::uint32_t v = 0; v < n; ++v) {
            if (fixed[v] != kNone) continue;
            std::fill(banned.begin(), banned.end(), false);
            for (std::uint32_t w : h.neighbours(v))
                if (fixed[w] != kNone) banned[fixed[w]] = true;
            const std::uint32_t top = std::min<std::uint32_t>(k - 1, std::uint32_t(q.size()) + r);
            ++r;
            col[v].assign(k, 0);
            for (std::uint32_t i = 0; i <= top; ++i)
                if (!banned[i]) {
                    dom[v].push_back(i);
                    col[v][i] = ++ncols;
                }
            if (dom[v].empty()) return {}; // no configuration left: infeasible
        }
    }
    std::vector<std::uint32_t> out(n, kNone);
    for (std::uint32_t v = 0; v < n; ++v)
        if (fixed[v] != kNone) out[v] = fixed[v];
    if (ncols == 0) return out;

    glp_term_out(GLP_OFF);
    GlpProb prob;
    glp_prob* P = prob.p;
    glp_set_obj_dir(P, GLP_MIN);
    glp_add_cols(P, ncols);
    for (int c = 1; c <= ncols; ++c) glp_set_col_kind(P, c, GLP_BV);
    std::vector<int> ia{0}, ja{0};
    std::vector<double> ar{0};
    int rows = 0;
    auto row = [&](const std::vector<int>& cols, int type) {
        glp_add_rows(P, 1);
        ++rows;
        glp_set_row_bnds(P, rows, type, 1.0, 1.0);
        for (int c : cols) {
            ia.push_back(rows);
            ja.push_back(c);
            ar.push_back(1.0);
        }
    };
    std::vector<int> cols;
    for (std::uint32_t v = 0; v < n; ++v) {
        if (fixed[v] != kNone) continue;
        cols.clear();
        for (std::uint32_t i : dom[v]) cols.push_back(col[v][i]);
        row(cols, GLP_FX);
    }
    std::vector<bool> free_v(n);
    for (std::uint32_t v = 0; v < n; ++v) free_v[v] = fixed[v] == kNone;
    for (const auto& c : clique_cover(h, free_v))
        for (std::uint32_t i = 0; i < k; ++i) {
            cols.clear();
            for (std::uint32_t v : c)
                if (col[v][i]) cols.push_back(col[v][i]);
            if (cols.size() >= 2) row(cols, GLP_UP);
        }
    glp_load_matrix(P, int(ia.size()) - 1, ia.data(), ja.data(), ar.data());

    glp_iocp parm;
    glp_init_iocp(&parm);
    parm.presolve = GLP_ON;
    parm.msg_lev = GLP_MSG_OFF;
    // GLPK's clique cuts (clq_cuts) measured no better with the clique rows already in the
    // model, and slower where few ILPs remain (docs/lidassign.md): left off.
    parm.tm_lim = static_cast<int>(std::clamp(time_limit_s * 1000.0, 1.0, 2e9));
    // Branching on the last fractional column (configurations of later paths first) cut the
    // total solve time of the study's remaining ILPs by ~40% against GLPK's default
    // (docs/lidassign.md).
    parm.br_tech = GLP_BR_LFV;
    const int rc = glp_intopt(P, &parm);
    const int st = glp_mip_status(P);
    if ((rc == 0 || rc == GLP_ETMLIM) && (st == GLP_OPT || st == GLP_FEAS)) {
        for (std::uint32_t v = 0; v < n; ++v)
            for (std::uint32_t i : dom[v])
                if (glp_mip_col_val(P, col[v][i]) > 0.5) out[v] = i;
        return out;
    }
    if (rc == GLP_ETMLIM || rc == GLP_EITLIM || rc == GLP_EFAIL) timed_out = true;
    // GLP_ENOPFS (presolver: no primal feasible) or GLP_NOFEAS: infeasible.
    return {};
}

// SD(k) on one connected component h.
enum class Verdict { Feasible, Infeasible, TimedOut };
Verdict solve_component(const SplitGraph& h, std::uint32_t k, Clock::time_point deadline,
                        std::vector<std::uint32_t>& colour, std::uint32_t& ilps) {
    Assignment a = dsatur(h);
    if (a.k <= k) {
        colour = std::move(a.config);
        return Verdict::Feasible;
    }
    const std::vector<std::uint32_t> q = max_clique(h).clique;
    if (q.size() > k) return Verdict::Infeasible; // a clique of k+1 paths
    const double left = seconds_left(deadline);
    if (left <= 0) return Verdict::TimedOut;
    bool timed_out = false;
    ++ilps;
    colour = solve_ilp(h, k, q, left, timed_out);
    if (!colour.empty()) return Verdict::Feasible;
    return timed_out ? Verdict::TimedOut : Verdict::Infeasible;
}

} // namespace

std::string_view to_string(ExactStatus s) {
    switch (s) {
    case ExactStatus::Optimal:
        return "optimal";
    case ExactStatus::Feasible:
        return "feasible";
    case ExactStatus::TimedOut:
        return "timed-out";
    }
    return "?";
}

std::vector<std::uint32_t> greedy_clique(const SplitGraph& g) {
    const auto n = static_cast<std::uint32_t>(g.num_vertices());
    std::vector<std::uint32_t> q;
    if (n == 0) return q;
    std::uint32_t best = 0;
    for (std::uint32_t v = 1; v < n; ++v)
        if (g.degree(v) > g.degree(best)) best = v;
    q.push_back(best);
    std::vector<std::uint32_t> cand(g.neighbours(best).begin(), g.neighbours(best).end());
    while (!cand.empty()) {
        std::uint32_t pick = cand[0];
        for (std::uint32_t v : cand)
            if (g.degree(v) > g.degree(pick)) pick = v;
        q.push_back(pick);
        std::vector<std::uint32_t> next;
        const auto nb = g.neighbours(pick);
        std::set_intersection(cand.begin(), cand.end(), nb.begin(), nb.end(),
                              std::back_inserter(next));
        cand.swap(next);
    }
    return q;
}

CliqueResult max_clique(const SplitGraph& g, std::uint64_t node_limit) {
    const auto n = static_cast<std::uint32_t>(g.num_vertices());
    CliqueResult r{greedy_clique(g), true};
    if (n == 0) return r;
    // Search in degree-descending order (MCQ): the colouring bound then packs the dense part
    // first, and bit i of a set is order[i].
    std::vector<std::uint32_t> order(n), pos(n);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return g.degree(a) > g.degree(b); });
    for (std::uint32_t i = 0; i < n; ++i) pos[order[i]] = i;
    const std::size_t words = (n + 63) / 64;
    using Set = std::vector<std::uint64_t>;
    std::vector<std::uint64_t> adj(std::size_t(n) * words, 0);
    for (std::uint32_t v = 0; v < n; ++v)
        for (std::uint32_t w : g.neighbours(v)) {
            const std::uint32_t a = pos[v], b = pos[w];
            adj[a * words + b / 64] |= std::uint64_t(1) << (b % 64);
        }
    std::vector<std::uint32_t> cur;
    std::uint64_t nodes = 0;
    bool stopped = false;
    std::function<void(Set&)> expand = [&](Set& p) {
        if (stopped) return;
        if (++nodes > node_limit) {
            stopped = true;
            return;
        }
        // Greedy colouring of the candidates: vertex verts[i] gets colour cls[i], and no
        // clique inside verts[0..i] can exceed cls[i] vertices.
        std::vector<std::uint32_t> verts, cls;
        Set u = p, c(words);
        for (std::uint32_t colour = 1;; ++colour) {
            bool any = false;
            c = u;
            for (std::size_t wi = 0; wi < words; ++wi)
                while (c[wi]) {
                    any = true;
                    const auto v = std::uint32_t(wi * 64 + std::size_t(std::countr_zero(c[wi])));
                    c[wi] &= c[wi] - 1;
                    u[wi] &= ~(std::uint64_t(1) << (v % 64));
                    for (std::size_t x = wi; x < words; ++x) c[x] &= ~adj[v * words + x];
                    verts.push_back(v);
                    cls.push_back(colour);
                }
            if (!any) break;
        }
        Set np(words);
        for (std::size_t i = verts.size(); i-- > 0;) {
            if (cur.size() + cls[i] <= r.clique.size()) return;
            const std::uint32_t v = verts[i];
            cur.push_back(v);
            bool empty = true;
            for (std::size_t x = 0; x < words; ++x) {
                np[x] = p[x] & adj[v * words + x];
                empty &= np[x] == 0;
            }
            if (empty) {
                if (cur.size() > r.clique.size()) {
                    r.clique.clear();
                    for (std::uint32_t w : cur) r.clique.push_back(order[w]);
                }
            } else {
                Set sub = np;
                expand(sub);
            }
            cur.pop_back();
            p[v / 64] &= ~(std::uint64_t(1) << (v % 64));
            if (stopped) return;
        }
    };
    Set all(words, 0);
    for (std::uint32_t v = 0; v < n; ++v) all[v / 64] |= std::uint64_t(1) << (v % 64);
    expand(all);
    r.proven = !stopped;
    return r;
}

Assignment dsatur(const SplitGraph& g) {
    const auto n = static_cast<std::uint32_t>(g.num_vertices());
    Assignment a;
    a.config.assign(n, kNone);
    std::uint32_t maxdeg = 0;
    for (std::uint32_t v = 0; v < n; ++v) maxdeg = std::max(maxdeg, g.degree(v));
    const std::size_t width = maxdeg + 1; // colours used never exceed max degree + 1
    std::vector<bool> seen(std::size_t(n) * width, false);
    std::vector<std::uint32_t> sat(n, 0), udeg(n);
    for (std::uint32_t v = 0; v < n; ++v) udeg[v] = g.degree(v);
    for (std::uint32_t step = 0; step < n; ++step) {
        std::uint32_t v = kNone;
        for (std::uint32_t w = 0; w < n; ++w) {
            if (a.config[w] != kNone) continue;
            if (v == kNone || sat[w] > sat[v] || (sat[w] == sat[v] && udeg[w] > udeg[v])) v = w;
        }
        std::uint32_t c = 0;
        while (seen[std::size_t(v) * width + c]) ++c;
        a.config[v] = c;
        a.k = std::max(a.k, c + 1);
        for (std::uint32_t w : g.neighbours(v)) {
            --udeg[w];
            const std::size_t i = std::size_t(w) * width + c;
            if (!seen[i]) {
                seen[i] = true;
                ++sat[w];
            }
        }
    }
    return a;
}

SplitGraph induced_subgraph(const SplitGraph& g, const std::vector<std::uint32_t>& vertices) {
    std::vector<std::uint32_t> local(g.num_vertices(), kNone);
    for (std::uint32_t i = 0; i < vertices.size(); ++i) local[vertices[i]] = i;
    SplitGraph h;
    h.offset.reserve(vertices.size() + 1);
    for (std::uint32_t v : vertices) {
        for (std::uint32_t w : g.neighbours(v))
            if (local[w] != kNone) h.adj.push_back(local[w]); // ascending: vertices is
        h.offset.push_back(static_cast<std::uint32_t>(h.adj.size()));
    }
    return h;
}

DecisionResult solve_decision(const SplitGraph& g, std::uint32_t k, double time_limit_s) {
    const auto deadline =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(std::max(0.0, time_limit_s)));
    DecisionResult out;
    const auto n = static_cast<std::uint32_t>(g.num_vertices());
    if (n == 0) {
        out.feasible = true;
        return out;
    }
    if (k == 0) return out;

    // Reduction 1: peel vertices of degree < k, in `peeled` order.
    std::vector<std::uint32_t> deg(n), peeled;
    std::vector<bool> gone(n, false);
    for (std::uint32_t v = 0; v < n; ++v) {
        deg[v] = g.degree(v);
        if (deg[v] < k) {
            gone[v] = true;
            peeled.push_back(v);
        }
    }
    for (std::size_t i = 0; i < peeled.size(); ++i)
        for (std::uint32_t w : g.neighbours(peeled[i]))
            if (!gone[w] && --deg[w] < k) {
                gone[w] = true;
                peeled.push_back(w);
            }
    out.core_vertices = n - std::uint32_t(peeled.size());

    // Reduction 2: connected components of the core, smallest first.
    std::vector<std::vector<std::uint32_t>> comps;
    {
        std::vector<bool> seen(gone);
        for (std::uint32_t s = 0; s < n; ++s) {
            if (seen[s]) continue;
            std::vector<std::uint32_t> c{s};
            seen[s] = true;
            for (std::size_t i = 0; i < c.size(); ++i)
                for (std::uint32_t w : g.neighbours(c[i]))
                    if (!seen[w]) {
                        seen[w] = true;
                        c.push_back(w);
                    }
            std::sort(c.begin(), c.end());
            comps.push_back(std::move(c));
        }
        std::stable_sort(comps.begin(), comps.end(),
                         [](const auto& a, const auto& b) { return a.size() < b.size(); });
    }

    std::vector<std::uint32_t> config(n, kNone), colour;
    for (const auto& c : comps) {
        const SplitGraph h = induced_subgraph(g, c);
        const Verdict v = solve_component(h, k, deadline, colour, out.ilps);
        if (v == Verdict::TimedOut) out.timed_out = true;
        if (v != Verdict::Feasible) return out;
        for (std::size_t i = 0; i < c.size(); ++i) config[c[i]] = colour[i];
    }
    // Reduction 1, backwards: each peeled path has < k coloured neighbours here.
    std::vector<bool> taken(k);
    for (std::size_t i = peeled.size(); i-- > 0;) {
        const std::uint32_t v = peeled[i];
        std::fill(taken.begin(), taken.end(), false);
        for (std::uint32_t w : g.neighbours(v))
            if (config[w] != kNone) taken[config[w]] = true;
        config[v] = std::uint32_t(std::find(taken.begin(), taken.end(), false) - taken.begin());
    }
    // Renumber the configurations used densely, in order of first use.
    out.feasible = true;
    out.assignment.config.assign(n, 0);
    std::vector<std::uint32_t> renum(k, kNone);
    for (std::uint32_t v = 0; v < n; ++v) {
        if (renum[config[v]] == kNone) renum[config[v]] = out.assignment.k++;
        out.assignment.config[v] = renum[config[v]];
    }
    return out;
}

ExactResult solve_exact(const SplitGraph& g, double time_limit_s) {
    const auto start = Clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
    ExactResult r;
    r.best = color(g, true);
    const std::uint32_t color_l = r.best.k;
    if (Assignment d = dsatur(g); d.k < r.best.k) r.best = std::move(d);
    r.lower_bound = static_cast<std::uint32_t>(max_clique(g).clique.size());
    auto unproven = [&] {
        return r.best.k < color_l ? ExactStatus::Feasible : ExactStatus::TimedOut;
    };
    for (;;) {
        if (r.best.k <= r.lower_bound) { // SD(lower_bound - 1) is infeasible by the clique
            r.lower_bound = r.best.k;
            r.status = ExactStatus::Optimal;
            break;
        }
        const double left = time_limit_s - elapsed();
        if (left <= 0) {
            r.status = unproven();
            break;
        }
        DecisionResult d = solve_decision(g, r.best.k - 1, left);
        r.ilps_solved += d.ilps;
        if (d.feasible) {
            r.best = std::move(d.assignment);
            continue;
        }
        if (d.timed_out) {
            r.status = unproven();
            break;
        }
        r.status = ExactStatus::Optimal;
        r.lower_bound = r.best.k;
        break;
    }
    r.seconds = elapsed();
    return r;
}

} // namespace ibrt::lidassign
