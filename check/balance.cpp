// Link loads of a traffic pattern; see balance.hpp.
#include "check/balance.hpp"

#include "check/endpoints.hpp"
#include "check/forwarding.hpp"
#include "graph/fabric_walks.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace ibrt::check {

BalanceReport check_balance(const Fabric& f, const Routing& r, const TrafficPattern& p, DlidUse use,
                            const std::function<void(double)>& progress) {
    constexpr std::uint32_t kNone = Endpoints::kNone;
    BalanceReport rep;
    rep.pattern = p.name();
    rep.load.assign(f.num_port_slots(), 0.0);
    const Endpoints ep = collect_endpoints(f, r.lids);
    const auto n_ep = static_cast<std::uint32_t>(ep.ports.size());
    const std::size_t num_sw = ep.source_switches.size();
    std::vector<std::uint32_t> sw_index(f.num_nodes(), kNone);
    for (std::uint32_t k = 0; k < num_sw; ++k) sw_index[ep.source_switches[k]] = k;

    const std::size_t num_cas = f.cas().size();
    const bool spread = use == DlidUse::Spread;
    const bool selection =
        !spread && !r.dlid_choice.empty() && r.dlid_choice.size() == num_cas * num_cas;
    const unsigned spread_over_max = spread ? ~0u : 1u; // LIDs a unit without selection uses
    const bool all = p.kind == TrafficPattern::Kind::AllToAll;
    std::vector<std::uint32_t> source_of; // permutations: the one source of each destination
    if (!all) {
        source_of.assign(n_ep, kNone);
        const auto to = permutation_targets(p, n_ep);
        for (std::uint32_t i = 0; i < n_ep; ++i)
            if (to[i] != i) source_of[to[i]] = i;
    }

    // Destinations go in blocks so that path selection, stored by source row, is read row by
    // row (a column walk misses the cache on every entry of an N x N table).
    unsigned max_nl = 1;
    for (std::uint32_t j = 0; j < n_ep; ++j)
        max_nl = std::max(max_nl, 1u << r.lids.lmc(ep.ports[j]));
    const std::size_t per_dst = std::size_t(max_nl) * std::max<std::size_t>(num_sw, 1);
    const std::uint32_t block = static_cast<std::uint32_t>(
        std::clamp<std::size_t>((std::size_t(1) << 22) / per_dst, 1, 4096));
    std::vector<double> inj;              // [(dst in block * max_nl + lid offset) * num_sw + sw]
    std::vector<std::uint64_t> lid_users; // [dst in block * max_nl + lid offset]
    std::vector<PortId> path;
    const ForwardingView view(f, r);
    std::uint64_t lids_seen = 0, users_total = 0;
    rep.lid_usage.min_sources_per_lid = ~std::uint64_t(0);
    const std::size_t hop_limit = f.switches().size() + 1;

    for (std::uint32_t j0 = 0; j0 < n_ep; j0 += block) {
        if (progress) progress(double(j0) / n_ep);
        const std::uint32_t j1 = std::min(n_ep, j0 + block);
        inj.assign(std::size_t(j1 - j0) * per_dst, 0.0);
        lid_users.assign(std::size_t(j1 - j0) * max_nl, 0);

        auto add_flow = [&](std::uint32_t i, std::uint32_t j) {
            ++rep.flows;
            const PortId dst = ep.ports[j];
            const Lid base = r.lids.base(dst);
            const unsigned nl = 1u << r.lids.lmc(dst);
            const NodeId s = ep.switch_of[i];
            const std::size_t si = s == kNoNode ? kNone : sw_index[s];
            double* in = &inj[std::size_t(j - j0) * per_dst];
            std::uint64_t* users = &lid_users[std::size_t(j - j0) * max_nl];
            if (selection) {
                const Lid d = r.dlid_choice[std::size_t(ep.ca_index[i]) * num_cas + ep.ca_index[j]];
                if (d >= base && unsigned(d - base) < nl) {
                    if (si != kNone) in[std::size_t(d - base) * num_sw + si] += 1.0;
                    ++users[d - base];
                    return;
                }
                ++rep.selection_fallbacks;
            }
            const unsigned over = std::min(nl, spread_over_max);
            for (unsigned k = 0; k < over; ++k) {
                if (si != kNone) in[k * num_sw + si] += 1.0 / over;
                ++users[k];
            }
        };

        if (all && !selection) { // every other endpoint, folded per switch
            for (std::uint32_t j = j0; j < j1; ++j) {
                const unsigned over = std::min(1u << r.lids.lmc(ep.ports[j]), spread_over_max);
                const NodeId own = ep.switch_of[j];
                double* in = &inj[std::size_t(j - j0) * per_dst];
                for (std::size_t si = 0; si < num_sw; ++si) {
                    const NodeId s = ep.source_switches[si];
                    const double c = ep.count_at[s] - (own == s ? 1.0 : 0.0);
                    for (unsigned k = 0; k < over; ++k) in[k * num_sw + si] = c / over;
                }
                rep.flows += n_ep - 1;
                for (unsigned k = 0; k < over; ++k)
                    lid_users[std::size_t(j - j0) * max_nl + k] = n_ep - 1;
            }
        } else if (all) {
            for (std::uint32_t i = 0; i < n_ep; ++i)
                for (std::uint32_t j = j0; j < j1; ++j)
                    if (i != j) add_flow(i, j);
        } else {
            for (std::uint32_t j = j0; j < j1; ++j)
                if (source_of[j] != kNone) add_flow(source_of[j], j);
        }

        for (std::uint32_t j = j0; j < j1; ++j) {
            const PortId dst = ep.ports[j];
            const Lid base = r.lids.base(dst);
            const unsigned nl = 1u << r.lids.lmc(dst);
            const double* in = &inj[std::size_t(j - j0) * per_dst];
            for (unsigned k = 0; k < nl; ++k) {
                const Lid d = static_cast<Lid>(base + k);
                for (std::size_t si = 0; si < num_sw; ++si) {
                    const double w = in[k * num_sw + si];
                    if (w == 0) continue;
                    // Walk, and load the links only if the walk arrives (a hop limit bounds loops).
                    path.clear();
                    NodeId n = ep.source_switches[si];
                    bool reached = false;
                    for (std::size_t h = 0; h < hop_limit; ++h) {
                        const Step st = view.step(n, d, dst);
                        if (st.ends) {
                            reached = st.outcome == WalkOutcome::Reached;
                            if (reached && st.out_port != 0)
                                path.push_back(view.port_id(n, st.out_port));
                            break;
                        }
                        path.push_back(view.port_id(n, st.out_port));
                        n = st.next;
                    }
                    if (!reached) {
                        rep.unrouted += w;
                        continue;
                    }
                    for (PortId q : path) rep.load[q] += w;
                }
            }
            const std::uint64_t* users = &lid_users[std::size_t(j - j0) * max_nl];
            std::uint64_t used = 0;
            for (unsigned k = 0; k < nl; ++k) {
                used += users[k] > 0;
                users_total += users[k];
                rep.lid_usage.min_sources_per_lid =
                    std::min(rep.lid_usage.min_sources_per_lid, users[k]);
                rep.lid_usage.max_sources_per_lid =
                    std::max(rep.lid_usage.max_sources_per_lid, users[k]);
            }
            lids_seen += nl;
            if (rep.lid_usage.by_lids_used.size() <= used)
                rep.lid_usage.by_lids_used.resize(used + 1);
            ++rep.lid_usage.by_lids_used[used];
            ++rep.lid_usage.destinations;
        }
    }
    if (lids_seen == 0)
        rep.lid_usage.min_sources_per_lid = 0;
    else
        rep.lid_usage.mean_sources_per_lid = double(users_total) / double(lids_seen);

    // Statistics over directed switch-to-switch links, overall and per level pair.
    const std::vector<std::uint32_t> level = levels_from_cas(f);
    std::vector<double> all_links;
    std::map<std::pair<int, int>, std::vector<double>> by_level;
    std::vector<LinkLoad> links;
    for (NodeId n : f.switches()) {
        for (PortNum q = 1; q <= f.node(n).num_ports; ++q) {
            const PortId id = f.port_id(n, q);
            if (!graph::is_switch_link(f, id)) continue;
            const Port& port = f.port(id);
            all_links.push_back(rep.load[id]);
            by_level[{int(level[n]), int(level[port.peer_node])}].push_back(rep.load[id]);
            if (rep.load[id] > 0) links.push_back({id, rep.load[id]});
        }
    }
    rep.links = graph::load_stats(all_links);
    for (const auto& [key, v] : by_level)
        rep.levels.push_back({key.first, key.second, graph::load_stats(v)});
    const std::size_t top = std::min<std::size_t>(5, links.size());
    std::partial_sort(links.begin(), links.begin() + top, links.end(),
                      [](const LinkLoad& a, const LinkLoad& b) {
                          return a.load != b.load ? a.load > b.load : a.port < b.port;
                      });
    rep.hottest.assign(links.begin(), links.begin() + top);
    if (progress) progress(1.0);
    return rep;
}

} // namespace ibrt::check
