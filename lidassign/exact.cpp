// Paper 001 §IV: the 0-1 ILP of SD(G, d, R_d, k), solved with GLPK (glp_intopt), and the
// k-1, k-2, ... search of §VI.B. Symmetry breaking as documented in exact.hpp.
#include "lidassign/exact.hpp"

#include <glpk.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

namespace ibrt::lidassign {

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

namespace {

struct GlpProb {
    glp_prob* p = glp_create_prob();
    ~GlpProb() { glp_delete_prob(p); }
    GlpProb() = default;
    GlpProb(const GlpProb&) = delete;
    GlpProb& operator=(const GlpProb&) = delete;
};

} // namespace

DecisionResult solve_decision(const SplitGraph& g, std::uint32_t k, double time_limit_s) {
    DecisionResult out;
    const auto n = static_cast<std::uint32_t>(g.num_vertices());
    if (n == 0) {
        out.feasible = true;
        return out;
    }
    if (k == 0) return out;
    const std::vector<std::uint32_t> clique = greedy_clique(g);
    if (clique.size() > k) return out; // a clique of k+1 paths needs k+1 configurations
    // Highest configuration each path may use (symmetry breaking, exact.hpp).
    std::vector<std::int64_t> fixed(n, -1);
    for (std::size_t j = 0; j < clique.size(); ++j) fixed[clique[j]] = static_cast<int>(j);
    std::vector<std::uint32_t> max_cfg(n, k - 1);
    {
        std::uint32_t r = 0;
        for (std::uint32_t v = 0; v < n; ++v)
            if (fixed[v] < 0) {
                max_cfg[v] = std::min<std::uint32_t>(k - 1, std::uint32_t(clique.size()) + r);
                ++r;
            }
    }

    glp_term_out(GLP_OFF);
    GlpProb prob;
    glp_prob* P = prob.p;
    glp_set_obj_dir(P, GLP_MIN);
    // Columns: X[v][i] for i <= max_cfg[v]; col index base per vertex.
    std::vector<int> col0(n + 1, 1);
    for (std::uint32_t v = 0; v < n; ++v) col0[v + 1] = col0[v] + int(max_cfg[v]) + 1;
    const int ncols = col0[n] - 1;
    glp_add_cols(P, ncols);
    for (std::uint32_t v = 0; v < n; ++v)
        for (std::uint32_t i = 0; i <= max_cfg[v]; ++i) {
            const int c = col0[v] + int(i);
            glp_set_col_kind(P, c, GLP_BV);
            if (fixed[v] >= 0) glp_set_col_bnds(P, c, GLP_FX, i == fixed[v] ? 1.0 : 0.0, 0);
        }
    std::vector<int> ia{0}, ja{0};
    std::vector<double> ar{0};
    int row = 0;
    auto add_row = [&](std::initializer_list<int> cols, int type, double bound) {
        ++row;
        glp_add_rows(P, 1);
        glp_set_row_bnds(P, row, type, bound, bound);
        for (int c : cols) {
            ia.push_back(row);
            ja.push_back(c);
            ar.push_back(1.0);
        }
    };
    for (std::uint32_t v = 0; v < n; ++v) {
        ++row;
        glp_add_rows(P, 1);
        glp_set_row_bnds(P, row, GLP_FX, 1.0, 1.0);
        for (std::uint32_t i = 0; i <= max_cfg[v]; ++i) {
            ia.push_back(row);
            ja.push_back(col0[v] + int(i));
            ar.push_back(1.0);
        }
    }
    for (std::uint32_t v = 0; v < n; ++v)
        for (std::uint32_t w : g.neighbours(v)) {
            if (w <= v) continue;
            const std::uint32_t top = std::min(max_cfg[v], max_cfg[w]);
            for (std::uint32_t i = 0; i <= top; ++i)
                add_row({col0[v] + int(i), col0[w] + int(i)}, GLP_UP, 1.0);
        }
    glp_load_matrix(P, int(ia.size()) - 1, ia.data(), ja.data(), ar.data());

    glp_iocp parm;
    glp_init_iocp(&parm);
    parm.presolve = GLP_ON;
    parm.msg_lev = GLP_MSG_OFF;
    parm.tm_lim = static_cast<int>(std::clamp(time_limit_s * 1000.0, 1.0, 2e9));
    const int rc = glp_intopt(P, &parm);
    const int st = glp_mip_status(P);
    if ((rc == 0 || rc == GLP_ETMLIM) && (st == GLP_OPT || st == GLP_FEAS)) {
        out.feasible = true;
        // Renumber the configurations used densely, in order of first use.
        out.assignment.config.assign(n, 0);
        std::vector<std::uint32_t> renum(k, 0xffffffffu);
        for (std::uint32_t v = 0; v < n; ++v)
            for (std::uint32_t i = 0; i <= max_cfg[v]; ++i)
                if (glp_mip_col_val(P, col0[v] + int(i)) > 0.5) {
                    if (renum[i] == 0xffffffffu) renum[i] = out.assignment.k++;
                    out.assignment.config[v] = renum[i];
                }
        return out;
    }
    if (rc == GLP_ETMLIM || rc == GLP_EITLIM || rc == GLP_EFAIL) out.timed_out = true;
    // GLP_ENOPFS (presolver: no primal feasible) or GLP_NOFEAS: infeasible.
    return out;
}

ExactResult solve_exact(const SplitGraph& g, double time_limit_s) {
    const auto start = std::chrono::steady_clock::now();
    auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    ExactResult r;
    r.best = color(g, true);
    r.lower_bound = static_cast<std::uint32_t>(greedy_clique(g).size());
    if (r.best.k <= r.lower_bound) {
        r.lower_bound = r.best.k;
        r.status = ExactStatus::Optimal;
        r.seconds = elapsed();
        return r;
    }
    bool improved = false;
    for (;;) {
        const std::uint32_t k = r.best.k - 1;
        if (k < r.lower_bound) { // SD(lower_bound - 1) is infeasible by the clique
            r.status = ExactStatus::Optimal;
            r.lower_bound = r.best.k;
            break;
        }
        const double left = time_limit_s - elapsed();
        if (left <= 0) {
            r.status = improved ? ExactStatus::Feasible : ExactStatus::TimedOut;
            break;
        }
        DecisionResult d = solve_decision(g, k, left);
        ++r.ilps_solved;
        if (d.feasible) {
            r.best = std::move(d.assignment);
            improved = true;
            continue;
        }
        if (d.timed_out) {
            r.status = improved ? ExactStatus::Feasible : ExactStatus::TimedOut;
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
